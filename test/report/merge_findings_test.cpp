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
