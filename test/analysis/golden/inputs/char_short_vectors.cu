// char_short_vectors.cu: 1- and 2-byte element vectors (uchar4 pixels, short2 pairs,
// char2) in global and shared memory, whole and one component at a time.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

// RGBA pixels: a whole uchar4 per lane is 4 bytes, 128 bytes per warp.
__global__ void rgbaToGray(const uchar4* __restrict__ rgba, unsigned char* __restrict__ gray, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uchar4 p = rgba[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    gray[i] = (unsigned char)((p.x * 77 + p.y * 150 + p.z * 29) >> 8);  // expect: global store sectors=1 ideal=1 eta=1.00
  }
}

// One channel of each pixel: 1 byte per lane, 4 bytes apart: 4 sectors for 32 bytes.
__global__ void alphaChannel(const uchar4* __restrict__ rgba, unsigned char* __restrict__ alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) alpha[i] = rgba[i].w;  // expect: global store sectors=1 ideal=1 eta=1.00 ; global load sectors=4 ideal=1 eta=0.25
}

// short2 pairs: 4 bytes per lane; the .y component alone: 2 bytes, 4 apart.
__global__ void swapShort2(const short2* __restrict__ in, short2* __restrict__ out, short* __restrict__ ys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    short2 v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[i] = make_short2(v.y, v.x);  // expect: global store sectors=4 ideal=4 eta=1.00
    ys[i] = in[i].y;  // expect: global store sectors=2 ideal=2 eta=1.00 ; global load sectors=4 ideal=2 eta=0.50
  }
}

// char2 per lane at a stride of 3 char2 (6 bytes): 192 bytes spanned, 64 used.
__global__ void everyThirdChar2(const char2* __restrict__ in, char2* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[3 * i];  // expect: global store sectors=2 ideal=2 eta=1.00 ; global load sectors=6 ideal=2 eta=0.33
}

// Shared uchar4 tile (one word per lane) and a byte-wise column read of a [32][32] byte
// tile: bytes[lane][warp] is byte 32*lane + warp, word 8*lane, bank 8*lane mod 32: 4 banks,
// 8 distinct words each: 8 wavefronts.
__global__ void sharedBytes(const uchar4* __restrict__ in, unsigned char* __restrict__ out) {
  __shared__ uchar4 px[256];
  __shared__ unsigned char bytes[32][32];
  int t = threadIdx.x;
  int lane = t % 32, warp = t / 32;
  uchar4 p = in[blockIdx.x * 256 + t];  // expect: global load sectors=4 ideal=4 eta=1.00
  px[t] = p;  // expect: shared store wavefronts=1 ideal=1 degree=1
  bytes[warp][lane] = p.x;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  unsigned char c = bytes[lane][warp];  // expect: shared load wavefronts=8 ideal=1 degree=8
  out[blockIdx.x * 256 + t] = c + px[(t + 1) % 256].y;  // expect: global store sectors=1 ideal=1 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

int main() {
  uchar4* rgba;
  unsigned char* g;
  short2 *s2, *o2;
  short* ys;
  char2 *c2, *d2;
  cudaMalloc(&rgba, N * sizeof(uchar4));
  cudaMalloc(&g, N);
  cudaMalloc(&s2, N * sizeof(short2));
  cudaMalloc(&o2, N * sizeof(short2));
  cudaMalloc(&ys, N * sizeof(short));
  cudaMalloc(&c2, 3 * N * sizeof(char2));
  cudaMalloc(&d2, N * sizeof(char2));
  rgbaToGray<<<N / 256, 256>>>(rgba, g, N);
  alphaChannel<<<N / 256, 256>>>(rgba, g, N);
  swapShort2<<<N / 256, 256>>>(s2, o2, ys, N);
  everyThirdChar2<<<N / 256, 256>>>(c2, d2, N);
  sharedBytes<<<N / 256, 256>>>(rgba, g);
  cudaDeviceSynchronize();
  return 0;
}
