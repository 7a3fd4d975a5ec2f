// Shared-memory arrays of structs: struct {float a, b;} sm[256] with .a read by lane and whole
// struct reads, struct of 3 floats (.y by lane), struct {float v[4];} walked over v[k], and a
// struct {double d; float f;} (16-byte element) read .f by lane. Launches: 64 x 256, 32 x 128, dim3(16) x dim3(256).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct AB { float a, b; };
struct XYZ { float x, y, z; };
struct V4 { float v[4]; };
struct DF { double d; float f; };

__global__ void pairFields(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ AB sm[256];
  int t = threadIdx.x;
  int g = blockIdx.x * 256 + t;
  float x = in[g];
  sm[t].a = x;
  sm[t].b = x * 2.0f;
  __syncthreads();
  float a = sm[255 - t].a;
  AB whole = sm[t ^ 1];
  out[g] = a + whole.a + whole.b;
}

__global__ void tripleAndVec(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ XYZ q[128];
  __shared__ V4 w[128];
  int t = threadIdx.x;
  float x = in[blockIdx.x * 128 + t];
  q[t].x = x;
  q[t].y = x + 1.0f;
  q[t].z = x + 2.0f;
  for (int k = 0; k < 4; ++k) w[t].v[k] = x * (float)k;
  __syncthreads();
  float s = q[t].y;
  for (int k = 0; k < 4; ++k) s += w[t].v[k];
  out[blockIdx.x * 128 + t] = s;
}

__global__ void doubleFloatRec(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ DF r[256];
  int t = threadIdx.x;
  float x = in[blockIdx.x * 256 + t];
  r[t].d = (double)x;
  r[t].f = x;
  __syncthreads();
  float f = r[(t + 1) & 255].f;
  double d = r[t].d;
  out[blockIdx.x * 256 + t] = f + (float)d;
}

int main() {
  const int n = 1 << 16;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  pairFields<<<64, 256>>>(in, out);
  tripleAndVec<<<32, 128>>>(in, out);
  dim3 g(16), b(256);
  doubleFloatRec<<<g, b>>>(in, out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
