// loop_bounds_live.cu: accesses inside loops whose bounds are not known statically, which the
// analysis used to report as never run (issue #13: "never a figure of 0 for an access that
// runs"; the real-code set's eigenvalues and fastWalshTransform). lane_evaluator.cpp,
// lane_function.cpp (liveValues).
#include <cuda_runtime.h>

// A tree scan over a count read from shared memory (eigenvalues' compaction): the loop's
// bound is data-dependent, so the count is taken as two elements per thread of the 256-thread
// block, 512 (said in the assumptions). d = 256 .. 1 with offset = 1 .. 256: 8, 4, 2, 1, 1, 1,
// 1, 1, 1 warp requests of 2, 4, 8, 16 (stride 16 words: two banks), 16 (16 lanes, one bank),
// 8, 4, 2, 1 wavefronts: 95 wavefronts over 20 requests, 4.75 each, ideal 1.
__global__ void scanTree(unsigned* out, const unsigned* counts) {
  __shared__ unsigned s[1024];
  __shared__ unsigned n;
  if (threadIdx.x == 0) n = counts[blockIdx.x];  // expect: global load sectors=1 ideal=1 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  unsigned offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {  // expect: shared load wavefronts=1 ideal=1 degree=1
    __syncthreads();
    if (threadIdx.x < d) {
      unsigned ai = offset * (2 * threadIdx.x + 1) - 1;
      unsigned bi = offset * (2 * threadIdx.x + 2) - 1;
      s[bi] += s[ai];  // expect: shared load wavefronts=4.75 ideal=1 degree=4.75 ; shared load wavefronts=4.75 ideal=1 degree=4.75 ; shared store wavefronts=4.75 ideal=1 degree=4.75
    }
    offset <<= 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

// A halving loop from 1 << log2N, log2N unknown: at the default 4096 the shift overflows and
// no iteration is listed; the live-value search now looks at the loop's bounds and takes
// log2N = 16 (stated). Contiguous lanes: one wavefront per request.
__global__ void halving(float* data, int log2N) {
  __shared__ float s[1024];
  s[threadIdx.x] = data[threadIdx.x];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  const int N = 1 << log2N;
  for (int stride = N >> 1; stride > 0; stride >>= 1) {
    __syncthreads();
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared store wavefronts=1 ideal=1 degree=1
  }
  __syncthreads();
  data[threadIdx.x] = s[threadIdx.x];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=4 ideal=4 eta=1.00
}

void runScans(unsigned* out, const unsigned* counts, float* data, int log2N) {
  scanTree<<<4, 256>>>(out, counts);
  halving<<<1, 256>>>(data, log2N);
}

// A loop that starts one grid past the thread (SobolQRNG's remaining points): with the grid
// not known (1024 blocks of 64 assumed) it runs only when n exceeds the grid's 65,536 threads,
// which no value up to the default 4096 does; n is taken larger (kLargeLiveValue, said in the
// assumptions): contiguous lanes, 4 sectors. Before, the store was reported as never run.
__global__ void restOfPoints(float* out, int n) {
  int i0 = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = gridDim.x * blockDim.x;
  for (int i = i0 + stride; i < n; i += stride) out[i] = 1.0f;  // expect: global store sectors=4 ideal=4 eta=1.00
}

void launchRest(float* out, int n, int blocks) { restOfPoints<<<blocks, 64>>>(out, n); }

// Three unknown scalars whose guard holds only with two of them small together and above 1
// (a halo stencil's step count and border, Rodinia's hotspot: its copy after `if (i ==
// iteration - 1) break;` runs from 2 iterations on, and only while `i + 1 < 14 - i` leaves
// lanes computing), the third left large. No value alone, none for all three at once, and
// none of 256, 16, 1, 0 for two at once makes it run; 4 for two at once does (the joint
// candidates' last, analysis_policy.h). Before, it was reported as never run.
__global__ void haloCopy(float* out, const float* in, int iteration, int border, int width) {
  if (iteration > 1 && iteration < 8 && border == iteration && width > 100)
    out[threadIdx.x] = in[threadIdx.x];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

void runHalo(float* out, const float* in, int iteration, int border, int width) {
  haloCopy<<<4, 32>>>(out, in, iteration, border, width);
}
