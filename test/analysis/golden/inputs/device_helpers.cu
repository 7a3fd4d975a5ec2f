// device_helpers.cu: indices and addresses computed in __device__ helpers: returned values,
// helpers with several return statements, out-parameters by reference, pointer parameters,
// and a reference to memory that the helper updates.
#include <cuda_runtime.h>

constexpr int W = 1024;
constexpr int H = 512;
constexpr int ROW = 256;

__device__ __forceinline__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Clamp-to-edge: three return statements.
__device__ int clampIndex(int i, int n) {
  if (i < 0) return 0;
  if (i > n - 1) return n - 1;
  return i;
}

// Mirror at the left edge, written with if/else returns.
__device__ int mirrorLeft(int i) {
  if (i >= 0)
    return i;
  else
    return -i;
}

__device__ void pixelCoords(int& x, int& y) {
  x = blockIdx.x * blockDim.x + threadIdx.x;
  y = blockIdx.y * blockDim.y + threadIdx.y;
}

__device__ void accumulateInto(float& acc, float v) {
  acc += v;  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

// The built-in index variables passed whole.
__device__ int flatten(dim3 t, dim3 d) { return t.x + t.y * d.x; }

__device__ const float* rowPointer(const float* base, int r, int ld) { return base + r * ld; }

__global__ void scaleWithHelper(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = globalIndex();
  if (i < n) out[i] = 3.0f * in[i];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

// One block per row of 256 floats: left and right neighbours clamped at the row's edges.
// Left: warp 0 reads elements 0,0,1..30 (4 sectors); warps 1..7 start 4 bytes before a
// sector (5 sectors). Right: warps 0..6 start 4 bytes past a sector (5), warp 7 reads
// 225..255,255 (4). Mean 4.875 sectors for 4 ideal.
__global__ void blurRowClamped(const float* __restrict__ in, float* __restrict__ out, int width) {
  const float* row = in + blockIdx.x * width;
  int x = threadIdx.x;
  float l = row[clampIndex(x - 1, width)];  // expect: global load sectors=4.875 ideal=4 eta=0.82
  float c = row[x];  // expect: global load sectors=4 ideal=4 eta=1.00
  float r = row[clampIndex(x + 1, width)];  // expect: global load sectors=4.875 ideal=4 eta=0.82
  out[blockIdx.x * width + x] = (l + c + r) * (1.0f / 3.0f);  // expect: global store sectors=4 ideal=4 eta=1.00
}

// mirrorLeft(x - 1): lane 0 of warp 0 reads element 1, the rest x - 1.
// Warp 0: elements 1,0,1,...,30 -> bytes 0..123: 4 sectors. Warps 1..7: 5 sectors.
__global__ void mirrorRow(const float* __restrict__ in, float* __restrict__ out) {
  int x = threadIdx.x;
  float v = in[blockIdx.x * ROW + mirrorLeft(x - 1)];  // expect: global load sectors=4.875 ideal=4 eta=0.82
  out[blockIdx.x * ROW + x] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Coordinates returned through references, block 32 x 8: one row segment per warp.
__global__ void addImages(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int w,
                          int h) {
  int x, y;
  pixelCoords(x, y);
  if (x < w && y < h) c[y * w + x] = a[y * w + x] + b[y * w + x];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

// Accumulate four rows into acc[] through a reference parameter.
__global__ void accumulateRows(float* __restrict__ acc, const float* __restrict__ in, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  accumulateInto(acc[c], in[c] + in[cols + c]);  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Row pointer from a helper, then a column read (block 32 x 8, transposed use: lanes walk rows).
__global__ void columnViaRowPointer(const float* __restrict__ m, float* __restrict__ out, int ld) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  out[c * ld + r] = rowPointer(m, r, ld)[c];  // expect: global load sectors=32 ideal=4 eta=0.12 ; global store sectors=4 ideal=4 eta=1.00
}

// Linear thread id from flatten(threadIdx, blockDim), block 32 x 8: 0..255, contiguous.
__global__ void flatThreadId(const float* __restrict__ in, float* __restrict__ out) {
  int t = flatten(threadIdx, blockDim);
  out[blockIdx.x * 256 + t] = in[blockIdx.x * 256 + t];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b, *c;
  cudaMalloc(&a, W * H * sizeof(float));
  cudaMalloc(&b, W * H * sizeof(float));
  cudaMalloc(&c, W * H * sizeof(float));
  scaleWithHelper<<<W * H / 256, 256>>>(a, b, W * H);
  blurRowClamped<<<H, ROW>>>(a, b, ROW);
  mirrorRow<<<H, ROW>>>(a, b);
  addImages<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(a, b, c, W, H);
  accumulateRows<<<W / 256, 256>>>(c, a, W);
  flatThreadId<<<W * H / 256, dim3(32, 8)>>>(a, b);
  columnViaRowPointer<<<dim3(W / 32, W / 8), dim3(32, 8)>>>(a, b, W);
  cudaDeviceSynchronize();
  return 0;
}
