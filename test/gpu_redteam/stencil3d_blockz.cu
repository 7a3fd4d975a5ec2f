// 3D indexing with blockDim.z > 1: a 7-point stencil on a 64^3 interior of a 66^3 padded
// volume with block (32,4,2), and a 3D copy with block (4,8,8) where threadIdx.x covers only
// 4 consecutive x so one warp spans 8 rows (y) of the volume.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int NI = 64;          // interior size per dimension
constexpr int NP = NI + 2;      // padded size

__device__ __forceinline__ int at(int x, int y, int z) { return (z * NP + y) * NP + x; }

__global__ void sevenPoint(const float* __restrict__ in, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int z = blockIdx.z * blockDim.z + threadIdx.z + 1;
  float c = in[at(x, y, z)];
  float xm = in[at(x - 1, y, z)];
  float xp = in[at(x + 1, y, z)];
  float ym = in[at(x, y - 1, z)];
  float yp = in[at(x, y + 1, z)];
  float zm = in[at(x, y, z - 1)];
  float zp = in[at(x, y, z + 1)];
  out[at(x, y, z)] = xm + xp + ym + yp + zm + zp - 6.0f * c;
}

__global__ void copyNarrowX(const float* __restrict__ in, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int idx = (z * NI + y) * NI + x;
  float v = in[idx];
  out[idx] = v;
}

int main() {
  const size_t bytes = (size_t)NP * NP * NP * sizeof(float);
  float *in, *out;
  CK(cudaMalloc(&in, bytes));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMemset(in, 0, bytes));

  dim3 blockA(32, 4, 2);
  dim3 gridA(NI / 32, NI / 4, NI / 2);
  sevenPoint<<<gridA, blockA>>>(in, out);
  dim3 blockB(4, 8, 8);
  dim3 gridB(NI / 4, NI / 8, NI / 8);
  copyNarrowX<<<gridB, blockB>>>(in, out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in));
  CK(cudaFree(out));
  return 0;
}
