// templates_nontype.cu: non-type template parameters in the index (a stride, a vector width,
// a leading dimension in a device helper), type parameters, and const int locals.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

template <int STRIDE>
__global__ void gatherStrided(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * STRIDE];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00 ; global load sectors=12 ideal=4 eta=0.33
}

// VEC consecutive elements per thread, copied one by one: lanes VEC elements apart.
template <typename T, int VEC>
__global__ void copyPerThread(const T* __restrict__ in, T* __restrict__ out, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
  for (int v = 0; v < VEC; ++v) out[i + v] = in[i + v];  // expect: global store sectors=16 ideal=4 eta=0.25 ; global load sectors=16 ideal=4 eta=0.25 ; global store sectors=16 ideal=8 eta=0.50 ; global load sectors=16 ideal=8 eta=0.50
}

template <int LD>
__device__ __forceinline__ int at(int r, int c) {
  return r * LD + c;
}

// Block 8 x 32 over a row-major matrix with LD = 8 (rows of 32 bytes): a warp is 4 full
// rows, 128 contiguous bytes. With LD = 12: 4 runs of 32 bytes, 48 bytes apart, the odd
// ones straddling two sectors: 6 sectors.
template <int LD>
__global__ void tileRead(const float* __restrict__ m, float* __restrict__ out) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = threadIdx.x;
  out[r * 8 + c] = m[at<LD>(r, c)];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00 ; global load sectors=6 ideal=4 eta=0.67
}

int main() {
  float *a, *b;
  double *da, *db;
  cudaMalloc(&a, 4 * N * sizeof(float));
  cudaMalloc(&b, 4 * N * sizeof(float));
  cudaMalloc(&da, 4 * N * sizeof(double));
  cudaMalloc(&db, 4 * N * sizeof(double));
  gatherStrided<1><<<N / 256, 256>>>(a, b, N);
  gatherStrided<3><<<N / 256, 256>>>(a, b, N);
  copyPerThread<float, 4><<<N / 256, 256>>>(a, b, 4 * N);
  copyPerThread<double, 2><<<N / 256, 256>>>(da, db, 2 * N);
  tileRead<8><<<dim3(1, N / 32), dim3(8, 32)>>>(a, b);
  tileRead<12><<<dim3(1, N / 32), dim3(8, 32)>>>(a, b);
  cudaDeviceSynchronize();
  return 0;
}
