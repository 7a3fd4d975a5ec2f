// Partial warps and offset indexing: block 48 with guard i < n (n = 10000) reading in[i + 1];
// block 80 with early return reading in[i + 3] and in[2 * i + 1]; int64 index with a
// negative offset p[i - 33] from a base shifted by 64 floats; a size_t reversed read
// in[n - 1 - i] through __ldg; and an unsigned index reading in[i - 1] for i >= 1.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 10000;       // not a multiple of 32
constexpr int CAP = 4 * N;     // buffer capacity in floats

__global__ void nextElem48(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i + 1];
    out[i] = v;
  }
}

__global__ void offsets80(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = in[i + 3];
  float b = in[2 * i + 1];
  out[i] = a - b;
}

__global__ void negativeOffset64(const float* __restrict__ base, float* __restrict__ out, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float* p = base + 64;
    float v = p[i - 33];
    out[i] = v;
  }
}

__global__ void reversedSizeT(const float* __restrict__ in, float* __restrict__ out, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __ldg(&in[n - 1 - i]);
    out[i] = v;
  }
}

__global__ void backDiffUnsigned(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1u && i < n) {
    float prev = in[i - 1u];
    out[i] = prev;
  }
}

int main() {
  float *in, *out;
  CK(cudaMalloc(&in, CAP * sizeof(float)));
  CK(cudaMalloc(&out, CAP * sizeof(float)));
  CK(cudaMemset(in, 0, CAP * sizeof(float)));

  nextElem48<<<(N + 47) / 48, 48>>>(in, out, N);
  offsets80<<<(N + 79) / 80, 80>>>(in, out, N);
  negativeOffset64<<<(N + 255) / 256, 256>>>(in, out, (long long)N);
  reversedSizeT<<<(N + 127) / 128, 128>>>(in, out, (size_t)N);
  backDiffUnsigned<<<(N + 63) / 64, 64>>>(in, out, (unsigned)N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in));
  CK(cudaFree(out));
  return 0;
}
