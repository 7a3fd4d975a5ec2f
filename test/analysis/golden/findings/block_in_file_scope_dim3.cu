// A block held in a file-scope dim3 that the launching function sets member by member (Tartan's
// HIT, calcT_kernel.cu: `static dim3 threadsPerBlock;` and, in each wrapper,
// `threadsPerBlock.x = THREADSPERBLOCK_IN; threadsPerBlock.y = THREADSPERBLOCK_IN;` before the
// launch). Until session 31 such a block counted as computed at run time and the kernel was
// judged on a guessed 32x8 (blind panel 27 judged its figures false: 32 sectors per request
// where the 16x16 launch makes 16). The launching function's assignments are read, and z, which
// nothing in the unit writes, is the initialiser's 1 (host_file_scope_shapes.cpp). A dim3 of
// external linkage, which another unit could write, fixes only what the function assigns, and
// so does one whose other axes another function of the unit writes.
// Minimal kernels written for this test.
#include <cuda_runtime.h>

static const int kTile = 16;
static dim3 threadsPerBlock;
static dim3 blocksPerGrid;
dim3 sharedShape;  // external linkage: y and z could be set anywhere
static dim3 tileShape;  // its z set whole by another function: z not known at the launch

__global__ void transposeOut(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * n + y] = in[y * n + x];  // finding: inverted-thread-axes=warning
}

__global__ void runtimeBlockScale(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
}

__global__ void runtimeBlockTiles(float* data, int n) {
  const int i = (blockIdx.x * blockDim.z + threadIdx.z) * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}

void deepTiles() { tileShape = dim3(8, 8, 4); }

void tiles(float* data, int n) {
  tileShape.x = 8;
  tileShape.y = 8;
  runtimeBlockTiles<<<n / 256, tileShape>>>(data, n);
}

void transpose(const float* in, float* out, int n) {
  threadsPerBlock.x = kTile;
  threadsPerBlock.y = kTile;
  blocksPerGrid.x = n / kTile;
  blocksPerGrid.y = n / kTile;
  transposeOut<<<blocksPerGrid, threadsPerBlock>>>(in, out, n);
}

void scale(float* data, int n) {
  sharedShape.x = 128;
  runtimeBlockScale<<<n / 128, sharedShape>>>(data, n);
}

int main() {
  const int n = 4096;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  for (int k = 0; k < 10; ++k) {
    transpose(in, out, n);
    scale(out, n * n);
    tiles(out, n * n);
  }
  cudaDeviceSynchronize();
  return 0;
}
