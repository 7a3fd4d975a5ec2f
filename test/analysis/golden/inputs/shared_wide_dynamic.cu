// shared_wide_dynamic.cu: 8- and 16-byte shared accesses (half-warp phases), dynamic shared
// memory carved into several arrays through pointers, and a volatile warp reduction.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

// double per lane: 256 bytes a warp, 2 wavefronts. Stride 2 doubles: each half-warp phase
// spans 256 bytes and uses 16 banks twice: 2 wavefronts a phase, 4 for an ideal of 2.
__global__ void sharedDoubles(const double* __restrict__ in, double* __restrict__ out) {
  __shared__ double sd[2 * 256];
  int t = threadIdx.x;
  sd[t] = in[blockIdx.x * 256 + t];  // expect: shared store wavefronts=2 ideal=2 degree=1 ; global load sectors=8 ideal=8 eta=1.00
  sd[256 + t] = 0.0;  // expect: shared store wavefronts=2 ideal=2 degree=1
  __syncthreads();
  out[blockIdx.x * 256 + t] = sd[2 * t];  // expect: global store sectors=8 ideal=8 eta=1.00 ; shared load wavefronts=4 ideal=2 degree=2
}

// float2 broadcast of one element per warp, and float4 per lane.
__global__ void sharedVec(const float4* __restrict__ in, float4* __restrict__ out) {
  __shared__ float4 s4[128];
  __shared__ float2 s2[4];
  int t = threadIdx.x;
  s4[t] = in[blockIdx.x * 128 + t];  // expect: shared store wavefronts=4 ideal=4 degree=1 ; global load sectors=16 ideal=16 eta=1.00
  if (t < 4) s2[t] = make_float2(1.0f, 2.0f);  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  // Every lane of a warp reads one float2: a uniform LDS.64 is one wavefront on the H200.
  float2 w = s2[t / 32];  // expect: shared load wavefronts=1 ideal=1 degree=1
  float4 v = s4[(t + 32) % 128];  // expect: shared load wavefronts=4 ideal=4 degree=1
  out[blockIdx.x * 128 + t] = make_float4(v.x * w.x, v.y * w.y, v.z, v.w);  // expect: global store sectors=16 ideal=16 eta=1.00
}

// Dynamic shared memory split in two float arrays of 2 * blockDim.x each (block 256): 2nd one 2048 B
// in. b[t * 2]: 2-way conflict. a[t], just stored, is not loaded again (no load on the H200 either).
__global__ void carvedDynamic(const float* __restrict__ in, float* __restrict__ out) {
  extern __shared__ float smem[];
  float* a = smem;
  float* b = smem + 2 * blockDim.x;
  int t = threadIdx.x;
  a[t] = in[blockIdx.x * blockDim.x + t];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00
  b[t * 2] = a[t];  // expect: shared store wavefronts=2 ideal=1 degree=2
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = b[(t * 2 + 2) % (2 * blockDim.x)];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=2 ideal=1 degree=2
}

// Last-warp unrolled reduction through a volatile pointer (block 64).
__global__ void volatileReduce(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float sdata[64];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * 64 + t];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  if (t < 32) {
    volatile float* vs = sdata;
    vs[t] += vs[t + 32];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared store wavefronts=1 ideal=1 degree=1
    vs[t] += vs[t + 16];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared store wavefronts=1 ideal=1 degree=1
  }
  if (t == 0) out[blockIdx.x] = sdata[0];  // expect: global store sectors=1 ideal=1 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

int main() {
  double *d, *e;
  float4 *f4, *g4;
  float *a, *b;
  cudaMalloc(&d, N * sizeof(double));
  cudaMalloc(&e, N * sizeof(double));
  cudaMalloc(&f4, N * sizeof(float4));
  cudaMalloc(&g4, N * sizeof(float4));
  cudaMalloc(&a, N * sizeof(float));
  cudaMalloc(&b, N * sizeof(float));
  sharedDoubles<<<N / 256, 256>>>(d, e);
  sharedVec<<<N / 128, 128>>>(f4, g4);
  carvedDynamic<<<N / 256, 256, 4 * 256 * sizeof(float)>>>(a, b);
  volatileReduce<<<N / 64, 64>>>(a, b);
  cudaDeviceSynchronize();
  return 0;
}
