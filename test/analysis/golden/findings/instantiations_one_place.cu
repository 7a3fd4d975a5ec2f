// One place, one finding, whatever the instantiations make of it. A conversion written
// `(D)(in[i])` reads `in[i]` whatever D and S are, but the load reached the analysis as the
// parenthesised expression where D is a scalar or converts from S, and as the bare subscript
// where D and S are one class (a copy): lc0's NCHWtoNHWC_kernel<half, float> and <half, half>
// gave two findings one column apart (panel 19's sweep, seen in session 26). The access is now
// placed and quoted without its parentheses (interpreter_memory.cpp, record), so the
// instantiations merge into one finding that names them all. Minimal kernels written for this
// test.
#include <cuda_runtime.h>

struct Fixed {
  __device__ Fixed(float v) : raw(static_cast<int>(v * 256.0f)) {}
  int raw;
};

// Reads the source column by column: consecutive threads are `rows` elements apart.
template <typename D, typename S>
__global__ void transposeConvert(D* __restrict__ out, const S* __restrict__ in, int rows, int cols) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  const int r = i % rows, c = i / rows;
  out[i] = (D)(in[r * cols + c]);  // finding: uncoalesced-global-access=note
}

// Launched once each, a demo: the finding is a note (floor_one_demo_launch.cu).
int main() {
  const int rows = 512, cols = 512;
  float* in;
  Fixed* fixedIn;
  float* asFloat;
  Fixed* asFixed;
  cudaMalloc(&in, sizeof(float) * rows * cols);
  cudaMalloc(&fixedIn, sizeof(Fixed) * rows * cols);
  cudaMalloc(&asFloat, sizeof(float) * rows * cols);
  cudaMalloc(&asFixed, sizeof(Fixed) * rows * cols);
  transposeConvert<float, float><<<rows * cols / 256, 256>>>(asFloat, in, rows, cols);
  transposeConvert<Fixed, float><<<rows * cols / 256, 256>>>(asFixed, in, rows, cols);
  transposeConvert<Fixed, Fixed><<<rows * cols / 256, 256>>>(asFixed, fixedIn, rows, cols);
  cudaDeviceSynchronize();
  return 0;
}
