// The unrolled tail of a vectorised element-wise kernel: each thread stores four neighbouring
// elements, each under a check of its own index against the array's end (LeetCUDA's
// elementwise_add_f16x8 and relu_f16x8: `if ((idx + 2) < N) HALF2(c[idx + 2]) = ...`). Each
// store alone uses 16 sectors where 4 carry its bytes; the four together fill every sector,
// and the checks idle lanes only at the array's end. Until session 29 only members whose
// guards extend one member's were grouped, and the four were four warnings (blind panel 26).
// Stores that leave gaps between them keep their warning. Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void tailChecked(const float* __restrict__ a, float* __restrict__ c, int n) {
  const int idx = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  const float4 v = reinterpret_cast<const float4*>(a)[idx / 4];
  if (idx + 0 < n) c[idx + 0] = v.x;  // finding: none
  if (idx + 1 < n) c[idx + 1] = v.y;  // finding: none
  if (idx + 2 < n) c[idx + 2] = v.z;  // finding: none
  if (idx + 3 < n) c[idx + 3] = v.w;  // finding: none
}

__global__ void tailCheckedWithGaps(const float* __restrict__ a, float* __restrict__ c, int n) {
  const int idx = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  const float x = a[blockIdx.x * blockDim.x + threadIdx.x];
  if (idx + 0 < n) c[idx + 0] = x;  // finding: uncoalesced-global-access=warning
  if (idx + 1 < n) c[idx + 1] = x;  // finding: uncoalesced-global-access=warning
}

// The taps of a 2x2 downsampling, each under a check of both its indices against the image's
// sides (BundleFusion's downsampleUnsignedCharMapDevice: `if ((inputY+0) < inputHeight &&
// (inputX+1) < inputWidth) res += d_Map[...]`). Each tap alone reads every other element; the
// same thread's neighbouring tap reads the ones it skips (blind panel 33 judged the tap apart
// false). Until session 36 only a last guard of one check made siblings.
__global__ void downsample(float* out, const float* in, int inW, int inH, int outW, int outH) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= outW || y >= outH) return;
  const int ix = 2 * x, iy = 2 * y;
  float r = 0;
  if (iy + 0 < inH && ix + 0 < inW) r += in[(iy + 0) * inW + ix + 0];  // finding: none
  if (iy + 0 < inH && ix + 1 < inW) r += in[(iy + 0) * inW + ix + 1];  // finding: none
  if (iy + 1 < inH && ix + 0 < inW) r += in[(iy + 1) * inW + ix + 0];  // finding: none
  if (iy + 1 < inH && ix + 1 < inW) r += in[(iy + 1) * inW + ix + 1];  // finding: none
  out[y * outW + x] = r / 4;
}

int main() {
  const int n = 1 << 24;
  float *a, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&c, 2 * n * sizeof(float));
  for (int i = 0; i < 100; ++i) {
    tailChecked<<<n / 4 / 256, 256>>>(a, c, n);
    tailCheckedWithGaps<<<n / 8 / 256, 256>>>(a, c, n);
    downsample<<<dim3(64, 256), dim3(32, 8)>>>(c, a, 4096, 4096, 2048, 2048);
  }
  cudaDeviceSynchronize();
  return 0;
}
