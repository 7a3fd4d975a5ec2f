// structs_float3.cu: arrays of float3 (12 bytes, 4-byte aligned: moved as three 4-byte
// accesses), nested struct fields and a struct with an array member.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

struct Body {
  float3 pos;   // offset 0
  float3 vel;   // offset 12
  float mass;   // offset 24
  int id;       // offset 28
};              // 32 bytes

struct Cell {
  float v[4];  // offset 0
  int flags;   // offset 16
};             // 20 bytes

struct __align__(8) Pair {
  float a, b;
};  // 8 bytes, 8-aligned: copied with one 8-byte access

// float3 copy: three 4-byte loads at a lane stride of 12 bytes: each spans 384 bytes,
// 12 sectors for 4 sectors of data.
__global__ void normalize3(const float3* __restrict__ in, float3* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float3 v = in[i];  // expect: global load sectors=12 ideal=4 eta=0.33 ; global load sectors=12 ideal=4 eta=0.33 ; global load sectors=12 ideal=4 eta=0.33
    float inv = rsqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    out[i] = make_float3(v.x * inv, v.y * inv, v.z * inv);  // expect: global store sectors=12 ideal=4 eta=0.33 ; global store sectors=12 ideal=4 eta=0.33 ; global store sectors=12 ideal=4 eta=0.33
  }
}

// One component of a float3 array.
__global__ void heightOf(const float3* __restrict__ pts, float* __restrict__ h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = pts[i].y;  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=12 ideal=4 eta=0.33
}

// Nested fields of a 32-byte struct: every lane in its own sector.
__global__ void integrate(Body* __restrict__ bodies, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float vy = bodies[i].vel.y;  // expect: global load sectors=32 ideal=4 eta=0.12
  float m = bodies[i].mass;  // expect: global load sectors=32 ideal=4 eta=0.12
  bodies[i].pos.y += dt * vy / m;  // expect: global load sectors=32 ideal=4 eta=0.12 ; global store sectors=32 ideal=4 eta=0.12
}

// Array member of a 20-byte struct: v[2] at offset 8.
__global__ void thirdValue(const Cell* __restrict__ cells, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = cells[i].v[2];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=20 ideal=4 eta=0.20
}

// A whole 8-byte aligned pair per lane, and one of its fields.
__global__ void sumPairs(const Pair* __restrict__ p, float* __restrict__ out, float* __restrict__ firsts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Pair q = p[i];  // expect: global load sectors=8 ideal=8 eta=1.00
    out[i] = q.a + q.b;  // expect: global store sectors=4 ideal=4 eta=1.00
    firsts[i] = p[i].a;  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=8 ideal=4 eta=0.50
  }
}

int main() {
  float3 *a, *b;
  Body* bodies;
  Cell* cells;
  Pair* pairs;
  float *h, *f;
  cudaMalloc(&a, N * sizeof(float3));
  cudaMalloc(&b, N * sizeof(float3));
  cudaMalloc(&bodies, N * sizeof(Body));
  cudaMalloc(&cells, N * sizeof(Cell));
  cudaMalloc(&pairs, N * sizeof(Pair));
  cudaMalloc(&h, N * sizeof(float));
  cudaMalloc(&f, N * sizeof(float));
  normalize3<<<N / 256, 256>>>(a, b, N);
  heightOf<<<N / 256, 256>>>(a, h, N);
  integrate<<<N / 128, 128>>>(bodies, 0.01f, N);
  thirdValue<<<N / 256, 256>>>(cells, h, N);
  sumPairs<<<N / 256, 256>>>(pairs, h, f, N);
  cudaDeviceSynchronize();
  return 0;
}
