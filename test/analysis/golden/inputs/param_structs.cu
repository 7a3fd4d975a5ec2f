// param_structs.cu: pointers reached through kernel-argument structs (flat and nested), a
// struct built inside the kernel, and a pointer loaded from a table of row pointers.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

struct Buffer {
  float* data;
  int size;
};

struct Args {
  const float* in;
  float* out;
  float scale;
};

struct NestedArgs {
  Buffer src;
  Buffer dst;
};

__global__ void flatArgs(Args a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a.out[i] = a.scale * a.in[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

__global__ void nestedArgs(NestedArgs a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.src.size) a.dst.data[i] = a.src.data[2 * i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=8 ideal=4 eta=0.50
}

// A view struct assembled in the kernel from its pointer arguments.
__global__ void localView(float* __restrict__ data, int n) {
  Buffer b{data, n};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.size) b.data[i] *= 2.0f;  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

// Row pointers in a table (block 32 x 8): the pointer is the same for a warp's lanes (a
// uniform load), the row is read contiguously.
__global__ void rowTable(const float* const* __restrict__ rows, float* __restrict__ out, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  const float* row = rows[r];  // expect: global load sectors=1 ideal=1 eta=1.00
  out[r * cols + c] = row[c];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b;
  float** rows;
  cudaMalloc(&a, 2 * N * sizeof(float));
  cudaMalloc(&b, 2 * N * sizeof(float));
  cudaMalloc(&rows, 256 * sizeof(float*));
  flatArgs<<<N / 256, 256>>>(Args{a, b, 2.0f});
  nestedArgs<<<N / 256, 256>>>(NestedArgs{Buffer{a, N}, Buffer{b, N}});
  localView<<<N / 256, 256>>>(a, N);
  rowTable<<<dim3(8, 32), dim3(32, 8)>>>(rows, b, 256);
  cudaDeviceSynchronize();
  return 0;
}
