// AoS whose struct has an array member: Body { float pos[3]; float mass; } (16 B, 4-aligned) read
// field by field, by a runtime axis, and in a loop over pos[d]; mass written in place;
// Rec { double v; int id; } (16 B, 8-aligned) read v and id in separate kernels;
// Sample { float feat[5]; int label; } (24 B) read feat[3] and label. Launches: 1D, 1024 x 256.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Body { float pos[3]; float mass; };
struct Rec { double v; int id; };
struct Sample { float feat[5]; int label; };

__global__ void bodyFields(const Body* __restrict__ b, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = b[i].pos[0];
  float y = b[i].pos[1];
  float z = b[i].pos[2];
  float m = b[i].mass;
  out[i] = m * (x + y + z);
}

__global__ void bodyAxis(const Body* __restrict__ b, float* __restrict__ out, int axis) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = b[i].pos[axis];
}

__global__ void bodyNormLoop(const Body* __restrict__ b, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int d = 0; d < 3; ++d) s += b[i].pos[d] * b[i].pos[d];
  out[i] = sqrtf(s);
}

__global__ void setMass(Body* b, const float* __restrict__ m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i].mass = m[i];
}

__global__ void recValue(const Rec* __restrict__ r, double* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = r[i].v;
}

__global__ void recId(const Rec* __restrict__ r, int* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = r[i].id;
}

__global__ void sampleFeat(const Sample* __restrict__ s, float* __restrict__ out, int* __restrict__ labels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = s[i].feat[3];
  out[i] = f;
  int l = s[i].label;
  labels[i] = l;
}

int main() {
  const int n = 1 << 18;
  const int tpb = 256;
  Body* bodies;
  Rec* recs;
  Sample* samples;
  float *fout, *mass;
  double* dout;
  int* iout;
  CK(cudaMalloc(&bodies, n * sizeof(Body)));
  CK(cudaMalloc(&recs, n * sizeof(Rec)));
  CK(cudaMalloc(&samples, n * sizeof(Sample)));
  CK(cudaMalloc(&fout, n * sizeof(float)));
  CK(cudaMalloc(&mass, n * sizeof(float)));
  CK(cudaMalloc(&dout, n * sizeof(double)));
  CK(cudaMalloc(&iout, n * sizeof(int)));
  CK(cudaMemset(bodies, 0, n * sizeof(Body)));
  CK(cudaMemset(recs, 0, n * sizeof(Rec)));
  CK(cudaMemset(samples, 0, n * sizeof(Sample)));
  CK(cudaMemset(mass, 0, n * sizeof(float)));

  bodyFields<<<n / tpb, tpb>>>(bodies, fout);
  bodyAxis<<<n / tpb, tpb>>>(bodies, fout, 1);
  bodyNormLoop<<<n / tpb, tpb>>>(bodies, fout);
  setMass<<<n / tpb, tpb>>>(bodies, mass);
  recValue<<<n / tpb, tpb>>>(recs, dout);
  recId<<<n / tpb, tpb>>>(recs, iout);
  sampleFeat<<<n / tpb, tpb>>>(samples, fout, iout);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(bodies)); CK(cudaFree(recs)); CK(cudaFree(samples)); CK(cudaFree(fout));
  CK(cudaFree(mass)); CK(cudaFree(dout)); CK(cudaFree(iout));
  return 0;
}
