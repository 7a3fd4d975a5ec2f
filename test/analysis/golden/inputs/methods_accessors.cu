// methods_accessors.cu: memory reached through member functions of small view structs
// (at(), operator(), operator[]) instead of raw subscripts; the accesses sit in the methods.
#include <cuda_runtime.h>

constexpr int W = 1024;
constexpr int H = 1024;

struct MatrixView {
  float* data;
  int ld;
  __device__ float& at(int r, int c) const { return data[r * ld + c]; }
  __device__ float get(int r, int c) const {
    return data[r * ld + c];  // expect: global load sectors=4 ideal=4 eta=1.00
  }
};

template <int STRIDE>
struct Strided {
  const float* p;
  __device__ float operator[](int i) const {
    return p[i * STRIDE];  // expect: global load sectors=8 ideal=4 eta=0.50
  }
};

struct Image {
  float* px;
  int width;
  __device__ float& operator()(int x, int y) { return px[y * width + x]; }
};

// Block 32 x 8, row-major views: one row segment per warp.
__global__ void addViews(MatrixView a, MatrixView b) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  b.at(r, c) += a.get(r, c);  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

// Stride 2 through operator[] (block 256).
__global__ void evenElements(Strided<2> s, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = s[i];  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Image accessed through operator()(x, y), block 16 x 16: two 64-byte runs per warp.
__global__ void invert(Image img) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img(x, y) = 1.0f - img(x, y);  // expect: global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b;
  cudaMalloc(&a, W * H * sizeof(float));
  cudaMalloc(&b, W * H * sizeof(float));
  MatrixView va{a, W}, vb{b, W};
  addViews<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(va, vb);
  evenElements<<<W * H / 512, 256>>>(Strided<2>{a}, b);
  invert<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(Image{a, W});
  cudaDeviceSynchronize();
  return 0;
}
