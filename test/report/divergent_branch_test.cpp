// divergent-branch: fires when more warps split than a contiguous range of threads would
// split, names the interleaved reduction's fix, and stays quiet on warp-aligned conditions,
// range checks and the block's partial last warp.
#include <catch2/catch.hpp>

#include <algorithm>

#include "control_flow_util.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;
using report::Finding;

namespace {

std::vector<Finding> branchFindings(std::vector<BranchSite> branches, std::vector<AccessSite> accesses = {},
                                    std::vector<BarrierSite> barriers = {}) {
  AnalysisResult r;
  r.branches = std::move(branches);
  r.accesses = std::move(accesses);
  r.barriers = std::move(barriers);
  return findingsOf(std::move(r), "divergent-branch");
}

// The records of `for (unsigned s = 1; s < blockDim.x; s *= 2) { if (<condition>) ...; __syncthreads(); }`
// in a 256-thread block: loop on line 33, branch on 34, barrier on 35.
// What the frontend records for `for (s = 1; s < blockDim.x; s *= 2) { if (tid % (2 * s) == 0)
// sdata[tid] += ...; __syncthreads(); }`: loop 0 around the branch, the access and the barrier,
// and the loops the condition's modulus divides by.
struct ReductionLoop {
  std::string condition = "tid % (2 * s) == 0";
  std::vector<int> modulusLoops = {0};  // the divisor uses the loop's variable
  int64_t warpRequests = 64, divergent = 47;
  bool sharedAccess = true;

  std::vector<Finding> run() const {
    BranchSite loop = makeBranch("s < blockDim.x", 64, 0, {256, 1, 1}, 33, BranchKind::Loop);
    loop.threadDependent = false;
    loop.loops = {0};
    std::vector<AccessSite> accesses;
    if (sharedAccess) {
      AccessSite s = makeSite(affine(Space::Shared, 4, 4), {256, 1, 1}, "sdata[tid]");
      s.loc.line = 34;
      s.loops = {0};
      accesses.push_back(s);
    }
    BranchSite step = makeBranch(condition, warpRequests, divergent, {256, 1, 1}, 34);
    step.loops = {0};
    step.modulusLoops = modulusLoops;
    BarrierSite barrier = makeBarrier(BarrierSite::Reach::Uniform, "", 35);
    barrier.loops = {0};
    return branchFindings({loop, step}, accesses, {barrier});
  }
};

}  // namespace

TEST_CASE("divergent-branch: if (threadIdx.x % 2) splits every warp") {
  BranchSite parity = makeBranch("threadIdx.x % 2", 8, 8);
  parity.remappedDivergentRequests = 0;  // 128 threads take it: warps 0-3, contiguous
  const auto found = branchFindings({parity});
  REQUIRE(found.size() == 1);
  const Finding& f = found.front();
  CHECK(f.severity == report::Severity::Note);  // the rule's default level (docs/precision.md)
  CHECK(f.loc.line == 20);
  CHECK(f.branch == 0);
  CHECK_FALSE(f.access);
  CHECK(contains(f.message, "'if (threadIdx.x % 2)' splits 8 of 8 warp requests (100%)"));
  CHECK(contains(f.message, "one after the other"));
  CHECK(contains(f.message, "pays for both paths"));
  REQUIRE(f.divergentShare);
  CHECK(*f.divergentShare == Approx(1.0));
  CHECK(f.notes.front() ==
        "split warps counted exactly over every warp of block 256x1x1 (launch: launch at main.cu:40)");
  // The remap fix, with the analysis's count of the warps it leaves split (branch_remap.h).
  CHECK(anyNoteContains(f, "fix: remap the work so that the threads taking the branch are contiguous"));
  CHECK(anyNoteContains(f, "0 of 8 warp requests split instead of 8"));
  CHECK(anyNoteContains(f, "cond ? a : b"));
  CHECK_FALSE(anyNoteContains(f, "sequential addressing"));
}

TEST_CASE("divergent-branch: no fix is claimed where the remap is unknown, a warp leader's, or no better") {
  const auto fixNotes = [](const Finding& f) {
    return std::count_if(f.notes.begin(), f.notes.end(), [](const std::string& n) { return n.rfind("fix:", 0) == 0; });
  };
  // Some lane's value unknown: the analysis could not count the remap (-1).
  const auto unknown = branchFindings({makeBranch("x[i] > t", 8, 8)});
  REQUIRE(unknown.size() == 1);
  CHECK(fixNotes(unknown[0]) == 0);
  CHECK(anyNoteContains(unknown[0], "no fix computed: the condition depends, for some lanes, on values not known"));
  // `if (lane == 0)`: one lane per warp, the warp's leader.
  BranchSite leader = makeBranch("lane == 0", 8, 8);
  leader.remappedDivergentRequests = 1;
  leader.split.blockValues = {"0", "1"};
  leader.split.byWarp.assign(8, "b" + std::string(31, 'a'));
  const auto led = branchFindings({leader});
  REQUIRE(led.size() == 1);
  CHECK(fixNotes(led[0]) == 0);
  CHECK(anyNoteContains(led[0], "no fix computed: one lane of every warp takes one side"));
  // Two lanes per warp are no leader: the remap is claimed.
  BranchSite pair = leader;
  pair.split.byWarp.assign(8, "bb" + std::string(30, 'a'));
  const auto paired = branchFindings({pair});
  REQUIRE(paired.size() == 1);
  CHECK(fixNotes(paired[0]) == 1);
  CHECK(anyNoteContains(paired[0], "1 of 8 warp requests split instead of 8"));
  // A remap that splits as many warps is no fix.
  BranchSite same = makeBranch("threadIdx.x % 4", 8, 8, {256, 1, 1}, 20, BranchKind::Switch);
  same.remappedDivergentRequests = 8;
  const auto kept = branchFindings({same});
  REQUIRE(kept.size() == 1);
  CHECK(fixNotes(kept[0]) == 0);
  CHECK(anyNoteContains(kept[0], "no fix computed: grouping the threads by path would still split 8 of 8"));
}

TEST_CASE("divergent-branch: warp-aligned conditions and data-dependent ones are quiet") {
  CHECK(branchFindings({makeBranch("threadIdx.x < 32", 8, 0)}).empty());
  CHECK(branchFindings({makeBranch("(threadIdx.x / 32) % 2", 8, 0)}).empty());
  BranchSite data = makeBranch("x[i] > 0", 8, 0);
  data.evaluated = false;
  CHECK(branchFindings({data}).empty());
}

TEST_CASE("divergent-branch: a range of threads splits at most the warp at each end, per pass") {
  // `if (tid < s)` over 8 halving steps: warp 0 splits on the 5 steps with s < 32.
  CHECK(branchFindings({makeBranch("tid < s", 64, 5)}).empty());
  // `if (t >= 1 && t < 255)`: warps 0 and 7.
  CHECK(branchFindings({makeBranch("t >= 1 && t < BLOCK - 1", 8, 2)}).empty());
  // One more split warp than two ends allow is no longer a range.
  CHECK(branchFindings({makeBranch("t % 96 < 80", 8, 3)}).size() == 1);
  // The allowance counts passes: 16 requests of 8 warps are two passes, four ends.
  CHECK(branchFindings({makeBranch("c", 16, 4)}).empty());
  CHECK(branchFindings({makeBranch("c", 16, 5)}).size() == 1);
}

TEST_CASE("divergent-branch: a bounds check that splits only the partial last warp is quiet") {
  BranchSite tail = makeBranch("col < width", 4, 1, {100, 1, 1});
  tail.onlyPartialWarps = true;
  CHECK(branchFindings({tail}).empty());
}

TEST_CASE("divergent-branch: 2D blocks count warps, not rows") {
  // threadIdx.x < 8 in a 16x16 block: every warp holds two rows and splits.
  CHECK(branchFindings({makeBranch("threadIdx.x < 8", 8, 8, {16, 16, 1})}).size() == 1);
  // threadIdx.y < 5: only the warp holding rows 4 and 5 splits.
  CHECK(branchFindings({makeBranch("threadIdx.y < 5", 8, 1, {16, 16, 1})}).empty());
}

TEST_CASE("divergent-branch: loops, switches and ?: are phrased by their kind") {
  const auto loop = branchFindings({makeBranch("k < threadIdx.x % 8", 64, 64, {256, 1, 1}, 20, BranchKind::Loop)});
  REQUIRE(loop.size() == 1);
  CHECK(contains(loop[0].message, "loop condition 'k < threadIdx.x % 8' splits 64 of 64"));
  CHECK(contains(loop[0].message, "longest trip count"));
  const auto sw = branchFindings({makeBranch("threadIdx.x % 4", 8, 8, {256, 1, 1}, 20, BranchKind::Switch)});
  REQUIRE(sw.size() == 1);
  CHECK(contains(sw[0].message, "'switch (threadIdx.x % 4)' splits"));
  CHECK(contains(sw[0].message, "pays for every case its lanes take"));
  const auto sel = branchFindings({makeBranch("threadIdx.x & 1", 8, 8, {256, 1, 1}, 20, BranchKind::Conditional)});
  REQUIRE(sel.size() == 1);
  CHECK(contains(sel[0].message, "'threadIdx.x & 1 ? ... : ...' splits"));
}

TEST_CASE("divergent-branch: the share and a partly evaluated condition") {
  const auto found = branchFindings({makeBranch("c", 64, 20)});
  REQUIRE(found.size() == 1);
  CHECK(contains(found[0].message, "splits 20 of 64 warp requests (31.2%)"));
  CHECK(*found[0].divergentShare == Approx(20.0 / 64));
  BranchSite partly = makeBranch("c", 8, 8);
  partly.evaluated = false;
  partly.assumptions = {"assumes n >= 256"};
  const auto lower = branchFindings({partly});
  REQUIRE(lower.size() == 1);
  CHECK(lower[0].notes[1] == "assumes n >= 256");
  CHECK(anyNoteContains(lower[0], "the split count is a lower bound"));
}

TEST_CASE("divergent-branch: the interleaved reduction names sequential addressing") {
  const auto found = ReductionLoop{}.run();
  REQUIRE(found.size() == 1);
  CHECK(contains(found[0].message, "'if (tid % (2 * s) == 0)' splits 47 of 64 warp requests (73.4%)"));
  CHECK(anyNoteContains(found[0], "fix: sequential addressing"));
  CHECK(anyNoteContains(found[0], "for (unsigned s = blockDim.x / 2; s > 0; s >>= 1)"));
  CHECK(anyNoteContains(found[0], "at most 8 of 64 warp requests instead of 47"));
  CHECK(anyNoteContains(found[0], "loop 's < blockDim.x'"));
}

TEST_CASE("divergent-branch: the reduction fix needs a modulus by the loop's variable, a loop, and shared memory") {
  auto generic = [](const std::vector<Finding>& found) {
    REQUIRE(found.size() == 1);
    return !anyNoteContains(found[0], "sequential addressing") && anyNoteContains(found[0], "no fix computed");
  };
  ReductionLoop constantDivisor;
  constantDivisor.condition = "tid % 2 == 0";
  constantDivisor.modulusLoops = {};
  CHECK(generic(constantDivisor.run()));
  ReductionLoop otherVariable;
  otherVariable.condition = "tid % (2 * w) == 0";
  otherVariable.modulusLoops = {};  // w is not a loop's variable
  CHECK(generic(otherVariable.run()));
  ReductionLoop noShared;
  noShared.sharedAccess = false;
  CHECK(generic(noShared.run()));
  ReductionLoop onePass;  // reached once per warp: not inside the loop
  onePass.warpRequests = 8;
  onePass.divergent = 8;
  CHECK(generic(onePass.run()));
  // The same structure written on threadIdx directly, with a shifted divisor, is still found.
  ReductionLoop renamed;
  renamed.condition = "(threadIdx.x % (s << 1)) == 0";
  const auto found = renamed.run();
  REQUIRE(found.size() == 1);
  CHECK(anyNoteContains(found[0], "sequential addressing"));
}

TEST_CASE("divergent-branch: template instantiations of one branch give one finding") {
  BranchSite f = makeBranch("threadIdx.x % 2", 8, 8);
  f.kernel = "k<float>";
  BranchSite d = f;
  d.kernel = "k<double>";
  d.id = 1;
  const auto found = branchFindings({f, d});
  REQUIRE(found.size() == 1);
  CHECK(found[0].instantiations == std::vector<std::string>{"k<float>", "k<double>"});
}
