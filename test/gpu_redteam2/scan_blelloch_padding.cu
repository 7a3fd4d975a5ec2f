// Shared-memory scans, GPU Gems 3 ch. 39 style: Blelloch work-efficient exclusive scan with and
// without the CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS) padding (two kernels, 1024 elements,
// 512 threads, dynamic shared), and a double-buffered Hillis-Steele scan (pout/pin, 1024 threads)
// whose first load is shifted by one element. Launches: 128 x 512 (x2, dynamic smem), 128 x 1024.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

__global__ void prescanPlain(float* g_odata, const float* g_idata, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  const float* in = g_idata + blockIdx.x * n;
  float* out = g_odata + blockIdx.x * n;
  int offset = 1;
  temp[2 * thid] = in[2 * thid];
  temp[2 * thid + 1] = in[2 * thid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      float va = temp[ai];
      temp[bi] += va;
    }
    offset *= 2;
  }
  if (thid == 0) temp[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  out[2 * thid] = temp[2 * thid];
  out[2 * thid + 1] = temp[2 * thid + 1];
}

__global__ void prescanPadded(float* g_odata, const float* g_idata, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  const float* in = g_idata + blockIdx.x * n;
  float* out = g_odata + blockIdx.x * n;
  int offset = 1;
  int ai = thid, bi = thid + (n / 2);
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = in[ai];
  temp[bi + bankOffsetB] = in[bi];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);
      float va = temp[a];
      temp[b] += va;
    }
    offset *= 2;
  }
  if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a); b += CONFLICT_FREE_OFFSET(b);
      float t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  out[ai] = temp[ai + bankOffsetA];
  out[bi] = temp[bi + bankOffsetB];
}

constexpr int HS_N = 1024;

__global__ void hillisSteeleDB(float* g_odata, const float* g_idata) {
  __shared__ float temp[2 * HS_N];
  int thid = threadIdx.x;
  const float* in = g_idata + blockIdx.x * HS_N;
  int pout = 0, pin = 1;
  temp[thid] = (thid > 0) ? in[thid - 1] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < HS_N; offset *= 2) {
    pout = 1 - pout; pin = 1 - pout;
    float cur = temp[pin * HS_N + thid];
    if (thid >= offset) cur += temp[pin * HS_N + thid - offset];
    temp[pout * HS_N + thid] = cur;
    __syncthreads();
  }
  g_odata[blockIdx.x * HS_N + thid] = temp[pout * HS_N + thid];
}

int main() {
  const int blocks = 128, n = 1024;
  const size_t total = (size_t)blocks * n;
  float *in, *out;
  CK(cudaMalloc(&in, total * sizeof(float)));
  CK(cudaMalloc(&out, total * sizeof(float)));
  CK(cudaMemset(in, 0, total * sizeof(float)));

  prescanPlain<<<blocks, n / 2, n * sizeof(float)>>>(out, in, n);
  size_t padded = (n + CONFLICT_FREE_OFFSET(n - 1) + 1) * sizeof(float);
  prescanPadded<<<blocks, n / 2, padded>>>(out, in, n);
  hillisSteeleDB<<<blocks, HS_N>>>(out, in);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
