// cooperative_groups indexing: thread_block, tiled_partition<32>/<16>, thread_rank(),
// meta_group_rank(), thread_index(), cg::reduce and tile.shfl_down, a grid_group stride loop
// and per-warp partials in shared memory indexed by meta_group_rank().
// Launches: warpRowSum 128 x 256, tile16Rows 64 x dim3(16,16), blockSumCg 256 x 128.
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int COLS = 512;

// One warp per row; the lanes stride over the columns.
__global__ void warpRowSum(const float* __restrict__ m, float* __restrict__ rowSum) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  float s = 0.0f;
  for (int c = warp.thread_rank(); c < COLS; c += warp.size())
    s += m[row * COLS + c];
  s = cg::reduce(warp, s, cg::plus<float>());
  if (warp.thread_rank() == 0) rowSum[row] = s;
}

// 16-thread tiles in a 16x16 block: each tile owns one 64-float row and reads every 4th float,
// then 16 adjacent floats of the same row through block.thread_index().x.
__global__ void tile16Rows(const float* __restrict__ m, float* __restrict__ out, float* __restrict__ out2) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  int row = blockIdx.x * 16 + t16.meta_group_rank();
  float v = m[row * 64 + t16.thread_rank() * 4];
  for (int off = 8; off > 0; off >>= 1) v += t16.shfl_down(v, off);
  if (t16.thread_rank() == 0) out[row] = v;
  float w = m[row * 64 + 16 + block.thread_index().x];
  out2[row * 16 + t16.thread_rank()] = w;
}

// Grid-stride loop over grid.thread_rank(); warp sums go to shared slots by meta_group_rank().
__global__ void blockSumCg(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float part[4];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float s = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    s += in[i];
  s = cg::reduce(warp, s, cg::plus<float>());
  if (warp.thread_rank() == 0) part[warp.meta_group_rank()] = s;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    float p = warp.thread_rank() < 4 ? part[warp.thread_rank()] : 0.0f;
    p = cg::reduce(warp, p, cg::plus<float>());
    if (warp.thread_rank() == 0) out[block.group_index().x] = p;
  }
}

int main() {
  const int rows = 128 * 8;           // warpRowSum: 8 warps per 256-thread block
  const int rows16 = 64 * 16;         // tile16Rows: 16 tiles per 16x16 block
  const int n = 1 << 20;
  float *m, *rs, *m64, *o1, *o2, *in, *bs;
  CK(cudaMalloc(&m, rows * COLS * sizeof(float)));
  CK(cudaMalloc(&rs, rows * sizeof(float)));
  CK(cudaMalloc(&m64, rows16 * 64 * sizeof(float)));
  CK(cudaMalloc(&o1, rows16 * sizeof(float)));
  CK(cudaMalloc(&o2, rows16 * 16 * sizeof(float)));
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&bs, 256 * sizeof(float)));
  CK(cudaMemset(m, 0, rows * COLS * sizeof(float)));
  CK(cudaMemset(m64, 0, rows16 * 64 * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  warpRowSum<<<128, 256>>>(m, rs);
  dim3 b16(16, 16);
  tile16Rows<<<64, b16>>>(m64, o1, o2);
  blockSumCg<<<256, 128>>>(in, bs, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(m)); CK(cudaFree(rs)); CK(cudaFree(m64)); CK(cudaFree(o1));
  CK(cudaFree(o2)); CK(cudaFree(in)); CK(cudaFree(bs));
  return 0;
}
