// shared_double_tab_column.cu: seed 000's closing question, "__shared__ double tab[32][32]
// with tab[tid][0]: a conflict even after padding to [33]?", measured three ways. One warp
// per block stages 32 rows of 32 doubles (coalesced), then lane t reads tab[t][0].
//  - tab[32][32]: lane t at byte 256 t, every lane on banks 0-1; per half-warp phase 16
//    different words per bank: 16 + 16 = 32 wavefronts for an ideal of 2 (degree 16).
//  - tab[32][33] (the seed's question): byte 264 t, banks 2t and 2t+1 mod 32. The seed
//    pairs lanes t and t+16 (same banks), but a 64-bit access is served in two half-warp
//    phases (field notes §2) and t, t+16 never share a phase: inside a phase the 16 lanes
//    cover the 32 banks once. 2 wavefronts, ideal 2: NO conflict under the model.
//  - tab[32][34] (the seed's other suggestion): byte 272 t, banks 4t mod 32: lanes t and
//    t+8 share banks inside a phase: 2 + 2 = 4 wavefronts, degree 2.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int ROWS = 32;
constexpr int TILES = 256;  // one block (one warp) per 32 x 32 tile

__global__ void firstColumn32(const double* __restrict__ in, double* __restrict__ out) {  // expect-hint: occupancy-limited
  __shared__ double tab[ROWS][32];
  int tid = threadIdx.x;
  const double* tileIn = in + blockIdx.x * ROWS * 32;
  for (int r = 0; r < ROWS; ++r) {
    double v = tileIn[r * 32 + tid];  // expect: global load sectors=8 ideal=8 eta=1.00
    tab[r][tid] = v;  // expect: shared store wavefronts=2 ideal=2 degree=1
  }
  __syncthreads();
  double first = tab[tid][0];  // expect: shared load wavefronts=32 ideal=2 degree=16 !wide-shared-access-conflict
  out[blockIdx.x * ROWS + tid] = first;  // expect: global store sectors=8 ideal=8 eta=1.00
}

__global__ void firstColumn33(const double* __restrict__ in, double* __restrict__ out) {  // expect-hint: occupancy-limited
  __shared__ double tab[ROWS][33];
  int tid = threadIdx.x;
  const double* tileIn = in + blockIdx.x * ROWS * 32;
  for (int r = 0; r < ROWS; ++r) {
    double v = tileIn[r * 32 + tid];  // expect: global load sectors=8 ideal=8 eta=1.00
    tab[r][tid] = v;  // expect: shared store wavefronts=2 ideal=2 degree=1
  }
  __syncthreads();
  double first = tab[tid][0];  // expect: shared load wavefronts=2 ideal=2 degree=1
  out[blockIdx.x * ROWS + tid] = first;  // expect: global store sectors=8 ideal=8 eta=1.00
}

__global__ void firstColumn34(const double* __restrict__ in, double* __restrict__ out) {  // expect-hint: occupancy-limited
  __shared__ double tab[ROWS][34];
  int tid = threadIdx.x;
  const double* tileIn = in + blockIdx.x * ROWS * 32;
  for (int r = 0; r < ROWS; ++r) {
    double v = tileIn[r * 32 + tid];  // expect: global load sectors=8 ideal=8 eta=1.00
    tab[r][tid] = v;  // expect: shared store wavefronts=2 ideal=2 degree=1
  }
  __syncthreads();
  double first = tab[tid][0];  // expect: shared load wavefronts=4 ideal=2 degree=2 !wide-shared-access-conflict
  out[blockIdx.x * ROWS + tid] = first;  // expect: global store sectors=8 ideal=8 eta=1.00
}

int main() {
  double *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, TILES * ROWS * 32 * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&out, TILES * ROWS * sizeof(double)));
  CUDA_CHECK(cudaMemset(in, 0, TILES * ROWS * 32 * sizeof(double)));

  firstColumn32<<<256, 32>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  firstColumn33<<<256, 32>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  firstColumn34<<<256, 32>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_double_tab_column: ok\n");
  return 0;
}
