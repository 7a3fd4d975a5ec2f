// launch_wrappers.cu: the block shape comes from a parameter of the host function that
// launches, given at its call sites (one or two levels up). Without following the calls
// the kernels would fall back to an assumed 32x8 / 256-thread block.
#include <cuda_runtime.h>

constexpr int W = 1024;

// 16 x 16 (from launchTranspose(..., 16)): a warp is 2 rows of 16 threads. The read is 2
// runs of 64 bytes (4 sectors); the write puts each thread in its own row, neighbours in y
// share a sector: 16 sectors. (At the assumed 32 x 8 it would be 32 sectors.)
__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * w + y] = in[y * w + x];  // expect: global store sectors=16 ideal=4 eta=0.25 ; global load sectors=4 ideal=4 eta=1.00
}

void launchTranspose(const float* in, float* out, int w, int tile) {
  dim3 block(tile, tile);
  dim3 grid((w + tile - 1) / tile, (w + tile - 1) / tile);
  transpose<<<grid, block>>>(in, out, w);
}

// 8 x 32 through two wrappers, the shape as a dim3 parameter: a warp is 4 rows of 8
// floats, 4 runs of 32 bytes: 4 sectors, ideal 4.
__global__ void rows8(float* p, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  p[y * w + x] += 1.0f;  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

static void runRows(float* p, dim3 block) { rows8<<<dim3(W / block.x, W / block.y), block>>>(p, W); }
void step(float* p, int cols) { runRows(p, dim3(cols, 32)); }

// The stride comes from the call site too: 3 floats apart, 12 sectors for 4.
__global__ void strided(float* p, int s) {
  p[(blockIdx.x * blockDim.x + threadIdx.x) * s] = 0.0f;  // expect: global store sectors=12 ideal=4 eta=0.33
}
void runStrided(float* p, int threads, int stride) { strided<<<64, threads>>>(p, stride); }

int main() {
  float *a, *b;
  cudaMalloc(&a, W * W * sizeof(float));
  cudaMalloc(&b, W * W * sizeof(float));
  launchTranspose(a, b, W, 16);
  step(a, 8);
  runStrided(a, 128, 3);
  cudaDeviceSynchronize();
  return 0;
}
