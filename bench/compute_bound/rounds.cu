// Compute-bound calibration: how much an uncoalesced per-thread layout costs a kernel as its
// per-thread arithmetic grows (bench/compute_bound/README.md).
//
// Three families, each a template on ROUNDS (R, straight-line code: Unrolled below) and LAYOUT:
//   int64: 8 x uint64_t per thread (64 B), R SHA-512-like rounds (37 64-bit operators a round)
//   int32: 16 x uint32_t per thread (64 B), R SHA-256-like rounds, words 8..15 as a message
//          that each round reads and updates (39 32-bit operators a round)
//   fp32:  8 x float per thread (32 B), R rounds of 8 dependent fmaf + 2 multiplies per word
//          (80 fp operators, 144 flops a round)
// LAYOUT per_thread: word u of thread t at in[t*W+u]; coalesced: at in[u*n+t].
//
//   rounds          time every variant: 3 warm-ups, median of 20 launches (cudaEvent), CSV on
//                   stdout (family,rounds,layout,ms_median); checks sampled threads against a
//                   host reference and every word against the poison, on stderr
//   rounds once     launch each variant once (for ncu)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(call)                                                                           \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      exit(2);                                                                             \
    }                                                                                      \
  } while (0)

enum { PER_THREAD = 0, COALESCED = 1 };
static const char* layoutName(int l) { return l == PER_THREAD ? "per_thread" : "coalesced"; }

static const unsigned kN = 1u << 22;  // threads
static const int kBlock = 256;

template <int L>
__host__ __device__ __forceinline__ unsigned wordIndex(unsigned t, unsigned u, unsigned words,
                                                       unsigned n) {
  return L == PER_THREAD ? t * words + u : u * n + t;
}

// ---- constant tables (one initializer list for the device copy and the host reference) ----
#define K64_INIT                                                                          \
  {0xf2a74de452e6b439ull, 0x6513270e269e0d37ull, 0x0c5c7fd0a6a3a451ull, 0xd23f0824128b2f33ull, \
   0x1818e811892f902bull, 0x9531985d5d9dc9f9ull, 0xe8e25d940ed90475ull, 0x36f675cc81e74ef5ull, \
   0x1600a35a099950d9ull, 0x6b0d549b6f03675bull, 0x3d9c172411e20b8full, 0x8d116ece1738f7d9ull, \
   0x0f21ddb66cad4a27ull, 0x90c192cfd3ac94afull, 0xf28c105d1fb17c23ull, 0xa170b33839263059ull}
#define K32_INIT                                                                          \
  {0x73cf256du, 0xdda1494du, 0x8f4d3e27u, 0xdb5b5fabu, 0xec99108du, 0xc7fde805u, 0x7734d7c1u, \
   0x73ab4877u, 0x8201e2bdu, 0xdae44551u, 0x965eda33u, 0x309d6b79u, 0x2f45e679u, 0xcdcc6929u, \
   0x830c71c3u, 0x79cb9e87u}
#define FA_INIT \
  {0.956689f, 0.971368f, 0.908471f, 0.927306f, 0.908160f, 0.972868f, 0.962409f, 0.903769f}
#define FB_INIT \
  {0.098397f, 0.096828f, 0.068853f, 0.065401f, 0.024174f, 0.011350f, 0.057554f, 0.015360f}
#define FM_INIT                                                                               \
  {0.981412f, 0.984517f, 0.971805f, 0.997836f, 0.996432f, 1.020546f, 1.001147f, 1.008418f,     \
   0.999986f, 1.009747f, 0.997440f, 0.986690f, 1.029859f, 1.029741f, 1.020413f, 1.012469f}

__constant__ uint64_t cK64[16] = K64_INIT;
__constant__ uint32_t cK32[16] = K32_INIT;
__constant__ float cFA[8] = FA_INIT;
__constant__ float cFB[8] = FB_INIT;
__constant__ float cFM[16] = FM_INIT;
static const uint64_t hK64[16] = K64_INIT;
static const uint32_t hK32[16] = K32_INIT;
static const float hFA[8] = FA_INIT;
static const float hFB[8] = FB_INIT;
static const float hFM[16] = FM_INIT;

// ---- rounds (shared by the kernels and the host reference) ----
// Rotates by a literal amount: 3 run-time operators (>> | <<); the (64 - r) is a constant.
#define ROTR64(x, r) (((x) >> (r)) | ((x) << (64 - (r))))
#define ROTR32(x, r) (((x) >> (r)) | ((x) << (32 - (r))))

// 64-bit operators: S1 11, ch 4, t1 3, S0 11, mj 5, t2 1, new e 1, new a 1 = 37.
__host__ __device__ __forceinline__ void round64(uint64_t s[8], uint64_t k) {
  const uint64_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
  const uint64_t S1 = ROTR64(e, 14) ^ ROTR64(e, 18) ^ ROTR64(e, 41);
  const uint64_t ch = (e & f) ^ (~e & g);
  const uint64_t t1 = h + S1 + ch + k;
  const uint64_t S0 = ROTR64(a, 28) ^ ROTR64(a, 34) ^ ROTR64(a, 39);
  const uint64_t mj = (a & b) ^ (a & c) ^ (b & c);
  const uint64_t t2 = S0 + mj;
  s[7] = g; s[6] = f; s[5] = e; s[4] = d + t1;
  s[3] = c; s[2] = b; s[1] = a; s[0] = t1 + t2;
}

// 32-bit operators: S1 11, ch 4, t1 4, S0 11, mj 5, t2 1, new e 1, new a 1, message 1 = 39.
// j (round % 8) is a constant once the round loop is unrolled.
__host__ __device__ __forceinline__ void round32(uint32_t s[16], uint32_t k, int j) {
  const uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
  const uint32_t w = s[8 + j];
  const uint32_t S1 = ROTR32(e, 6) ^ ROTR32(e, 11) ^ ROTR32(e, 25);
  const uint32_t ch = (e & f) ^ (~e & g);
  const uint32_t t1 = h + S1 + ch + k + w;
  const uint32_t S0 = ROTR32(a, 2) ^ ROTR32(a, 13) ^ ROTR32(a, 22);
  const uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
  const uint32_t t2 = S0 + mj;
  s[7] = g; s[6] = f; s[5] = e; s[4] = d + t1;
  s[3] = c; s[2] = b; s[1] = a; s[0] = t1 + t2;
  s[8 + j] = w + t2;
}

// fp operators per word: 8 fmaf (a dependent chain) + 2 multiplies; 8 words: 64 fmaf + 16 *.
__host__ __device__ __forceinline__ void roundf32(float s[8], int r, const float* A, const float* B,
                                                  const float* M) {
#pragma unroll
  for (int i = 0; i < 8; i++) {
    float x = s[i];
#pragma unroll
    for (int k = 0; k < 8; k++) x = fmaf(x, A[k], B[k]);
    x = x * M[r & 15];
    x = x * M[(r + i + 1) & 15];
    s[i] = x;
  }
}

// ---- straight-line rounds: Unrolled<R0, N>::run(f) calls f(R0) .. f(R0 + N - 1) with constant
// arguments and no loop left (a plain #pragma unroll left a 2-trip loop of 64 rounds in fp32 at
// R = 128) ----
template <int R0, int N>
struct Unrolled {
  template <class F>
  __device__ __forceinline__ static void run(F& f) {
    Unrolled<R0, N / 2>::run(f);
    Unrolled<R0 + N / 2, N - N / 2>::run(f);
  }
};
template <int R0>
struct Unrolled<R0, 1> {
  template <class F>
  __device__ __forceinline__ static void run(F& f) { f(R0); }
};
template <int R0>
struct Unrolled<R0, 0> {
  template <class F>
  __device__ __forceinline__ static void run(F&) {}
};

// ---- kernels ----
template <int R, int L>
__global__ void __launch_bounds__(kBlock) k_int64(const uint64_t* __restrict__ in,
                                                  uint64_t* __restrict__ out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint64_t s[8];
#pragma unroll
  for (int u = 0; u < 8; u++) s[u] = in[wordIndex<L>(t, u, 8, n)];
  auto round = [&](int r) { round64(s, cK64[r & 15]); };
  Unrolled<0, R>::run(round);
#pragma unroll
  for (int u = 0; u < 8; u++) out[wordIndex<L>(t, u, 8, n)] = s[u];
}

template <int R, int L>
__global__ void __launch_bounds__(kBlock) k_int32(const uint32_t* __restrict__ in,
                                                  uint32_t* __restrict__ out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t s[16];
#pragma unroll
  for (int u = 0; u < 16; u++) s[u] = in[wordIndex<L>(t, u, 16, n)];
  auto round = [&](int r) { round32(s, cK32[r & 15], r & 7); };
  Unrolled<0, R>::run(round);
#pragma unroll
  for (int u = 0; u < 16; u++) out[wordIndex<L>(t, u, 16, n)] = s[u];
}

template <int R, int L>
__global__ void __launch_bounds__(kBlock) k_fp32(const float* __restrict__ in,
                                                 float* __restrict__ out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s[8];
#pragma unroll
  for (int u = 0; u < 8; u++) s[u] = in[wordIndex<L>(t, u, 8, n)];
  auto round = [&](int r) { roundf32(s, r, cFA, cFB, cFM); };
  Unrolled<0, R>::run(round);
#pragma unroll
  for (int u = 0; u < 8; u++) out[wordIndex<L>(t, u, 8, n)] = s[u];
}

// ---- inputs: a hash of (thread, word), never zeros ----
__host__ __device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
__host__ __device__ __forceinline__ uint64_t val64(unsigned t, unsigned u) {
  return mix64(((uint64_t)t << 4 | u) + 0x1234567ull);
}
__host__ __device__ __forceinline__ uint32_t val32(unsigned t, unsigned u) {
  return (uint32_t)(mix64(((uint64_t)t << 4 | u) + 0x7654321ull) >> 16);
}
__host__ __device__ __forceinline__ float valf(unsigned t, unsigned u) {  // [0.5, 1.5)
  return 0.5f + (float)(mix64(((uint64_t)t << 4 | u) + 0x55aa55ull) >> 40) * (1.0f / 16777216.0f);
}

template <int L>
__global__ void init_int64(uint64_t* in, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    for (unsigned u = 0; u < 8; u++) in[wordIndex<L>(t, u, 8, n)] = val64(t, u);
}
template <int L>
__global__ void init_int32(uint32_t* in, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    for (unsigned u = 0; u < 16; u++) in[wordIndex<L>(t, u, 16, n)] = val32(t, u);
}
template <int L>
__global__ void init_fp32(float* in, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    for (unsigned u = 0; u < 8; u++) in[wordIndex<L>(t, u, 8, n)] = valf(t, u);
}

// ---- host reference: the logical state of thread t after R rounds ----
static void ref64(unsigned t, int R, uint64_t* o) {
  uint64_t s[8];
  for (unsigned u = 0; u < 8; u++) s[u] = val64(t, u);
  for (int r = 0; r < R; r++) round64(s, hK64[r & 15]);
  memcpy(o, s, sizeof s);
}
static void ref32(unsigned t, int R, uint32_t* o) {
  uint32_t s[16];
  for (unsigned u = 0; u < 16; u++) s[u] = val32(t, u);
  for (int r = 0; r < R; r++) round32(s, hK32[r & 15], r & 7);
  memcpy(o, s, sizeof s);
}
static void reff(unsigned t, int R, float* o) {
  float s[8];
  for (unsigned u = 0; u < 8; u++) s[u] = valf(t, u);
  for (int r = 0; r < R; r++) roundf32(s, r, hFA, hFB, hFM);
  memcpy(o, s, sizeof s);
}

// ---- variants ----
struct Variant {
  const char* family;
  int rounds;
  int layout;
  int words;      // words per thread
  int wordBytes;  // bytes per word
  const void* fn; // kernel
};

template <int R, int L>
static void addAll(std::vector<Variant>& v, int fam) {
  if (fam == 0) v.push_back({"int64", R, L, 8, 8, (const void*)k_int64<R, L>});
  if (fam == 1) v.push_back({"int32", R, L, 16, 4, (const void*)k_int32<R, L>});
  if (fam == 2) v.push_back({"fp32", R, L, 8, 4, (const void*)k_fp32<R, L>});
}
template <int L>
static void addRounds(std::vector<Variant>& v, int fam) {
  addAll<0, L>(v, fam);  addAll<1, L>(v, fam);  addAll<2, L>(v, fam);
  addAll<4, L>(v, fam);  addAll<8, L>(v, fam);  addAll<16, L>(v, fam);
  addAll<32, L>(v, fam); addAll<64, L>(v, fam); addAll<128, L>(v, fam);
}

static void launch(const Variant& v, void* in, void* out, unsigned n) {
  void* args[] = {&in, &out, &n};
  CK(cudaLaunchKernel(v.fn, dim3(n / kBlock), dim3(kBlock), args, 0, 0));
  CK(cudaGetLastError());
}

static void initInput(int fam, int layout, void* in, unsigned n) {
  const dim3 g(n / kBlock), b(kBlock);
  if (fam == 0) {
    if (layout == PER_THREAD) init_int64<PER_THREAD><<<g, b>>>((uint64_t*)in, n);
    else init_int64<COALESCED><<<g, b>>>((uint64_t*)in, n);
  } else if (fam == 1) {
    if (layout == PER_THREAD) init_int32<PER_THREAD><<<g, b>>>((uint32_t*)in, n);
    else init_int32<COALESCED><<<g, b>>>((uint32_t*)in, n);
  } else {
    if (layout == PER_THREAD) init_fp32<PER_THREAD><<<g, b>>>((float*)in, n);
    else init_fp32<COALESCED><<<g, b>>>((float*)in, n);
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

static const unsigned char kPoison = 0xA5;

// Every word written (no poison word left) and sampled threads equal to the host reference.
static int check(const Variant& v, int fam, const void* dOut, unsigned n, std::vector<unsigned char>& h) {
  const size_t bytes = (size_t)n * v.words * v.wordBytes;
  CK(cudaMemcpy(h.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  size_t poisoned = 0;
  if (v.wordBytes == 8) {
    uint64_t p; memset(&p, kPoison, 8);
    const uint64_t* w = (const uint64_t*)h.data();
    for (size_t i = 0; i < bytes / 8; i++) poisoned += w[i] == p;
  } else {
    uint32_t p; memset(&p, kPoison, 4);
    const uint32_t* w = (const uint32_t*)h.data();
    for (size_t i = 0; i < bytes / 4; i++) poisoned += w[i] == p;
  }
  size_t bad = 0, checked = 0;
  double maxRel = 0;
  const unsigned samples = 4096;
  for (unsigned i = 0; i < samples; i++) {
    unsigned t = i < 64 ? i : (i < 128 ? n - 1 - (i - 64) : (unsigned)(mix64(i) % n));
    uint64_t r64[8]; uint32_t r32[16]; float rf[8];
    if (fam == 0) ref64(t, v.rounds, r64);
    else if (fam == 1) ref32(t, v.rounds, r32);
    else reff(t, v.rounds, rf);
    for (int u = 0; u < v.words; u++) {
      const unsigned idx = v.layout == PER_THREAD ? wordIndex<PER_THREAD>(t, u, v.words, n)
                                                  : wordIndex<COALESCED>(t, u, v.words, n);
      checked++;
      if (fam == 0) {
        bad += ((const uint64_t*)h.data())[idx] != r64[u];
      } else if (fam == 1) {
        bad += ((const uint32_t*)h.data())[idx] != r32[u];
      } else {
        const float g = ((const float*)h.data())[idx];
        const double rel = fabs((double)g - rf[u]) / fmax(fabs((double)rf[u]), 1e-30);
        maxRel = fmax(maxRel, std::isfinite(g) ? rel : 1e30);
        bad += !(rel <= 1e-5);
      }
    }
  }
  fprintf(stderr, "check %s R=%d %s: poisoned words %zu, sampled words %zu, mismatches %zu%s\n",
          v.family, v.rounds, layoutName(v.layout), poisoned, checked, bad,
          fam == 2 ? (maxRel == 0 ? " (fp32 bit-exact)" : " (fp32, rel <= 1e-5)") : "");
  return (poisoned || bad) ? 1 : 0;
}

int main(int argc, char** argv) {
  const bool once = argc > 1 && strcmp(argv[1], "once") == 0;
  if (argc > 1 && !once) {
    fprintf(stderr, "usage: %s [once]\n", argv[0]);
    return 2;
  }
  const unsigned n = kN;
  const size_t maxBytes = (size_t)n * 64;
  void *dIn, *dOut;
  CK(cudaMalloc(&dIn, maxBytes));
  CK(cudaMalloc(&dOut, maxBytes));
  std::vector<unsigned char> host(once ? 0 : maxBytes);

  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  fprintf(stderr, "device %s, %d SMs, n=%u threads, block %d\n", prop.name, prop.multiProcessorCount,
          n, kBlock);

  const int kWarm = 3, kTimed = 20;
  cudaEvent_t ev[kTimed + 1];
  for (auto& e : ev) CK(cudaEventCreate(&e));

  int failures = 0;
  if (!once) printf("family,rounds,layout,ms_median\n");
  for (int fam = 0; fam < 3; fam++) {
    for (int layout = 0; layout < 2; layout++) {
      std::vector<Variant> vs;
      if (layout == PER_THREAD) addRounds<PER_THREAD>(vs, fam);
      else addRounds<COALESCED>(vs, fam);
      initInput(fam, layout, dIn, n);
      for (const Variant& v : vs) {
        if (!once) {
          cudaFuncAttributes fa;
          CK(cudaFuncGetAttributes(&fa, v.fn));
          fprintf(stderr, "attrs %s R=%d %s: %d registers, %zu B local\n", v.family, v.rounds,
                  layoutName(v.layout), fa.numRegs, (size_t)fa.localSizeBytes);
        }
        CK(cudaMemset(dOut, kPoison, maxBytes));
        if (once) {
          launch(v, dIn, dOut, n);
          CK(cudaDeviceSynchronize());
          continue;
        }
        for (int i = 0; i < kWarm; i++) launch(v, dIn, dOut, n);
        CK(cudaDeviceSynchronize());
        // Poison again so the check sees only what the timed launches wrote.
        CK(cudaMemset(dOut, kPoison, maxBytes));
        CK(cudaEventRecord(ev[0]));
        for (int i = 0; i < kTimed; i++) {
          launch(v, dIn, dOut, n);
          CK(cudaEventRecord(ev[i + 1]));
        }
        CK(cudaEventSynchronize(ev[kTimed]));
        std::vector<float> ms(kTimed);
        for (int i = 0; i < kTimed; i++) CK(cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
        std::sort(ms.begin(), ms.end());
        const float med = 0.5f * (ms[kTimed / 2 - 1] + ms[kTimed / 2]);
        printf("%s,%d,%s,%.5f\n", v.family, v.rounds, layoutName(v.layout), med);
        fflush(stdout);
        fprintf(stderr, "time %s R=%d %s: median %.5f ms, min %.5f, max %.5f\n", v.family, v.rounds,
                layoutName(v.layout), med, ms.front(), ms.back());
        failures += check(v, fam, dOut, n, host);
      }
    }
  }
  for (auto& e : ev) CK(cudaEventDestroy(e));
  CK(cudaFree(dIn));
  CK(cudaFree(dOut));
  if (failures) fprintf(stderr, "CHECK FAILED for %d variants\n", failures);
  else if (!once) fprintf(stderr, "all checks passed\n");
  return failures ? 1 : 0;
}
