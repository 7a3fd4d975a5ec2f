// grid_stride_loops.cu: grid-stride loops written as for, while and do/while, with int and
// size_t counters. The stride (blockDim.x * gridDim.x elements) keeps every iteration's
// warp on the same alignment, so each iteration has the figures of the first.
#include <cuda_runtime.h>

constexpr int N = 1 << 20;

__global__ void saxpyGridStride(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

__global__ void scaleWhile(float* data, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  while (i < n) {
    data[i] *= s;  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
    i += stride;
  }
}

// do/while after an early return: the body runs at least once for every surviving thread.
__global__ void copyDoWhile(const float2* __restrict__ in, float2* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  do {
    out[i] = in[i];  // expect: global load sectors=8 ideal=8 eta=1.00 ; global store sectors=8 ideal=8 eta=1.00
    i += blockDim.x * gridDim.x;
  } while (i < n);
}

// Real part of an interleaved complex array: lanes 8 bytes apart.
__global__ void realPart(const float* __restrict__ interleaved, float* __restrict__ re, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
    re[i] = interleaved[2 * i];  // expect: global load sectors=8 ideal=4 eta=0.50 ; global store sectors=4 ideal=4 eta=1.00
}

// 2D grid-stride over rows with a 32x8 block: each warp is one row segment.
__global__ void rowsGridStride(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += blockDim.y * gridDim.y)
    out[r * cols + c] = 2.0f * in[r * cols + c];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

// Grid-stride over float4 elements of a float array.
__global__ void zeroVec4(float* __restrict__ buf, int n4) {
  float4* b4 = reinterpret_cast<float4*>(buf);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x)
    b4[i] = make_float4(0.f, 0.f, 0.f, 0.f);  // expect: global store sectors=16 ideal=16 eta=1.00
}

int main() {
  float *x, *y, *c;
  float2 *in2, *out2;
  cudaMalloc(&x, N * sizeof(float));
  cudaMalloc(&y, N * sizeof(float));
  cudaMalloc(&c, 2 * N * sizeof(float));
  cudaMalloc(&in2, N * sizeof(float2));
  cudaMalloc(&out2, N * sizeof(float2));
  saxpyGridStride<<<128, 256>>>(N, 2.0f, x, y);
  scaleWhile<<<64, 128>>>(y, N, 0.5f);
  copyDoWhile<<<32, 256>>>(in2, out2, N);
  realPart<<<80, 256>>>(c, x, N);
  rowsGridStride<<<dim3(32, 16), dim3(32, 8)>>>(x, y, 1024, 1024);
  zeroVec4<<<64, 256>>>(y, N / 4);
  cudaDeviceSynchronize();
  return 0;
}
