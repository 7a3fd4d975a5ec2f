// launch_pointer_offsets.cu: pointers the host passes as an offset into their allocation
// (`buf + 1`, `&buf[8]`, a cast then `+ 1`, a local initialised so and handed through a
// wrapper), and a guard that idles a lane in the grid's first block only. The H200 measured
// the same patterns in test/gpu_redteam/ (vector_offset_views.cu, stencil1d_shared_halo.cu,
// partial_warps_offsets.cu).
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

// 4 bytes past a 256-byte boundary: each warp's 128 bytes straddle 5 sectors.
__global__ void copyShifted(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // expect: global store sectors=5 ideal=4 eta=0.80 ; global load sectors=5 ideal=4 eta=0.80
}

// 32 bytes past: sector-aligned, nothing lost.
__global__ void copySectorShifted(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=5 ideal=4 eta=0.80
}

// double2 (16 bytes) one element in: 512 bytes per warp over 17 sectors.
__global__ void copyD2(const double2* __restrict__ in, double2* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // expect: global store sectors=16 ideal=16 eta=1.00 ; global load sectors=17 ideal=16 eta=0.94
}

// A halo pointer `buf + 3` made in main and passed through a wrapper: 12 bytes in.
__global__ void stencil(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=5 ideal=4 eta=0.80
}
void runStencil(const float* in, float* out, int block) { stencil<<<N / block, block>>>(in, out); }

// `i >= 1` idles lane 0 of the grid's first block only: every other warp reads 128 bytes
// starting 4 bytes before a sector boundary, 5 sectors.
__global__ void backDiff(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n) out[i] = in[i - 1];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=5 ideal=4 eta=0.80
}

int main() {
  float *a, *b;
  cudaMalloc(&a, (N + 64) * sizeof(double2));
  cudaMalloc(&b, (N + 64) * sizeof(double2));
  copyShifted<<<N / 256, 256>>>(a + 1, b + 1);
  copySectorShifted<<<N / 256, 256>>>(a + 1, &b[8]);
  copyD2<<<N / 256, 256>>>(reinterpret_cast<const double2*>(a) + 1, reinterpret_cast<double2*>(b));
  const float* halo = a + 3;
  runStencil(halo, b, 128);
  backDiff<<<N / 256, 256>>>(a, b, N);
  cudaDeviceSynchronize();
  return 0;
}
