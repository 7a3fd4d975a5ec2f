// missing-restrict: a pointer parameter read while another is written (or the reverse),
// neither __restrict__; off by default.
#include <catch2/catch.hpp>

#include "coalesce/report/config.h"
#include "control_flow_util.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;
using report::Finding;

namespace {
std::vector<Finding> restrictFindings(std::vector<PointerParam> params) {
  AnalysisResult r;
  r.pointerParams = std::move(params);
  return findingsOf(std::move(r), "missing-restrict");
}
}  // namespace

TEST_CASE("missing-restrict: in read and out written, neither restrict: both are reported") {
  const auto found = restrictFindings({pointerParam("k", "in", true, false, false, 20),
                                       pointerParam("k", "out", false, true, false, 40)});
  REQUIRE(found.size() == 2);
  CHECK(found[0].severity == report::Severity::Note);
  CHECK(found[0].loc.column == 20);
  CHECK(contains(found[0].message, "pointer parameter 'in' (read) may alias 'out' (written): neither is __restrict__"));
  CHECK(contains(found[1].message, "pointer parameter 'out' (written) may alias 'in' (read)"));
  CHECK(anyNoteContains(found[0], "the launch arguments are not checked"));
  CHECK(anyNoteContains(found[0], "a promise, not a check"));
  CHECK(anyNoteContains(found[1], "fix: declare 'out' and 'in' __restrict__"));
}

TEST_CASE("missing-restrict: one restrict pointer of the pair is enough") {
  CHECK(restrictFindings({pointerParam("k", "in", true, false, true), pointerParam("k", "out", false, true)}).empty());
  CHECK(restrictFindings({pointerParam("k", "in", true, false), pointerParam("k", "out", false, true, true)}).empty());
  CHECK(restrictFindings({pointerParam("k", "in", true, false, true), pointerParam("k", "out", false, true, true)})
            .empty());
}

TEST_CASE("missing-restrict: no hazard without a write, with a single pointer, or across kernels") {
  CHECK(restrictFindings({pointerParam("k", "a", true, false), pointerParam("k", "b", true, false)}).empty());
  CHECK(restrictFindings({pointerParam("k", "a", true, true), pointerParam("k", "unused", false, false)}).empty());
  CHECK(restrictFindings({pointerParam("k1", "in", true, false), pointerParam("k2", "out", false, true)}).empty());
}

TEST_CASE("missing-restrict: every partner is named, a written pointer pairs with a read-and-written one") {
  const auto found = restrictFindings({pointerParam("k", "a", true, false, false, 10),
                                       pointerParam("k", "b", true, false, false, 20),
                                       pointerParam("k", "c", false, true, false, 30),
                                       pointerParam("k", "d", true, true, false, 40)});
  REQUIRE(found.size() == 4);
  CHECK(contains(found[0].message, "'a' (read) may alias 'c' (written) and 'd' (read and written): none is"));
  CHECK(contains(found[2].message, "'c' (written) may alias 'a' (read), 'b' (read) and 'd' (read and written)"));
  CHECK(contains(found[3].message, "'d' (read and written) may alias 'a' (read), 'b' (read) and 'c' (written)"));
}

TEST_CASE("missing-restrict: template instantiations are reported once per parameter") {
  CHECK(restrictFindings({pointerParam("k<float>", "in", true, false, false, 20),
                          pointerParam("k<float>", "out", false, true, false, 40),
                          pointerParam("k<double>", "in", true, false, false, 20),
                          pointerParam("k<double>", "out", false, true, false, 40)})
            .size() == 2);
}

TEST_CASE("missing-restrict: off in the default Checks, on when named") {
  CHECK_FALSE(report::Config::defaults().enabled("missing-restrict"));
  CHECK(report::Config::defaults().enabled("divergent-branch"));
  CHECK(report::Config::defaults().enabled("barrier-in-divergent-code"));
  CHECK(*report::Config::defaults().values().checks == "*,-missing-restrict,-shared-tiling-opportunity,-occupancy-limited");
  report::Options o;
  o.checks = "*";
  CHECK(report::Config::resolve(o, "test")->enabled("missing-restrict"));
}
