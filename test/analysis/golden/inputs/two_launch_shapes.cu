// two_launch_shapes.cu: kernels launched with two different block shapes. Each access is
// reported at its worst shape (the largest sectors/ideal or conflict degree).
#include <cuda_runtime.h>

constexpr int W = 1024;
constexpr int H = 1024;

// 32 x 8: each warp one row, 4 sectors. 4 x 64: each warp 8 rows of 16 bytes, one sector
// each: 8 sectors for 4 of data. Worst: 4 x 64.
// Shared tile[64][32]: 32 x 8 writes 32 banks (1 wavefront); 4 x 64 writes 4 banks x 8
// rows: 8 wavefronts. Worst: 4 x 64.
__global__ void stageTile(const float* __restrict__ in, float* __restrict__ out, int width) {
  __shared__ float tile[64][32];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];  // expect: shared store wavefronts=8 ideal=1 degree=8 ; global load sectors=8 ideal=4 eta=0.50
  __syncthreads();
  out[y * width + x] = 2.0f * tile[threadIdx.y][threadIdx.x];  // expect: global store sectors=8 ideal=4 eta=0.50 ; shared load wavefronts=8 ideal=1 degree=8
}

// Naive transpose. 32 x 8: the read is one row per warp (4 sectors), the write 32 rows
// (32 sectors). 2 x 16: the read is 16 rows of 8 bytes (16 sectors), the write 2 runs of
// 64 bytes (4 sectors). Worst: read at 2 x 16, write at 32 x 8.
__global__ void transposeNaive(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * height + y] = in[y * width + x];  // expect: global store sectors=32 ideal=4 eta=0.12 ; global load sectors=16 ideal=4 eta=0.25
}

int main() {
  float *a, *b;
  cudaMalloc(&a, W * H * sizeof(float));
  cudaMalloc(&b, W * H * sizeof(float));
  stageTile<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(a, b, W);
  stageTile<<<dim3(W / 4, H / 64), dim3(4, 64)>>>(a, b, W);
  transposeNaive<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(a, b, W, H);
  dim3 thin(2, 16);
  transposeNaive<<<dim3(W / 2, H / 16), thin>>>(a, b, W, H);
  cudaDeviceSynchronize();
  return 0;
}
