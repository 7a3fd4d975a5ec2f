/* coalesce-lint built-in CUDA headers: used only when no CUDA toolkit is found (or with
 * --builtin-cuda). They declare what kernels and ordinary host code use so that a file
 * parses for the device-side analysis; nothing here is ever compiled to code.
 *
 * The analysis runs with -nocudainc, so Clang does not force-include its
 * __clang_cuda_runtime_wrapper.h (which needs the real toolkit). Instead the frontend
 * force-includes this file, as nvcc force-includes the real cuda_runtime.h, and this file
 * reuses the device-function headers Clang ships in its resource directory
 * (__clang_cuda_*.h), so device intrinsics and math match the wrapper's exactly.
 *
 * Layouts follow CUDA's vector_types.h: the analysis reads sizes and alignments from them
 * (a float4 access is 16 bytes, a float2 8), so they must not drift from the real ones. */
#ifndef COALESCE_BUILTIN_CUDA_RUNTIME_H
#define COALESCE_BUILTIN_CUDA_RUNTIME_H
#pragma clang system_header

#if !defined(__CUDA__) || !defined(__clang__)
#error "coalesce-lint's built-in CUDA headers are for Clang's CUDA mode only"
#endif

/* The API level these headers imitate. 12.8: before CUDA 13 removed the cudaThread* calls
 * and cudaDeviceProp fields, so old code parses here without the prelude's help. */
#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif
#define CUDART_VERSION CUDA_VERSION
#define __CUDART_API_VERSION CUDA_VERSION
#define COALESCE_BUILTIN_CUDA 1
/* The include guards of the real headers: user code tests them (the samples' helper_cuda.h
 * defines checkCudaErrors only #ifdef __CUDA_RUNTIME_H__). */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __HOST_DEFINES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include <__clang_cuda_math_forward_declares.h>
/* Standard headers first, while __CUDACC__ is set (libstdc++ avoids __float128 then),
 * as the wrapper does. */
#define __CUDACC__
#include <cmath>
#include <cstdlib>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <limits.h>

/* ---- execution spaces and attributes (host_defines.h) ---------------------------------- */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(a) __align__(a)
#define __thread__ __thread
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDART_CB
#define __dv(v) = v
/* Attributes Clang 19 does not know: the real headers spell them as attributes Clang
 * ignores with a warning; here they are simply empty. */
#define __grid_constant__
#define __inline_hint__
#define __nv_pure__
#define __maxnreg__(n)
#define __local_maxnreg__(n)
#define __cluster_dims__(...)
#define __no_cluster__

#include <__clang_cuda_builtin_vars.h>

/* ---- vector types (vector_types.h) ------------------------------------------------------ */
#define COALESCE_VEC1(T, N) struct N##1 { T x; };
#define COALESCE_VEC2(T, N, A) struct __align__(A) N##2 { T x, y; };
#define COALESCE_VEC3(T, N) struct N##3 { T x, y, z; };
#define COALESCE_VEC4(T, N, A) struct __align__(A) N##4 { T x, y, z, w; };
#define COALESCE_VECS(T, N, A2, A4) \
  COALESCE_VEC1(T, N) COALESCE_VEC2(T, N, A2) COALESCE_VEC3(T, N) COALESCE_VEC4(T, N, A4)
COALESCE_VECS(signed char, char, 2, 4)
COALESCE_VECS(unsigned char, uchar, 2, 4)
COALESCE_VECS(short, short, 4, 8)
COALESCE_VECS(unsigned short, ushort, 4, 8)
COALESCE_VECS(int, int, 8, 16)
COALESCE_VECS(unsigned int, uint, 8, 16)
COALESCE_VECS(long, long, 2 * sizeof(long), 16)
COALESCE_VECS(unsigned long, ulong, 2 * sizeof(unsigned long), 16)
COALESCE_VECS(float, float, 8, 16)
COALESCE_VECS(long long, longlong, 16, 16)
COALESCE_VECS(unsigned long long, ulonglong, 16, 16)
COALESCE_VECS(double, double, 16, 16)
#undef COALESCE_VECS
#undef COALESCE_VEC1
#undef COALESCE_VEC2
#undef COALESCE_VEC3
#undef COALESCE_VEC4

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

/* make_<type>N(...) for every vector type (vector_functions.h). */
#define COALESCE_MAKE1(T, N) \
  static __host__ __device__ __inline__ N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }
#define COALESCE_MAKE2(T, N) \
  static __host__ __device__ __inline__ N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; }
#define COALESCE_MAKE3(T, N)                                             \
  static __host__ __device__ __inline__ N##3 make_##N##3(T x, T y, T z) { \
    N##3 r; r.x = x; r.y = y; r.z = z; return r;                         \
  }
#define COALESCE_MAKE4(T, N)                                                  \
  static __host__ __device__ __inline__ N##4 make_##N##4(T x, T y, T z, T w) { \
    N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;                     \
  }
#define COALESCE_MAKES(T, N) COALESCE_MAKE1(T, N) COALESCE_MAKE2(T, N) COALESCE_MAKE3(T, N) COALESCE_MAKE4(T, N)
COALESCE_MAKES(signed char, char)
COALESCE_MAKES(unsigned char, uchar)
COALESCE_MAKES(short, short)
COALESCE_MAKES(unsigned short, ushort)
COALESCE_MAKES(int, int)
COALESCE_MAKES(unsigned int, uint)
COALESCE_MAKES(long, long)
COALESCE_MAKES(unsigned long, ulong)
COALESCE_MAKES(float, float)
COALESCE_MAKES(long long, longlong)
COALESCE_MAKES(unsigned long long, ulonglong)
COALESCE_MAKES(double, double)
#undef COALESCE_MAKES
#undef COALESCE_MAKE1
#undef COALESCE_MAKE2
#undef COALESCE_MAKE3
#undef COALESCE_MAKE4

/* ---- runtime types (driver_types.h) ----------------------------------------------------- */
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterMapped 0x02
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
typedef struct cudaArray* cudaArray_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

struct cudaPitchedPtr { void* ptr; size_t pitch; size_t xsize; size_t ysize; };
struct cudaExtent { size_t width; size_t height; size_t depth; };
struct cudaPos { size_t x; size_t y; size_t z; };
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
                              cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { void* devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void* devPtr; struct cudaChannelFormatDesc desc; size_t width; size_t height; size_t pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray; struct cudaPos srcPos; struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray; struct cudaPos dstPos; struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent; enum cudaMemcpyKind kind;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
  int maxDynamicSharedSizeBytes, preferredShmemCarveout;
};
struct cudaPointerAttributes { int type; int device; void* devicePointer; void* hostPointer; };
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation { enum cudaMemLocationType type; int id; };

/* The fields CUDA 12 had: old code still reads clockRate, memoryClockRate, computeMode. */
struct cudaDeviceProp {
  char name[256];
  char uuid[16];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture3D[3];
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  size_t reservedSharedMemPerBlock;
  int clusterLaunch;
};

/* ---- runtime API (cuda_runtime_api.h), host side ----------------------------------------- */
extern "C" {
__host__ __device__ const char* cudaGetErrorString(cudaError_t error);
__host__ __device__ const char* cudaGetErrorName(cudaError_t error);
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
__host__ __device__ cudaError_t cudaGetDevice(int* device);
__host__ __device__ cudaError_t cudaGetDeviceCount(int* count);
__host__ __device__ cudaError_t cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device);
__host__ __device__ cudaError_t cudaMalloc(void** devPtr, size_t size);
__host__ __device__ cudaError_t cudaFree(void* devPtr);
__host__ __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ __device__ cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                                enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream = 0);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
__host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaDeviceGetLimit(size_t* pValue, enum cudaLimit limit);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__host__ cudaError_t cudaDriverGetVersion(int* driverVersion);
__host__ cudaError_t cudaRuntimeGetVersion(int* runtimeVersion);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaThreadExit(void);
__host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaThreadGetLimit(size_t* pValue, enum cudaLimit limit);
__host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache* pCacheConfig);
__host__ cudaError_t cudaMallocHost(void** ptr, size_t size);
__host__ cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags);
__host__ cudaError_t cudaFreeHost(void* ptr);
__host__ cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaHostUnregister(void* ptr);
__host__ cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags);
__host__ cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height);
__host__ cudaError_t cudaMalloc3D(struct cudaPitchedPtr* pitchedDevPtr, struct cudaExtent extent);
__host__ cudaError_t cudaMemGetInfo(size_t* free, size_t* total);
__host__ cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                  size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                       size_t height, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count);
__host__ cudaError_t cudaMemset(void* devPtr, int value, size_t count);
__host__ cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height);
__host__ cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void* devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
__host__ cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset = 0,
                                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol);
__host__ cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr);
__host__ cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice);
__host__ cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
__host__ cudaError_t cudaStreamCreate(cudaStream_t* pStream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
__host__ cudaError_t cudaEventCreate(cudaEvent_t* event);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func);
__host__ cudaError_t cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr, int value);
__host__ cudaError_t cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                      size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                 size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func,
                                                                   int blockSize, size_t dynamicSMemSize);
__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);
__host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                            enum cudaChannelFormatKind f);
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const struct cudaResourceDesc* pResDesc,
                                             const struct cudaTextureDesc* pTexDesc, const void* pResViewDesc);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
__host__ cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const struct cudaResourceDesc* pResDesc);
__host__ cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
__host__ cudaError_t cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, size_t width,
                                     size_t height = 0, unsigned int flags = 0);
__host__ cudaError_t cudaMalloc3DArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                                       struct cudaExtent extent, unsigned int flags = 0);
__host__ cudaError_t cudaFreeArray(cudaArray_t array);
__host__ cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                                       enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                         size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms* p);
__host__ struct cudaPitchedPtr make_cudaPitchedPtr(void* d, size_t p, size_t xsz, size_t ysz);
__host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z);
__host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d);

/* What `<<<...>>>` turns into. Clang looks up __cudaPushCallConfiguration when it knows the
 * CUDA version is 9.2 or newer, and cudaConfigureCall otherwise (no toolkit found). */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void* stream = 0);
int cudaConfigureCall(dim3 gridSize, dim3 blockSize, size_t sharedSize = 0, cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaLaunchDevice(void* func, void* parameterBuffer, dim3 gridDim,
                                                 dim3 blockDim, unsigned int sharedMem, cudaStream_t stream);
__host__ __device__ void* cudaGetParameterBuffer(size_t alignment, size_t size);

/* Device-side system calls (the wrapper's list): printf, malloc, free, assert. */
__device__ int vprintf(const char*, const char*);
__device__ void free(void*) __attribute((nothrow));
__device__ void* malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char* __message, const char* __file, unsigned __line,
                             const char* __function, size_t __charSize);
__device__ static inline void __assert_fail(const char* __message, const char* __file, unsigned __line,
                                            const char* __function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
__device__ int printf(const char*, ...);
}  // extern "C"

namespace std {
__device__ static inline void free(void* __ptr) { ::free(__ptr); }
__device__ static inline void* malloc(size_t __size) { return ::malloc(__size); }
}  // namespace std

/* The C++ conveniences of the real cuda_runtime.h: typed pointers and kernels as symbols. */
template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T** devPtr, size_t size) {
  return ::cudaMalloc((void**)(void*)devPtr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T** ptr, size_t size, unsigned int flags = 0) {
  return ::cudaHostAlloc((void**)(void*)ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void**)(void*)ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T** devPtr, size_t size,
                                                         unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void**)(void*)devPtr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocPitch(T** devPtr, size_t* pitch, size_t width, size_t height) {
  return ::cudaMallocPitch((void**)(void*)devPtr, pitch, width, height);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                                          size_t offset = 0,
                                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void*)&symbol, src, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count,
                                                            size_t offset = 0,
                                                            enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void*)&symbol, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void** devPtr, const T& symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void*)&symbol);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T* entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void*)entry, attr, value);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T* func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void*)func, cacheConfig);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, T* entry) {
  return ::cudaFuncGetAttributes(attr, (const void*)entry);
}
template <class T>
static __inline__ __host__ cudaError_t cudaLaunchKernel(T* func, dim3 gridDim, dim3 blockDim, void** args,
                                                        size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void*)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaLaunchCooperativeKernel(T* func, dim3 gridDim, dim3 blockDim,
                                                                   void** args, size_t sharedMem = 0,
                                                                   cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void*)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, T func,
                                                                                     int blockSize,
                                                                                     size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void*)func, blockSize,
                                                          dynamicSMemSize);
}
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T func,
                                                                          size_t dynamicSMemSize = 0,
                                                                          int blockSizeLimit = 0);
template <class T>
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return ::cudaCreateChannelDesc(8 * (int)sizeof(T), 0, 0, 0, cudaChannelFormatKindFloat);
}

/* Texture objects: the fetch functions as declarations (the analysis does not model the
 * texture path, it only needs the calls to resolve). */
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t texObject, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t texObject, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t texObject, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t texObject, float x, float y, float z);
template <class T> __device__ T tex1DLod(cudaTextureObject_t texObject, float x, float level);
template <class T> __device__ T tex2DLod(cudaTextureObject_t texObject, float x, float y, float level);
template <class T> __device__ T tex3DLod(cudaTextureObject_t texObject, float x, float y, float z, float level);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t texObject, float x, int layer);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t texObject, float x, float y, int layer);
template <class T> __device__ T texCubemap(cudaTextureObject_t texObject, float x, float y, float z);
template <class T> __device__ T texCubemapLayered(cudaTextureObject_t texObject, float x, float y, float z, int layer);

/* ---- device functions: Clang's own implementations, as the wrapper includes them ---------- */
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

/* The min/max overloads of CUDA's math_functions.hpp beyond Clang's int ones. Device-only,
 * as Clang sees the real ones; host uses come from the compatibility prelude. */
#define COALESCE_MINMAX(R, A, B, MINEXPR, MAXEXPR)                                         \
  static __device__ __inline__ R min(const A a, const B b) { return MINEXPR; }            \
  static __device__ __inline__ R max(const A a, const B b) { return MAXEXPR; }
COALESCE_MINMAX(unsigned int, unsigned int, unsigned int, __nv_umin(a, b), __nv_umax(a, b))
COALESCE_MINMAX(unsigned int, int, unsigned int, __nv_umin((unsigned)a, b), __nv_umax((unsigned)a, b))
COALESCE_MINMAX(unsigned int, unsigned int, int, __nv_umin(a, (unsigned)b), __nv_umax(a, (unsigned)b))
COALESCE_MINMAX(long, long, long, a < b ? a : b, a > b ? a : b)
COALESCE_MINMAX(unsigned long, unsigned long, unsigned long, a < b ? a : b, a > b ? a : b)
COALESCE_MINMAX(unsigned long, long, unsigned long, (unsigned long)a < b ? (unsigned long)a : b,
                (unsigned long)a > b ? (unsigned long)a : b)
COALESCE_MINMAX(unsigned long, unsigned long, long, a < (unsigned long)b ? a : (unsigned long)b,
                a > (unsigned long)b ? a : (unsigned long)b)
COALESCE_MINMAX(long long, long long, long long, __nv_llmin(a, b), __nv_llmax(a, b))
COALESCE_MINMAX(unsigned long long, unsigned long long, unsigned long long, __nv_ullmin(a, b), __nv_ullmax(a, b))
COALESCE_MINMAX(unsigned long long, long long, unsigned long long, __nv_ullmin((unsigned long long)a, b),
                __nv_ullmax((unsigned long long)a, b))
COALESCE_MINMAX(unsigned long long, unsigned long long, long long, __nv_ullmin(a, (unsigned long long)b),
                __nv_ullmax(a, (unsigned long long)b))
COALESCE_MINMAX(float, float, float, fminf(a, b), fmaxf(a, b))
COALESCE_MINMAX(double, double, double, fmin(a, b), fmax(a, b))
COALESCE_MINMAX(double, float, double, fmin((double)a, b), fmax((double)a, b))
COALESCE_MINMAX(double, double, float, fmin(a, (double)b), fmax(a, (double)b))
#undef COALESCE_MINMAX

/* Atomics (device_atomic_functions.hpp, sm_20/sm_60 atomic functions) over Clang's helpers. */
#define COALESCE_ATOMIC(NAME, T, HELPER)                                                        \
  static __device__ __inline__ T NAME(T* address, T val) { return HELPER(address, val); }      \
  static __device__ __inline__ T NAME##_block(T* address, T val) { return HELPER##_block(address, val); } \
  static __device__ __inline__ T NAME##_system(T* address, T val) { return HELPER##_system(address, val); }
COALESCE_ATOMIC(atomicAdd, int, __iAtomicAdd)
COALESCE_ATOMIC(atomicAdd, unsigned int, __uAtomicAdd)
COALESCE_ATOMIC(atomicAdd, unsigned long long, __ullAtomicAdd)
COALESCE_ATOMIC(atomicAdd, float, __fAtomicAdd)
COALESCE_ATOMIC(atomicAdd, double, __dAtomicAdd)
COALESCE_ATOMIC(atomicExch, int, __iAtomicExch)
COALESCE_ATOMIC(atomicExch, unsigned int, __uAtomicExch)
COALESCE_ATOMIC(atomicExch, unsigned long long, __ullAtomicExch)
COALESCE_ATOMIC(atomicExch, float, __fAtomicExch)
COALESCE_ATOMIC(atomicMin, int, __iAtomicMin)
COALESCE_ATOMIC(atomicMin, unsigned int, __uAtomicMin)
COALESCE_ATOMIC(atomicMin, long long, __illAtomicMin)
COALESCE_ATOMIC(atomicMin, unsigned long long, __ullAtomicMin)
COALESCE_ATOMIC(atomicMax, int, __iAtomicMax)
COALESCE_ATOMIC(atomicMax, unsigned int, __uAtomicMax)
COALESCE_ATOMIC(atomicMax, long long, __illAtomicMax)
COALESCE_ATOMIC(atomicMax, unsigned long long, __ullAtomicMax)
COALESCE_ATOMIC(atomicInc, unsigned int, __uAtomicInc)
COALESCE_ATOMIC(atomicDec, unsigned int, __uAtomicDec)
COALESCE_ATOMIC(atomicAnd, int, __iAtomicAnd)
COALESCE_ATOMIC(atomicAnd, unsigned int, __uAtomicAnd)
COALESCE_ATOMIC(atomicAnd, unsigned long long, __ullAtomicAnd)
COALESCE_ATOMIC(atomicOr, int, __iAtomicOr)
COALESCE_ATOMIC(atomicOr, unsigned int, __uAtomicOr)
COALESCE_ATOMIC(atomicOr, unsigned long long, __ullAtomicOr)
COALESCE_ATOMIC(atomicXor, int, __iAtomicXor)
COALESCE_ATOMIC(atomicXor, unsigned int, __uAtomicXor)
COALESCE_ATOMIC(atomicXor, unsigned long long, __ullAtomicXor)
#undef COALESCE_ATOMIC
static __device__ __inline__ int atomicSub(int* address, int val) { return __iAtomicAdd(address, -val); }
static __device__ __inline__ unsigned int atomicSub(unsigned int* address, unsigned int val) {
  return __uAtomicAdd(address, (unsigned int)-(int)val);
}
static __device__ __inline__ int atomicCAS(int* address, int compare, int val) {
  return __iAtomicCAS(address, compare, val);
}
static __device__ __inline__ unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int val) {
  return __uAtomicCAS(address, compare, val);
}
static __device__ __inline__ unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                                          unsigned long long val) {
  return __ullAtomicCAS(address, compare, val);
}
static __device__ __inline__ int atomicCAS_block(int* address, int compare, int val) {
  return __iAtomicCAS_block(address, compare, val);
}
static __device__ __inline__ int atomicCAS_system(int* address, int compare, int val) {
  return __iAtomicCAS_system(address, compare, val);
}
static __device__ __inline__ unsigned long long atomicCAS_system(unsigned long long* address,
                                                                 unsigned long long compare, unsigned long long val) {
  return __ullAtomicCAS_system(address, compare, val);
}

/* Address-space predicates and conversions (sm_20_intrinsics.h), which Clang's intrinsics
 * header below relies on, as the wrapper provides them. */
static __device__ __inline__ __attribute__((const)) unsigned int __isGlobal(const void* p) {
  return __nvvm_isspacep_global(p);
}
static __device__ __inline__ __attribute__((const)) unsigned int __isShared(const void* p) {
  return __nvvm_isspacep_shared(p);
}
static __device__ __inline__ __attribute__((const)) unsigned int __isConstant(const void* p) {
  return __nvvm_isspacep_const(p);
}
static __device__ __inline__ __attribute__((const)) unsigned int __isLocal(const void* p) {
  return __nvvm_isspacep_local(p);
}
extern "C" {
__device__ size_t __cvta_generic_to_global(const void* ptr);
__device__ size_t __cvta_generic_to_shared(const void* ptr);
__device__ size_t __cvta_generic_to_constant(const void* ptr);
__device__ size_t __cvta_generic_to_local(const void* ptr);
__device__ void* __cvta_global_to_generic(size_t rawbits);
__device__ void* __cvta_shared_to_generic(size_t rawbits);
__device__ void* __cvta_constant_to_generic(size_t rawbits);
__device__ void* __cvta_local_to_generic(size_t rawbits);
}
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;

/* The builtin variables convert to dim3 and uint3, defined once those types exist. */
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>

#undef __CUDACC__
#define __CUDACC__
#endif /* COALESCE_BUILTIN_CUDA_RUNTIME_H */
