// barrier-in-divergent-code: an error when a guard provably differs between threads of a
// block, a warning when it could not be evaluated, nothing when it is block-uniform.
#include <catch2/catch.hpp>

#include "control_flow_util.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;
using report::Finding;
using report::Severity;

namespace {
std::vector<Finding> barrierFindings(std::vector<BarrierSite> barriers) {
  AnalysisResult r;
  r.barriers = std::move(barriers);
  return findingsOf(std::move(r), "barrier-in-divergent-code");
}
}  // namespace

TEST_CASE("barrier-in-divergent-code: __syncthreads() under if (threadIdx.x < 64) is an error") {
  const auto found = barrierFindings({makeBarrier(BarrierSite::Reach::Uniform, "", 12),
                                      makeBarrier(BarrierSite::Reach::Divergent, "threadIdx.x < 64", 30)});
  REQUIRE(found.size() == 1);
  const Finding& f = found.front();
  CHECK(f.severity == Severity::Error);
  CHECK_FALSE(f.severityCap);
  CHECK(f.loc.line == 30);
  CHECK(f.loc.column == 5);
  CHECK(f.barrier == 1);
  CHECK(contains(f.message, "'__syncthreads()' is reached by only some threads of the block"));
  CHECK(contains(f.message, "its guard 'threadIdx.x < 64' differs between threads of one block"));
  CHECK(contains(f.message, "hangs the block or is undefined behaviour"));
  CHECK(f.notes.front() ==
        "the guards evaluated exactly for every thread of block 256x1x1 (launch: launch at main.cu:40)");
  CHECK(anyNoteContains(f, "guard the work, not the barrier"));
  CHECK(anyNoteContains(f, "loop to the block-wide maximum"));
}

TEST_CASE("barrier-in-divergent-code: a guard that could not be evaluated is a note, capped, saying why") {
  BarrierSite b = makeBarrier(BarrierSite::Reach::Unknown, "idx[threadIdx.x] > 0");
  b.assumptions = {"assumes idx is not known"};
  const auto found = barrierFindings({b});
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::Note);
  REQUIRE(found[0].severityCap);
  CHECK(*found[0].severityCap == Severity::Note);
  CHECK(contains(found[0].severityCapReason, "a note, not a warning: the guard could not be evaluated"));
  CHECK(contains(found[0].message, "guarded by 'idx[threadIdx.x] > 0'"));
  CHECK(contains(found[0].message, "could not be proven uniform over the block"));
  CHECK(found[0].notes[1] == "assumes idx is not known");
}

TEST_CASE("barrier-in-divergent-code: block-uniform barriers are quiet, a missing guard text still reads") {
  CHECK(barrierFindings({makeBarrier(BarrierSite::Reach::Uniform, "")}).empty());
  const auto found = barrierFindings({makeBarrier(BarrierSite::Reach::Divergent, "")});
  REQUIRE(found.size() == 1);
  CHECK(contains(found[0].message, "its guard a condition on the thread differs"));
}
