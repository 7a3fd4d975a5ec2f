// A thread that reads several fields of one record through a loaded index (a box of 4 floats
// by its id, `b = boxes + order[i] * 4; b[0] ... b[3]`): the lanes' records are wherever the
// indices put them, but each lane's fields lie in its own record's sectors. Each field was its
// own finding, "1 to 32 sectors per request (ideal 4): eta between 12.5% and 100%", counting the
// sectors the same thread's other fields use; blind panels 33 and 34 judged such places false
// (NMS boxes, proposal deltas). The fields now form one gather group (access_groups.cpp,
// AccessGroup::gather), reported once at its first member with the record's figures: 16 bytes a
// lane, so at worst 32 sectors where 16 carry the bytes. A record of whole sectors wastes
// nothing however the lanes scatter. Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void areas(const float* boxes, const int* order, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* b = boxes + order[i] * 4;
  const float x0 = b[0];  // finding: scattered-indirect-access=note
  const float y0 = b[1];  // finding: none
  const float x1 = b[2];  // finding: none
  const float y1 = b[3];  // finding: none
  out[i] = (x1 - x0) * (y1 - y0);  // finding: none
}

// Two float4 halves of a 32-byte record on 32-byte boundaries: one whole sector a lane.
__global__ void sums(const float4* rows, const int* order, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4* r = rows + order[i] * 2;
  const float4 lo = r[0];  // finding: none
  const float4 hi = r[1];  // finding: none
  out[i] = lo.x + lo.y + lo.z + lo.w + hi.x + hi.y + hi.z + hi.w;  // finding: none
}

struct Detection {
  float x, y, w, h, score;
};

// 16 bytes of a 20-byte record: a lane's fields may straddle two sectors.
__global__ void centres(const Detection* d, const int* keep, float2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int k = keep[i];
  out[i] = make_float2(d[k].x + d[k].w / 2, d[k].y + d[k].h / 2);  // finding: scattered-indirect-access=note
}

int main() {
  float *boxes, *out;
  int* order;
  Detection* d;
  float2* c;
  const int n = 1 << 16;
  cudaMalloc(&boxes, n * 8 * sizeof(float));
  cudaMalloc(&order, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(Detection));
  cudaMalloc(&c, n * sizeof(float2));
  for (int step = 0; step < 10; ++step) {
    areas<<<n / 256, 256>>>(boxes, order, out, n);
    sums<<<n / 256, 256>>>((float4*)boxes, order, out, n);
    centres<<<n / 256, 256>>>(d, order, c, n);
  }
  cudaDeviceSynchronize();
  return 0;
}
