// A kernel whose only launch sits in a host wrapper that nothing in the program calls, in a
// program whose `main` the analysis sees: the launch never runs, so its findings are notes
// that say why. cuda_hgemm's simt_naive.cu (blind panel 24, session 28): its wrapper
// `simtNaive` is declared in main.cu, whose one call of it is commented out; the judge found
// the kernel's strided load true but noise, "its only call is commented out, so it never runs".
// The same kernel launched from a wrapper main calls keeps its warning. Minimal kernels
// written for this test.
#include <cuda_runtime.h>

// Both launch the same grid, so that each is half of the file's traffic where both run.
__global__ void stridedNobodyRuns(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 33];  // finding: uncoalesced-global-access=note
}

__global__ void stridedMainRuns(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 33];  // finding: uncoalesced-global-access=warning
}

void launchNobodyCalls(const float* in, float* out) { stridedNobodyRuns<<<4096, 256>>>(in, out); }

void wrapperNobodyCalls(const float* in, float* out) { launchNobodyCalls(in, out); }

void launchMainCalls(const float* in, float* out) { stridedMainRuns<<<4096, 256>>>(in, out); }

int main() {
  const int n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, 33 * sizeof(float) * n);
  cudaMalloc(&out, sizeof(float) * n);
  launchMainCalls(in, out);
  // wrapperNobodyCalls(in, out);
  cudaDeviceSynchronize();
  return 0;
}
