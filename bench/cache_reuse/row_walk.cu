// Does L1 serve a thread walking its own row (in[row * ROW + x], x = 0..ROW-1) as the number
// of warps an SM holds grows? Calibrates lib/report/src/cache_reuse_level.cpp: the finding is a
// note only when warps x lines per warp fit in L1. A persistent grid of exactly W warps per SM
// (132 SMs x W/8 blocks of 256 threads, no shared memory, so L1 keeps its whole carveout) walks
// 2^20 rows of ROW floats; the same rows read column-wise (coalesced) are the reference.
// `rows`: short rows; `taps`: stride-2 lanes whose gaps the next taps fill (issue #14).
// Written for this measurement. Build: nvcc -O3 -arch=sm_90 -o row_walk row_walk.cu
#include <cstdio>
#include <cstdlib>
#include <string>
#include <cuda_runtime.h>

constexpr size_t kRows = size_t(1) << 20;
// Rows of ROW floats in the same 256 MB as 2^20 rows of 64: short rows are many, so that every
// walk moves the same bytes and no launch is too short to time.
// T: float, or double for the `rows-middle` rows of doubles (session 15: NPB's solvers keep 5
// doubles per grid point, u[k][j][i][m], and a thread walks its own point while lanes differ in i).
template <int ROW, class T = float>
__host__ __device__ constexpr size_t rowsOf() { return kRows * 64 * sizeof(float) / sizeof(T) / ROW; }

template <int ROW, class T = float>
__global__ void rowWalk(const T* __restrict__ in, T* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW, T>(); row += threads) {
    T s = 0;
    for (int x = 0; x < ROW; ++x) s += in[row * ROW + x];
    out[row] = s;
  }
}

template <int ROW, class T = float>
__global__ void columnWalk(const T* __restrict__ in, T* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW, T>(); row += threads) {
    T s = 0;
    for (int x = 0; x < ROW; ++x) s += in[size_t(x) * rowsOf<ROW, T>() + row];
    out[row] = s;
  }
}

// The same walks as stores: a thread writes its own row, or the rows are written coalesced.
template <int ROW, class T = float>
__global__ void rowStore(const T* __restrict__ in, T* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW, T>(); row += threads) {
    const T v = in[row];
    for (int x = 0; x < ROW; ++x) out[row * ROW + x] = v + x;
  }
}

template <int ROW, class T = float>
__global__ void columnStore(const T* __restrict__ in, T* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t row = blockIdx.x * blockDim.x + threadIdx.x; row < rowsOf<ROW, T>(); row += threads) {
    const T v = in[row];
    for (int x = 0; x < ROW; ++x) out[size_t(x) * rowsOf<ROW, T>() + row] = v + x;
  }
}

// Filled gaps (`taps` argument, issue #14): lanes 2 floats apart walked over tap offsets
// 0..TAPS-1, a stride-2 convolution (ISPASS NN's `in[windowX + ... + kernelTemplate2[i]]`,
// windowX = 2 * threadIdx.x): thread g reads in[2g + t], so each tap reads the words the one
// before skipped and over the loop a warp uses every byte of the sectors it touches (8 or 9
// sectors per request where 4 or 5 carry the bytes). The reference reads the same 64 + TAPS - 1
// words per warp in the same number of requests, coalesced: lane l of warp w at tap t reads
// in[64w + 32 (t % 2) + 2 (t / 2) + l]. TAPS = 2 is the short row of 2 floats above.
constexpr size_t kTapOutputs = kRows * 32;  // 2^25 outputs: the taps span the 256 MB of `in`
template <int TAPS>
__global__ void filledGaps(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t g = blockIdx.x * blockDim.x + threadIdx.x; g < kTapOutputs; g += threads) {
    float s = 0;
#pragma unroll
    for (int t = 0; t < TAPS; ++t) s += in[2 * g + t];
    out[g] = s;
  }
}

template <int TAPS>
__global__ void filledGapsCoalesced(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t g = blockIdx.x * blockDim.x + threadIdx.x; g < kTapOutputs; g += threads) {
    const size_t warpBase = (g / 32) * 64, lane = g % 32;
    float s = 0;
#pragma unroll
    for (int t = 0; t < TAPS; ++t) s += in[warpBase + 32 * (t % 2) + 2 * (t / 2) + lane];
    out[g] = s;
  }
}

// Gaps never filled: lanes 2 floats apart at even taps only (in[2 (g + t)]): half of every
// sector is never read, by this warp or another. The reference reads the same useful bytes
// coalesced (in[g + t]), in the same number of requests.
template <int TAPS>
__global__ void unfilledGaps(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t g = blockIdx.x * blockDim.x + threadIdx.x; g < kTapOutputs / 2; g += threads) {
    float s = 0;
#pragma unroll
    for (int t = 0; t < TAPS; ++t) s += in[2 * (g + t)];
    out[g] = s;
  }
}

template <int TAPS>
__global__ void unfilledGapsCoalesced(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t g = blockIdx.x * blockDim.x + threadIdx.x; g < kTapOutputs / 2; g += threads) {
    float s = 0;
#pragma unroll
    for (int t = 0; t < TAPS; ++t) s += in[g + t];
    out[g] = s;
  }
}

// The 2D case as NN writes it: a 5x5 window at stride 2 through a `__constant__` table of tap
// offsets (row pitch kPitch floats), one output per thread, 32 outputs of a row per warp. The
// reference table reads the same words per warp and kernel row in the same requests, coalesced.
constexpr size_t kOutWidth = 4096, kOutHeight = 2048, kPitch = 2 * kOutWidth + 4;  // 134 MB read
__constant__ int kStrideTwoTaps[25], kCoalescedTaps[25];
template <bool COALESCED>
__global__ void window5x5(const float* __restrict__ in, float* __restrict__ out) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (size_t g = blockIdx.x * blockDim.x + threadIdx.x; g < kOutWidth * kOutHeight; g += threads) {
    const size_t ox = g % kOutWidth, oy = g / kOutWidth;
    const size_t base = 2 * oy * kPitch + (COALESCED ? (ox / 32) * 64 + ox % 32 : 2 * ox);
    float s = 0;
    for (int i = 0; i < 25; ++i) s += in[base + (COALESCED ? kCoalescedTaps[i] : kStrideTwoTaps[i])];
    out[g] = s;
  }
}

template <class K, class T>
float timeIt(K kernel, int blocks, const T* in, T* out) {
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
template <int ROW, class T = float>
void shortRow(int sms, const T* in, T* out, T* wide) {
  for (int warps : {16, 32, 64}) {
    const int blocks = sms * warps / 8;
    const float r = timeIt(rowWalk<ROW, T>, blocks, in, out), c = timeIt(columnWalk<ROW, T>, blocks, in, out);
    const float rs = timeIt(rowStore<ROW, T>, blocks, out, wide), cs = timeIt(columnStore<ROW, T>, blocks, out, wide);
    std::printf("%d%s,%d,%d,%.3f,%.3f,%.2f,%.3f,%.3f,%.2f\n", ROW, sizeof(T) == 8 ? "d" : sizeof(T) == 1 ? "b" : "", warps, blocks, r, c, r / c,
                rs, cs, rs / cs);
  }
}

template <int TAPS>
void taps(int sms, const float* in, float* out) {
  for (int warps : {16, 32, 64}) {
    const int blocks = sms * warps / 8;
    const float f = timeIt(filledGaps<TAPS>, blocks, in, out), fc = timeIt(filledGapsCoalesced<TAPS>, blocks, in, out);
    const float u = timeIt(unfilledGaps<TAPS>, blocks, in, out), uc = timeIt(unfilledGapsCoalesced<TAPS>, blocks, in, out);
    std::printf("%d,%d,%d,%.3f,%.3f,%.2f,%.3f,%.3f,%.2f\n", TAPS, warps, blocks, f, fc, f / fc, u, uc, u / uc);
  }
}

void setWindowTaps() {
  int strideTwo[25], coalesced[25];
  for (int i = 0; i < 25; ++i) {
    const int ty = i / 5, tx = i % 5;
    strideTwo[i] = ty * int(kPitch) + tx;
    coalesced[i] = ty * int(kPitch) + 32 * (tx % 2) + 2 * (tx / 2);
  }
  cudaMemcpyToSymbol(kStrideTwoTaps, strideTwo, sizeof strideTwo);
  cudaMemcpyToSymbol(kCoalescedTaps, coalesced, sizeof coalesced);
}

void window(int sms, const float* in, float* out) {
  setWindowTaps();
  for (int warps : {16, 32, 64}) {
    const int blocks = sms * warps / 8;
    const float w = timeIt(window5x5<false>, blocks, in, out), wc = timeIt(window5x5<true>, blocks, in, out);
    std::printf("window5x5,%d,%d,%.3f,%.3f,%.2f,,,\n", warps, blocks, w, wc, w / wc);
  }
}

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::string(argv[1]) == "once";  // under ncu: one launch of each, no timing loop
  const bool rows = argc > 1 && std::string(argv[1]) == "rows";
  const std::string mode = argc > 1 ? argv[1] : "";
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  constexpr int kRow = 64;
  float *in, *out, *wide;
  cudaMalloc(&in, (kRows * kRow + 64) * sizeof(float));  // + the taps past the last output's window
  cudaMalloc(&out, kRows * kRow * sizeof(float));  // a sum per row: 2^25 rows of 2 floats
  cudaMalloc(&wide, kRows * kRow * sizeof(float));
  cudaMemset(in, 0, (kRows * kRow + 64) * sizeof(float));
  if (mode == "taps" || mode == "taps-once") {  // filled and unfilled gaps (issue #14)
    if (mode == "taps-once") {  // under ncu: one launch of each at 32 warps per SM
      const int blocks = sms * 32 / 8;
      filledGaps<5><<<blocks, 256>>>(in, out);
      filledGapsCoalesced<5><<<blocks, 256>>>(in, out);
      unfilledGaps<5><<<blocks, 256>>>(in, out);
      unfilledGapsCoalesced<5><<<blocks, 256>>>(in, out);
      setWindowTaps();
      window5x5<false><<<blocks, 256>>>(in, out);
      window5x5<true><<<blocks, 256>>>(in, out);
      return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
    }
    std::printf("taps,warps_per_sm,blocks,filled_ms,filled_coalesced_ms,filled_over_coalesced,unfilled_ms,unfilled_coalesced_ms,unfilled_over_coalesced\n");
    taps<2>(sms, in, out);
    taps<3>(sms, in, out);
    taps<4>(sms, in, out);
    taps<5>(sms, in, out);
    taps<8>(sms, in, out);
    window(sms, in, out);
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { std::fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
  }
  if (mode == "rows-middle") {
    // Rows between the 32 bytes that cost nothing and the 64 that cost 1.8x (short_rows.csv):
    // 40 and 48 bytes of floats, and 5 doubles (40 bytes), NPB's grid point (session 15).
    std::printf("row_floats,warps_per_sm,blocks,row_ms,column_ms,row_over_column,row_store_ms,column_store_ms,store_row_over_column\n");
    shortRow<10>(sms, in, out, wide);
    shortRow<12>(sms, in, out, wide);
    shortRow<5, double>(sms, reinterpret_cast<const double*>(in), reinterpret_cast<double*>(out),
                       reinterpret_cast<double*>(wide));
    shortRow<4, double>(sms, reinterpret_cast<const double*>(in), reinterpret_cast<double*>(out),
                       reinterpret_cast<double*>(wide));
    shortRow<8, double>(sms, reinterpret_cast<const double*>(in), reinterpret_cast<double*>(out),
                       reinterpret_cast<double*>(wide));
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  }
  if (mode == "rows-bytes") {
    // Rows of 1-byte elements (session 40: CUDASW4 loads each thread's 20 to 32 letters of its
    // sequence one byte at a time, `devS0[offset + numRegs * lane + i]`): 16, 32 and 64 bytes.
    std::printf("row_bytes,warps_per_sm,blocks,row_ms,column_ms,row_over_column,row_store_ms,column_store_ms,store_row_over_column\n");
    using B = unsigned char;
    shortRow<16, B>(sms, reinterpret_cast<const B*>(in), reinterpret_cast<B*>(out), reinterpret_cast<B*>(wide));
    shortRow<32, B>(sms, reinterpret_cast<const B*>(in), reinterpret_cast<B*>(out), reinterpret_cast<B*>(wide));
    shortRow<64, B>(sms, reinterpret_cast<const B*>(in), reinterpret_cast<B*>(out), reinterpret_cast<B*>(wide));
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  }
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
