/* coalesce-lint built-in CUDA headers: the driver API's version macro and the handful of
 * driver calls host code in samples uses. Declarations only: nothing is ever linked. */
#ifndef COALESCE_BUILTIN_CUDA_H
#define COALESCE_BUILTIN_CUDA_H
#define __cuda_cuda_h__ /* the real header's guard, which user code tests */
#pragma clang system_header
#include "cuda_runtime.h"

typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
                              CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;
typedef enum CUcomputemode_enum { CU_COMPUTEMODE_DEFAULT = 0, CU_COMPUTEMODE_PROHIBITED = 2,
                                  CU_COMPUTEMODE_EXCLUSIVE_PROCESS = 3 } CUcomputemode;
typedef enum CUdevice_attribute_enum { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
                                       CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
                                       CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
                                       CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
                                       CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
                                       CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
                                       CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76 } CUdevice_attribute;

extern "C" {
__host__ CUresult cuInit(unsigned int flags);
__host__ CUresult cuDriverGetVersion(int* driverVersion);
__host__ CUresult cuDeviceGet(CUdevice* device, int ordinal);
__host__ CUresult cuDeviceGetCount(int* count);
__host__ CUresult cuDeviceGetName(char* name, int len, CUdevice dev);
__host__ CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev);
__host__ CUresult cuCtxCreate(CUcontext* pctx, unsigned int flags, CUdevice dev);
__host__ CUresult cuCtxDestroy(CUcontext ctx);
__host__ CUresult cuCtxSynchronize(void);
__host__ CUresult cuMemAlloc(CUdeviceptr* dptr, size_t bytesize);
__host__ CUresult cuMemFree(CUdeviceptr dptr);
__host__ CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount);
__host__ CUresult cuMemcpyDtoH(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount);
__host__ CUresult cuModuleLoad(CUmodule* module, const char* fname);
__host__ CUresult cuModuleLoadData(CUmodule* module, const void* image);
__host__ CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name);
__host__ CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, CUstream hStream, void** kernelParams, void** extra);
__host__ CUresult cuGetErrorString(CUresult error, const char** pStr);
__host__ CUresult cuGetErrorName(CUresult error, const char** pStr);
}
#endif /* COALESCE_BUILTIN_CUDA_H */
