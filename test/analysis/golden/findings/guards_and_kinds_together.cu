// Accesses the memory system serves together across guards and kinds (docs/findings.md,
// "Groups"). Places a blind panel judged false: four flag loads of one thread, the last
// under one more guard (after CUDPP's segmented scan); the bytes of a texel written partly
// before and partly inside the arms of a branch on a kernel parameter (after cuda-samples'
// texture_cube); a texel whose first two floats a thread loads and whose four floats it
// stores (after cuda-samples' texture_2d). Minimal kernels written for this test; each would
// fire if judged by instruction, or with only same-guard, same-kind groups. The last three
// kernels waste traffic as a group too, and keep their findings.
#include <cuda_runtime.h>

// Rule 1: a member whose guards extend the group's joins it. The first three loads bring the
// sectors of the fourth: the thread reads 16 consecutive bytes, and the warp 512.
__global__ void fourFlags(const int* __restrict__ flags, int4* __restrict__ out, int last) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 f;
  f.x = flags[4 * i + 1];  // finding: none
  f.y = flags[4 * i + 2];  // finding: none
  f.z = flags[4 * i + 3];  // finding: none
  if (last && threadIdx.x == blockDim.x - 1)
    f.w = 0;
  else
    f.w = flags[4 * i + 4];  // finding: none
  out[i] = f;  // finding: none
}

// Rule 2: the arms of a branch on a parameter (warp-uniform): a warp runs one arm, which
// with the store before the branch writes every byte of the texel.
__global__ void paintFace(unsigned char* surface, int width, int face) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  unsigned char* pixel = surface + 4 * x;
  pixel[3] = 255;  // finding: none
  if (face % 2) {
    pixel[0] = 10;  // finding: none
    pixel[1] = 20;  // finding: none
    pixel[2] = 30;  // finding: none
  } else {
    pixel[0] = 40;  // finding: none
    pixel[1] = 50;  // finding: none
    pixel[2] = 60;  // finding: none
  }
}

// Rule 3: loads of some fields and stores of the others of the thread's own texel: each
// sector is read once and written once, and no byte of it is left unused.
__global__ void blendTexel(unsigned char* surface, int width, float t) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  float* pixel = (float*)surface + 4 * x;
  pixel[0] = 0.5f * pixel[0] + t;  // finding: none
  pixel[1] = 0.5f * pixel[1] + t;  // finding: none
  pixel[2] = t;                    // finding: none
  pixel[3] = 1;                    // finding: none
}

// Rules 1 and 3 on a 2D stencil (after cuda-samples' Mandelbrot anti-aliasing pass): a pixel,
// its four neighbours under their edge guards, and its colour written back. A warp of the
// 16x16 block reads four rows of pixels, each a run of sectors that may start off a sector
// boundary (one sector each, not one for the group), and skips only the alpha bytes.
__device__ int colourGap(const uchar4& c, const uchar4& n) {
  return abs(n.x - c.x) + abs(n.y - c.y) + abs(n.z - c.z);  // finding: none
}

__global__ void smoothEdges(uchar4* dst, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int p = y * w + x;
  const uchar4 c = dst[p];  // finding: none
  int gap = 0;
  if (x > 0) gap += colourGap(c, dst[p - 1]);
  if (x + 1 < w) gap += colourGap(c, dst[p + 1]);
  if (y > 0) gap += colourGap(c, dst[p - w]);
  if (y + 1 < h) gap += colourGap(c, dst[p + w]);
  if (gap > 30) {
    dst[p].x = c.x / 2;  // finding: none
    dst[p].y = c.y / 2;  // finding: none
    dst[p].z = c.z / 2;  // finding: none
  }
}

// Still wasted together: a byte before the branch and one in each arm leave 14 bytes of
// every 16-byte record unwritten.
__global__ void markRecord(unsigned char* records, int n, int mode) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  records[16 * i] = 1;  // finding: uncoalesced-global-access=warning
  if (mode % 2)
    records[16 * i + 1] = 2;  // finding: uncoalesced-global-access=warning
  else
    records[16 * i + 2] = 3;  // finding: uncoalesced-global-access=warning
}

// Still wasted together: a thread updates one float of its 16-byte record in place.
__global__ void bumpFirst(float* records, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) records[4 * i] += 1.0f;  // finding: uncoalesced-global-access=warning
}

int main(int argc, char**) {
  int* flags;
  int4* out;
  unsigned char *surface, *records;
  cudaMalloc(&flags, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  cudaMalloc(&surface, 1 << 22);
  cudaMalloc(&records, 1 << 22);
  // Repeated, as a program's steps are: launched once, these grids waste less per run than a
  // launch costs, a note under MinWastePerRun (floor_one_demo_launch.cu).
  for (int rep = 0; rep < 100; ++rep) {
    fourFlags<<<256, 256>>>(flags, out, argc > 1);
    paintFace<<<256, 256>>>(surface, 256 * 256, argc);  // the face: known at run time
    blendTexel<<<64, 256>>>(surface, 64 * 256, 0.5f);
    markRecord<<<256, 256>>>(records, 256 * 256, argc);
    bumpFirst<<<256, 256>>>((float*)records, 256 * 256);
    smoothEdges<<<dim3(16, 16), dim3(16, 16)>>>((uchar4*)surface, 256, 256);
  }
  cudaDeviceSynchronize();
  return 0;
}
