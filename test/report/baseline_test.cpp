// Baselines: round trip, surviving a moved line, counting, and clear errors.
#include <catch2/catch.hpp>

#include "coalesce/report/baseline.h"
#include "coalesce/report/filter.h"
#include "report_test_util.h"
#include "temp_dir.h"

using namespace coalesce;
using namespace coalesce::report;
using coalesce::test::TempDir;

namespace {

Finding finding(std::string file, unsigned line, std::string text, std::string rule = "uncoalesced-global-access") {
  Finding f;
  f.rule = std::move(rule);
  f.loc = {std::move(file), line, 3};
  f.message = "m";
  f.lineText = std::move(text);
  f.efficiency = 0.5;
  return f;
}

// The filter with no other step in the way: an empty config file, sources in memory.
FilterOutcome filterWith(const TempDir& dir, std::vector<Finding> candidates, const Baseline& baseline,
                         std::map<std::string, std::string> sources) {
  ConfigProvider configs(dir.write("empty.yaml", ""));
  FilterInputs in;
  in.configs = &configs;
  in.readSource = test::memoryReader(std::move(sources));
  in.baseline = &baseline;
  in.mainFiles = {"src/k.cu"};
  auto out = filterFindings(std::move(candidates), in);
  REQUIRE(out);
  return *out;
}

}  // namespace

TEST_CASE("a baseline survives a round trip through its JSON file") {
  TempDir dir;
  const Baseline b = Baseline::fromFindings(
      {finding("./src/k.cu", 10, "  x = a[2 * i];  "), finding("src/k.cu", 30, "x = a[2 * i];"),
       finding("src/k.cu", 12, "y = p[i].x;", "aos-field-access")});
  REQUIRE(b.entries().size() == 2);  // identical keys are counted, not repeated
  CHECK(b.entries()[0].rule == "aos-field-access");
  CHECK(b.entries()[1].path == "src/k.cu");
  CHECK(b.entries()[1].lineText == "x = a[2 * i];");
  CHECK(b.entries()[1].count == 2);
  const std::string file = dir.str("baseline.json");
  REQUIRE_FALSE(b.save(file));
  auto loaded = Baseline::load(file);
  REQUIRE(loaded);
  CHECK(loaded->toJson() == b.toJson());
  CHECK(b.toJson().find("\"version\": 1") != std::string::npos);
}

TEST_CASE("a baselined finding stays baselined after lines are inserted above it, a new one is reported") {
  TempDir dir;
  const Baseline b = Baseline::fromFindings({finding("src/k.cu", 10, "  out[i] = a[2 * i];")});
  // Four lines were added above: the finding moved from line 10 to 14.
  auto out = filterWith(dir,
                        {finding("src/k.cu", 14, "  out[i] = a[2 * i];"), finding("src/k.cu", 20, "  b = a[4 * i];")},
                        b, {});
  CHECK(out.stats.baselined == 1);
  REQUIRE(out.findings.size() == 1);
  CHECK(out.findings[0].loc.line == 20);
}

TEST_CASE("a baseline entry absorbs as many findings as it counts") {
  TempDir dir;
  const Baseline b = Baseline::fromFindings({finding("src/k.cu", 10, "x = a[2 * i];")});
  auto out = filterWith(dir, {finding("src/k.cu", 10, "x = a[2 * i];"), finding("src/k.cu", 11, "x = a[2 * i];")},
                        b, {});
  CHECK(out.stats.baselined == 1);
  CHECK(out.findings.size() == 1);
}

TEST_CASE("a finding without line text is keyed on the text the filter reads from the source") {
  TempDir dir;
  const Baseline b = Baseline::fromFindings({finding("src/k.cu", 1, "x = a[2 * i];")});
  auto out = filterWith(dir, {finding("src/k.cu", 2, "")}, b, {{"src/k.cu", "// moved\n   x = a[2 * i];\n"}});
  CHECK(out.stats.baselined == 1);
}

TEST_CASE("a baseline in the wrong format is a clear error") {
  auto notJson = Baseline::parse("not json", "b.json");
  REQUIRE_FALSE(notJson);
  CHECK(notJson.error().message.rfind("b.json: not a coalesce-lint baseline:", 0) == 0);
  auto noVersion = Baseline::parse(R"({"entries": []})", "b.json");
  REQUIRE_FALSE(noVersion);
  CHECK(noVersion.error().message == "b.json: not a coalesce-lint baseline: missing integer 'version'");
  auto future = Baseline::parse(R"({"version": 2, "entries": []})", "b.json");
  REQUIRE_FALSE(future);
  CHECK(future.error().message ==
        "b.json: baseline version 2 is not supported (this coalesce-lint reads version 1)");
  auto badEntry = Baseline::parse(R"({"version": 1, "entries": [{"rule": "x"}]})", "b.json");
  REQUIRE_FALSE(badEntry);
  CHECK(badEntry.error().message.find("entry 0 needs strings 'rule', 'path' and 'line_text'") != std::string::npos);
  auto missing = Baseline::load("/nonexistent/dir/b.json");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("cannot read baseline") != std::string::npos);
}
