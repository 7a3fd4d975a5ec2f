// AoS reading/writing ALL fields: a 24-byte struct {double; 3 floats} read field by field,
// a 20-byte struct converted AoS->SoA, a 12-byte struct written field by field from SoA,
// a 16-byte alignas(16) struct read by fields, and the SoA struct-of-pointers equivalent.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Rec24 { double w; float a, b, c; };        // 8 + 12 -> padded to 24 bytes
struct Body20 { float x, y, z, m, q; };           // 20 bytes
struct Cell12 { float u, v, p; };                 // 12 bytes
struct alignas(16) Q16 { float x, y, z, w; };     // 16 bytes, 16-aligned
struct SoA3 { const float* x; const float* y; const float* z; };

constexpr int N = 1 << 15;

__global__ void weighRec24(const Rec24* __restrict__ r, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double w = r[i].w;
  float a = r[i].a;
  float b = r[i].b;
  float c = r[i].c;
  out[i] = (float)w * (a + b + c);
}

__global__ void bodyToSoA(const Body20* __restrict__ in, float* __restrict__ xs, float* __restrict__ ms, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Body20 b = in[i];
    xs[i] = b.x + b.y + b.z;
    ms[i] = b.m * b.q;
  }
}

__global__ void soaToCell(const float* __restrict__ u, const float* __restrict__ v, Cell12* __restrict__ cells, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float uu = u[i];
    float vv = v[i];
    cells[i].u = uu;
    cells[i].v = vv;
    cells[i].p = uu * vv;
  }
}

__global__ void normQ16(const Q16* __restrict__ q, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = q[i].x;
    float y = q[i].y;
    float z = q[i].z;
    float w = q[i].w;
    out[i] = x * x + y * y + z * z + w * w;
  }
}

__global__ void normSoA(SoA3 s, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = s.x[i];
    float y = s.y[i];
    float z = s.z[i];
    out[i] = x * x + y * y + z * z;
  }
}

int main() {
  Rec24* r; Body20* b; Cell12* c; Q16* q; float *f0, *f1, *f2, *f3;
  CK(cudaMalloc(&r, N * sizeof(Rec24)));
  CK(cudaMalloc(&b, N * sizeof(Body20)));
  CK(cudaMalloc(&c, N * sizeof(Cell12)));
  CK(cudaMalloc(&q, N * sizeof(Q16)));
  CK(cudaMalloc(&f0, N * sizeof(float)));
  CK(cudaMalloc(&f1, N * sizeof(float)));
  CK(cudaMalloc(&f2, N * sizeof(float)));
  CK(cudaMalloc(&f3, N * sizeof(float)));
  CK(cudaMemset(r, 0, N * sizeof(Rec24)));
  CK(cudaMemset(b, 0, N * sizeof(Body20)));
  CK(cudaMemset(q, 0, N * sizeof(Q16)));
  CK(cudaMemset(f0, 0, N * sizeof(float)));
  CK(cudaMemset(f1, 0, N * sizeof(float)));
  CK(cudaMemset(f2, 0, N * sizeof(float)));

  weighRec24<<<N / 256, 256>>>(r, f2, N);
  bodyToSoA<<<N / 128, 128>>>(b, f0, f1, N);
  soaToCell<<<N / 256, 256>>>(f0, f1, c, N);
  normQ16<<<N / 256, 256>>>(q, f2, N);
  SoA3 s{f0, f1, f2};
  normSoA<<<N / 256, 256>>>(s, f3, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(r)); CK(cudaFree(b)); CK(cudaFree(c)); CK(cudaFree(q));
  CK(cudaFree(f0)); CK(cudaFree(f1)); CK(cudaFree(f2)); CK(cudaFree(f3));
  return 0;
}
