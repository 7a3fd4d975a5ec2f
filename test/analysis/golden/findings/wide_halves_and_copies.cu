// Panel findings 6, 9, 77, 78 (judged false): the halves of a double4 written by the same
// lane, a complex number's two floats read (or written) together, and a whole 140-byte
// generator state copied by each thread once. Minimal kernels written for this test, after
// the shapes of nbody's double4 velocities, oceanFFT's float2 spectrum, a cuFFT complex
// output and a Sobol generator's state.
#include <cuda_runtime.h>

struct SobolState {
  unsigned int direction[32];
  unsigned int x, c, d;
};

__global__ void integrate(double4* __restrict__ vel, const double4* __restrict__ acc, int deviceOffset, int n) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  double4 v = acc[deviceOffset + index];  // finding: none
  v.x *= 0.5;
  vel[deviceOffset + index] = v;  // finding: none
}

__global__ void heightField(const float2* __restrict__ ht, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float re = ht[i].x;  // finding: none
    const float im = ht[i].y;  // finding: none
    out[i] = re * re + im * im;  // finding: none
  }
}

__global__ void scaleSpectrum(float2* __restrict__ ft_k, float scale, int n) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < n) {
    ft_k[index].x = scale;  // finding: none
    ft_k[index].y = scale;  // finding: none
  }
}

__global__ void estimate(const SobolState* __restrict__ rngStates, unsigned int* __restrict__ out, int step) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  SobolState s = rngStates[tid + step];  // finding: none
  out[tid] = s.x ^ s.c ^ s.d ^ s.direction[3];  // finding: none
}

int main() {
  double4 *vel, *acc;
  float2* ht;
  float* out;
  SobolState* states;
  unsigned int* res;
  cudaMalloc(&vel, 1 << 24);
  cudaMalloc(&acc, 1 << 24);
  cudaMalloc(&ht, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  cudaMalloc(&states, 1 << 24);
  cudaMalloc(&res, 1 << 22);
  integrate<<<256, 256>>>(vel, acc, 0, 256 * 256);
  heightField<<<256, 256>>>(ht, out, 256 * 256);
  scaleSpectrum<<<256, 256>>>(ht, 2.0f, 256 * 256);
  estimate<<<64, 256>>>(states, res, 0);
  cudaDeviceSynchronize();
  return 0;
}
