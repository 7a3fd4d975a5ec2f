// Sub-word shared 2D tiles, written by row and read by column (a 32x32 transpose per block):
// unsigned char [32][32], short [32][32], short [32][33] (odd pad), __half [32][34] (pad 2),
// plus a char tile read by row with a mirrored column. 1024 x 1024 images of each type.
// Launches: all dim3(32,32) grids with dim3(32,8) blocks, 4 rows per thread (j += 8).
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1024;

__global__ void charTranspose(const unsigned char* __restrict__ in, unsigned char* __restrict__ out) {
  __shared__ unsigned char t[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(oy + j) * N + ox] = t[threadIdx.x][threadIdx.y + j];
}

__global__ void charMirrorRows(const unsigned char* __restrict__ in, unsigned char* __restrict__ out) {
  __shared__ unsigned char t[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  for (int j = 0; j < 32; j += 8) out[(y + j) * N + x] = t[threadIdx.y + j][31 - threadIdx.x];
}

__global__ void shortTranspose(const short* __restrict__ in, short* __restrict__ out) {
  __shared__ short t[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(oy + j) * N + ox] = t[threadIdx.x][threadIdx.y + j];
}

__global__ void shortTransposePad(const short* __restrict__ in, short* __restrict__ out) {
  __shared__ short t[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(oy + j) * N + ox] = t[threadIdx.x][threadIdx.y + j];
}

__global__ void halfTransposePad2(const __half* __restrict__ in, __half* __restrict__ out) {
  __shared__ __half t[32][34];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(oy + j) * N + ox] = t[threadIdx.x][threadIdx.y + j];
}

int main() {
  unsigned char *c0, *c1;
  short *s0, *s1;
  __half *h0, *h1;
  CK(cudaMalloc(&c0, N * N));
  CK(cudaMalloc(&c1, N * N));
  CK(cudaMalloc(&s0, N * N * sizeof(short)));
  CK(cudaMalloc(&s1, N * N * sizeof(short)));
  CK(cudaMalloc(&h0, N * N * sizeof(__half)));
  CK(cudaMalloc(&h1, N * N * sizeof(__half)));
  CK(cudaMemset(c0, 1, N * N));
  CK(cudaMemset(s0, 0, N * N * sizeof(short)));
  CK(cudaMemset(h0, 0, N * N * sizeof(__half)));

  dim3 grid(N / 32, N / 32);
  dim3 block(32, 8);
  charTranspose<<<grid, block>>>(c0, c1);
  charMirrorRows<<<grid, block>>>(c0, c1);
  shortTranspose<<<grid, block>>>(s0, s1);
  shortTransposePad<<<grid, block>>>(s0, s1);
  halfTransposePad2<<<grid, block>>>(h0, h1);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(c0)); CK(cudaFree(c1)); CK(cudaFree(s0)); CK(cudaFree(s1));
  CK(cudaFree(h0)); CK(cudaFree(h1));
  return 0;
}
