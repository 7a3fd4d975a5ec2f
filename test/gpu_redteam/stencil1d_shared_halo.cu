// 1D radius-3 stencil with the halo staged in dynamic shared memory (extern __shared__),
// launched through a host wrapper that takes the block size (128 and 256), plus a
// static-shared radius-1 variant with a 192-thread block (6 warps). Input padded by RADIUS.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int RADIUS = 3;
constexpr int N = 3 * 256 * 64;   // divisible by 128, 192 and 256

__global__ void stencilDyn(const float* __restrict__ in, float* __restrict__ out) {
  extern __shared__ float s[];
  int gi = blockIdx.x * blockDim.x + threadIdx.x;
  int li = threadIdx.x + RADIUS;
  s[li] = in[gi];
  if (threadIdx.x < RADIUS) {
    s[li - RADIUS] = in[gi - RADIUS];
    s[li + blockDim.x] = in[gi + blockDim.x];
  }
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k)
    acc += s[li + k];
  out[gi] = acc / (2 * RADIUS + 1);
}

void launchStencil(const float* in, float* out, int n, int block) {
  size_t shmem = (block + 2 * RADIUS) * sizeof(float);
  stencilDyn<<<n / block, block, shmem>>>(in, out);
}

constexpr int B3 = 192;

__global__ void stencil3Static(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float s[B3 + 2];
  int gi = blockIdx.x * B3 + threadIdx.x;
  s[threadIdx.x + 1] = in[gi];
  if (threadIdx.x == 0) s[0] = in[gi - 1];
  if (threadIdx.x == B3 - 1) s[B3 + 1] = in[gi + 1];
  __syncthreads();
  float l = s[threadIdx.x];
  float c = s[threadIdx.x + 1];
  float r = s[threadIdx.x + 2];
  out[gi] = 0.25f * l + 0.5f * c + 0.25f * r;
}

int main() {
  float *buf, *out;
  CK(cudaMalloc(&buf, (N + 2 * RADIUS) * sizeof(float)));
  CK(cudaMalloc(&out, N * sizeof(float)));
  CK(cudaMemset(buf, 0, (N + 2 * RADIUS) * sizeof(float)));
  const float* in = buf + RADIUS;   // in[-RADIUS .. N + RADIUS - 1] valid

  launchStencil(in, out, N, 128);
  launchStencil(in, out, N, 256);
  stencil3Static<<<N / B3, B3>>>(in, out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(buf));
  CK(cudaFree(out));
  return 0;
}
