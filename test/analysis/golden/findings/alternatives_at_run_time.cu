// Kernels the host chooses between at run time for one job (docs/findings.md, "Levels";
// lib/analysis/src/launch_alternatives.cpp, lib/report/src/alternative_level.cpp). Benchmark
// and teaching programs (llm.c's dev/cuda, the CUDA samples' transpose) keep `kernel1` ...
// `kernelN` of one operation and pick one from the command line; the first is naive on
// purpose, and blind panel 7 called its warnings noise. Such a kernel's finding is a note when
// another alternative does not waste what it does; every other choice keeps its warnings: an
// operation chosen at run time (`add` or `mul`), alternatives that all waste, a choice fixed
// before the program runs (a macro), and instantiations of one template. Minimal kernels
// written for this test; the choices that keep their warnings are in alternatives_kept_as_warnings.cu.
#include <cuda_runtime.h>
#include <cstdlib>

// ---- a `switch (kernel_num)` over wrappers, kernel_num from the command line (llm.c) ----

// One thread per row walks its row: every load touches a sector per lane.
__global__ void row_sums_kernel1(float* out, const float* inp, int N, int C) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  float sum = 0;
  for (int c = 0; c < C; ++c) sum += inp[row * C + c];  // finding: uncoalesced-global-access=note
  out[row] = sum;  // finding: none
}

// One warp per row: the lanes read consecutive floats.
__global__ void row_sums_kernel2(float* out, const float* inp, int N, int C) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= N) return;
  float sum = 0;
  const float* x = inp + row * C;
  for (int c = lane; c < C; c += 32) sum += x[c];  // finding: none
  for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) out[row] = sum;  // finding: divergent-branch=note
}

void row_sums1(float* out, const float* inp, int N, int C, int block_size) {
  row_sums_kernel1<<<(N + block_size - 1) / block_size, block_size>>>(out, inp, N, C);
}

void row_sums2(float* out, const float* inp, int N, int C, int block_size) {
  row_sums_kernel2<<<N * 32 / block_size, block_size>>>(out, inp, N, C);
}

void row_sums(int kernel_num, float* out, const float* inp, int N, int C, int block_size) {
  switch (kernel_num) {
    case 1:
      row_sums1(out, inp, N, C, block_size);
      break;
    case 2:
      row_sums2(out, inp, N, C, block_size);
      break;
    default:
      exit(1);
  }
}

// ---- an `if`/`else if` chain on a value read at run time ----

__global__ void transposeNaive(float* out, const float* in, int n) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  out[x * n + y] = in[y * n + x];  // finding: inverted-thread-axes=note
}

__global__ void transposeTiled(float* out, const float* in, int n) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // finding: none
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];  // finding: none
}

__global__ void transposeTiledV2(float* out, const float* in, int n) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // finding: none
  __syncthreads();
  out[(blockIdx.x * 32 + threadIdx.y) * n + blockIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // finding: none
}

// ---- a table of kernels, launched in a loop over all of them (a benchmark) ----

// Each thread copies its own 64-float row.
__global__ void copy_rows_naive(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 64; ++j) out[i * 64 + j] = in[i * 64 + j];  // finding: uncoalesced-global-access=note
}

__global__ void copy_rows_coalesced(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 64; ++j) out[j * n + i] = in[j * n + i];  // finding: none
}

// ---- chosen by a test with no variable alone on either side (`n % 4 == 0`): quoted whole ----
__global__ void zero_fill_v1(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.0f;  // finding: none
}

__global__ void zero_fill_v4(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) reinterpret_cast<float4*>(out)[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // finding: none
}

int main(int argc, char** argv) {
  const int n = 1 << 20;
  float *out, *in;
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&in, n * sizeof(float));
  const int kernel_num = argc > 1 ? atoi(argv[1]) : 1;
  row_sums(kernel_num, out, in, 4096, 256, 256);

  const int variant = argc > 2 ? atoi(argv[2]) : 0;
  if (variant == 0) transposeNaive<<<dim3(32, 32), dim3(32, 32)>>>(out, in, 1024);
  else if (variant == 1) transposeTiled<<<dim3(32, 32), dim3(32, 32)>>>(out, in, 1024);
  else transposeTiledV2<<<dim3(32, 32), dim3(32, 32)>>>(out, in, 1024);

  const int fill = argc > 3 ? atoi(argv[3]) : n;
  if (fill % 4 == 0) zero_fill_v4<<<fill / 4 / 256, 256>>>(out, fill);
  else zero_fill_v1<<<(fill + 255) / 256, 256>>>(out, fill);

  void (*kernels[])(float*, const float*, int) = {copy_rows_naive, copy_rows_coalesced};
  for (int k = 0; k < 2; ++k) kernels[k]<<<n / 64 / 256, 256>>>(out, in, n / 64);
  cudaDeviceSynchronize();
  return 0;
}
