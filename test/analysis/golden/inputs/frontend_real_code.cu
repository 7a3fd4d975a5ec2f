// frontend_real_code.cu: constructs of real code that used to cost the whole file.
#include <cstdint>
#include <cstdlib>
#include <cuda_runtime.h>

// A pointer rebuilt from an integer: the address is cp + 4 * threadIdx.x bytes, so the load is
// a contiguous run of floats (the frontend used to crash on the integer-typed pointer
// arithmetic, and the whole file was lost).
__global__ void rebuiltPointer(const char* cp, int s, float* out) {
  const float* fp = (const float*)((uintptr_t)cp + threadIdx.x * s);
  out[threadIdx.x] = fp[0];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// `register`: nvcc accepts it in C++17, Clang makes it an error unless -Wno-register.
__global__ void registerLocal(float* a) {
  register int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[2 * i] = 1.0f;  // expect: global store sectors=8 ideal=4 eta=0.50
}

// Gaussian elimination's row update (Rodinia's Fan1): Size and t are known only at run time.
// At the default 4096 for both, `Size - 1 - t` is negative and the guard idles every lane;
// the analysis takes t = 1024 instead, says so, and reports the column walk: lanes a row of
// Size floats apart, 32 sectors for 4 of data.
__global__ void rowUpdate(float* m, const float* a, int Size, int t) {
  if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
  const int row = blockDim.x * blockIdx.x + threadIdx.x + t + 1;
  m[Size * row + t] = a[Size * row + t] / a[Size * t + t];  // expect: global store sectors=32 ideal=4 eta=0.12 ; global load sectors=32 ideal=4 eta=0.12 ; global load sectors=1 ideal=1 eta=1.00
}

int main(int argc, char** argv) {
  char* bytes;
  float* out;
  cudaMalloc(&bytes, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  rebuiltPointer<<<1, 128>>>(bytes, 4, out);
  registerLocal<<<64, 256>>>(out);
  const int size = argc > 1 ? atoi(argv[1]) : 16;
  for (int t = 0; t < size - 1; ++t) rowUpdate<<<(size + 511) / 512, 512>>>(out, out, size, t);
  return 0;
}
