// Does L1 serve a thread walking its own row (in[row * ROW + x], x = 0..ROW-1) as the number
// of warps an SM holds grows? Calibrates lib/report/src/cache_reuse_level.cpp: the finding is a
// note only when warps x lines per warp fit in L1. A persistent grid of exactly W warps per SM
// (132 SMs x W/8 blocks of 256 threads, no shared memory, so L1 keeps its whole carveout) walks
// 2^20 rows of ROW floats; the same rows read column-wise (coalesced) are the reference.
// Written for this measurement. Build: nvcc -O3 -arch=sm_90 -o row_walk row_walk.cu
#include <cstdio>
#include <cstdlib>
#include <string>
#include <cuda_runtime.h>

constexpr size_t kRows = size_t(1) << 20;
// Rows of ROW floats in the same 256 MB as 2^20 rows of 64: short rows are many, so that every
// walk moves the same bytes and no launch is too short to time.
template <int ROW>
__host__ __device__ constexpr size_t rowsOf() { return kRows * 64 / ROW; }

template <int ROW>
__global__ void rowWalk(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW>(); row += threads) {
    float s = 0;
    for (int x = 0; x < ROW; ++x) s += in[row * ROW + x];
    out[row] = s;
  }
}

template <int ROW>
__global__ void columnWalk(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW>(); row += threads) {
    float s = 0;
    for (int x = 0; x < ROW; ++x) s += in[size_t(x) * rowsOf<ROW>() + row];
    out[row] = s;
  }
}

// The same walks as stores: a thread writes its own row, or the rows are written coalesced.
template <int ROW>
__global__ void rowStore(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW>(); row += threads) {
    const float v = in[row];
    for (int x = 0; x < ROW; ++x) out[row * ROW + x] = v + x;
  }
}

template <int ROW>
__global__ void columnStore(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW>(); row += threads) {
    const float v = in[row];
    for (int x = 0; x < ROW; ++x) out[size_t(x) * rowsOf<ROW>() + row] = v + x;
  }
}

template <class K>
float timeIt(K kernel, int blocks, const float* in, float* out) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  kernel<<<blocks, 256>>>(in, out);  // warm-up
  cudaEventRecord(a);
  for (int r = 0; r < 5; ++r) kernel<<<blocks, 256>>>(in, out);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms / 5;
}

// Short rows (`rows` argument): a thread reading or writing ROW consecutive floats, ROW from 2
// (8 sectors per request, twice the ideal) to 64, at 16, 32 and 64 warps per SM: how much a
// small excess costs when the thread's own next iterations use the rest of each sector (the
// register blocking `a[depth * tid + i]`, i < depth, of sorts and merges).
template <int ROW>
void shortRow(int sms, const float* in, float* out, float* wide) {
  for (int warps : {16, 32, 64}) {
    const int blocks = sms * warps / 8;
    const float r = timeIt(rowWalk<ROW>, blocks, in, out), c = timeIt(columnWalk<ROW>, blocks, in, out);
    const float rs = timeIt(rowStore<ROW>, blocks, out, wide), cs = timeIt(columnStore<ROW>, blocks, out, wide);
    std::printf("%d,%d,%d,%.3f,%.3f,%.2f,%.3f,%.3f,%.2f\n", ROW, warps, blocks, r, c, r / c, rs, cs, rs / cs);
  }
}

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::string(argv[1]) == "once";  // under ncu: one launch of each, no timing loop
  const bool rows = argc > 1 && std::string(argv[1]) == "rows";
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  constexpr int kRow = 64;
  float *in, *out, *wide;
  cudaMalloc(&in, kRows * kRow * sizeof(float));
  cudaMalloc(&out, kRows * kRow * sizeof(float));  // a sum per row: 2^25 rows of 2 floats
  cudaMalloc(&wide, kRows * kRow * sizeof(float));
  cudaMemset(in, 0, kRows * kRow * sizeof(float));
  if (rows) {
    std::printf("row_floats,warps_per_sm,blocks,row_ms,column_ms,row_over_column,row_store_ms,column_store_ms,store_row_over_column\n");
    shortRow<2>(sms, in, out, wide);
    shortRow<4>(sms, in, out, wide);
    shortRow<8>(sms, in, out, wide);
    shortRow<16>(sms, in, out, wide);
    shortRow<64>(sms, in, out, wide);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  }
  std::printf("warps_per_sm,blocks,row_ms,column_ms,row_over_column,row_store_ms,column_store_ms,store_row_over_column\n");
  for (int warps : {8, 16, 24, 32, 48, 64}) {
    const int blocks = sms * warps / 8;
    if (once) {
      rowWalk<kRow><<<blocks, 256>>>(in, out);
      columnWalk<kRow><<<blocks, 256>>>(in, out);
      rowStore<kRow><<<blocks, 256>>>(out, wide);
      columnStore<kRow><<<blocks, 256>>>(out, wide);
      cudaDeviceSynchronize();
      continue;
    }
    const float r = timeIt(rowWalk<kRow>, blocks, in, out), c = timeIt(columnWalk<kRow>, blocks, in, out);
    const float rs = timeIt(rowStore<kRow>, blocks, out, wide), cs = timeIt(columnStore<kRow>, blocks, out, wide);
    std::printf("%d,%d,%.3f,%.3f,%.2f,%.3f,%.3f,%.2f\n", warps, blocks, r, c, r / c, rs, cs, rs / cs);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { std::fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
