// shared_swizzle.cu: XOR-swizzled shared-memory layouts, lane/warp decompositions with
// & 31 and >> 5, and padded vs unpadded column reads.
#include <cuda_runtime.h>

constexpr int N = 2048;

// 32 x 32 tile, no padding, column index XOR-ed with the row: rows are permutations, and a
// column read hits 32 distinct banks. Block 32 x 8.
__global__ void transposeSwizzled(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x ^ (threadIdx.y + j)] = in[(y + j) * n + x];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][(threadIdx.y + j) ^ threadIdx.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

// float4 tile of 32 rows x 8 columns (128 bytes a row), 256 threads. Row-wise store, then a
// column-wise read (lane = row, warp = column). Without the swizzle the 16 lanes of a
// half-warp phase hit the same 4 banks; with col ^ (row & 7) they cover all 32.
__global__ void float4Swizzle(const float4* __restrict__ in, float4* __restrict__ out) {
  __shared__ float4 plain[32][8];
  __shared__ float4 swz[32][8];
  int t = threadIdx.x;
  int row = t >> 3, col = t & 7;
  float4 v = in[blockIdx.x * 256 + t];  // expect: global load sectors=16 ideal=16 eta=1.00
  plain[row][col] = v;  // expect: shared store wavefronts=4 ideal=4 degree=1
  swz[row][col ^ (row & 7)] = v;  // expect: shared store wavefronts=4 ideal=4 degree=1
  __syncthreads();
  int r = t & 31, c = t >> 5;
  float4 a = plain[r][c];  // expect: shared load wavefronts=32 ideal=4 degree=8
  float4 b = swz[r][c ^ (r & 7)];  // expect: shared load wavefronts=4 ideal=4 degree=1
  out[blockIdx.x * 256 + t] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);  // expect: global store sectors=16 ideal=16 eta=1.00
}

// Per-warp rows: red[warp][lane] (1 wavefront); a column walk red[lane][warp] of a 32-wide
// array (32-way) and of a 33-wide one (conflict-free). 1024 threads = 32 warps.
__global__ void laneWarpGrid(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float red[32][32];
  __shared__ float pad[32][33];
  unsigned lane = threadIdx.x & 31u;
  unsigned warp = threadIdx.x >> 5;
  float v = in[blockIdx.x * 1024 + threadIdx.x];  // expect: global load sectors=4 ideal=4 eta=1.00
  red[warp][lane] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  pad[warp][lane] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  float a = red[lane][warp];  // expect: shared load wavefronts=32 ideal=1 degree=32
  float b = pad[lane][warp];  // expect: shared load wavefronts=1 ideal=1 degree=1
  out[blockIdx.x * 1024 + threadIdx.x] = a + b;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b;
  cudaMalloc(&a, N * N * sizeof(float));
  cudaMalloc(&b, N * N * sizeof(float));
  transposeSwizzled<<<dim3(N / 32, N / 32), dim3(32, 8)>>>(a, b, N);
  float4Swizzle<<<N * N / 1024, 256>>>(reinterpret_cast<const float4*>(a), reinterpret_cast<float4*>(b));
  laneWarpGrid<<<N * N / 1024, 1024>>>(a, b);
  cudaDeviceSynchronize();
  return 0;
}
