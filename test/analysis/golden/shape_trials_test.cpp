// Kernels on a guessed block shape tried under other shapes (lib/analysis/src/shape_trials.h):
// a kernel written for any block size says its figures do not rest on the guess; one whose
// figures change says which access changes and how, and how to set the block.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyse_kernels_file.h"
#include "temp_dir.h"
#include "coalesce/analysis/analyze.h"

using namespace coalesce;

namespace {

AnalysisResult analyseOne(const std::string& source) { return test::analyseSource(source); }
using test::kernelNamed;

bool mentions(const KernelRecord& k, const std::string& words) {
  INFO(k.block.detail);
  return k.block.detail.find(words) != std::string::npos;
}

}  // namespace

TEST_CASE("shape trials: a kernel written for any 1D block is the same under 128, 256 and 512 threads") {
  const AnalysisResult r = analyseOne(R"(
__global__ void saxpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)");
  const KernelRecord& k = kernelNamed(r, "saxpy");
  CHECK(k.block.source == BlockSource::Assumed);  // still a guess, said as one
  CHECK(k.block.dim == model::Dim3{256, 1, 1});
  CHECK(k.block.shapesTried == std::vector<std::string>{"128x1x1", "512x1x1"});
  CHECK(k.block.shapeInvariant);
  CHECK(mentions(k, "every figure is the same under 128x1x1, 512x1x1"));
  // Every site built on the guess says so too (the findings' notes quote it).
  for (const AccessSite& a : r.accesses) {
    CHECK(a.block.shapeInvariant);
    CHECK(a.block.shapesTried.size() == 2);
  }
}

TEST_CASE("shape trials: a guard on a fixed thread count makes the figures depend on the guess") {
  // 200 threads: 7 of the 8 warps of 256 issue the store, every warp of 128 does.
  const AnalysisResult r = analyseOne(R"(
__global__ void first200(float* p) {
  if (threadIdx.x < 200) p[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}
)");
  const KernelRecord& k = kernelNamed(r, "first200");
  CHECK(k.block.source == BlockSource::Assumed);
  CHECK_FALSE(k.block.shapeInvariant);
  // The first shape that differs ends the trial.
  CHECK(k.block.shapesTried == std::vector<std::string>{"128x1x1"});
  CHECK(mentions(k, "the figures depend on the guess: under 128x1x1, `p[blockIdx.x * blockDim.x + threadIdx.x]` (k.cu:3)"));
  CHECK(mentions(k, "sectors per request 4 instead of 3.571"));
  CHECK(mentions(k, "--block-dim"));
}

TEST_CASE("shape trials: a 2D kernel reading down columns changes between 32x8 and 16x16") {
  // A warp of 32x8 reads 32 rows; a warp of 16x16 reads 16 rows, two elements of each.
  const AnalysisResult r = analyseOne(R"(
__global__ void transposeRead(float* out, const float* in, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * w + x] = in[x * w + y];
}
)");
  const KernelRecord& k = kernelNamed(r, "transposeRead");
  CHECK(k.block.dim == model::Dim3{32, 8, 1});
  CHECK(k.block.source == BlockSource::Assumed);
  CHECK_FALSE(k.block.shapeInvariant);
  CHECK(k.block.shapesTried == std::vector<std::string>{"16x16x1"});
  CHECK(mentions(k, "under 16x16x1, `in[x * w + y]` (k.cu:5): sectors per request"));
}

TEST_CASE("shape trials: only the guessed axes vary, and a launch or a bound is not tried") {
  const AnalysisResult r = analyseOne(R"(
__global__ void tile16(float* p, int w) {
  __shared__ float t[16];
  if (threadIdx.y == 0) t[threadIdx.x] = p[blockIdx.x * 16 + threadIdx.x];
  __syncthreads();
  p[(blockIdx.y * blockDim.y + threadIdx.y) * w + blockIdx.x * 16 + threadIdx.x] = t[threadIdx.x];
}
__global__ void launched(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }
__global__ void __launch_bounds__(128) bounded(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }
void run(float* p) { launched<<<4, 64>>>(p); }
)");
  // The tile fixes x = 16; y is the guess (16, keeping 256 threads): 8 and 32 are tried.
  const KernelRecord& t = kernelNamed(r, "tile16");
  CHECK(t.block.dim == model::Dim3{16, 16, 1});
  CHECK(t.block.source == BlockSource::Assumed);
  REQUIRE_FALSE(t.block.shapesTried.empty());
  CHECK(t.block.shapesTried.front() == "16x8x1");
  for (const std::string& s : t.block.shapesTried) CHECK(s.rfind("16x", 0) == 0);
  for (const char* name : {"launched", "bounded"}) {
    const KernelRecord& k = kernelNamed(r, name);
    CHECK(k.block.source != BlockSource::Assumed);
    CHECK(k.block.shapesTried.empty());
    CHECK_FALSE(k.block.shapeInvariant);
  }
}

TEST_CASE("shape trials: a kernel with more accesses than the trial's limit is not tried, and says so") {
  std::string body;
  for (int k = 0; k < 130; ++k) body += "  p[i + " + std::to_string(k) + "] = 0.0f;\n";
  const AnalysisResult r = analyseOne("__global__ void many(float* p) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" +
                                      body + "}\n");
  const KernelRecord& k = kernelNamed(r, "many");
  CHECK(k.accesses == 130);
  CHECK(k.block.source == BlockSource::Assumed);
  CHECK(k.block.shapesTried.empty());
  CHECK_FALSE(k.block.shapeInvariant);
  CHECK(mentions(k, "not tried under other shapes: its 130 accesses are more than the trial evaluates again (128)"));
}

TEST_CASE("shape trials: branches count against the trial's limit beside the accesses") {
  // 2 accesses and 130 branches on a register: over the 128 the trial evaluates again, though
  // the accesses alone are not.
  std::string body;
  for (int k = 0; k < 130; ++k) body += "  if (i % " + std::to_string(k + 2) + " == 0) x += 1.0f;\n";
  const AnalysisResult r = analyseOne("__global__ void branchy(const float* q, float* p) {\n"
                                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float x = q[i];\n" +
                                      body + "  p[i] = x;\n}\n");
  const KernelRecord& k = kernelNamed(r, "branchy");
  CHECK(k.accesses == 2);
  CHECK(k.block.source == BlockSource::Assumed);
  CHECK(k.block.shapesTried.empty());
  CHECK(mentions(k, "not tried under other shapes: its 2 accesses and 130 branches and barriers are more than the "
                    "trial evaluates again (128)"));
}
