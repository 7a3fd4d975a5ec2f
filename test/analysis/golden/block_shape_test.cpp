// Block shapes followed where real code keeps them (launch_collector.cpp, host_values.cpp):
// each case is one way the CUDA samples and Rodinia write a launch whose block the analysis
// used to guess. Every check names the kernel's block, its source and the words that say
// where it came from.
#include <catch2/catch.hpp>

#include <algorithm>

#include "temp_dir.h"
#include "coalesce/analysis/analyze.h"

using namespace coalesce;

namespace {

AnalysisResult analyseOne(const std::string& source) {
  test::TempDir dir;
  analysis::AnalysisRequest request;
  request.inputs = {dir.write("k.cu", source)};
  request.jobs = 1;
  return analysis::analyze(request);
}

const KernelRecord& kernelNamed(const AnalysisResult& r, const std::string& name) {
  auto it = std::find_if(r.kernels.begin(), r.kernels.end(), [&](const KernelRecord& k) { return k.name == name; });
  INFO("kernel " << name);
  REQUIRE(it != r.kernels.end());
  return *it;
}

bool mentions(const KernelRecord& k, const std::string& words) {
  return k.block.detail.find(words) != std::string::npos;
}

}  // namespace

TEST_CASE("block shapes: a switch case or an equality around the launch fixes the block") {
  const AnalysisResult r = analyseOne(R"(
template <int B> __global__ void red(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void mm16(float* p) { p[threadIdx.y * 16 + threadIdx.x] = 0.0f; }
__global__ void mm32(float* p) { p[threadIdx.y * 32 + threadIdx.x] = 0.0f; }
__global__ void fell(float* p) { p[threadIdx.x] = 0.0f; }
void reduce(int threads, float* p) {
  dim3 block(threads, 1, 1);
  switch (threads) {
    case 512: red<512><<<1, block>>>(p); break;
    case 128:
      red<128><<<1, block>>>(p);
      break;
    case 64:
    case 32: fell<<<1, block>>>(p); break;
  }
}
void matmul(int block_size, float* p) {
  dim3 threads(block_size, block_size);
  if (block_size == 16) mm16<<<1, threads>>>(p);
  else if (block_size == 32) mm32<<<1, threads>>>(p);
}
)");
  REQUIRE(r.files.size() == 1);
  const KernelRecord& r512 = kernelNamed(r, "red<512>");
  CHECK(r512.block.dim == model::Dim3{512, 1, 1});
  CHECK(r512.block.source == BlockSource::Launch);
  CHECK(mentions(r512, "(where `threads` is 512)"));
  CHECK(kernelNamed(r, "red<128>").block.dim == model::Dim3{128, 1, 1});
  // Two labels on one statement: `threads` is 64 or 32, not one value.
  CHECK(kernelNamed(r, "fell").block.source == BlockSource::Assumed);
  const KernelRecord& m16 = kernelNamed(r, "mm16");
  CHECK(m16.block.dim == model::Dim3{16, 16, 1});
  CHECK(mentions(m16, "(where `block_size` is 16)"));
  CHECK(kernelNamed(r, "mm32").block.dim == model::Dim3{32, 32, 1});
}

TEST_CASE("block shapes: launches through function pointers, local or passed to a wrapper") {
  const AnalysisResult r = analyseOne(R"(
__global__ void copyA(float* o, const float* i) { o[threadIdx.y * 16 + threadIdx.x] = i[threadIdx.x]; }
__global__ void copyB(float* o, const float* i) { o[threadIdx.x * 16 + threadIdx.y] = i[threadIdx.x]; }
__global__ void viaWrapper(float* o, const float* i) { o[threadIdx.x] = i[threadIdx.x]; }
void bench(float* o, const float* i, int which) {
  void (*kernel)(float*, const float*);
  const char* name;
  switch (which) {
    case 0: kernel = &copyA; name = "a"; break;
    default: kernel = copyB; name = "b"; break;
  }
  dim3 threads(16, 16);
  kernel<<<4, threads>>>(o, i);
}
static void launch(void (*k)(float*, const float*), int bs, float* o, const float* i) { k<<<8, bs>>>(o, i); }
void host(float* o, const float* i) { launch(viaWrapper, 96, o, i); }
__global__ void cycleA(float* o, const float* i) { o[threadIdx.x] = i[threadIdx.x]; }
__global__ void cycleB(float* o, const float* i) { o[threadIdx.x] = i[threadIdx.x]; }
void swapping(float* o, const float* i, int n) {
  void (*a)(float*, const float*) = cycleA;
  void (*b)(float*, const float*) = cycleB;
  for (int k = 0; k < n; ++k) {
    void (*t)(float*, const float*) = a;
    a = b;
    b = t;
    a<<<1, dim3(32, 2)>>>(o, i);
  }
}
)");
  REQUIRE(r.files.size() == 1);
  for (const char* name : {"copyA", "copyB"}) {
    const KernelRecord& k = kernelNamed(r, name);
    CHECK(k.block.dim == model::Dim3{16, 16, 1});
    CHECK(k.block.source == BlockSource::Launch);
    CHECK(mentions(k, "(through the function pointer `kernel`)"));
  }
  // Pointers given to each other end: both kernels, once.
  const KernelRecord& c = kernelNamed(r, "cycleA");
  CHECK(c.block.dim == model::Dim3{32, 2, 1});
  CHECK(kernelNamed(r, "cycleB").block.dim == model::Dim3{32, 2, 1});
  const KernelRecord& w = kernelNamed(r, "viaWrapper");
  CHECK(w.block.dim == model::Dim3{96, 1, 1});
  CHECK(mentions(w, "called at"));
}

TEST_CASE("block shapes: cudaLaunchKernel and cudaLaunchCooperativeKernel") {
  const AnalysisResult r = analyseOne(R"(
__global__ void plain(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void coop(float* p) { p[threadIdx.x] = 0.0f; }
void host(float* p) {
  void* args[] = {&p};
  dim3 block(64, 2);
  cudaLaunchKernel((void*)plain, dim3(4), block, args, 0, 0);
  cudaLaunchCooperativeKernel((const void*)&coop, dim3(2), dim3(192), args, 0, 0);
}
)");
  REQUIRE(r.files.size() == 1);
  const KernelRecord& plain = kernelNamed(r, "plain");
  CHECK(plain.block.dim == model::Dim3{64, 2, 1});
  CHECK(plain.block.source == BlockSource::Launch);
  CHECK(mentions(plain, "from the cudaLaunchKernel at"));
  const KernelRecord& coop = kernelNamed(r, "coop");
  CHECK(coop.block.dim == model::Dim3{192, 1, 1});
  CHECK(mentions(coop, "from the cudaLaunchCooperativeKernel at"));
}

TEST_CASE("block shapes: #define, constexpr and const globals, host template arguments") {
  const AnalysisResult r = analyseOne(R"(
#define BS 64
constexpr int kThreads = 96;
const int gThreads = 160;
__global__ void byDefine(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void byConstexpr(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void byConst(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void byTemplate(float* p) { p[threadIdx.x] = 0.0f; }
template <int T> void runT(float* p) { byTemplate<<<1, T>>>(p); }
void host(float* p) {
  int local = BS;
  byDefine<<<1, local>>>(p);
  byConstexpr<<<1, dim3(kThreads)>>>(p);
  byConst<<<1, gThreads>>>(p);
  runT<192>(p);
}
)");
  REQUIRE(r.files.size() == 1);
  CHECK(kernelNamed(r, "byDefine").block.dim == model::Dim3{64, 1, 1});
  CHECK(kernelNamed(r, "byConstexpr").block.dim == model::Dim3{96, 1, 1});
  CHECK(kernelNamed(r, "byConst").block.dim == model::Dim3{160, 1, 1});
  CHECK(kernelNamed(r, "byTemplate").block.dim == model::Dim3{192, 1, 1});
}

TEST_CASE("block shapes: struct members with constant initialisers, make_uint3, min") {
  const AnalysisResult r = analyseOne(R"(
struct Config {
  int threads = 224;
  int rows;
};
__global__ void inClass(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void inBraces(float* p) { p[threadIdx.y * 32 + threadIdx.x] = 0.0f; }
__global__ void assigned(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void uint3Block(float* p) { p[threadIdx.y * 8 + threadIdx.x] = 0.0f; }
__global__ void capped(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void smaller(float* p) { p[threadIdx.x] = 0.0f; }
void host(float* p, int n) {
  Config cfg;
  inClass<<<1, cfg.threads>>>(p);
  Config two{32, 4};
  inBraces<<<1, dim3(two.threads, two.rows)>>>(p);
  Config changed;
  changed.threads = n;
  assigned<<<1, changed.threads>>>(p);
  uint3 tids = make_uint3(8, 8, 1);
  uint3Block<<<1, tids>>>(p);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int t = min(prop.maxThreadsPerBlock, 256);
  capped<<<1, t>>>(p);
  int size = 100;
  smaller<<<1, std::min(size, 128)>>>(p);
}
)");
  REQUIRE(r.files.size() == 1);
  CHECK(kernelNamed(r, "inClass").block.dim == model::Dim3{224, 1, 1});
  CHECK(kernelNamed(r, "inBraces").block.dim == model::Dim3{32, 4, 1});
  // A member the function assigns from a runtime value is not the initialiser's.
  CHECK(kernelNamed(r, "assigned").block.source == BlockSource::Assumed);
  CHECK(kernelNamed(r, "uint3Block").block.dim == model::Dim3{8, 8, 1});
  // 256 is also the fallback's figure: the source tells the launch's apart.
  CHECK(kernelNamed(r, "capped").block.dim == model::Dim3{256, 1, 1});
  CHECK(kernelNamed(r, "capped").block.source == BlockSource::Launch);
  CHECK(kernelNamed(r, "smaller").block.dim == model::Dim3{100, 1, 1});
}

TEST_CASE("block shapes: a kernel launched with several shapes says so") {
  const AnalysisResult r = analyseOne(R"(
__global__ void twice(float* p) { p[threadIdx.x] = 0.0f; }
void host(float* p) {
  twice<<<1, 128>>>(p);
  twice<<<1, 256>>>(p);
}
)");
  REQUIRE(r.files.size() == 1);
  const KernelRecord& k = kernelNamed(r, "twice");
  CHECK(k.block.dim == model::Dim3{128, 1, 1});
  CHECK(mentions(k, "its launches use 2 block shapes (128x1x1, 256x1x1)"));
}
