// AoS single-field reads with struct sizes 8, 12, 20 and 32 bytes (one kernel per size).
// Each kernel reads one field (not always the first) of its struct into a contiguous float
// output. 1D grid, 256 threads per block; the 20-byte case uses 128-thread blocks.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct P8 { float x; int tag; };         // 8 bytes
struct P12 { float x, y, z; };           // 12 bytes
struct P20 { float a, b, c, d, e; };     // 20 bytes
struct P32 { float v[8]; };              // 32 bytes

constexpr int N = 1 << 16;

__global__ void readP8Tag(const P8* __restrict__ in, int* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int t = in[i].tag;
    out[i] = t;
  }
}

__global__ void readP12Y(const P12* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float y = in[i].y;
    out[i] = y;
  }
}

__global__ void readP20C(const P20* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float c = in[i].c;
    out[i] = c * 2.0f;
  }
}

__global__ void readP32V5(const P32* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i].v[5];
    out[i] = v + 1.0f;
  }
}

// Write one field of a 12-byte struct (store side of AoS).
__global__ void writeP12Z(P12* __restrict__ io, const float* __restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = src[i];
    io[i].z = s;
  }
}

int main() {
  P8* p8; P12* p12; P20* p20; P32* p32; float* outf; int* outi;
  CK(cudaMalloc(&p8, N * sizeof(P8)));
  CK(cudaMalloc(&p12, N * sizeof(P12)));
  CK(cudaMalloc(&p20, N * sizeof(P20)));
  CK(cudaMalloc(&p32, N * sizeof(P32)));
  CK(cudaMalloc(&outf, N * sizeof(float)));
  CK(cudaMalloc(&outi, N * sizeof(int)));
  CK(cudaMemset(p8, 0, N * sizeof(P8)));
  CK(cudaMemset(p12, 0, N * sizeof(P12)));
  CK(cudaMemset(p20, 0, N * sizeof(P20)));
  CK(cudaMemset(p32, 0, N * sizeof(P32)));
  CK(cudaMemset(outf, 0, N * sizeof(float)));

  readP8Tag<<<N / 256, 256>>>(p8, outi, N);
  readP12Y<<<N / 256, 256>>>(p12, outf, N);
  readP20C<<<N / 128, 128>>>(p20, outf, N);
  readP32V5<<<N / 256, 256>>>(p32, outf, N);
  writeP12Z<<<N / 256, 256>>>(p12, outf, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(p8)); CK(cudaFree(p12)); CK(cudaFree(p20)); CK(cudaFree(p32));
  CK(cudaFree(outf)); CK(cudaFree(outi));
  return 0;
}
