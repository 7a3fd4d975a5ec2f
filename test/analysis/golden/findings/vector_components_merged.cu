// A thread's accesses to the components of one CUDA vector element in shared memory, which nvcc
// merges into one vector access (lib/analysis/src/compiler_vectorised.cpp,
// `vectorComponentsMerged`): four components of a uint4 or float4 into one 16-byte access (served
// a quarter warp per wavefront: no conflict at a 16-byte stride), x and y into one 8-byte access
// (2-way at that stride), a lone z stays a 4-byte access (4-way). nvcc 13's PTX for sm_90 has
// `ld.shared.v4.u32` for the helper's `a.x += b.x; ...`, `st.shared.v2.u32` and `st.shared.u32`
// for `s[t].x = ...; s[t].y = ...; s[t].z = ...;`, `ld.shared.v2.f32` for the pair of float4 loads.
// cudaforengineers' centroid_2d (helper_math's `operator+=` on a shared uint4) was reported as a
// 3.3-way conflict per component; blind panel 30 judged it false from that PTX. Minimal kernels
// written for this test.
#include <cuda_runtime.h>

inline __device__ void addTo(uint4& a, uint4 b) {
  a.x += b.x;  // finding: none
  a.y += b.y;  // finding: none
  a.z += b.z;  // finding: none
  a.w += b.w;  // finding: none
}

__global__ void centroid(uint4* out) {
  __shared__ uint4 s[512];
  const int t = threadIdx.x;
  s[t].x = t;      // finding: wide-shared-access-conflict=note
  s[t].y = 2 * t;  // finding: wide-shared-access-conflict=note
  s[t].z = 1;      // finding: shared-bank-conflict=warning
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st) addTo(s[t], s[t + st]);
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void stage(const float* p, float* o) {
  __shared__ float4 f[256];
  const int t = threadIdx.x;
  f[t].x = p[t];  // finding: none
  f[t].y = p[t + 256];  // finding: none
  f[t].z = p[t + 512];  // finding: none
  f[t].w = 0.0f;  // finding: none
  __syncthreads();
  o[t] = f[255 - t].x + f[255 - t].y;  // finding: wide-shared-access-conflict=note wide-shared-access-conflict=note
}

int main() {
  uint4* out;
  float *p, *o;
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&p, 1 << 20);
  cudaMalloc(&o, 1 << 20);
  for (int i = 0; i < 100; ++i) {
    centroid<<<1024, 512>>>(out);
    stage<<<1024, 256>>>(p, o);
  }
  return 0;
}
