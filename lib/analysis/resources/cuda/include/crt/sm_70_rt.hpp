/* coalesce-lint built-in CUDA headers: the sm_70 warp-match functions that Clang's
 * __clang_cuda_intrinsics.h expects this CUDA header to define, over Clang's own
 * __match32/__match64 helpers (as the real header does over the same builtins). */
#pragma once
#pragma clang system_header
#define COALESCE_MATCH(T, SUFFIX)                                                                \
  static __device__ __inline__ unsigned int __match_any_sync(unsigned int mask, T value) {        \
    return __match##SUFFIX##_any_sync(mask, value);                                               \
  }                                                                                               \
  static __device__ __inline__ unsigned int __match_all_sync(unsigned int mask, T value, int* pred) { \
    return __match##SUFFIX##_all_sync(mask, value, pred);                                         \
  }
COALESCE_MATCH(unsigned int, 32)
COALESCE_MATCH(int, 32)
COALESCE_MATCH(unsigned long long, 64)
COALESCE_MATCH(long long, 64)
COALESCE_MATCH(unsigned long, 64)
COALESCE_MATCH(long, 64)
#undef COALESCE_MATCH
static __device__ __inline__ unsigned int __match_any_sync(unsigned int mask, float value) {
  return __match32_any_sync(mask, __float_as_uint(value));
}
static __device__ __inline__ unsigned int __match_any_sync(unsigned int mask, double value) {
  return __match64_any_sync(mask, __double_as_longlong(value));
}
