// A gather whose lanes fall in groups that load the same index: sputnik's SpMM gives each row
// of an 8x4 block one column index, read from a shared tile (`32 * threadIdx.y + k`), and
// the row's 8 lanes read consecutive elements of that dense row. The lanes of one row hold
// the same loaded value, so a warp's request is four runs of 32 bytes, four sectors with
// the rows' bases on sector boundaries, the figure a coalesced request has; it was "1 to 32
// sectors per request" (blind panel 41 judged two such notes false). The range is capped by
// the groups' runs now (lane_spread.h, sharedIndexSectors). A lane with an index of its own
// still scatters. Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void rowsOfDenseTile(const float* __restrict__ dense, const int* __restrict__ cols,
                                float* __restrict__ out, int n) {
  __shared__ int colTile[4 * 32];
  const int t = threadIdx.y * 8 + threadIdx.x;
  for (int r = 0; r < 4; ++r) colTile[r * 32 + t] = cols[(blockIdx.x * 4 + r) * 32 + t];  // finding: none
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 32; ++k) {
    const int col = colTile[k * 4 + threadIdx.y];  // finding: none
    acc += dense[col * n + threadIdx.x];  // finding: none
  }
  out[blockIdx.x * 32 + t] = acc;  // finding: none
}

// Each lane its own column: the lanes can land in a sector each.
__global__ void columnPerLane(const float* __restrict__ dense, const int* __restrict__ cols,
                              float* __restrict__ out, int n) {
  const int t = threadIdx.y * 8 + threadIdx.x;
  const int col = cols[blockIdx.x * 32 + t];  // finding: none
  out[blockIdx.x * 32 + t] = dense[col * n + threadIdx.x];  // finding: scattered-indirect-access=note
}

void launch(const float* dense, const int* cols, float* out, int n) {
  rowsOfDenseTile<<<1024, dim3(8, 4)>>>(dense, cols, out, n);
  columnPerLane<<<1024, dim3(8, 4)>>>(dense, cols, out, n);
}
