// shared_through_helpers.cu: shared memory reached the ways real code reaches it: the CUDA
// samples' SharedMemory<T> (a struct whose conversion operator returns an `extern __shared__`
// array), one dynamic buffer carved into several arrays, and a pointer from a device helper.
#include <cuda_runtime.h>

template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
};

template <class T>
__global__ void blockSum(const T* in, T* out) {
  T* sdata = SharedMemory<T>();
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = sdata[blockDim.x - 1];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=1 ideal=1 eta=1.00
}

// Two arrays in one dynamic buffer: `b` starts blockDim.x floats in, and its even words
// put two lanes on each bank.
__global__ void carved(float* out) {
  extern __shared__ float buffer[];
  float* a = buffer;
  float* b = (float*)&buffer[blockDim.x];
  a[threadIdx.x] = 1.0f;  // expect: shared store wavefronts=1 ideal=1 degree=1
  b[2 * threadIdx.x] = 2.0f;  // expect: shared store wavefronts=2 ideal=1 degree=2
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1
}

__device__ float* rowOf(float (*tile)[33], int r) { return tile[r]; }

__global__ void viaHelper(float* out) {
  __shared__ float tile[32][33];
  float* row = rowOf(tile, threadIdx.y);
  row[threadIdx.x] = 1.0f;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  blockSum<float><<<64, 256, 256 * sizeof(float)>>>(in, out);
  carved<<<64, 256, 3 * 256 * sizeof(float)>>>(out);
  viaHelper<<<64, dim3(32, 32)>>>(out);
  return 0;
}
