// Kernels taking structs by value that hold pointers and strides: Tensor { float* data; int stride; }
// for a 2D add (rows 1000 wide, stride 1024), View2D { data, rowStride, colStride } read through
// a transposed view (rowStride 1, colStride 1024), and Batch4 { const float* ptr[4]; int n; }
// indexed by blockIdx.y. Launches: dim3(32,128) x dim3(32,8) twice; dim3(256,4) x 256.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Tensor { float* data; int stride; };
struct View2D { const float* data; int rowStride; int colStride; };
struct Batch4 { const float* ptr[4]; int n; };

__global__ void addTensors(Tensor a, Tensor b, Tensor c, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  float va = a.data[row * a.stride + col];
  float vb = b.data[row * b.stride + col];
  c.data[row * c.stride + col] = va + vb;
}

__global__ void copyView(View2D src, Tensor dst, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  float v = src.data[row * src.rowStride + col * src.colStride];
  dst.data[row * dst.stride + col] = v;
}

__global__ void gatherBatch(Batch4 in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* p = in.ptr[blockIdx.y];
  float v = p[i];
  out[blockIdx.y * in.n + i] = v;
}

int main() {
  const int rows = 1024, cols = 1000, stride = 1024;
  const int bn = 1 << 16;
  float *a, *b, *c, *bufs, *out;
  CK(cudaMalloc(&a, rows * stride * sizeof(float)));
  CK(cudaMalloc(&b, rows * stride * sizeof(float)));
  CK(cudaMalloc(&c, rows * stride * sizeof(float)));
  CK(cudaMalloc(&bufs, 4 * bn * sizeof(float)));
  CK(cudaMalloc(&out, 4 * bn * sizeof(float)));
  CK(cudaMemset(a, 0, rows * stride * sizeof(float)));
  CK(cudaMemset(b, 0, rows * stride * sizeof(float)));
  CK(cudaMemset(bufs, 0, 4 * bn * sizeof(float)));

  Tensor ta{a, stride}, tb{b, stride}, tc{c, stride};
  dim3 block(32, 8);
  dim3 grid((cols + 31) / 32, rows / 8);
  addTensors<<<grid, block>>>(ta, tb, tc, rows, cols);
  View2D tview{a, 1, stride};   // element (r, c) of the transpose of a
  copyView<<<grid, block>>>(tview, tc, rows, cols);
  Batch4 batch;
  for (int k = 0; k < 4; ++k) batch.ptr[k] = bufs + (size_t)k * bn;
  batch.n = bn;
  gatherBatch<<<dim3(bn / 256, 4), 256>>>(batch, out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(c)); CK(cudaFree(bufs)); CK(cudaFree(out));
  return 0;
}
