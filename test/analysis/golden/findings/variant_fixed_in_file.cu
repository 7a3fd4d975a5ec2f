// A sample that keeps its naive kernel beside the fixed one: the same expression
// `tile[threadIdx.x][threadIdx.y]` conflicts 32 ways in the unpadded tile and not at all in
// the padded one, so the fix is in the file already and the naive kernel's finding is a note
// naming the fixed kernel (lib/report/src/variant_level.cpp). A kernel whose conflict no other
// kernel of the file avoids keeps its warning, and so does a template whose other
// instantiation avoids it: the same place is the same code, not a variant, and so does a
// kernel of another job whose statement reads the same as the fixed kernel's (`columnMax`: the
// names say different jobs, so the padded transpose is no fixed version of it; libSGM's
// vertical and oblique path kernels, both launched, share their tile statements so). Minimal
// kernels written for this test.
#include <cuda_runtime.h>

__global__ void transposeUnpadded(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // finding: none
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];  // finding: shared-bank-conflict=note
}

__global__ void transposePadded(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // finding: none
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];  // finding: none
}

__global__ void columnSums(float* __restrict__ out) {
  __shared__ float cols[32][32];
  cols[threadIdx.y][threadIdx.x] = static_cast<float>(threadIdx.x);  // finding: none
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.y] = cols[threadIdx.x][threadIdx.y + 0];  // finding: shared-bank-conflict=warning
}

__global__ void columnMax(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // finding: none
  __syncthreads();
  out[y * n + x] = fmaxf(tile[threadIdx.y][threadIdx.x], tile[threadIdx.x][threadIdx.y]);  // finding: shared-bank-conflict=warning
}

template <int STRIDE>
__global__ void strided(float* __restrict__ out) {
  __shared__ float s[32 * 32];
  s[threadIdx.x] = static_cast<float>(threadIdx.x);  // finding: none
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[STRIDE * threadIdx.x];  // finding: shared-bank-conflict=warning
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  // Repeated, as a program's steps are: launched once, these grids waste less per run than a
  // launch costs, a note under MinWastePerRun (floor_one_demo_launch.cu).
  for (int rep = 0; rep < 100; ++rep) {
    transposeUnpadded<<<dim3(32, 32), dim3(32, 32)>>>(in, out, 1024);
    transposePadded<<<dim3(32, 32), dim3(32, 32)>>>(in, out, 1024);
    columnSums<<<1024, dim3(32, 32)>>>(out);
    columnMax<<<dim3(32, 32), dim3(32, 32)>>>(in, out, 1024);
    strided<1><<<32768, 32>>>(out);
    strided<8><<<32768, 32>>>(out);
  }
  cudaDeviceSynchronize();
  return 0;
}
