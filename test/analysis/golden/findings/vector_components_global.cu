// A thread's accesses to the components of one element of a CUDA vector type in global memory,
// which nvcc merges as it does in shared memory (lib/analysis/src/compiler_vectorised.cpp,
// `vectorComponentsMerged`): the type's alignment is its size, so `img[p].x` and `img[p].y` of a
// float2 are one 8-byte access. nvcc 13's PTX for sm_90: `ld.global.v2.f32` and
// `st.global.v2.f32` for `img[x].x *= -1; img[x].y *= -1;`, `ld.global.v4.f32` for a float4's x
// and z (the whole element), and the components kept apart where a store through another
// pointer lies between them. relion's cuda_kernel_centerFFTbySign flips the sign of every other
// complex value of a volume (a checkerboard): each component was judged alone, 4 bytes per lane
// 8 apart with every other lane idle, "8 sectors where 2 would carry their bytes"; blind panel
// 33 judged both warnings false: one 8-byte access, and what its idle lanes leave unread is the
// checkerboard's own half of the data, which no order of threads removes. Minimal kernels
// written for this test.
#include <cuda_runtime.h>

template <typename T>
__global__ void flipBySign(T* img, int xdim, int ydim, int zdim) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  int y = threadIdx.y + blockIdx.y * blockDim.y;
  int z = threadIdx.z + blockIdx.z * blockDim.z;
  int pixel = z * xdim * ydim + y * xdim + x;  // a product with sizes: no affine form
  if (x < xdim && y < ydim && z < zdim) {
    if ((x ^ y ^ z) & 1) {  // finding: divergent-branch=note
      img[pixel].x *= -1;  // finding: none
      img[pixel].y *= -1;  // finding: none
    }
  }
}
template __global__ void flipBySign<float2>(float2*, int, int, int);
template __global__ void flipBySign<double2>(double2*, int, int, int);

// x and z of a float4: one 16-byte load; each read 16 bytes apart alone would be strided.
__global__ void sumXZ(float* out, const float4* in, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[i] = in[i].x + in[i].z;  // finding: none
}

// Loads of two elements' components interleaved: a load of another object between two
// components does not keep them apart (BundleFusion's `p1.x - p0.x`, `p1.y - p0.y`, `p1.z -
// p0.z` through two `const float4&`: one `ld.global.v4.f32` each; blind panel 33).
__global__ void differences(float* out, const float4* in, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) {
    const float4& a = in[i];
    const float4& b = in[i + n];
    out[i] = (a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z);  // finding: none
  }
}

// A store through another pointer between the components: nvcc keeps them apart (two
// `ld.global.f32`); judged as two 4-byte loads 8 bytes apart, served together.
__global__ void apart(float2* out, const float2* in, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) {
    float a = in[i].x;  // finding: none
    out[i].y = a;       // finding: none
    float b = in[i].y;  // finding: none
    out[i].x = b;       // finding: none
  }
}

int main() {
  float2* img;
  float4* in4;
  float* out;
  cudaMalloc(&img, 1 << 24);
  cudaMalloc(&in4, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  dim3 block(32, 4, 2);
  dim3 grid(8, 64, 32);
  flipBySign<<<grid, block>>>(img, 256, 256, 64);
  flipBySign<<<grid, block>>>(reinterpret_cast<double2*>(img), 256, 256, 64);
  sumXZ<<<256, 256>>>(out, in4, 65536);
  differences<<<256, 256>>>(out, in4, 32768);
  apart<<<256, 256>>>(img, img + 65536, 65536);
  return 0;
}
