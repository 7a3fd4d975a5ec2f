// A kernel defined in one file and launched only from another (lib/analysis/src/launch_collector.cpp,
// `launchesFromOtherFiles`; docs/block-shapes.md, "Launches from another file"): a kernels.cu
// beside the main.cu that launches it, and a library's folder with no `main` whose entry file
// launches what its kernels file defines (cuSZp's src/). Before, the kernel was judged on a
// guessed 256-thread block: its barrier under `warp > 0`, the global warp index, split every
// block, where the real block of 32 threads makes the guard the same for the whole block.
// Last, a launch whose grid a header not found breaks (read as unknown, not a crash).
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyse_kernels_file.h"
#include "temp_dir.h"
#include "coalesce/analysis/analyze.h"

using namespace coalesce;

namespace {

constexpr const char* kKernels = R"(
#include "k.h"
__global__ void scatterK(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = i >> 5;
  if (warp > 0) {
    __syncthreads();
  }
  if (i < n) out[i * 2] = in[i * 2];
}
)";

constexpr const char* kHeader = "__global__ void scatterK(float* out, const float* in, int n);\n";

using test::analyseKernels;

const KernelRecord& kernelNamed(const AnalysisResult& r, const std::string& name) {
  const auto it = std::find_if(r.kernels.begin(), r.kernels.end(), [&](const KernelRecord& k) { return k.name == name; });
  REQUIRE(it != r.kernels.end());
  return *it;
}

bool barrierSplits(const AnalysisResult& r) {
  return std::any_of(r.barriers.begin(), r.barriers.end(),
                     [](const BarrierSite& b) { return b.reach != BarrierSite::Reach::Uniform; });
}

}  // namespace

TEST_CASE("launches from other files: main.cu's launch gives the kernel in kernels.cu its block and grid") {
  test::TempDir dir;
  dir.write("k.h", kHeader);
  dir.write("kernels.cu", kKernels);
  dir.write("main.cu", R"(
#include "k.h"
int main() {
  float *a, *b;
  int n = 1 << 20;
  for (int it = 0; it < 10; ++it) scatterK<<<n / 32, 32>>>(a, b, n);
  return 0;
}
)");
  const AnalysisResult r = analyseKernels(dir);
  REQUIRE(r.files.size() == 1);
  const KernelRecord& k = kernelNamed(r, "scatterK");
  REQUIRE(!r.accesses.empty());
  const AccessSite& store = r.accesses.front();
  CHECK(store.block.source == BlockSource::Launch);
  CHECK(store.block.dim.x == 32);
  CHECK(store.block.detail.find("main.cu:6") != std::string::npos);
  CHECK_FALSE(barrierSplits(r));
  // The loop of 10 around the launch, in the other file.
  CHECK(k.launchesPerRun == Approx(10));

  // Without the program's other files: the guessed block, under which the barrier splits.
  const AnalysisResult off = analyseKernels(dir, false);
  REQUIRE(!off.accesses.empty());
  CHECK(off.accesses.front().block.source == BlockSource::Assumed);
  CHECK(barrierSplits(off));
}

TEST_CASE("launches from other files: a library's entry file launches what its kernels file defines") {
  test::TempDir dir;  // no `main`: a library's folder
  dir.write("k.h", kHeader);
  dir.write("kernels.cu", kKernels);
  dir.write("entry.cu", R"(
#include "k.h"
static const int tblock = 32;
void compress(float* out, const float* in, int n) {
  int bsize = tblock;
  dim3 block(bsize);
  dim3 grid((n + bsize - 1) / bsize);
  scatterK<<<grid, block>>>(out, in, n);
}
)");
  dir.write("timer.cu", "void tick() {}\n");
  const AnalysisResult r = analyseKernels(dir);
  REQUIRE(!r.accesses.empty());
  CHECK(r.accesses.front().block.source == BlockSource::Launch);
  CHECK(r.accesses.front().block.dim.x == 32);
  CHECK(r.accesses.front().block.detail.find("entry.cu:8") != std::string::npos);
  CHECK_FALSE(barrierSplits(r));

  // A folder of two programs (two mains) reads no sibling: the guess again.
  dir.write("a.cu", "#include \"k.h\"\nint main() { scatterK<<<1, 32>>>(0, 0, 32); return 0; }\n");
  dir.write("b.cu", "#include \"k.h\"\nint main() { scatterK<<<1, 64>>>(0, 0, 64); return 0; }\n");
  const AnalysisResult two = analyseKernels(dir);
  REQUIRE(!two.accesses.empty());
  CHECK(two.accesses.front().block.source == BlockSource::Assumed);
}

TEST_CASE("launches from other files: an instance of a kernel template is matched by its arguments") {
  // bitsandbytes' kernels.cu instantiates `kdequant_mm_int32_fp16<4, 512>`, which ops.cu
  // launches with its own block: each instance takes the launches of its own arguments.
  test::TempDir dir;  // a library's folder
  dir.write("k.h", "template <int N> __global__ void stepK(float* out);\n");
  dir.write("kernels.cu", R"(
#include "k.h"
template <int N> __global__ void stepK(float* out) { out[(blockIdx.x * blockDim.x + threadIdx.x) * N] = 0; }
template __global__ void stepK<2>(float*);
template __global__ void stepK<4>(float*);
)");
  dir.write("entry.cu", R"(
#include "k.h"
void run(float* out) {
  stepK<2><<<64, 64>>>(out);
  stepK<4><<<64, 128>>>(out);
}
)");
  const AnalysisResult r = analyseKernels(dir);
  int seen = 0;
  for (const AccessSite& a : r.accesses) {
    INFO(a.kernel);
    CHECK(a.block.source == BlockSource::Launch);
    if (a.kernel == "stepK<2>") CHECK(a.block.dim.x == 64);
    if (a.kernel == "stepK<4>") CHECK(a.block.dim.x == 128);
    ++seen;
  }
  CHECK(seen == 2);
}

TEST_CASE("launches from other files: the unit's own launch, broken by a header not found, is not another file's") {
  // Kaldi's cudafeat/ (a library's folder) without OpenFst's headers: the launch's arguments do
  // not build, so the collector leaves the launch out; the unit's own summary must not bring it
  // back as a launch "in another file of the program" (it did: block 1024 from the file's own
  // line, a value its host code reassigns before the launch).
  test::TempDir dir;  // no `main`
  dir.write("kernels.cu", R"(
#include "missing_types.h"
__global__ void applyK(float* out, int n) { out[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
void run(float* out, int n, const Matrix<Real>& m) {
  int threads = 64;
  applyK<<<n / 64, threads>>>(out, m.NumRows());
}
)");
  dir.write("timer.cu", "void tick() {}\n");
  const AnalysisResult r = analyseKernels(dir);
  REQUIRE(!r.accesses.empty());
  CHECK(r.accesses.front().block.source != BlockSource::Launch);
  CHECK(r.accesses.front().block.detail.find("another file") == std::string::npos);
}

TEST_CASE("launches from other files: a block from a run-time option's default in main.cu is the default run's") {
  // `int threads = 32; if (argc > 1) threads = atoi(argv[1]);` beside the launch: the block of the
  // program's default run (BlockSource::LaunchDefault), as in the kernel's own file
  // (block_from_options_test.cpp); the guard `warp > 0` is then the same for the whole block.
  test::TempDir dir;
  dir.write("k.h", kHeader);
  dir.write("kernels.cu", kKernels);
  dir.write("main.cu", R"(
#include <stdlib.h>
#include "k.h"
int main(int argc, char** argv) {
  float *a, *b;
  int n = 1 << 20;
  int threads = 32;
  if (argc > 1) threads = atoi(argv[1]);
  scatterK<<<n / threads, threads>>>(a, b, n);
  return 0;
}
)");
  const AnalysisResult r = analyseKernels(dir);
  REQUIRE(!r.accesses.empty());
  const AccessSite& store = r.accesses.front();
  CHECK(store.block.source == BlockSource::LaunchDefault);
  CHECK(store.block.dim.x == 32);
  CHECK(store.block.detail.find("with `threads` 32, the default of a run-time option") != std::string::npos);
  CHECK_FALSE(barrierSplits(r));
}

// A grid computed from a parameter whose type a header not found leaves undeclared (PCL's
// kinfu without its generated pcl_config.h): the configuration holds no expression where
// one belongs. Reading it crashed the analysis (reported then as "the Clang frontend crashed
// on this file"); the launch's block is read, the grid left unknown, and the kernel analysed.
TEST_CASE("block shapes: a grid built from an undeclared type's members is unknown, not a crash") {
  const AnalysisResult r = test::analyseSource(R"(
static inline int divUp(int total, int grain) { return (total + grain - 1) / grain; }
__global__ void k(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }
void run(PtrStepSz<short2> coresp, float* p) {
  dim3 block(32, 8);
  dim3 grid(divUp(coresp.cols, block.x), divUp(coresp.rows, block.y));
  k<<<grid, block>>>(p);
}
)");
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].status == Status::Analysed);
  CHECK(r.accesses.size() == 1);
  const KernelRecord& k = test::kernelNamed(r, "k");
  CHECK(k.block.dim.x == 32);
  CHECK(k.block.dim.y == 8);
}
