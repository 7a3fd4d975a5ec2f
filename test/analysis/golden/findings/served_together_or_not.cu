// What the memory system serves together and what it does not: neighbouring stencil taps
// (each alone misaligned, together one run plus the sector any unaligned run pays: quiet),
// a record of which the kernel reads half the fields (the skipped fields waste the sectors:
// aos-field-access, named as a structure stride: a note by default), a strided read in the hot loop of a
// kernel (a warning that ranks first), and a gather through an index array (a note: the
// data structure makes it so).
#include <cuda_runtime.h>

struct Particle {
  float x, y, z, vx, vy, vz;
};

__global__ void smooth(const float* __restrict__ a, float* __restrict__ b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1) {
    b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];  // finding: none
  }
}

__global__ void positions(const Particle* __restrict__ p, float* __restrict__ r, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float x = p[i].x;  // finding: aos-field-access=note
    const float y = p[i].y;  // finding: aos-field-access=note
    const float z = p[i].z;  // finding: aos-field-access=note
    r[i] = x * x + y * y + z * z;  // finding: none
  }
}

__global__ void columnSums(const float* __restrict__ m, float* __restrict__ s, int rows) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int k = 0; k < 512; ++k) sum += m[row * 512 + k];  // finding: uncoalesced-global-access=warning
  s[row] = sum;  // finding: none
}

__global__ void gather(const float* __restrict__ values, const int* __restrict__ index, float* __restrict__ out,
                       int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = values[index[i]];  // finding: scattered-indirect-access=note
}

// A record of seven floats and a padding word (PCL's float8 particles), every field written:
// 28 of each 32 bytes, 7/8 of the sectors, as dense as its alignment allows: quiet (blind
// panel 41 judged the members' notes false; lib/report/src/access_cause.cpp, groupWastes).
struct alignas(32) Padded {
  float x, y, z, roll, pitch, yaw, weight, unused;
};

__global__ void initPadded(Padded* __restrict__ q, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Padded* p = &q[i];
  p->x = 0.0f;  // finding: none
  p->y = 1.0f;  // finding: none
  p->z = 2.0f;  // finding: none
  p->roll = 3.0f;  // finding: none
  p->pitch = 4.0f;  // finding: none
  p->yaw = 5.0f;  // finding: none
  p->weight = 6.0f;  // finding: none
}

int main() {
  float *a, *b, *m, *s, *values, *out;
  Particle* p;
  int* index;
  cudaMalloc(&a, 1 << 22);
  cudaMalloc(&b, 1 << 22);
  cudaMalloc(&p, 1 << 24);
  cudaMalloc(&m, 1 << 26);
  cudaMalloc(&s, 1 << 20);
  cudaMalloc(&values, 1 << 22);
  cudaMalloc(&index, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  smooth<<<1024, 256>>>(a, b, 1024 * 256);
  positions<<<256, 256>>>(p, b, 256 * 256);
  columnSums<<<64, 256>>>(m, s, 64 * 256);
  gather<<<1024, 256>>>(values, index, out, 1024 * 256);
  Padded* q;
  cudaMalloc(&q, 1 << 23);
  initPadded<<<1024, 256>>>(q, 1024 * 256);
  cudaDeviceSynchronize();
  return 0;
}
