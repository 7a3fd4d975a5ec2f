/* coalesce-lint compatibility prelude.
 *
 * Force-included (after the CUDA runtime headers) into every file the analysis parses, and
 * never into a real build. It declares what nvcc accepts and Clang 19 with CUDA 13 headers
 * rejects, so that a file whose only "errors" are such differences still parses; no entry
 * changes what device code means:
 *   - host-side entries only add host declarations (device code never resolves to them);
 *   - device-side entries declare intrinsics nvcc provides, with nvcc's meaning.
 * Each entry can be switched off with -DCOALESCE_NO_COMPAT_<NAME> (the tests do so to show
 * that the entry is what makes its case parse). The removed cudaDeviceProp fields are not
 * here: a struct cannot be reopened, so the frontend patches driver_types.h in memory. */
#ifndef COALESCE_PRELUDE_H
#define COALESCE_PRELUDE_H
#pragma clang system_header

/* ---- THREAD_API: the cudaThread* runtime calls CUDA 13 removed --------------------------
 * Deprecated since CUDA 4 in favour of cudaDevice*, still common in old code and samples.
 * Declared only where the toolkit no longer declares them, so they never clash. */
#if !defined(COALESCE_NO_COMPAT_THREAD_API) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
extern "C" {
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaThreadExit(void);
__host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaThreadGetLimit(size_t* pValue, enum cudaLimit limit);
__host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache* pCacheConfig);
}
#endif

/* ---- MEM_ADVICE_DEVICE: cudaMemPrefetchAsync / cudaMemAdvise with an int device ---------
 * CUDA 13 replaced the device number by a cudaMemLocation. The old form is added as a C++
 * overload: an int never converts to cudaMemLocation, so no call becomes ambiguous. */
#if !defined(COALESCE_NO_COMPAT_MEM_ADVICE_DEVICE) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
__host__ cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice,
                                          cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void* devPtr, size_t count, enum cudaMemoryAdvise advice,
                                   int device);
#endif

/* ---- HOST_MINMAX: min/max (and umin, llmax, ...) called from host code -------------------
 * nvcc declares CUDA's integer and floating min/max overloads __host__ __device__; under
 * Clang they are __device__ only, so a host call such as max(1.0f, 2.0f) has no candidate.
 * These add the host side with nvcc's signatures. Clang overloads on the execution space,
 * so device and host-device callers still pick the device functions. */
#if !defined(COALESCE_NO_COMPAT_HOST_MINMAX)
#define COALESCE_HOST_MINMAX(R, A, B)                                                         \
  static __host__ __inline__ R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; } \
  static __host__ __inline__ R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }
COALESCE_HOST_MINMAX(int, int, int)
COALESCE_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
COALESCE_HOST_MINMAX(unsigned int, int, unsigned int)
COALESCE_HOST_MINMAX(unsigned int, unsigned int, int)
COALESCE_HOST_MINMAX(long, long, long)
COALESCE_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
COALESCE_HOST_MINMAX(unsigned long, long, unsigned long)
COALESCE_HOST_MINMAX(unsigned long, unsigned long, long)
COALESCE_HOST_MINMAX(long long, long long, long long)
COALESCE_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
COALESCE_HOST_MINMAX(unsigned long long, long long, unsigned long long)
COALESCE_HOST_MINMAX(unsigned long long, unsigned long long, long long)
#undef COALESCE_HOST_MINMAX
/* Floating point keeps fmin/fmax semantics (a NaN argument yields the other one). */
static __host__ __inline__ float min(const float a, const float b) { return __builtin_fminf(a, b); }
static __host__ __inline__ float max(const float a, const float b) { return __builtin_fmaxf(a, b); }
static __host__ __inline__ double min(const double a, const double b) { return __builtin_fmin(a, b); }
static __host__ __inline__ double max(const double a, const double b) { return __builtin_fmax(a, b); }
static __host__ __inline__ double min(const float a, const double b) { return __builtin_fmin(a, b); }
static __host__ __inline__ double max(const float a, const double b) { return __builtin_fmax(a, b); }
static __host__ __inline__ double min(const double a, const float b) { return __builtin_fmin(a, b); }
static __host__ __inline__ double max(const double a, const float b) { return __builtin_fmax(a, b); }
static __host__ __inline__ unsigned int umin(const unsigned int a, const unsigned int b) { return a < b ? a : b; }
static __host__ __inline__ unsigned int umax(const unsigned int a, const unsigned int b) { return a > b ? a : b; }
static __host__ __inline__ long long llmin(const long long a, const long long b) { return a < b ? a : b; }
static __host__ __inline__ long long llmax(const long long a, const long long b) { return a > b ? a : b; }
static __host__ __inline__ unsigned long long ullmin(const unsigned long long a, const unsigned long long b) {
  return a < b ? a : b;
}
static __host__ __inline__ unsigned long long ullmax(const unsigned long long a, const unsigned long long b) {
  return a > b ? a : b;
}
#endif

/* ---- CACHE_HINTS: __ldcg, __ldca, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt --
 * CUDA declares them in sm_32_intrinsics.h, which Clang 19's intrinsics header shuts out
 * (it defines only __ldg in its place; later Clang versions add the rest). Each is one global
 * load or store with a cache hint: declared here with CUDA's signatures so kernels that use
 * them parse and their calls can be recognised as the accesses they are. */
#if !defined(COALESCE_NO_COMPAT_CACHE_HINTS) && defined(__clang_major__) && __clang_major__ <= 19
#define COALESCE_CACHE_HINTS(T)                                                          \
  __device__ T __ldcg(const T* ptr);                                                     \
  __device__ T __ldca(const T* ptr);                                                     \
  __device__ T __ldcs(const T* ptr);                                                     \
  __device__ T __ldlu(const T* ptr);                                                     \
  __device__ T __ldcv(const T* ptr);                                                     \
  __device__ void __stwb(T* ptr, T value);                                               \
  __device__ void __stcg(T* ptr, T value);                                               \
  __device__ void __stcs(T* ptr, T value);                                               \
  __device__ void __stwt(T* ptr, T value);
COALESCE_CACHE_HINTS(char)
COALESCE_CACHE_HINTS(signed char)
COALESCE_CACHE_HINTS(short)
COALESCE_CACHE_HINTS(int)
COALESCE_CACHE_HINTS(long)
COALESCE_CACHE_HINTS(long long)
COALESCE_CACHE_HINTS(unsigned char)
COALESCE_CACHE_HINTS(unsigned short)
COALESCE_CACHE_HINTS(unsigned int)
COALESCE_CACHE_HINTS(unsigned long)
COALESCE_CACHE_HINTS(unsigned long long)
COALESCE_CACHE_HINTS(float)
COALESCE_CACHE_HINTS(double)
COALESCE_CACHE_HINTS(char2)
COALESCE_CACHE_HINTS(char4)
COALESCE_CACHE_HINTS(short2)
COALESCE_CACHE_HINTS(short4)
COALESCE_CACHE_HINTS(int2)
COALESCE_CACHE_HINTS(int4)
COALESCE_CACHE_HINTS(longlong2)
COALESCE_CACHE_HINTS(uchar2)
COALESCE_CACHE_HINTS(uchar4)
COALESCE_CACHE_HINTS(ushort2)
COALESCE_CACHE_HINTS(ushort4)
COALESCE_CACHE_HINTS(uint2)
COALESCE_CACHE_HINTS(uint4)
COALESCE_CACHE_HINTS(ulonglong2)
COALESCE_CACHE_HINTS(float2)
COALESCE_CACHE_HINTS(float4)
COALESCE_CACHE_HINTS(double2)
#undef COALESCE_CACHE_HINTS
#endif

/* ---- SURFACE_FUNCTIONS: surf1Dread ... surfCubemapLayeredwrite on surface objects --------
 * CUDA declares them in surface_indirect_functions.h, which Clang 19's wrapper does not
 * include (its texture support covers texture fetches only). Declared with CUDA's
 * signatures; a surface access goes through the texture path, not a global or shared load. */
#if !defined(COALESCE_NO_COMPAT_SURFACE_FUNCTIONS) && defined(__clang_major__) && __clang_major__ <= 19
#define COALESCE_SURF_MODE enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap
template <class T> __device__ void surf1Dread(T* ptr, cudaSurfaceObject_t obj, int x, COALESCE_SURF_MODE);
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t obj, int x, COALESCE_SURF_MODE);
template <class T> __device__ void surf2Dread(T* ptr, cudaSurfaceObject_t obj, int x, int y, COALESCE_SURF_MODE);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t obj, int x, int y, COALESCE_SURF_MODE);
template <class T> __device__ void surf3Dread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int z, COALESCE_SURF_MODE);
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t obj, int x, int y, int z, COALESCE_SURF_MODE);
template <class T>
__device__ void surf1DLayeredread(T* ptr, cudaSurfaceObject_t obj, int x, int layer, COALESCE_SURF_MODE);
template <class T> __device__ T surf1DLayeredread(cudaSurfaceObject_t obj, int x, int layer, COALESCE_SURF_MODE);
template <class T>
__device__ void surf2DLayeredread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int layer, COALESCE_SURF_MODE);
template <class T>
__device__ T surf2DLayeredread(cudaSurfaceObject_t obj, int x, int y, int layer, COALESCE_SURF_MODE);
template <class T>
__device__ void surfCubemapread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int face, COALESCE_SURF_MODE);
template <class T> __device__ T surfCubemapread(cudaSurfaceObject_t obj, int x, int y, int face, COALESCE_SURF_MODE);
template <class T>
__device__ void surfCubemapLayeredread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int layerFace,
                                       COALESCE_SURF_MODE);
template <class T>
__device__ T surfCubemapLayeredread(cudaSurfaceObject_t obj, int x, int y, int layerFace, COALESCE_SURF_MODE);
template <class T> __device__ void surf1Dwrite(T val, cudaSurfaceObject_t obj, int x, COALESCE_SURF_MODE);
template <class T> __device__ void surf2Dwrite(T val, cudaSurfaceObject_t obj, int x, int y, COALESCE_SURF_MODE);
template <class T>
__device__ void surf3Dwrite(T val, cudaSurfaceObject_t obj, int x, int y, int z, COALESCE_SURF_MODE);
template <class T>
__device__ void surf1DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int layer, COALESCE_SURF_MODE);
template <class T>
__device__ void surf2DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int y, int layer, COALESCE_SURF_MODE);
template <class T>
__device__ void surfCubemapwrite(T val, cudaSurfaceObject_t obj, int x, int y, int face, COALESCE_SURF_MODE);
template <class T>
__device__ void surfCubemapLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int y, int layerFace,
                                        COALESCE_SURF_MODE);
#undef COALESCE_SURF_MODE
#endif

/* ---- ASSUME: __assume(cond), an nvcc builtin in device code ------------------------------
 * Clang knows __assume only in Microsoft mode; __builtin_assume is the same promise. */
#if !defined(COALESCE_NO_COMPAT_ASSUME) && !defined(_MSC_VER)
static __host__ __device__ __inline__ void __assume(bool cond) { __builtin_assume(cond); }
#endif

/* ---- IMPLICIT_INCLUDES: the C headers nvcc's cuda_runtime.h brings in ---------------------
 * nvcc force-includes cuda_runtime.h, whose crt/common_functions.h includes <string.h> and
 * <time.h>, and in the device pass <new>, <stdio.h>, <stdlib.h> and <assert.h>: code that
 * calls time(), printf() or assert() without including their header compiles with nvcc.
 * Clang's CUDA wrapper skips common_functions.h and includes only <stdlib.h> and <string.h>.
 * These are the same standard headers, so nothing is declared that nvcc would not see. */
#if !defined(COALESCE_NO_COMPAT_IMPLICIT_INCLUDES)
#include <string.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
#include <new>
#endif

/* ---- TEXTURE_REFERENCES: texture<T, dim, mode> objects and their fetches ------------------
 * The texture reference API (a global `texture<float, 1> tex;` read with tex1Dfetch(tex, i)
 * and bound with cudaBindTexture) was removed in CUDA 12; older code, Rodinia among it, uses
 * it throughout. Declared here as CUDA 11 declared it: the class template carries Clang's
 * device_builtin_texture_type attribute, which makes such globals usable in device code,
 * as nvcc did. A fetch is a read through the texture path, never a global or shared load,
 * so only declarations are needed. The host binding calls are declared too. */
#if !defined(COALESCE_NO_COMPAT_TEXTURE_REFERENCES) && defined(CUDART_VERSION) && CUDART_VERSION >= 12000
#ifndef cudaTextureType1D
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#endif
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};
template <class T, int texType = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {
  __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
  }
  __host__ texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = desc;
  }
};
/* What a fetch returns: T itself, or, with cudaReadModeNormalizedFloat, the float type of
 * as many components (8- and 16-bit integers only, as in CUDA). */
template <class T, enum cudaTextureReadMode mode> struct __coalesce_tex_ret { typedef T type; };
#define COALESCE_TEX_NF(T, R) \
  template <> struct __coalesce_tex_ret<T, cudaReadModeNormalizedFloat> { typedef R type; };
COALESCE_TEX_NF(char, float) COALESCE_TEX_NF(signed char, float) COALESCE_TEX_NF(unsigned char, float)
COALESCE_TEX_NF(short, float) COALESCE_TEX_NF(unsigned short, float)
COALESCE_TEX_NF(char1, float1) COALESCE_TEX_NF(uchar1, float1) COALESCE_TEX_NF(short1, float1)
COALESCE_TEX_NF(ushort1, float1) COALESCE_TEX_NF(char2, float2) COALESCE_TEX_NF(uchar2, float2)
COALESCE_TEX_NF(short2, float2) COALESCE_TEX_NF(ushort2, float2) COALESCE_TEX_NF(char4, float4)
COALESCE_TEX_NF(uchar4, float4) COALESCE_TEX_NF(short4, float4) COALESCE_TEX_NF(ushort4, float4)
#undef COALESCE_TEX_NF
#define COALESCE_TEX_FETCH(NAME, DIM, ...)                                                   \
  template <class T, enum cudaTextureReadMode M>                                              \
  __device__ typename __coalesce_tex_ret<T, M>::type NAME(texture<T, DIM, M> t, __VA_ARGS__);
COALESCE_TEX_FETCH(tex1Dfetch, cudaTextureType1D, int x)
COALESCE_TEX_FETCH(tex1D, cudaTextureType1D, float x)
COALESCE_TEX_FETCH(tex2D, cudaTextureType2D, float x, float y)
COALESCE_TEX_FETCH(tex3D, cudaTextureType3D, float x, float y, float z)
COALESCE_TEX_FETCH(tex1DLayered, cudaTextureType1DLayered, float x, int layer)
COALESCE_TEX_FETCH(tex2DLayered, cudaTextureType2DLayered, float x, float y, int layer)
COALESCE_TEX_FETCH(texCubemap, cudaTextureTypeCubemap, float x, float y, float z)
COALESCE_TEX_FETCH(texCubemapLayered, cudaTextureTypeCubemapLayered, float x, float y, float z, int layer)
COALESCE_TEX_FETCH(tex1DLod, cudaTextureType1D, float x, float level)
COALESCE_TEX_FETCH(tex2DLod, cudaTextureType2D, float x, float y, float level)
COALESCE_TEX_FETCH(tex3DLod, cudaTextureType3D, float x, float y, float z, float level)
COALESCE_TEX_FETCH(tex1DLayeredLod, cudaTextureType1DLayered, float x, int layer, float level)
COALESCE_TEX_FETCH(tex2DLayeredLod, cudaTextureType2DLayered, float x, float y, int layer, float level)
COALESCE_TEX_FETCH(texCubemapLod, cudaTextureTypeCubemap, float x, float y, float z, float level)
COALESCE_TEX_FETCH(tex1DGrad, cudaTextureType1D, float x, float dPdx, float dPdy)
COALESCE_TEX_FETCH(tex2DGrad, cudaTextureType2D, float x, float y, float2 dPdx, float2 dPdy)
COALESCE_TEX_FETCH(tex3DGrad, cudaTextureType3D, float x, float y, float z, float4 dPdx, float4 dPdy)
COALESCE_TEX_FETCH(tex1DLayeredGrad, cudaTextureType1DLayered, float x, int layer, float dPdx, float dPdy)
COALESCE_TEX_FETCH(tex2DLayeredGrad, cudaTextureType2DLayered, float x, float y, int layer, float2 dPdx,
                   float2 dPdy)
#undef COALESCE_TEX_FETCH
/* tex2Dgather returns one component of four texels: the 4-vector of T's scalar kind (float4
 * for 8- and 16-bit integers read as normalised floats). */
template <class T, enum cudaTextureReadMode M> struct __coalesce_gather_ret { typedef float4 type; };
#define COALESCE_TEX_GATHER(S, N)                                                                   \
  template <> struct __coalesce_gather_ret<S, cudaReadModeElementType> { typedef N##4 type; };       \
  template <> struct __coalesce_gather_ret<N##1, cudaReadModeElementType> { typedef N##4 type; };    \
  template <> struct __coalesce_gather_ret<N##2, cudaReadModeElementType> { typedef N##4 type; };    \
  template <> struct __coalesce_gather_ret<N##3, cudaReadModeElementType> { typedef N##4 type; };    \
  template <> struct __coalesce_gather_ret<N##4, cudaReadModeElementType> { typedef N##4 type; };
COALESCE_TEX_GATHER(signed char, char) COALESCE_TEX_GATHER(unsigned char, uchar)
COALESCE_TEX_GATHER(short, short) COALESCE_TEX_GATHER(unsigned short, ushort)
COALESCE_TEX_GATHER(int, int) COALESCE_TEX_GATHER(unsigned int, uint)
#undef COALESCE_TEX_GATHER
template <> struct __coalesce_gather_ret<char, cudaReadModeElementType> { typedef char4 type; };
template <class T, enum cudaTextureReadMode M>
__device__ typename __coalesce_gather_ret<T, M>::type tex2Dgather(texture<T, cudaTextureType2D, M> t, float x,
                                                                  float y, int comp = 0);
/* The host side: binding and unbinding (C++ templates and the C forms). */
#define COALESCE_TEX_REF const struct texture<T, dim, readMode>&
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t* offset, COALESCE_TEX_REF tex, const void* devPtr,
                                     const struct cudaChannelFormatDesc& desc, size_t size = 0xffffffffu);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t* offset, COALESCE_TEX_REF tex, const void* devPtr,
                                     size_t size = 0xffffffffu);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture2D(size_t* offset, COALESCE_TEX_REF tex, const void* devPtr,
                                       const struct cudaChannelFormatDesc& desc, size_t width, size_t height,
                                       size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture2D(size_t* offset, COALESCE_TEX_REF tex, const void* devPtr, size_t width,
                                       size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToArray(COALESCE_TEX_REF tex, const struct cudaArray* array,
                                            const struct cudaChannelFormatDesc& desc);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToArray(COALESCE_TEX_REF tex, const struct cudaArray* array);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaUnbindTexture(COALESCE_TEX_REF tex);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaGetTextureAlignmentOffset(size_t* offset, COALESCE_TEX_REF tex);
#undef COALESCE_TEX_REF
extern "C" {
__host__ cudaError_t cudaBindTexture(size_t* offset, const struct textureReference* texref, const void* devPtr,
                                     const struct cudaChannelFormatDesc* desc, size_t size);
__host__ cudaError_t cudaBindTexture2D(size_t* offset, const struct textureReference* texref, const void* devPtr,
                                       const struct cudaChannelFormatDesc* desc, size_t width, size_t height,
                                       size_t pitch);
__host__ cudaError_t cudaBindTextureToArray(const struct textureReference* texref, const struct cudaArray* array,
                                            const struct cudaChannelFormatDesc* desc);
__host__ cudaError_t cudaUnbindTexture(const struct textureReference* texref);
__host__ cudaError_t cudaGetTextureReference(const struct textureReference** texref, const void* symbol);
}
#endif

/* ---- NVCC_VERSION_MACROS: __CUDACC_VER_MAJOR__, _MINOR__, _BUILD__ and __CUDA_ARCH_LIST__ --
 * nvcc defines them in every compilation; Clang does not, so `#if __CUDACC_VER_MAJOR__ < 9`
 * (MAGMA's shuffles, Kaldi's and ethminer's kernels) would read 0 and pick the pre-CUDA-9 path
 * nvcc never compiles. They are defined from the toolkit's CUDA_VERSION, as CCCL itself
 * computes its version under Clang (cuda/std/__cccl/compiler.h); the build number is not in
 * CUDA_VERSION and is 0. __CUDA_ARCH_LIST__ is the one architecture analysed (this is the
 * device pass). __NVCC__ stays undefined: CCCL and others would take Clang for nvcc. */
#if !defined(COALESCE_NO_COMPAT_NVCC_VERSION_MACROS) && defined(CUDA_VERSION)
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#endif
#ifndef __CUDACC_VER_MINOR__
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#endif
#ifndef __CUDACC_VER_BUILD__
#define __CUDACC_VER_BUILD__ 0
#endif
#if !defined(__CUDA_ARCH_LIST__) && defined(__CUDA_ARCH__)
#define __CUDA_ARCH_LIST__ __CUDA_ARCH__
#endif
#endif

/* ---- REGISTER_PARAMS: __nv_register_params__, an nvcc keyword (CUDA 12.4+) ---------------
 * A calling-convention hint for __device__ functions that no CUDA header defines; it says
 * nothing about memory, so it is dropped. */
#if !defined(COALESCE_NO_COMPAT_REGISTER_PARAMS) && !defined(__nv_register_params__)
#define __nv_register_params__
#endif

#endif /* COALESCE_PRELUDE_H */
