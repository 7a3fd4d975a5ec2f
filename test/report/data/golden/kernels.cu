// Input of the report golden tests: golden_fixture.cpp builds, by hand, the records the
// frontend would produce for the accesses below, with figures from the model.
struct Particle { float x, y, z, vx, vy, vz; };

__global__ void strided(const float* a, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[2 * i];
}

__global__ void shifted(const float* a, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i + 1];
}

__global__ void particles(const Particle* p, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x;
}

__global__ void columns(const float* m, float* out) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * 2048 + x] = m[x * 2048 + y];
}

__global__ void gather(const float* a, const int* idx, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[idx[i]];
}

__global__ void tiles(float* out) {
  __shared__ float s[32][32];
  __shared__ double d[64];
  s[threadIdx.x][0] = out[threadIdx.x];
  d[threadIdx.x] = s[0][threadIdx.x] + d[2 * threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x][1];  // NOLINT(shared-bank-conflict): measured, not hot
}

__global__ void control(float bias) {
  float v = bias;
  if (threadIdx.x % 2) v = v * 2.0f;
  if (threadIdx.x < 64) {
    v += 1.0f;
    __syncthreads();
  }
  if (v > 3.0f) __syncthreads();
}
