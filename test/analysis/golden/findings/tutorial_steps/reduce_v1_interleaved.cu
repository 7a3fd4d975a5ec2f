// A tutorial's steps, one program per file in one folder (How_to_optimize_in_GPU's reduce_v0 ...
// reduce_v7, panel 14; Learn-CUDA-Programming's interleaving and sequential reductions, panel
// 12): this step's interleaved addressing conflicts in shared memory, and the next file,
// reduce_v2_sequential.cu, does the same job (`reduceStep2`) without the conflict. The blind
// panels judged every such place noise: "the tutorial's deliberately staged step ... the next
// file exists to fix it". So it is a note that names the fixed step (lib/report/src/
// variant_level.cpp, capStepsFixedBeside). library_scale.cu beside them keeps its warning.
#include <cuda_runtime.h>

#define STEP_THREADS 256

__global__ void reduceStep1(const float* in, float* out) {
  __shared__ float partial[STEP_THREADS];
  const unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];  // finding: none
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) {
      partial[index] += partial[index + s];  // finding: shared-bank-conflict=note
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];  // finding: none
}

int main() {
  const int n = 32 * 1024 * 1024;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n / STEP_THREADS * sizeof(float));
  for (int rep = 0; rep < 100; ++rep) reduceStep1<<<n / STEP_THREADS, STEP_THREADS>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
