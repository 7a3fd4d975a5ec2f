// A program for the verifier's end-to-end run: each access carries the figure the
// model gives it, as "expect:" comments that make_predictions.py turns into a
// coalesce-lint/1 predictions file (what the analyzer would write). Block 256 unless
// a kernel says otherwise; buffers are cudaMalloc'ed (256-byte aligned).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));   \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

struct Particle { float x, y, z, vx, vy, vz; };  // 24 bytes

__global__ void copy(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // expect: global load 4 sectors=4 ideal=4; global store 4 sectors=4 ideal=4
}

__global__ void strided(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];  // expect: global load 4 sectors=8 ideal=4; global store 4 sectors=4 ideal=4
}

__global__ void neighbours(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + in[i + 1];  // expect: global load 4 sectors=4 ideal=4; global load 4 sectors=5 ideal=4; global store 4 sectors=4 ideal=4
}

__global__ void fieldOfStruct(const Particle* p, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x;  // expect: global load 4 sectors=24 ideal=4; global store 4 sectors=4 ideal=4
}

__global__ void vectors(const float4* in, float4* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // expect: global load 16 sectors=16 ideal=16; global store 16 sectors=16 ideal=16
}

__global__ void unrolled(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) acc += in[4 * i + k];  // expect: global load 4 sectors=16 ideal=4
  out[i] = acc;  // expect: global store 4 sectors=4 ideal=4
}

__device__ __forceinline__ float fetch(const float* p, int i, int stride) {
  return p[i * stride];  // expect: global load 4 sectors=4 ideal=4 kernel=helperUnit; global load 4 sectors=8 ideal=4 kernel=helperStride2
}

__global__ void helperUnit(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fetch(in, i, 1);  // expect: global store 4 sectors=4 ideal=4
}

__global__ void helperStride2(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fetch(in, i, 2);  // expect: global store 4 sectors=4 ideal=4
}

__global__ void gather(const float* in, const int* idx, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];  // expect: global load 4 sectors=4 ideal=4; global load 4 range=1,32 pattern=indirect; global store 4 sectors=4 ideal=4
}

__global__ void deadLoad(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float unused = in[i + 7];  // expect: global load 4 sectors=5 ideal=4
  (void)unused;
  out[i] = 1.0f;  // expect: global store 4 sectors=4 ideal=4
}

// Block 32x8: a 32x32 tile written by rows, read by columns.
__global__ void transposeNaive(const float* in, float* out) {
  __shared__ float tile[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const float* src = in + blockIdx.x * 1024;
  for (int r = ty; r < 32; r += 8) tile[r][tx] = src[r * 32 + tx];  // expect: shared store 4 wavefronts=1 ideal=1; global load 4 sectors=4 ideal=4
  __syncthreads();
  for (int r = ty; r < 32; r += 8) out[blockIdx.x * 1024 + r * 32 + tx] = tile[tx][r];  // expect: shared load 4 wavefronts=32 ideal=1; global store 4 sectors=4 ideal=4
}

__global__ void transposePadded(const float* in, float* out) {
  __shared__ float tile[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const float* src = in + blockIdx.x * 1024;
  for (int r = ty; r < 32; r += 8) tile[r][tx] = src[r * 32 + tx];  // expect: shared store 4 wavefronts=1 ideal=1; global load 4 sectors=4 ideal=4
  __syncthreads();
  for (int r = ty; r < 32; r += 8) out[blockIdx.x * 1024 + r * 32 + tx] = tile[tx][r];  // expect: shared load 4 wavefronts=1 ideal=1; global store 4 sectors=4 ideal=4
}

int main() {
  const int n = 1 << 20, block = 256, grid = n / block;
  float *in, *out;
  int* idx;
  CHECK(cudaMalloc(&in, 8 * n * sizeof(float)));
  CHECK(cudaMalloc(&out, 4 * n * sizeof(float)));
  CHECK(cudaMalloc(&idx, n * sizeof(int)));
  CHECK(cudaMemset(in, 0, 8 * n * sizeof(float)));
  int* h = static_cast<int*>(std::malloc(n * sizeof(int)));
  unsigned s = 12345;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    h[i] = static_cast<int>((s >> 8) % n);
  }
  CHECK(cudaMemcpy(idx, h, n * sizeof(int), cudaMemcpyHostToDevice));
  copy<<<grid, block>>>(in, out);
  strided<<<grid, block>>>(in, out);
  neighbours<<<grid, block>>>(in, out);
  fieldOfStruct<<<grid / 8, block>>>(reinterpret_cast<const Particle*>(in), out);
  vectors<<<grid / 4, block>>>(reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out));
  unrolled<<<grid / 4, block>>>(in, out);
  helperUnit<<<grid, block>>>(in, out);
  helperStride2<<<grid, block>>>(in, out);
  gather<<<grid, block>>>(in, idx, out);
  deadLoad<<<grid, block>>>(in, out);
  transposeNaive<<<n / 1024, dim3(32, 8)>>>(in, out);
  transposePadded<<<n / 1024, dim3(32, 8)>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("verify_demo: 12 kernels ran\n");
  std::free(h);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(idx));
  return 0;
}
