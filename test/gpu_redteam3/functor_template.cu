// A template kernel taking a functor that performs the load: Plain p[i], Every2 p[i * 2],
// Reverse p[n - 1 - i] (member n), Column p[i * ld] (member ld, 32), each functor instantiated
// once. Launches: 128 x 256, 64 x 256, dim3(256) x dim3(128), and via host wrapper 32 x 128.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Plain {
  __device__ float operator()(const float* p, int i) const { return p[i]; }
};
struct Every2 {
  __device__ float operator()(const float* p, int i) const { return p[i * 2]; }
};
struct Reverse {
  int n;
  __device__ float operator()(const float* p, int i) const { return p[n - 1 - i]; }
};
struct Column {
  int ld;
  __device__ float operator()(const float* p, int i) const {
    return p[(i % 32) * ld + i / 32];
  }
};

template <typename Op>
__global__ void applyOp(const float* __restrict__ in, float* __restrict__ out, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = op(in, i);
  out[i] = v;
}

template <typename Op>
__global__ void applyOpStore(const float* __restrict__ in, float* __restrict__ out, Op op, int outStride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = op(in, i) * 3.0f;
  out[i * outStride] = v;
}

void launchColumn(const float* in, float* out, int blocks, int threads, int ld) {
  Column c{ld};
  applyOpStore<Column><<<blocks, threads>>>(in, out, c, 1);
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  applyOp<<<128, 256>>>(in, out, Plain{});
  applyOp<<<64, 256>>>(in, out, Every2{});          // 2 * 16384 < n
  dim3 g(256), b(128);
  applyOpStore<<<g, b>>>(in, out, Reverse{n}, 4);   // 32768 threads, store index < 4 * 32768
  launchColumn(in, out, 32, 128, 32);               // 4096 threads: (31) * 32 + 127 < n
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
