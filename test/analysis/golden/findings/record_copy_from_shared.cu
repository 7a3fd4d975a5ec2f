// A record copied whole from a shared array, which nvcc moves as one vector access where it
// knows the array's alignment allows (lib/analysis/src/compiler_vectorised.cpp,
// `mergeRecordPieces`): an `extern __shared__` array is declared `.extern .shared .align 16`, so
// a two-float record at an 8-byte stride is one `ld.shared.v2.f32` (no conflict: a half warp per
// wavefront); a static `__shared__` array of the same records is `.shared .align 4`, and the copy
// stays two `ld.shared.f32` 8 bytes apart (2-way). nvcc 13's PTX for sm_90, both kernels below.
// thundergbm's histogram builder copies `GHPair src = local_hist[i]` from its extern array; the
// two 4-byte pieces were reported as a 2-way conflict, judged false by blind panel 33 from the
// PTX. Minimal kernels written for this test.
#include <cuda_runtime.h>

struct GHPair {
  float g;
  float h;
};

__global__ void fromExtern(GHPair* out, int n) {
  extern __shared__ GHPair lh[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) lh[i] = out[i + n];  // finding: none
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    GHPair s = lh[i];  // finding: none
    out[i].g = s.g * 2;
    out[i].h = s.h + 1;
  }
}

__global__ void fromStatic(GHPair* out, int n) {
  __shared__ GHPair lh[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x) lh[i] = out[i + n];  // finding: shared-bank-conflict=note
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    GHPair s = lh[i];  // finding: shared-bank-conflict=note
    out[i].g = s.g * 2;
    out[i].h = s.h + 1;
  }
}

int main() {
  GHPair* out;
  cudaMalloc(&out, 1 << 20);
  fromExtern<<<64, 256, 512 * sizeof(GHPair)>>>(out, 512);
  fromStatic<<<64, 256>>>(out, 512);
  return 0;
}
