// host_values_flow.cu: values the host code fixes before a launch by control flow rather than
// by a constant expression (issue #13, the real-code set: FDTD3d and fastWalshTransform write
// their launches so). host_values.cpp and launch_collector.cpp follow them.
#include <cstdlib>

#include <cuda_runtime.h>

#define RADIUS 4

// Ping-pong buffers offset by a padding that puts the interior on a 128-byte boundary
// (FDTD3d): `padding = 32 - radius` floats, with radius fixed by the early exit `if (radius !=
// RADIUS) exit(...)`, and the two pointers swapped after every step. Every value the
// pointers take lies 112 bytes past its allocation, so in[i + RADIUS] starts 128-byte aligned
// (4 sectors) and out[i] 16 bytes past a sector boundary (5 sectors). Taking the
// allocations' starts, as before, swapped them: 5 and 4.
__global__ void stencilStep(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + RADIUS] * 0.5f;  // expect: global store sectors=5 ideal=4 eta=0.80 ; global load sectors=4 ideal=4 eta=1.00
}

void runSteps(float* a, float* b, int radius, int steps) {
  if (radius != RADIUS) {
    exit(EXIT_FAILURE);
  }
  const int padding = 128 / sizeof(float) - radius;
  float* src = a + padding;
  float* dst = b + padding;
  for (int t = 0; t < steps; ++t) {
    stencilStep<<<64, 128>>>(dst, src);
    float* tmp = dst;
    dst = src;
    src = tmp;
  }
}

// A host loop steps the launch's arguments before the launch (fastWalshTransform's
// fwtBatchGPU: `for (; log2N > 11; log2N -= 2, N >>= 2)`): from the call site's 64 and 32,
// stride ends at 2 and threads at 1024. Lanes 8 bytes apart: 8 sectors for 4 of data.
__global__ void lastStage(const float* in, float* out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=8 ideal=4 eta=0.50
}

void stages(const float* in, float* out, int stride, int threads) {
  for (; stride > 2; stride >>= 1, threads <<= 1) {
  }
  lastStage<<<1, threads>>>(in, out, stride);
}

void runStages(const float* in, float* out) { stages(in, out, 64, 32); }

// A launch inside a host loop whose counter it is given (mergeSort's merge stages: `for (uint
// stride = SHARED_SIZE_LIMIT; stride < N; stride <<= 1) generateSampleRanks(..., stride, ...)`)
// runs first with the counter's initial value: stride 2, lanes 8 bytes apart, 8 sectors for 4
// of data. Before, the counter was an unknown runtime value (4096: 32 sectors).
__global__ void sampleEvery(const float* in, float* out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=8 ideal=4 eta=0.50
}

void sampleStages(const float* in, float* out, int n) {
  for (int stride = 2; stride < n; stride <<= 1) sampleEvery<<<1, 32>>>(in, out, stride);
}
