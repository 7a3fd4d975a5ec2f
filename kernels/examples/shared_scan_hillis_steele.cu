// shared_scan_hillis_steele.cu: inclusive block scan (prefix sum) by Hillis-Steele in a
// double-buffered shared array: at each step every thread adds the value `offset` places
// to its left. pin / pout alternate between the two halves (warp-uniform). Every shared
// access is a stride-1 run (shifted by offset for the left neighbour): 1 wavefront. Warps
// whose lanes all have tid < offset skip the neighbour read and issue no request for it.
// Seed 002, "Scan parallele ... Hillis-Steele: simple a ecrire, O(N log N) ... chaque etape
// double la distance de combinaison".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int BLOCK = 256;
constexpr int N = 64 * BLOCK;

__global__ void scanHillisSteele(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float temp[2 * BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  int pout = 0, pin = 1;
  float x = (i < n) ? in[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  temp[tid] = x;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    float v = temp[pin * BLOCK + tid];  // expect: shared load wavefronts=1 ideal=1 degree=1
    if (tid >= offset) v += temp[pin * BLOCK + tid - offset];  // expect: shared load wavefronts=1 ideal=1 degree=1
    temp[pout * BLOCK + tid] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
    __syncthreads();
  }
  float total = temp[pout * BLOCK + tid];  // expect: shared load wavefronts=1 ideal=1 degree=1
  if (i < n) out[i] = total;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  scanHillisSteele<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_scan_hillis_steele: ok\n");
  return 0;
}
