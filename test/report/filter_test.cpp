// The one filter stage: each step drops what it should and counts it.
#include <catch2/catch.hpp>

#include "coalesce/report/filter.h"
#include "report_test_util.h"
#include "temp_dir.h"

using namespace coalesce;
using namespace coalesce::report;
using coalesce::test::TempDir;

namespace {

Finding candidate(std::string rule, std::string file, unsigned line, std::optional<double> eta,
                  std::optional<double> degree = std::nullopt) {
  Finding f;
  f.rule = std::move(rule);
  f.loc = {std::move(file), line, 3};
  f.message = "m";
  f.lineText = "x;";
  f.efficiency = eta;
  f.conflictDegree = degree;
  return f;
}

struct Run {
  TempDir dir;
  std::map<std::string, std::string> sources;
  std::vector<std::string> mainFiles{"k.cu"};

  Result<FilterOutcome> operator()(const std::string& yaml, std::vector<Finding> candidates) {
    ConfigProvider configs(dir.write("config.yaml", yaml));
    FilterInputs in;
    in.configs = &configs;
    in.readSource = test::memoryReader(sources);
    in.mainFiles = mainFiles;
    return filterFindings(std::move(candidates), in);
  }
};

}  // namespace

TEST_CASE("thresholds: global, per rule, for efficiency and conflict degree") {
  Run run;
  const std::vector<Finding> c{candidate("uncoalesced-global-access", "k.cu", 1, 0.5),
                               candidate("aos-field-access", "k.cu", 2, 0.5),
                               candidate("misaligned-global-access", "k.cu", 3, 0.8),
                               candidate("shared-bank-conflict", "k.cu", 4, std::nullopt, 2.0)};
  auto all = run("", c);
  REQUIRE(all);
  CHECK(all->findings.size() == 4);  // 0.8 < misaligned's own 0.95
  CHECK(all->stats.candidates == 4);

  auto global = run("MinEfficiency: 0.4\nMaxConflictDegree: 2\n", c);
  REQUIRE(global);
  CHECK(global->findings.size() == 1);  // only misaligned keeps its own threshold
  CHECK(global->findings[0].rule == "misaligned-global-access");
  CHECK(global->stats.belowThreshold == 3);

  auto perRule = run("CheckOptions:\n  aos-field-access.MinEfficiency: 0.4\n", c);
  REQUIRE(perRule);
  CHECK(perRule->findings.size() == 3);
  CHECK(perRule->stats.belowThreshold == 1);
}

TEST_CASE("conflicts of two ways or less are notes, NoteUpToDegree moves the line") {
  Run run;
  const std::vector<Finding> c{candidate("shared-bank-conflict", "k.cu", 1, std::nullopt, 1.62),
                               candidate("shared-bank-conflict", "k.cu", 2, std::nullopt, 2.0),
                               candidate("shared-bank-conflict", "k.cu", 3, std::nullopt, 2.5)};
  auto byDefault = run("", c);
  REQUIRE(byDefault);
  REQUIRE(byDefault->findings.size() == 3);
  CHECK(byDefault->findings[0].severity == Severity::Note);
  CHECK(byDefault->findings[1].severity == Severity::Note);
  CHECK(byDefault->findings[2].severity == Severity::Warning);
  CHECK(byDefault->findings[1].notes.back().find("2-way conflict at most doubles") != std::string::npos);

  auto restored = run("CheckOptions:\n  shared-bank-conflict.NoteUpToDegree: 1\n", c);
  REQUIRE(restored);
  for (const Finding& f : restored->findings) CHECK(f.severity == Severity::Warning);
}

TEST_CASE("a share too small to print as a percentage says so, never 'wastes 0%'") {
  Run run;
  Finding tiny = candidate("uncoalesced-global-access", "k.cu", 1, 0.25);
  tiny.severity = Severity::Warning;
  tiny.programShare = 0.0001;  // 0.01 %: rounds to "0" at one decimal
  tiny.programBasis = "basis";
  auto out = run("", {tiny});
  REQUIRE(out);
  REQUIRE(out->findings.size() == 1);
  CHECK(out->findings[0].severity == Severity::Note);
  const std::string& said = out->findings[0].notes.back();
  CHECK(said.find("wastes under 0.1% of the memory time") != std::string::npos);
  CHECK(said.find("wastes 0%") == std::string::npos);
}

TEST_CASE("accesses one block-width change fixes are weighed together, at the costliest") {
  // TIGRE's TV kernels on 10x10x10 blocks (blind panel 32): every access 6.84 sectors per
  // request where 3.91 carry its bytes, 2 to 5 % of the kernel's memory time each.
  Run run;
  const auto access = [](unsigned line, double share, std::string kernel, bool byWidth) {
    Finding f = candidate("uncoalesced-global-access", "k.cu", line, 0.57);
    f.severity = Severity::Warning;
    f.kernel = std::move(kernel);
    f.costShare = share;
    f.fixedByBlockWidth = byWidth;
    return f;
  };
  auto out = run("", {access(10, 0.046, "update_u", true), access(11, 0.042, "update_u", true),
                      access(12, 0.03, "update_u", true), access(20, 0.046, "update_p", true),
                      access(30, 0.04, "other", true), access(31, 0.04, "other", false)});
  REQUIRE(out);
  REQUIRE(out->findings.size() == 6);
  std::map<unsigned, const Finding*> at;
  for (const Finding& f : out->findings) at[f.loc.line] = &f;
  // update_u's three together waste 11.8 %: the costliest is a warning and names the others.
  CHECK(at[10]->severity == Severity::Warning);
  bool named = false;
  for (const std::string& n : at[10]->notes) named = named || (n.find("2 other accesses of 'update_u'") != std::string::npos &&
                                                                n.find("11.8%") != std::string::npos &&
                                                                n.find("at 11:3, 12:3") != std::string::npos);
  CHECK(named);
  CHECK(at[11]->severity == Severity::Note);
  CHECK(at[12]->severity == Severity::Note);
  // Alone in its kernel, or grouped with an access whose waste has another cause: each its own share.
  CHECK(at[20]->severity == Severity::Note);
  CHECK(at[30]->severity == Severity::Note);
  CHECK(at[31]->severity == Severity::Note);
}

TEST_CASE("Checks disables rules, disabled findings are counted") {
  Run run;
  auto out = run("Checks: '*,-shared-*'\n", {candidate("shared-bank-conflict", "k.cu", 1, std::nullopt, 4.0),
                                             candidate("uncoalesced-global-access", "k.cu", 2, 0.5)});
  REQUIRE(out);
  CHECK(out->stats.disabled == 1);
  REQUIRE(out->findings.size() == 1);
  CHECK(out->findings[0].rule == "uncoalesced-global-access");
}

TEST_CASE("severity per rule, then warnings promoted to errors, notes stay notes") {
  Run run;
  const std::vector<Finding> c{candidate("uncoalesced-global-access", "k.cu", 1, 0.5),
                               candidate("aos-field-access", "k.cu", 2, 0.5),
                               candidate("inverted-thread-axes", "k.cu", 3, 0.5)};
  auto out = run("CheckOptions:\n  aos-field-access.Severity: error\n  inverted-thread-axes.Severity: note\n", c);
  REQUIRE(out);
  CHECK(out->findings[0].severity == Severity::Warning);
  CHECK(out->findings[1].severity == Severity::Error);
  CHECK(out->findings[2].severity == Severity::Note);
  auto wae = run("WarningsAsErrors: '*'\nCheckOptions:\n  inverted-thread-axes.Severity: note\n", c);
  REQUIRE(wae);
  CHECK(wae->findings[0].severity == Severity::Error);
  CHECK(wae->findings[2].severity == Severity::Note);
}

TEST_CASE("third_party, system headers and the header filter hide findings by path") {
  Run run;
  run.mainFiles = {"src/k.cu"};
  const std::vector<Finding> c{candidate("uncoalesced-global-access", "src/k.cu", 1, 0.5),
                               candidate("uncoalesced-global-access", "third_party/lib/v.cuh", 2, 0.5),
                               candidate("uncoalesced-global-access", "/usr/local/cuda/include/x.h", 3, 0.5),
                               candidate("uncoalesced-global-access", "include/mine.cuh", 4, 0.5)};
  auto byDefault = run("", c);
  REQUIRE(byDefault);
  CHECK(byDefault->findings.size() == 2);
  CHECK(byDefault->stats.excluded == 2);

  auto system = run("SystemHeaders: true\nExclude: []\n", c);
  REQUIRE(system);
  CHECK(system->findings.size() == 4);

  // The header filter restricts headers, never the analysed files.
  auto filtered = run("HeaderFilter: '^src/'\n", c);
  REQUIRE(filtered);
  REQUIRE(filtered->findings.size() == 1);
  CHECK(filtered->findings[0].loc.file == "src/k.cu");
}

TEST_CASE("NOLINT comments in the source suppress, and are counted") {
  Run run;
  run.sources["k.cu"] = "a;\nb; // NOLINT(uncoalesced-global-access)\nc; // NOLINT(aos-*)\n";
  auto out = run("", {candidate("uncoalesced-global-access", "k.cu", 1, 0.5),
                      candidate("uncoalesced-global-access", "k.cu", 2, 0.5),
                      candidate("uncoalesced-global-access", "k.cu", 3, 0.5)});
  REQUIRE(out);
  CHECK(out->stats.suppressed == 1);
  CHECK(out->findings.size() == 2);
}

TEST_CASE("an unmatched NOLINTBEGIN is an error finding and suppresses nothing") {
  Run run;
  run.sources["k.cu"] = "// NOLINTBEGIN\na;\n";
  auto out = run("", {candidate("uncoalesced-global-access", "k.cu", 2, 0.5)});
  REQUIRE(out);
  REQUIRE(out->findings.size() == 2);
  CHECK(out->findings[0].rule == kNoLintRuleId);
  CHECK(out->findings[0].severity == Severity::Error);
  CHECK(out->findings[0].loc.line == 1);
  CHECK(out->findings[0].lineText == "// NOLINTBEGIN");
  CHECK(out->findings[1].rule == "uncoalesced-global-access");
}

TEST_CASE("the filter reads missing line texts from the source and sorts its output") {
  Run run;
  run.mainFiles = {"a.cu", "b.cu"};
  run.sources["a.cu"] = "first\n  second line  \n";
  Finding f = candidate("uncoalesced-global-access", "b.cu", 1, 0.5);
  Finding g = candidate("uncoalesced-global-access", "a.cu", 2, 0.5);
  g.lineText.clear();
  auto out = run("", {f, g});
  REQUIRE(out);
  REQUIRE(out->findings.size() == 2);
  CHECK(out->findings[0].loc.file == "a.cu");
  CHECK(out->findings[0].lineText == "  second line  ");
  CHECK(out->findings[1].loc.file == "b.cu");
}

TEST_CASE("a configuration error stops the filter with its message") {
  Run run;
  auto out = run("MinEfficiency: 2\n", {candidate("uncoalesced-global-access", "k.cu", 1, 0.5)});
  REQUIRE_FALSE(out);
  CHECK(test::contains(out.error().message, "MinEfficiency must be between 0 and 1"));
}
