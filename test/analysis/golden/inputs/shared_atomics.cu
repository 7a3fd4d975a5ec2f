// shared_atomics.cu: atomics on shared memory (privatised histograms, per-warp counters)
// and the global atomics that flush them.
#include <cuda_runtime.h>

constexpr int N = 1 << 20;
constexpr int BINS = 256;

// Data-dependent bin: the shared atomic's address is indirect; 256 bins hold 8 words per bank, so at
// most 8 lanes on different bins share one (1 to 8 wavefronts; session 35, Access::objectBytes).
__global__ void histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist, int n) {
  __shared__ unsigned int sh[BINS];
  sh[threadIdx.x] = 0;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sh[data[i]], 1u);  // expect: global load sectors=1 ideal=1 eta=1.00 ; shared atomic pattern=indirect wavefronts=1..8
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], sh[threadIdx.x]);  // expect: global atomic sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

// Fixed per-lane slots: lanes l and l + 16 of a warp share a counter (16 words).
// Per-warp counter: one word per warp. Block 128. Unlike a load, an atomic does not
// broadcast: the lanes on one word update it one after another, a wavefront each (H200:
// eigenvalues' same-word atomicExch, 1 wavefront per active lane), so the pairs take 2
// and the per-warp word 32. nvcc's counting form atomicAdd(p, 1) adds the word's lane count
// once (ATOMS.POPC.INC, 1 wavefront: the calibration's satom_u32_s0).
__global__ void laneCounters(const int* __restrict__ flags, int* __restrict__ out) {
  __shared__ int perLane[16];
  __shared__ int perWarp[4];
  int t = threadIdx.x;
  if (t < 16) perLane[t] = 0;  // expect: shared store wavefronts=1 ideal=1 degree=1
  if (t < 4) perWarp[t] = 0;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  int f = flags[blockIdx.x * blockDim.x + t];  // expect: global load sectors=4 ideal=4 eta=1.00
  atomicAdd(&perLane[t % 16], f);  // expect: shared atomic wavefronts=2 ideal=1 degree=2
  atomicMax(&perWarp[t / 32], f);  // expect: shared atomic wavefronts=32 ideal=1 degree=32
  atomicExch(&perWarp[t / 32], f);  // expect: shared atomic wavefronts=32 ideal=1 degree=32
  atomicAdd(&perWarp[t / 32], 1);  // expect: shared atomic wavefronts=1 ideal=1 degree=1
  if (t % 32 < 4) atomicExch(&perLane[0], f);  // expect: shared atomic wavefronts=4 ideal=1 degree=4
  // No shared FP64 add: nvcc loads the word, then swaps the sum in (LDS + ATOMS.CAST.SPIN.64).
  __shared__ double sums[4];
  if (t % 32 == 0) atomicAdd(&sums[t / 32], 1.0);  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared atomic wavefronts=1 ideal=1 degree=1
  __syncthreads();
  if (t < 16) atomicAdd(&out[t], perLane[t]);  // expect: global atomic sectors=2 ideal=2 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
  if (t == 0) atomicAdd(&out[16 + blockIdx.x % 4], perWarp[0]);  // expect: global atomic sectors=1 ideal=1 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

// Per-thread sub-histograms of 8 bins, bin chosen by the lane: thread t owns words
// 8t .. 8t+7 and increments word 8t + (t & 7): bank 8(t mod 4) + (t mod 8) depends only on
// t mod 8: 8 banks, 4 words each (4-way). Word 8t: 4 banks, 8-way.
__global__ void perThreadBins(unsigned int* __restrict__ out) {
  __shared__ unsigned int bins[256 * 8];
  int t = threadIdx.x;
  atomicAdd(&bins[8 * t + (t & 7)], 1u);  // expect: shared atomic wavefronts=4 ideal=1 degree=4
  atomicAdd(&bins[8 * t], 1u);  // expect: shared atomic wavefronts=8 ideal=1 degree=8
  __syncthreads();
  out[blockIdx.x * 256 + t] = bins[8 * t];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=8 ideal=1 degree=8
}

int main() {
  unsigned char* data;
  unsigned int *hist, *u;
  int *flags, *out;
  cudaMalloc(&data, N);
  cudaMalloc(&hist, BINS * sizeof(unsigned int));
  cudaMalloc(&flags, N * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&u, N * sizeof(unsigned int));
  histogram256<<<120, BINS>>>(data, hist, N);
  laneCounters<<<N / 128, 128>>>(flags, out);
  perThreadBins<<<64, 256>>>(u);
  cudaDeviceSynchronize();
  return 0;
}
