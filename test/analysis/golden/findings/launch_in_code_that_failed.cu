// A kernel whose only launch sits in host code that did not parse: SHOC's stencil2d without
// the config.h its configure step writes (`#define restrict __restrict`), where the class
// template whose operator() launches StencilKernel on a 1 x lCols block is an error, so no
// launch is found and the figures rest on the 32x8 block guessed for a kernel using
// threadIdx.y. Blind panel 25 (session 29) judged a bank conflict of that guess false: the
// real block has none. A finding on a guessed block in a file whose host code has errors is
// a note that says a launch may not have been read (lib/report/src/launch_level.cpp); without
// the error the launch is read and the 32-way conflict of the real block is a warning. A
// minimal kernel written for this test; the error is on purpose.
#include <cuda_runtime.h>

__global__ void unlaunchedBesideHostErrors(float* out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // finding: shared-bank-conflict=note
}

template <class T>
struct Runner {
  T* restrict data;  // the error: `restrict` is the build's config.h's
  void operator()();
};

template <class T>
void Runner<T>::operator()() {
  for (int i = 0; i < 100; ++i) unlaunchedBesideHostErrors<<<1024, dim3(32, 32)>>>(data);
}

void run() {
  Runner<float> r;
  r();
}
