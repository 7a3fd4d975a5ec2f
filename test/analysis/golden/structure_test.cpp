// The structure the analysis records beside the figures, which rules read instead of
// re-reading source text (records.h): the loops each site sits in, the loops a condition's
// modulus divides by, and the user record an access touches.
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

const AccessSite& accessOn(const AnalysisResult& r, const std::string& expression) {
  auto it = std::find_if(r.accesses.begin(), r.accesses.end(), [&](const AccessSite& a) { return a.expression == expression; });
  REQUIRE(it != r.accesses.end());
  return *it;
}

const BranchSite& branchOn(const AnalysisResult& r, const std::string& condition) {
  auto it = std::find_if(r.branches.begin(), r.branches.end(), [&](const BranchSite& b) { return b.condition == condition; });
  REQUIRE(it != r.branches.end());
  return *it;
}

}  // namespace

TEST_CASE("structure: loops around sites and the loops a modulus divides by") {
  const AnalysisResult r = analyseOne(R"(
__global__ void reduce(const float* in, float* out) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  for (int k = 0; k < 4; ++k)
    if (tid % 2 == 0) out[k] = sdata[k];
}
int main() { reduce<<<64, 256, 1024>>>(nullptr, nullptr); }
)");
  REQUIRE(r.files.size() == 1);
  REQUIRE(r.files[0].status == Status::Analysed);
  const BranchSite& outer = branchOn(r, "s < blockDim.x");
  REQUIRE(outer.kind == BranchKind::Loop);
  REQUIRE(outer.loops.size() == 1);
  const int loop = outer.loops.back();
  const BranchSite& step = branchOn(r, "tid % (2 * s) == 0");
  CHECK(step.loops == std::vector<int>{loop});
  CHECK(step.modulusLoops == std::vector<int>{loop});
  // A constant divisor in another loop: in that loop, dividing by none.
  const BranchSite& even = branchOn(r, "tid % 2 == 0");
  REQUIRE(even.loops.size() == 1);
  CHECK(even.loops.back() != loop);
  CHECK(even.modulusLoops.empty());
  CHECK(accessOn(r, "sdata[tid + s]").loops == std::vector<int>{loop});
  CHECK(accessOn(r, "in[blockIdx.x * blockDim.x + tid]").loops.empty());
  const auto barrierInLoop = std::count_if(r.barriers.begin(), r.barriers.end(),
                                           [&](const BarrierSite& b) { return b.loops == std::vector<int>{loop}; });
  CHECK(barrierInLoop == 1);
}

TEST_CASE("structure: the user record an access touches, not CUDA's vector types") {
  const AnalysisResult r = analyseOne(R"(
struct Particle { float x, y, z, w; };
__global__ void k(const Particle* p, const float4* v, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Particle q = p[i];
  float4 f = v[i];
  out[i] = p[i].y + q.x + f.x;
}
int main() { k<<<64, 256>>>(nullptr, nullptr, nullptr); }
)");
  REQUIRE(r.files.size() == 1);
  const AccessSite& field = accessOn(r, "p[i].y");
  CHECK(field.record == "Particle");
  CHECK(field.field == "y");
  const AccessSite& whole = accessOn(r, "p[i]");
  CHECK(whole.record == "Particle");
  CHECK(whole.field.empty());
  const AccessSite& vector = accessOn(r, "v[i]");
  CHECK(vector.record.empty());
  CHECK(accessOn(r, "out[i]").record.empty());
}

TEST_CASE("executed: edge-block accesses get the edge blocks' figures, an access no lane runs gets none") {
  const AnalysisResult r = analyseOne(R"(
__global__ void halo(const float* in, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.y == gridDim.y - 1) out[x] = in[x];
  if (threadIdx.x >= blockDim.x) out[2 * x] = 0.0f;
}
int main() { halo<<<dim3(8, 8), 128>>>(nullptr, nullptr); }
)");
  REQUIRE(r.files.size() == 1);
  const AccessSite& edge = accessOn(r, "in[x]");
  CHECK(edge.executed);
  REQUIRE(edge.figures.global);
  CHECK(edge.figures.global->aligned.sectorsPerRequest == Approx(4));
  CHECK(edge.figures.global->aligned.requests > 0);
  const AccessSite& never = accessOn(r, "out[2 * x]");
  CHECK_FALSE(never.executed);
  CHECK_FALSE(never.figures.global);
  CHECK(never.notExecuted.find("`threadIdx.x >= blockDim.x` are false for every lane") != std::string::npos);
}

TEST_CASE("structure: the first warp a branch splits, lane by lane") {
  const AnalysisResult r = analyseOne(R"(
__global__ void split(float* out) {
  unsigned tid = threadIdx.x;
  for (unsigned s = 1; s < blockDim.x; s *= 2)
    if (tid % (2 * s) == 0) out[tid] += 1.0f;
  if (tid >= 16) {
    if (tid & 1) out[tid] = 2.0f;
  }
  switch (tid % 3) {
    case 0: out[tid] = 3.0f; break;
    default: break;
  }
}
int main() { split<<<64, 256>>>(nullptr); }
)");
  REQUIRE(r.files.size() == 1);
  REQUIRE(r.files[0].status == Status::Analysed);
  const auto first = [](const LaneSplit& split, size_t from, size_t count) {
    return std::vector<int>(split.lanes.begin() + static_cast<long>(from),
                            split.lanes.begin() + static_cast<long>(from + count));
  };
  // Warp 0 of block 1 (the block that stands for the grid), in the loop's first iteration
  // (s = 1): even lanes true (value "1", index 1), odd ones false.
  const LaneSplit& step = branchOn(r, "tid % (2 * s) == 0").split;
  CHECK(step.warp == 0);
  CHECK(step.blockX == 1);
  CHECK(step.iteration == 0);
  CHECK(step.values == std::vector<std::string>{"0", "1"});
  REQUIRE(step.lanes.size() == 32);
  CHECK(first(step, 0, 4) == std::vector<int>{1, 0, 1, 0});
  // Lanes 0-15 do not reach the inner branch.
  const LaneSplit& inner = branchOn(r, "tid & 1").split;
  REQUIRE(inner.lanes.size() == 32);
  CHECK(inner.lanes[15] == -1);
  CHECK(first(inner, 16, 3) == std::vector<int>{0, 1, 0});
  // A switch keeps the values it switches on.
  const LaneSplit& byValue = branchOn(r, "tid % 3").split;
  CHECK(byValue.values == std::vector<std::string>{"0", "1", "2"});
  REQUIRE(byValue.lanes.size() == 32);
  CHECK(first(byValue, 0, 4) == std::vector<int>{0, 1, 2, 0});
  // A uniform loop condition splits no warp.
  CHECK(branchOn(r, "s < blockDim.x").split.warp == -1);
  CHECK(branchOn(r, "s < blockDim.x").split.lanes.empty());
}

TEST_CASE("structure: the block a branch splits, and the warps it would split with the work remapped") {
  const AnalysisResult r = analyseOne(R"(
__global__ void split(const float* in, float* out) {
  unsigned tid = threadIdx.x;
  for (unsigned s = 1; s < blockDim.x; s *= 2)
    if (tid % (2 * s) == 0) out[tid] += 1.0f;
  if (tid >= 16) {
    if (tid & 1) out[tid] = 2.0f;
  }
  switch (tid % 3) {
    case 0: out[tid] = 3.0f; break;
    default: break;
  }
  if (in[tid] > 0.0f) out[tid] = 4.0f;
}
int main() { split<<<64, 256>>>(nullptr, nullptr); }
)");
  REQUIRE(r.files.size() == 1);
  REQUIRE(r.files[0].status == Status::Analysed);
  // Threads 16-255 reach `tid & 1`; the 120 odd ones take it. Remapped, threads 16-135 take
  // it: only warp 4 (threads 128-159) holds both sides.
  const BranchSite& inner = branchOn(r, "tid & 1");
  CHECK(inner.divergentRequests == 8);
  CHECK(inner.remappedDivergentRequests == 1);
  CHECK(inner.split.blockValues == std::vector<std::string>{"0", "1"});
  REQUIRE(inner.split.byWarp.size() == 8);
  CHECK(inner.split.byWarp[0] == std::string(16, '-') + "abababababababab");
  CHECK(inner.split.byWarp[7] == "abababababababababababababababab");
  // The interleaved step: 128, 64, ..., 1 threads take it on the 8 passes; contiguous, the
  // passes of 16 threads or fewer split one warp each.
  const BranchSite& step = branchOn(r, "tid % (2 * s) == 0");
  CHECK(step.remappedDivergentRequests == 5);
  CHECK(step.split.byWarp.size() == 8);
  CHECK(step.split.byWarp[0].substr(0, 4) == "baba");
  // A switch: 86, 85 and 85 threads on its values; grouped, warps 2 and 5 hold a boundary.
  const BranchSite& bySwitch = branchOn(r, "tid % 3");
  CHECK(bySwitch.split.blockValues == std::vector<std::string>{"0", "1", "2"});
  CHECK(bySwitch.remappedDivergentRequests == 2);
  // On loaded data nothing is known: no remap figure.
  CHECK(branchOn(r, "in[tid] > 0.0f").remappedDivergentRequests == -1);
}
