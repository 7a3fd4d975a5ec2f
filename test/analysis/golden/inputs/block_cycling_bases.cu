// block_cycling_bases.cu: addresses that the block index moves by less than a sector from one
// block to the next (`a[i]` with i = threadIdx.x + blockDim.x + blockIdx.x, as cuda-samples'
// fp16ScalarProduct indexes). Over the grid a warp's 128 bytes start at every 4-byte offset of
// a sector in turn: 1 block in 8 aligned (4 sectors), the others straddling one more (5), 4.875
// sectors per request, as the H200 measured on fp16ScalarProduct's a[i] and b[i]
// (test/verify/data/realcode/). The figures average the block's residues
// (model::UniformOffset::blockCycle), they are not the first block's alone (4, "alignment
// unknown").
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

// 4 bytes a block: residues 0, 4, ..., 28.
__global__ void shiftByBlock(const float* __restrict__ in, float* __restrict__ out) {
  const int i = blockIdx.x + threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4.875 ideal=4 eta=0.82
}

// 8 bytes a block: residues 0, 8, 16, 24, 1 in 4 aligned.
__global__ void shiftByTwo(const float* __restrict__ in, float* __restrict__ out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[2 * blockIdx.x + threadIdx.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4.75 ideal=4 eta=0.84
}

// 32 bytes a block keep every warp on sector boundaries.
__global__ void shiftBySector(const float* __restrict__ in, float* __restrict__ out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[8 * blockIdx.x + threadIdx.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// A grid-stride loop entered at the block's index, fp16ScalarProduct's form.
__global__ void strideFromBlock(const float* __restrict__ a, float* __restrict__ out, int size) {
  const int stride = gridDim.x * blockDim.x;
  float s = 0;
  for (int i = threadIdx.x + blockDim.x + blockIdx.x; i < size; i += stride) s += a[i];  // expect: global load sectors=4.875 ideal=4 eta=0.82
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// A grid one block wide: the block index is 0, the base stays aligned.
__global__ void oneBlock(const float* __restrict__ in, float* __restrict__ out) {
  out[threadIdx.x] = in[blockIdx.x + threadIdx.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 2 * N * sizeof(float));
  cudaMalloc(&b, 2 * N * sizeof(float));
  shiftByBlock<<<N / 256, 256>>>(a, b);
  shiftByTwo<<<N / 256, 256>>>(a, b);
  shiftBySector<<<N / 256, 256>>>(a, b);
  strideFromBlock<<<128, 128>>>(a, b, N);
  oneBlock<<<1, 256>>>(a, b);
  cudaDeviceSynchronize();
  return 0;
}
