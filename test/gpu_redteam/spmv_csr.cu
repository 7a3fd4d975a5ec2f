// CSR sparse matrix-vector product with indirect gathers x[col_idx[j]]: scalar kernel (one
// thread per row, block 128, __ldg on x) and vector kernel (one warp per row, block 256,
// lane-strided nonzeros, shuffle reduction, one store per row). Row lengths 8..48.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int ROWS = 4096;
constexpr int COLS = 4096;

__global__ void spmvScalar(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                           const float* __restrict__ val, const float* __restrict__ x,
                           float* __restrict__ y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int begin = rowPtr[r];
  int end = rowPtr[r + 1];
  float acc = 0.0f;
  for (int j = begin; j < end; ++j) {
    int c = colIdx[j];
    float a = val[j];
    acc += a * __ldg(&x[c]);
  }
  y[r] = acc;
}

__global__ void spmvVector(const int* __restrict__ rowPtr, const int* __restrict__ colIdx,
                           const float* __restrict__ val, const float* __restrict__ x,
                           float* __restrict__ y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  int begin = rowPtr[warp];
  int end = rowPtr[warp + 1];
  float acc = 0.0f;
  for (int j = begin + lane; j < end; j += 32) {
    int c = colIdx[j];
    float a = val[j];
    float xv = x[c];
    acc += a * xv;
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[warp] = acc;
}

int main() {
  std::vector<int> hRow(ROWS + 1);
  hRow[0] = 0;
  for (int r = 0; r < ROWS; ++r) hRow[r + 1] = hRow[r] + 8 + (r % 41);
  const int nnz = hRow[ROWS];
  std::vector<int> hCol(nnz);
  for (int r = 0; r < ROWS; ++r)
    for (int j = hRow[r]; j < hRow[r + 1]; ++j) hCol[j] = (int)(((long long)r * 7919 + (j - hRow[r]) * 131) % COLS);

  int *rowPtr, *colIdx;
  float *val, *x, *y;
  CK(cudaMalloc(&rowPtr, (ROWS + 1) * sizeof(int)));
  CK(cudaMalloc(&colIdx, nnz * sizeof(int)));
  CK(cudaMalloc(&val, nnz * sizeof(float)));
  CK(cudaMalloc(&x, COLS * sizeof(float)));
  CK(cudaMalloc(&y, ROWS * sizeof(float)));
  CK(cudaMemcpy(rowPtr, hRow.data(), (ROWS + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(colIdx, hCol.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(val, 0, nnz * sizeof(float)));
  CK(cudaMemset(x, 0, COLS * sizeof(float)));

  spmvScalar<<<ROWS / 128, 128>>>(rowPtr, colIdx, val, x, y, ROWS);
  spmvVector<<<ROWS * 32 / 256, 256>>>(rowPtr, colIdx, val, x, y, ROWS);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(rowPtr)); CK(cudaFree(colIdx)); CK(cudaFree(val)); CK(cudaFree(x)); CK(cudaFree(y));
  return 0;
}
