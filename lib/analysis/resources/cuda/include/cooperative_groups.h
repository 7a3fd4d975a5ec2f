/* coalesce-lint built-in CUDA headers: cooperative groups, the part kernels use most
 * (thread_block, tiles, grid_group, sync, shuffles, reduce). Members that are plain index
 * arithmetic or a warp intrinsic are defined as CUDA defines them, so an analysis that follows
 * calls sees the same threadIdx expressions it would see in the real header; grid-wide
 * synchronisation and the collective algorithms are declarations. */
#ifndef COALESCE_BUILTIN_COOPERATIVE_GROUPS_H
#define COALESCE_BUILTIN_COOPERATIVE_GROUPS_H
#pragma clang system_header
#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_group {
 public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
};

class thread_block : public thread_group {
 public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned long long num_threads() const {
    return (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
  }
  __device__ unsigned long long size() const { return num_threads(); }
  __device__ unsigned long long thread_rank() const {
    return ((unsigned long long)threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
  __device__ bool is_valid() const { return true; }
};

class grid_group : public thread_group {
 public:
  __device__ void sync() const;
  __device__ bool is_valid() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 block_index() const;
  __device__ dim3 dim_blocks() const;
};

class coalesced_group : public thread_group {
 public:
  __device__ void sync() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
};

template <unsigned int Size, class ParentT = void>
class thread_block_tile : public thread_group {
  static constexpr unsigned int kMask = Size >= 32 ? 0xffffffffu : ((1u << Size) - 1u);

 public:
  thread_block_tile() = default;
  template <class OtherParent>
  __device__ thread_block_tile(const thread_block_tile<Size, OtherParent>&) {}
  static constexpr unsigned long long num_threads() { return Size; }
  static constexpr unsigned long long size() { return Size; }
  __device__ void sync() const { __syncwarp(kMask << (lane_base() % 32)); }
  __device__ unsigned long long thread_rank() const { return block_rank() & (Size - 1); }
  __device__ unsigned long long meta_group_rank() const { return block_rank() / Size; }
  __device__ unsigned long long meta_group_size() const {
    return ((unsigned long long)blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size;
  }
  template <class T> __device__ T shfl(T var, int srcRank) const { return __shfl_sync(mask(), var, srcRank, Size); }
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(mask(), var, delta, Size);
  }
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(mask(), var, delta, Size);
  }
  template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const {
    return __shfl_xor_sync(mask(), var, laneMask, Size);
  }
  __device__ int any(int predicate) const { return __ballot_sync(mask(), predicate) != 0; }
  __device__ int all(int predicate) const { return __ballot_sync(mask(), predicate) == mask(); }
  __device__ unsigned int ballot(int predicate) const { return __ballot_sync(mask(), predicate) >> (lane_base() % 32); }
  template <class T> __device__ unsigned int match_any(T value) const { return __match_any_sync(mask(), value); }
  __device__ bool is_valid() const { return true; }

 private:
  __device__ static unsigned long long block_rank() {
    return ((unsigned long long)threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ static unsigned int lane_base() { return (unsigned int)(block_rank() & ~(unsigned long long)(Size - 1)); }
  __device__ static unsigned int mask() { return kMask << (lane_base() % 32); }
};

__device__ inline thread_block this_thread_block() { return thread_block(); }
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT&) {
  return thread_block_tile<Size, ParentT>();
}
__device__ thread_group tiled_partition(const thread_group& parent, unsigned int tilesz);
__device__ coalesced_group labeled_partition(const coalesced_group& g, int label);
__device__ coalesced_group binary_partition(const coalesced_group& g, bool pred);
template <class Group> __device__ void sync(const Group& g) { g.sync(); }
template <class Group> __device__ void wait(const Group& g);
template <class Group> __device__ void memcpy_async(const Group& g, void* dst, const void* src, size_t bytes);

template <class T> struct plus { __device__ T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(const T& a, const T& b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(const T& a, const T& b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(const T& a, const T& b) const { return a ^ b; } };
template <class Group, class T, class Op> __device__ T reduce(const Group& g, T value, Op op);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group& g, T value, Op op);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group& g, T value, Op op);
template <class Group, class T> __device__ T inclusive_scan(const Group& g, T value);
template <class Group, class T> __device__ T exclusive_scan(const Group& g, T value);

}  // namespace cooperative_groups
#endif /* COALESCE_BUILTIN_COOPERATIVE_GROUPS_H */
