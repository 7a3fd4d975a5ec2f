/* coalesce-lint built-in CUDA headers: half precision, enough for kernels that store or
 * convert __half values. The type has the real size and alignment (2 bytes; __half2 4), which
 * is what the analysis reads; arithmetic goes through float, which parses the same code. */
#ifndef COALESCE_BUILTIN_CUDA_FP16_H
#define COALESCE_BUILTIN_CUDA_FP16_H
#define __CUDA_FP16_H__ /* the real header's guard, which user code tests */
#pragma clang system_header
#include "cuda_runtime.h"

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  __host__ __device__ __half(int i);
  __host__ __device__ __half(unsigned int i);
  __host__ __device__ operator float() const;
};
struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
};
/* __half2 arithmetic, component-wise as in cuda_fp16.hpp (__half itself converts to float). */
__device__ __half2 operator+(const __half2& a, const __half2& b);
__device__ __half2 operator-(const __half2& a, const __half2& b);
__device__ __half2 operator*(const __half2& a, const __half2& b);
__device__ __half2 operator/(const __half2& a, const __half2& b);
__device__ __half2& operator+=(__half2& a, const __half2& b);
__device__ __half2& operator-=(__half2& a, const __half2& b);
__device__ __half2& operator*=(__half2& a, const __half2& b);
__device__ __half2& operator/=(__half2& a, const __half2& b);
typedef __half half;
typedef __half2 half2;

__host__ __device__ __half __float2half(float a);
__host__ __device__ __half __float2half_rn(float a);
__host__ __device__ float __half2float(__half a);
__host__ __device__ __half __int2half_rn(int i);
__host__ __device__ int __half2int_rn(__half h);
__host__ __device__ __half2 __float2half2_rn(float a);
__host__ __device__ __half2 __floats2half2_rn(float a, float b);
__host__ __device__ __half2 __halves2half2(__half a, __half b);
__host__ __device__ float2 __half22float2(__half2 a);
__host__ __device__ float __low2float(__half2 a);
__host__ __device__ float __high2float(__half2 a);
__host__ __device__ __half __low2half(__half2 a);
__host__ __device__ __half __high2half(__half2 a);
__device__ __half __hadd(__half a, __half b);
__device__ __half __hsub(__half a, __half b);
__device__ __half __hmul(__half a, __half b);
__device__ __half __hdiv(__half a, __half b);
__device__ __half __hfma(__half a, __half b, __half c);
__device__ __half __hneg(__half a);
__device__ __half __habs(__half a);
__device__ bool __hlt(__half a, __half b);
__device__ bool __hgt(__half a, __half b);
__device__ bool __heq(__half a, __half b);
__device__ __half hsqrt(__half a);
__device__ __half hexp(__half a);
__device__ __half2 __hadd2(__half2 a, __half2 b);
__device__ __half2 __hsub2(__half2 a, __half2 b);
__device__ __half2 __hmul2(__half2 a, __half2 b);
__device__ __half2 __hfma2(__half2 a, __half2 b, __half2 c);
__device__ __half __shfl_sync(unsigned mask, __half var, int srcLane, int width = 32);
__device__ __half __shfl_down_sync(unsigned mask, __half var, unsigned int delta, int width = 32);
__device__ __half __shfl_xor_sync(unsigned mask, __half var, int laneMask, int width = 32);
__device__ __half __ldg(const __half* ptr);
__device__ __half2 __ldg(const __half2* ptr);
__device__ __half atomicAdd(__half* address, __half val);
__device__ __half2 atomicAdd(__half2* address, __half2 val);
#endif /* COALESCE_BUILTIN_CUDA_FP16_H */
