// Indices from a __device__ function returning struct Idx2 { int x, y; } and from lambdas capturing
// the width: copy/scale, transpose through the struct (column store), a lambda at(r, c) used for
// row and column reads, a lambda returning a row pointer (+1 offset), and unflatten(linear, 48)
// with a 1D block. 1024 x 1024 floats. Launches: (32,128)x(32,8), (64,64)x(16,16), 3072 x 256.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Idx2 { int x, y; };

__device__ Idx2 globalIdx2D() {
  Idx2 p;
  p.x = blockIdx.x * blockDim.x + threadIdx.x;
  p.y = blockIdx.y * blockDim.y + threadIdx.y;
  return p;
}

__device__ Idx2 unflatten(int linear, int width) { return Idx2{linear % width, linear / width}; }

__global__ void scaleImage(const float* __restrict__ in, float* __restrict__ out, int w) {
  Idx2 p = globalIdx2D();
  float v = in[p.y * w + p.x];
  out[p.y * w + p.x] = 2.0f * v;
}

__global__ void transposeByIdx(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  Idx2 p = globalIdx2D();
  float v = in[p.y * w + p.x];
  out[p.x * h + p.y] = v;
}

__global__ void lambdaAt(const float* __restrict__ in, float* __restrict__ out, int w) {
  auto at = [w](int r, int c) { return r * w + c; };
  Idx2 p = globalIdx2D();
  float rowv = in[at(p.y, p.x)];
  float colv = in[at(p.x, p.y)];
  out[at(p.y, p.x)] = rowv - colv;
}

__global__ void lambdaRowPtr(const float* __restrict__ in, float* __restrict__ out, int w) {
  auto row = [=](int r) { return in + (size_t)r * w; };
  Idx2 p = globalIdx2D();
  float v = row(p.y)[p.x + 1];
  out[p.y * w + p.x] = v;
}

__global__ void unflattenWidth48(const float* __restrict__ in, float* __restrict__ out, int pitch) {
  int linear = blockIdx.x * blockDim.x + threadIdx.x;
  Idx2 p = unflatten(linear, 48);
  float v = in[p.y * pitch + p.x];
  out[linear] = v;
}

int main() {
  const int w = 1024, h = 1024;
  float *in, *out;
  CK(cudaMalloc(&in, (w * h + 32) * sizeof(float)));
  CK(cudaMalloc(&out, w * h * sizeof(float)));
  CK(cudaMemset(in, 0, (w * h + 32) * sizeof(float)));

  dim3 b32(32, 8), g32(w / 32, h / 8);
  scaleImage<<<g32, b32>>>(in, out, w);
  transposeByIdx<<<g32, b32>>>(in, out, w, h);
  dim3 b16(16, 16), g16(w / 16, h / 16);
  lambdaAt<<<g16, b16>>>(in, out, w);
  lambdaRowPtr<<<g32, b32>>>(in, out, w);
  // 3072 * 256 threads = 16384 rows of 48; pitch 64 -> 1M floats read region
  unflattenWidth48<<<3072, 256>>>(in, out, 64);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
