/* coalesce-lint: empty stand-in for texture_fetch_functions.h.
 * CUDA 13 removed this header; Clang 19's __clang_cuda_runtime_wrapper.h still includes it.
 * It is reached through -idirafter, so a CUDA that still ships the real header wins. */
