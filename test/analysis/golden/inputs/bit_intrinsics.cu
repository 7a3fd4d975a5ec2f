// bit_intrinsics.cu: __ffs, __popc and __clz evaluated on the values they are given
// (cuda_intrinsics.cpp, `bitCountCall`; symbolic.h Op::Ffs/Popc/Clz). They were opaque: the
// call became a runtime scalar named `__ffs`, assumed 4096, so `i >>= __ffs(d) - 1` shifted
// by 4095 and the address could not be followed; the real-code set's convolutionFFT2D
// (`udivmod` under POWER_OF_TWO) had its four `x == 0` fix-up stores judged never run.
#include <cuda_runtime.h>

// Division by a power of two through __ffs: with DX = 64 from the launch, __ffs(32) = 6, so
// each warp of 32 threads has one i and x = 0..31: 32 contiguous floats, 4 sectors. The
// fix-up runs on lane 0 of each warp only: 1 sector a request.
__global__ void ffsDivide(float* dst, unsigned DX) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned x = i & (DX / 2 - 1);
  i >>= (__ffs(DX / 2) - 1);
  dst[i * DX + x] = 1.0f;  // expect: global store sectors=4 ideal=4 eta=1.00
  if (x == 0) dst[i * DX + DX / 2] = 2.0f;  // expect: global store sectors=1 ideal=1 eta=1.00
}

// mask = 3 at the launch: __popc(3) = 2 floats between lanes (8 sectors, ideal 4); __clz(3)
// = 30, so the shift is 0: contiguous, 4 sectors.
__global__ void bitCounts(float* out, unsigned mask) {
  out[threadIdx.x * __popc(mask)] = 1.0f;  // expect: global store sectors=8 ideal=4 eta=0.50
  out[threadIdx.x << (__clz(mask) - 30)] = 2.0f;  // expect: global store sectors=4 ideal=4 eta=1.00
}

void runBitCounts(float* dst, float* out) {
  ffsDivide<<<8, 256>>>(dst, 64u);
  bitCounts<<<1, 32>>>(out, 3u);
}
