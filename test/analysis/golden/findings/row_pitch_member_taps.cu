// Neighbouring taps of one row reached through a pitched 2-D array whose row step is a
// `size_t` member of a struct passed by value (Kintinuous' and PCL's `PtrStep::ptr(y)[x]`):
// the address is not affine in the lanes (lane_evaluator.h enumerates it), and the block's own
// offset sat in one tap's lane part and in the other's uniform base, so the group's union put
// the taps a block apart: "16 sectors per request where 8 would carry their bytes", judged
// false by blind panel 34 (each thread reads both halves of its 8 bytes). The group is now
// evaluated with both where the block puts them (access_groups.cpp, Pattern::blockBytes).
// Minimal kernel written for this test.
#include <cuda_runtime.h>

struct Pitched {
  float* data;
  size_t step;
  __device__ float* ptr(int y) { return (float*)((char*)data + y * step); }
};

__global__ void halve(int rows, int cols, Pitched in, Pitched out) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  int y = threadIdx.y + blockIdx.y * blockDim.y;
  if (x >= cols || y >= rows) return;
  int xs = x * 2, ys = y * 2;
  float a = in.ptr(ys)[xs];  // finding: none
  float b = in.ptr(ys)[xs + 1];  // finding: none
  float c = in.ptr(ys + 1)[xs];  // finding: none
  float d = in.ptr(ys + 1)[xs + 1];  // finding: none
  out.ptr(y)[x] = (a + b + c + d) / 4;  // finding: none
}

int main() {
  Pitched a, b;
  cudaMalloc(&a.data, 1 << 26);
  cudaMalloc(&b.data, 1 << 26);
  for (int i = 0; i < 100; ++i) halve<<<dim3(20, 60), dim3(32, 8)>>>(480, 640, a, b);
  cudaDeviceSynchronize();
  return 0;
}
