// A runtime scalar taken at the analysis's default that no launch can have: at K = 4096 the
// per-thread rows `rows[threadIdx.x * K + i]` of one 256-thread block would span 4 MB of shared
// memory, where a block has at most 227 KB (lib/analysis/src/record_builder.cpp, `blockSpan`;
// AccessSite::impossibleScalars). The real K is smaller and not known, and with it the figures: a
// conflict's degree follows K's factors of two, a strided walk's sectors its length. Every
// access whose lanes K spaces is a note that says so, the global ones of the same kernel
// included. MNN's TopK kernels (the host sizes the block from K) had five warnings on K = 4096,
// four judged false by blind panel 33. A static array bounds its scalars the same way. With K known
// the figures are the launch's, and the warnings stay. Minimal kernels written for this test.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void topRows(const float* in, float* out, int K) {
  extern __shared__ float rows[];
  for (int i = 0; i < K; i++) rows[threadIdx.x * K + i] = in[(blockIdx.x * blockDim.x + threadIdx.x) * K + i];  // finding: shared-bank-conflict=note uncoalesced-global-access=note
  __syncthreads();
  float best = rows[threadIdx.x * K];  // finding: shared-bank-conflict=note
  for (int i = 1; i < K; i++) best = fmaxf(best, rows[threadIdx.x * K + i]);  // finding: shared-bank-conflict=note
  out[blockIdx.x * blockDim.x + threadIdx.x] = best;
}

__global__ void staticRows(const float* in, float* out, int S) {
  __shared__ float tile[1024];
  tile[threadIdx.x * S] = in[blockIdx.x * blockDim.x + threadIdx.x];  // finding: shared-bank-conflict=note
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

__global__ void knownRows(const float* in, float* out, int K) {
  extern __shared__ float rows[];
  for (int i = 0; i < K; i++) rows[threadIdx.x * K + i] = in[(blockIdx.x * blockDim.x + threadIdx.x) * K + i];  // finding: shared-bank-conflict=warning uncoalesced-global-access=warning
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = rows[threadIdx.x * K];  // finding: shared-bank-conflict=note
}

int main(int argc, char** argv) {
  const int K = argc > 1 ? atoi(argv[1]) : 0;
  const int S = argc > 2 ? atoi(argv[2]) : 0;
  float *in, *out;
  cudaMalloc(&in, 1 << 26);
  cudaMalloc(&out, 1 << 20);
  topRows<<<64, 256, 256 * K * sizeof(float)>>>(in, out, K);
  staticRows<<<64, 256>>>(in, out, S);
  for (int r = 0; r < 10; ++r) knownRows<<<1024, 256, 256 * 32 * sizeof(float)>>>(in, out, 32);
  cudaDeviceSynchronize();
  return 0;
}
