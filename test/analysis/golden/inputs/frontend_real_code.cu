// frontend_real_code.cu: constructs of real code that used to cost the whole file.
#include <cstdint>
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

int main() {
  char* bytes;
  float* out;
  cudaMalloc(&bytes, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  rebuiltPointer<<<1, 128>>>(bytes, 4, out);
  registerLocal<<<64, 256>>>(out);
  return 0;
}
