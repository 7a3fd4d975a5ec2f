// What the kernel's arithmetic floor counts (lib/analysis/src/arithmetic_estimate.h), checked
// in test/analysis/golden/findings_test.cpp: loops of constant trips in each step form, a loop
// that may leave early counted once, an arm entered on an equality not at all, the cheaper arm
// of an if/else, inline PTX by its instructions, warp shuffles (one per 32 bits of the value);
// signed int counters and indices left out.
// Minimal code written for this test.
__global__ void stepForms(unsigned* out, unsigned seed) {
  unsigned x = seed;
  for (int i = 0; i < 16; i += 2) x ^= x >> 3;    // 8 trips, 2 operators
  for (int s = 1; s < 256; s <<= 1) x ^= x << 1;  // 8 trips, 2 operators
  for (int k = 10; k > 0; k--) x += 7u;           // 10 trips, 1 operator
  for (int k = 0; k < 100; k++) {                 // may leave early: once, 2 operators
    if (x == 5u) break;
    x *= 3u;
  }
  if (threadIdx.x == 0)  // 1 operator (the test); its arm: one thread, not counted
    for (int k = 0; k < 1000; k++) x ^= x >> 1;
  if (seed > 2u) x += 1u;  // 1 operator, then the cheaper arm: 1
  else {
    x += 2u;
    x += 3u;
  }
  asm("add.u32 %0, %0, 1;\n\tadd.u32 %0, %0, 2;" : "+r"(x));  // 2 instructions
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;  // 2 operators
}

// A warp's sums by shuffles: 5 trips of one float add and one shuffle, then 5 of one double
// add and two shuffles (a 64-bit value moves as two 32-bit halves).
__global__ void warpSums(float* out, double* total) {
  float v = out[blockIdx.x * blockDim.x + threadIdx.x];
  double d = v;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  for (int o = 16; o > 0; o >>= 1) d += __shfl_down_sync(0xffffffffu, d, o);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  total[blockIdx.x * blockDim.x + threadIdx.x] = d;
}

int main() {
  unsigned* out;
  cudaMalloc(&out, 4096 * sizeof(unsigned));
  stepForms<<<16, 256>>>(out, 7u);
  warpSums<<<16, 256>>>((float*)out, (double*)out);
  cudaFree(out);
  return 0;
}
