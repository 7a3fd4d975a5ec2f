// The two hints of docs/occupancy.md on hand-made records: shared-tiling-opportunity (bytes
// several warps of a block re-read in one iteration) and occupancy-limited; both off by
// default, each with its threshold option.
#include <catch2/catch.hpp>

#include "coalesce/model/occupancy.h"
#include "coalesce/report/config.h"
#include "coalesce/report/filter.h"
#include "control_flow_util.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;
using report::Finding;

namespace {

// B[k * n + col] of a naive matrix multiply on 16x16 blocks: 8 warps read the same 64 bytes.
AccessSite sharedColumnLoad() {
  AccessSite s = makeSite(affine(Space::Global, 4, 4), {16, 16, 1}, "B[k * n + col]");
  s.loops = {0};
  s.blockReuse = {true, 512, 64, 16, 2};
  s.launchRequests = 1000;
  return s;
}

KernelRecord kernelWith(int64_t threads, int64_t staticShared, int64_t dynamicShared) {
  KernelRecord k;
  k.name = "k";
  k.loc = {"k.cu", 3, 17};
  const model::Occupancy o = model::computeOccupancy({threads, staticShared, dynamicShared, std::nullopt},
                                                     model::defaultArch());
  k.occupancy.threadsPerBlock = threads;
  k.occupancy.staticSharedBytes = staticShared;
  k.occupancy.dynamicSharedBytes = dynamicShared;
  k.occupancy.blocksLimitWarps = o.blocksLimitWarps;
  k.occupancy.blocksLimitBlocks = o.blocksLimitBlocks;
  k.occupancy.blocksLimitSharedMemory = o.blocksLimitSharedMemory;
  k.occupancy.activeBlocks = o.activeBlocks;
  k.occupancy.activeWarps = o.activeWarps;
  k.occupancy.occupancy = o.occupancy;
  k.occupancy.limitedBy = std::string(model::toString(o.limitedBy));
  return k;
}

std::vector<Finding> kernelFindings(KernelRecord k) {
  AnalysisResult r;
  r.kernels.push_back(std::move(k));
  return findingsOf(std::move(r), "occupancy-limited");
}

// The findings the filter keeps with `options` over the defaults.
std::vector<Finding> shown(AnalysisResult r, report::Options options) {
  report::ConfigProvider configs(std::nullopt, options);
  report::FilterInputs inputs;
  inputs.configs = &configs;
  inputs.readSource = memoryReader({});
  inputs.mainFiles = {"k.cu"};
  auto filtered = report::filterFindings(report::runRules(r, model::defaultArch()), inputs);
  REQUIRE(filtered);
  return filtered->findings;
}

}  // namespace

TEST_CASE("shared-tiling-opportunity: a column of B read by all 8 warps, reuse 8, the tile's size and saving") {
  AnalysisResult r;
  r.accesses.push_back(sharedColumnLoad());
  const auto found = findingsOf(r, "shared-tiling-opportunity");
  REQUIRE(found.size() == 1);
  const Finding& f = found.front();
  CHECK(f.severity == report::Severity::Note);
  CHECK(contains(f.message, "the 8 warps of a 16x16x1 block request 512 bytes per iteration for 64 distinct bytes "
                            "(reuse 8x)"));
  REQUIRE(f.reuse);
  CHECK(*f.reuse == 8);
  CHECK(anyNoteContains(f, "the warps fetch 16 sectors where the block needs 2; a tile saves 87.5%"));
  CHECK(anyNoteContains(f, "a tile of 16 iterations (blockDim.x) takes 1 KB of shared memory per block"));
  // Its cost is the traffic the tile saves: 2 sectors per request x 1000 requests x 7/8.
  REQUIRE(f.costSectors);
  CHECK(*f.costSectors == Approx(1750));
}

TEST_CASE("shared-tiling-opportunity: quiet outside loops, without reuse, for stores and when already staged") {
  AnalysisResult none;
  AccessSite noLoop = sharedColumnLoad();
  noLoop.loops.clear();
  AccessSite noReuse = sharedColumnLoad();
  noReuse.blockReuse = {true, 64, 64, 2, 2};
  AccessSite unknown = sharedColumnLoad();
  unknown.blockReuse.known = false;
  AccessSite store = sharedColumnLoad();
  store.access.kind = model::AccessKind::Store;
  for (const AccessSite& s : {noLoop, noReuse, unknown, store}) {
    AnalysisResult r;
    r.accesses.push_back(s);
    CHECK(findingsOf(r, "shared-tiling-opportunity").empty());
  }
  // tile[ty][tx] = B[...]: a shared store on the load's line stages what it reads.
  AnalysisResult staged;
  staged.accesses.push_back(sharedColumnLoad());
  staged.accesses.push_back(makeSite(affine(Space::Shared, 4, 4), {16, 16, 1}, "tile[ty][tx]"));
  staged.accesses.back().access.kind = model::AccessKind::Store;
  CHECK(findingsOf(staged, "shared-tiling-opportunity").empty());
}

TEST_CASE("shared-tiling-opportunity: off by default, MinReuse decides when on") {
  AnalysisResult r;
  r.accesses.push_back(sharedColumnLoad());
  CHECK(shown(r, {}).empty());
  report::Options on;
  on.checks = "shared-tiling-opportunity";
  CHECK(shown(r, on).size() == 1);
  on.checkOptions["shared-tiling-opportunity.MinReuse"] = "10";
  CHECK(shown(r, on).empty());
  CHECK(!report::parseConfig("CheckOptions:\n  shared-tiling-opportunity.MinReuse: 0.5\n", "cfg"));
}

TEST_CASE("occupancy-limited: shared memory capping the SM at 25 %, with the bytes that let one more block in") {
  const auto found = kernelFindings(kernelWith(128, 48 * 1024, 0));
  REQUIRE(found.size() == 1);
  const Finding& f = found.front();
  CHECK(f.loc.line == 3);
  CHECK(f.kernel == "k");
  CHECK(contains(f.message, "kernel 'k' keeps 16 of 64 warps resident per SM on sm_90 (25% theoretical occupancy), "
                            "capped by shared memory: each block takes 50176 bytes (49152 static, 1024 reserved by the "
                            "runtime), 4 blocks fit in the SM's 228 KB"));
  // 233472 / 5 = 46694 -> 46592 (128-byte units) - 1024 reserved.
  CHECK(anyNoteContains(f, "fix: at most 45568 bytes of shared memory per block let 5 blocks (20 warps) reside"));
  REQUIRE(f.occupancy);
  CHECK(*f.occupancy == 0.25);
}

TEST_CASE("occupancy-limited: full SMs, failed kernels and register limits are not reported") {
  CHECK(kernelFindings(kernelWith(256, 0, 0)).empty());
  KernelRecord failed = kernelWith(128, 48 * 1024, 0);
  failed.status = Status::Failed;
  CHECK(kernelFindings(failed).empty());
  KernelRecord registers = kernelWith(128, 48 * 1024, 0);
  registers.occupancy.limitedBy = "registers";
  CHECK(kernelFindings(registers).empty());
  // One-warp blocks: the block slots cap sm_90 at exactly 50 %, found but below no default threshold.
  const auto small = kernelFindings(kernelWith(32, 0, 0));
  REQUIRE(small.size() == 1);
  CHECK(contains(small.front().message, "capped by block shape: blocks of 32 threads, and an SM holds at most 32 blocks"));
  CHECK(anyNoteContains(small.front(), "fix: blocks of at least 64 threads fill the SM's 64 warps"));
}

TEST_CASE("occupancy-limited: off by default, MinOccupancy decides when on") {
  AnalysisResult r;
  r.kernels.push_back(kernelWith(32, 0, 0));  // 50 %
  CHECK(shown(r, {}).empty());
  report::Options on;
  on.checks = "occupancy-limited";
  CHECK(shown(r, on).empty());  // not below the default 0.5
  on.checkOptions["occupancy-limited.MinOccupancy"] = "0.75";
  CHECK(shown(r, on).size() == 1);
  CHECK(!report::parseConfig("CheckOptions:\n  occupancy-limited.MinOccupancy: 2\n", "cfg"));
}
