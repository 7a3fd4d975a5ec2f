// The control-flow rules through the settings and the filter stage: MinDivergentShare, the
// severity cap of unproven barriers, NOLINT by rule id, Checks, and --dump-config.
#include <catch2/catch.hpp>

#include "coalesce/report/config.h"
#include "coalesce/report/filter.h"
#include "control_flow_util.h"
#include "report_test_util.h"
#include "temp_dir.h"

using namespace coalesce;
using namespace coalesce::report;
using coalesce::test::TempDir;

namespace {

// Candidates from the rules over a parity branch (share 0.5), a proven and an unproven
// barrier, and an in/out pair of pointer parameters, filtered with `yaml`.
Result<FilterOutcome> filtered(const std::string& yaml, const std::string& source = "") {
  AnalysisResult r;
  r.branches = {test::makeBranch("threadIdx.x % 4 < 2", 16, 8, {256, 1, 1}, 2)};
  r.barriers = {test::makeBarrier(BarrierSite::Reach::Divergent, "threadIdx.x < 64", 3),
                test::makeBarrier(BarrierSite::Reach::Unknown, "v > 3.0f", 4)};
  r.barriers[1].id = 1;
  r.pointerParams = {test::pointerParam("k", "in", true, false, false, 10),
                     test::pointerParam("k", "out", false, true, false, 30)};
  TempDir dir;
  ConfigProvider configs(dir.write("config.yaml", yaml));
  FilterInputs in;
  in.configs = &configs;
  in.readSource = test::memoryReader({{"k.cu", source}});
  in.mainFiles = {"k.cu"};
  return filterFindings(runRules(r, model::defaultArch()), in);
}

size_t count(const FilterOutcome& out, const std::string& rule) {
  return static_cast<size_t>(std::count_if(out.findings.begin(), out.findings.end(),
                                           [&](const Finding& f) { return f.rule == rule; }));
}

const Finding& first(const FilterOutcome& out, const std::string& rule, unsigned line) {
  for (const Finding& f : out.findings)
    if (f.rule == rule && f.loc.line == line) return f;
  FAIL("no " << rule << " finding on line " << line);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("defaults: the branch and both barriers are shown, missing-restrict is disabled") {
  auto out = filtered("");
  REQUIRE(out);
  CHECK(count(*out, "divergent-branch") == 1);
  CHECK(count(*out, "barrier-in-divergent-code") == 2);
  CHECK(count(*out, "missing-restrict") == 0);
  CHECK(out->stats.disabled == 2);
  CHECK(first(*out, "barrier-in-divergent-code", 3).severity == Severity::Error);
  CHECK(first(*out, "barrier-in-divergent-code", 4).severity == Severity::Note);  // unproven
}

TEST_CASE("MinDivergentShare drops branches whose share of split requests is below it") {
  auto at = [](const std::string& share) {
    auto out = filtered("CheckOptions:\n  divergent-branch.MinDivergentShare: " + share + "\n");
    REQUIRE(out);
    return std::make_pair(count(*out, "divergent-branch"), out->stats.belowThreshold);
  };
  CHECK(at("0.5") == std::make_pair(size_t{1}, size_t{0}));  // the share is 8 / 16: kept at equality
  CHECK(at("0.6") == std::make_pair(size_t{0}, size_t{1}));
}

TEST_CASE("an unproven barrier stays a note, whatever the rule's severity, also when warnings are errors") {
  auto strict = filtered("CheckOptions:\n  barrier-in-divergent-code.Severity: error\n");
  REQUIRE(strict);
  CHECK(first(*strict, "barrier-in-divergent-code", 3).severity == Severity::Error);
  CHECK(first(*strict, "barrier-in-divergent-code", 4).severity == Severity::Note);
  auto lowered = filtered("CheckOptions:\n  barrier-in-divergent-code.Severity: note\n");
  REQUIRE(lowered);
  CHECK(first(*lowered, "barrier-in-divergent-code", 3).severity == Severity::Note);
  CHECK(first(*lowered, "barrier-in-divergent-code", 4).severity == Severity::Note);
  auto promoted = filtered("WarningsAsErrors: 'barrier-*'\n");
  REQUIRE(promoted);
  CHECK(first(*promoted, "barrier-in-divergent-code", 3).severity == Severity::Error);
  CHECK(first(*promoted, "barrier-in-divergent-code", 4).severity == Severity::Note);
}

TEST_CASE("Checks turns the hint on and the others off by id or glob") {
  auto all = filtered("Checks: '*'\n");
  REQUIRE(all);
  CHECK(count(*all, "missing-restrict") == 2);
  CHECK(first(*all, "missing-restrict", 5).severity == Severity::Note);
  auto none = filtered("Checks: '*,-divergent-branch,-barrier-*'\n");
  REQUIRE(none);
  CHECK(count(*none, "divergent-branch") == 0);
  CHECK(count(*none, "barrier-in-divergent-code") == 0);
  CHECK(count(*none, "missing-restrict") == 2);  // a Checks value replaces the default list
}

TEST_CASE("NOLINT suppresses control-flow findings by their ids") {
  auto out = filtered("", "k(float* in, float* out) {\n  if (c) {  // NOLINT(divergent-branch)\n"
                          "    __syncthreads();  // NOLINT(barrier-*)\n  __syncthreads();\n");
  REQUIRE(out);
  CHECK(count(*out, "divergent-branch") == 0);
  CHECK(count(*out, "barrier-in-divergent-code") == 1);
  CHECK(out->stats.suppressed == 2);
}

TEST_CASE("settings: MinDivergentShare is checked and dumped, the new rules' defaults read back") {
  CHECK(test::contains(parseConfig("CheckOptions:\n  divergent-branch.MinDivergentShare: 1.5\n", "cfg").error().message,
                       "MinDivergentShare must be between 0 and 1, not 1.5"));
  CHECK(test::contains(parseConfig("CheckOptions:\n  divergent-branch.MinEfficiency: 0.5\n", "cfg").error().message,
                       "unknown option 'MinEfficiency' of rule 'divergent-branch'"));
  CHECK(test::contains(parseConfig("CheckOptions:\n  barrier-in-divergent-code.MinDivergentShare: 0.5\n", "cfg")
                           .error()
                           .message,
                       "unknown option 'MinDivergentShare' of rule 'barrier-in-divergent-code'"));
  Options o;
  o.checkOptions["divergent-branch.MinDivergentShare"] = "0.25";
  const Config c = *Config::resolve(o, "test");
  CHECK(c.minDivergentShare("divergent-branch") == 0.25);
  CHECK(Config::defaults().minDivergentShare("divergent-branch") == 0);
  const std::string dump = dumpConfig(c);
  CHECK(test::contains(dump, "Checks: '*,-missing-restrict,-shared-tiling-opportunity,-occupancy-limited'\n"));
  CHECK(test::contains(dump, "  divergent-branch.MinDivergentShare: 0.25\n"));
  CHECK(test::contains(dump, "  barrier-in-divergent-code.Severity: error\n"));
  CHECK(test::contains(dump, "  missing-restrict.Severity: note\n"));
  auto reread = parseConfig(dump, "dump");
  REQUIRE(reread);
  auto again = Config::resolve(*reread, "test");
  REQUIRE(again);
  CHECK(dumpConfig(*again) == dump);
  CHECK_FALSE(again->enabled("missing-restrict"));
}
