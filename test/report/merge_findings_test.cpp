// One finding per source place and rule (lib/report/src/merge_findings.cpp): a template's
// instantiations and the pieces of one struct copy report once, as the worst, naming what
// they cover.
#include <catch2/catch.hpp>

#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::model;
using namespace coalesce::test;

namespace {

std::vector<report::Finding> run(const std::vector<AccessSite>& sites) {
  AnalysisResult r;
  for (const AccessSite& s : sites) {
    r.accesses.push_back(s);
    r.accesses.back().id = static_cast<int>(r.accesses.size()) - 1;
  }
  return report::runRules(r, defaultArch());
}

}  // namespace

TEST_CASE("merge: a template's instantiations give one finding, the worst, naming every kernel") {
  AccessSite f = makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "in[2 * i]");
  f.kernel = "scale<float>";
  AccessSite d = makeSite(affine(Space::Global, 8, 32), {256, 1, 1}, "in[2 * i]");
  d.kernel = "scale<double>";
  AccessSite h = makeSite(affine(Space::Global, 2, 4), {256, 1, 1}, "in[2 * i]");
  h.kernel = "scale<short>";
  const auto found = run({f, d, h});
  REQUIRE(found.size() == 1);
  const report::Finding& m = found.front();
  CHECK(m.rule == "uncoalesced-global-access");
  CHECK(m.instantiations == std::vector<std::string>{"scale<double>", "scale<float>", "scale<short>"});  // worst first
  // The worst of the three: the double's, 32 bytes apart (eta 25 %, the others 50 %).
  CHECK(m.kernel == "scale<double>");
  CHECK(anyNoteContains(m, "one finding for 3 kernels (instantiations or callers of one helper)"));
}

TEST_CASE("merge: the pieces of one record copy give one finding listing the fields") {
  AccessSite x = makeSite(affine(Space::Global, 4, 48), {256, 1, 1}, "p[i]");
  x.record = "Body";
  x.field = "x";
  AccessSite y = x;
  y.field = "y";
  const auto found = run({x, y});
  REQUIRE(found.size() == 1);
  CHECK(found.front().fields == std::vector<std::string>{"x", "y"});
  CHECK(anyNoteContains(found.front(), "fields x, y of one record, copied together"));
  CHECK(found.front().instantiations.empty());  // one kernel
}

TEST_CASE("merge: different places or rules stay apart") {
  AccessSite a = makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "in[2 * i]");
  AccessSite b = a;
  b.loc.column = 30;
  CHECK(run({a, b}).size() == 2);
}

TEST_CASE("merge: a kernel's site judged on a guessed block gives way to the same site judged on its launch") {
  // Pannotia's fw/kernel.cu, #included by Floyd-Warshall.cu and also a unit of its own (blind
  // panel 27): alone, a guessed block made the load look worse than under the 16x16 launch.
  AccessSite launched = makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "in[2 * i]");
  AccessSite guessed = makeSite(affine(Space::Global, 4, 64), {256, 1, 1}, "in[2 * i]");
  guessed.block.source = BlockSource::Assumed;
  guessed.block.detail = "assumed: no launch found";
  const auto both = run({guessed, launched});
  REQUIRE(both.size() == 1);
  CHECK(both.front().efficiency == Approx(0.5));  // the launch's figure (8-byte stride), not the guess's
  CHECK(both.front().instantiations.empty());

  // The launched instance need not have a finding there: a coalesced load under the launch
  // leaves none, and the guess's is not shown.
  AccessSite coalesced = makeSite(affine(Space::Global, 4, 4), {256, 1, 1}, "in[2 * i]");
  CHECK(run({guessed, coalesced}).empty());

  // Another kernel at the same place (a helper two kernels call) keeps its own, guessed or not.
  AccessSite other = guessed;
  other.kernel = "other";
  const auto kept = run({other, coalesced});
  REQUIRE(kept.size() == 1);
  CHECK(kept.front().kernel == "other");
}

TEST_CASE("merge: a kernel two translation units compile is costed once, on the unit that launches it") {
  // relion's helper.cuh, whose kernels each includer compiles: its cuda_ml_optimiser.cu launches
  // one, helper.cu only defines it (the grid assumed). The place's cost was their sum.
  AnalysisResult r;
  AccessSite alone = makeSite(affine(Space::Global, 4, 16), {256, 1, 1}, "in[4 * i]");
  alone.kernel = "flip";
  alone.launchRequests = 1000;
  alone.gridAssumed = true;
  AccessSite launched = alone;
  launched.launchRequests = 10;
  launched.gridAssumed = false;
  for (const auto& [site, unit] : {std::pair{alone, "helper.cu"}, std::pair{launched, "optimiser.cu"}}) {
    r.accesses.push_back(site);
    r.accesses.back().id = static_cast<int>(r.accesses.size()) - 1;
    KernelRecord k;
    k.name = "flip";
    k.unit = unit;
    k.accesses = 1;
    r.kernels.push_back(k);
  }
  const auto found = report::runRules(r, defaultArch());
  REQUIRE(found.size() == 1);
  REQUIRE(found.front().costSectors);
  // 16 sectors per request where 4 carry the bytes: 12 excess, over the launching unit's 10 requests.
  CHECK(*found.front().costSectors == Approx(120));
  CHECK(found.front().instantiations.empty());

  // Two units that both launch it: the larger count, not the sum.
  r.accesses[0].gridAssumed = false;
  const auto both = report::runRules(r, defaultArch());
  REQUIRE(both.size() == 1);
  CHECK(*both.front().costSectors == Approx(12000));
}
