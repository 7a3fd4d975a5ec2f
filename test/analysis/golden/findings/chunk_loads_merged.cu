// A thread's loop over 8 or 16 consecutive words of a shared array, its trip count a constant:
// nvcc unrolls it and reads each 16 bytes with one LDS.128 (kernels/examples/
// shared_matmul_tiled.cu's SASS on the H200; nvcc 13's PTX of cudahandbook's decoupled-lookback
// scan, four ld.shared.v4.u32 for 16 words). Lanes 64 bytes apart then conflict 4-way within
// each quarter-warp phase, not 16-way as sixteen 4-byte loads would: blind panel 40's judge read
// the PTX and measured padding's gain. The figures are now the first piece's, counted once per
// piece (compiler_vectorised.cpp). Stores stay scalar (their PTX kept st.shared.f32 elsewhere).
// Minimal kernels written for this test.
#include <cuda_runtime.h>

template <int IPT>
__global__ void chunkScan(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int s[256 * IPT];
  for (int i = 0; i < IPT; i++) s[i * 256 + threadIdx.x] = in[blockIdx.x * 256 * IPT + i * 256 + threadIdx.x];  // finding: none
  __syncthreads();
  int run = 0;
  for (int i = 0; i < IPT; i++) run += s[threadIdx.x * IPT + i];  // finding: wide-shared-access-conflict=note
  out[blockIdx.x * 256 + threadIdx.x] = run;  // finding: none
}

void launch(const int* in, int* out) {
  chunkScan<16><<<1024, 256>>>(in, out);
}
