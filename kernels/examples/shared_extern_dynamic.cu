// shared_extern_dynamic.cu: dynamically sized shared memory, extern __shared__, whose size
// (2 * 256 floats) is the third launch parameter. The buffer is carved into two arrays,
// keys = smem and vals = smem + blockDim.x, and each block reverses both through them:
// writes smem[tid], reads smem[blockDim.x - 1 - tid]: stride-1 runs, 1 wavefront each.
// Seed 001, "shared memory is a per-SM scratchpad managed by the program"; seed 000 §2.3
// (row s[t]), with the array size known only from the launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int BLOCK = 256;
constexpr int N = 64 * BLOCK;

__global__ void reversePairs(const float* __restrict__ keysIn, const float* __restrict__ valsIn,
                             float* __restrict__ keysOut, float* __restrict__ valsOut, int n) {
  extern __shared__ float smem[];
  float* keys = smem;
  float* vals = smem + blockDim.x;
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  float k = (i < n) ? keysIn[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  float v = (i < n) ? valsIn[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  keys[tid] = k;  // expect: shared store wavefronts=1 ideal=1 degree=1
  vals[tid] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  int j = blockDim.x - 1 - tid;
  float rk = keys[j];  // expect: shared load wavefronts=1 ideal=1 degree=1
  float rv = vals[j];  // expect: shared load wavefronts=1 ideal=1 degree=1
  if (i < n) {
    keysOut[i] = rk;  // expect: global store sectors=4 ideal=4 eta=1.00
    valsOut[i] = rv;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *keysIn = nullptr, *valsIn = nullptr, *keysOut = nullptr, *valsOut = nullptr;
  CUDA_CHECK(cudaMalloc(&keysIn, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&valsIn, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&keysOut, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&valsOut, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(keysIn, 0, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(valsIn, 0, N * sizeof(float)));

  reversePairs<<<64, 256, 2 * 256 * sizeof(float)>>>(keysIn, valsIn, keysOut, valsOut, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(keysIn));
  CUDA_CHECK(cudaFree(valsIn));
  CUDA_CHECK(cudaFree(keysOut));
  CUDA_CHECK(cudaFree(valsOut));
  std::printf("shared_extern_dynamic: ok\n");
  return 0;
}
