// Index computed through templates, helpers, lambdas and accessor methods: template <typename
// T> axpy instantiated for float and double (host wrapper takes the block size), template
// <int STRIDE> gather with 2 and 5, a __device__ index helper, a lambda computing a
// column-major index, and a struct whose get()/set() methods do the accesses (unsigned ld).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 16;
constexpr int D = 256;   // 2D extent

template <typename T>
__global__ void axpyT(const T* __restrict__ x, T* __restrict__ y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T xv = x[i];
    T yv = y[i];
    y[i] = a * xv + yv;
  }
}

template <typename T>
void runAxpy(const T* x, T* y, T a, int n, int block) {
  axpyT<T><<<(n + block - 1) / block, block>>>(x, y, a, n);
}

template <int STRIDE>
__global__ void gatherStride(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i * STRIDE];
  out[i] = v;
}

__device__ __forceinline__ int tiledIndex(int bx, int by, int tx, int ty, int ld) {
  return (by * 8 + ty) * ld + bx * 32 + tx;
}

__global__ void helperIndexed(const float* __restrict__ in, float* __restrict__ out) {
  int idx = tiledIndex(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, D);
  float v = in[idx];
  out[idx] = v * 3.0f;
}

__global__ void lambdaColMajor(const float* __restrict__ in, float* __restrict__ out, int ld) {
  auto cm = [=](int r, int c) { return c * ld + r; };
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[cm(r, c)];
  out[cm(c, r)] = v;
}

struct Grid2D {
  float* data;
  unsigned ld;
  __device__ float get(unsigned x, unsigned y) const {
    return data[y * ld + x];
  }
  __device__ void set(unsigned x, unsigned y, float v) {
    data[y * ld + x] = v;
  }
};

__global__ void accessorShift(Grid2D src, Grid2D dst) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = src.get(y, x);
  dst.set(x, y, v);
}

int main() {
  float *fa, *fb;
  double *da, *db;
  CK(cudaMalloc(&fa, 5 * N * sizeof(float)));
  CK(cudaMalloc(&fb, N * sizeof(float)));
  CK(cudaMalloc(&da, N * sizeof(double)));
  CK(cudaMalloc(&db, N * sizeof(double)));
  CK(cudaMemset(fa, 0, 5 * N * sizeof(float)));
  CK(cudaMemset(fb, 0, N * sizeof(float)));
  CK(cudaMemset(da, 0, N * sizeof(double)));
  CK(cudaMemset(db, 0, N * sizeof(double)));

  runAxpy<float>(fa, fb, 2.0f, N, 256);
  runAxpy<double>(da, db, 2.0, N, 128);
  gatherStride<2><<<N / 256, 256>>>(fa, fb);
  gatherStride<5><<<N / 256, 256>>>(fa, fb);
  helperIndexed<<<dim3(D / 32, D / 8), dim3(32, 8)>>>(fa, fb);
  lambdaColMajor<<<dim3(D / 16, D / 16), dim3(16, 16)>>>(fa, fb, D);
  Grid2D g1{fa, D}, g2{fb, D};
  accessorShift<<<dim3(D / 32, D / 4), dim3(32, 4)>>>(g1, g2);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(fa)); CK(cudaFree(fb)); CK(cudaFree(da)); CK(cudaFree(db));
  return 0;
}
