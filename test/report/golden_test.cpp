// Whole outputs against golden files kept beside their input (clazy's .expected files).
// COALESCE_UPDATE_GOLDEN=1 rewrites them; review the diff before keeping it.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "coalesce/report/explain.h"
#include "coalesce/report/json_writer.h"
#include "coalesce/report/sarif_writer.h"
#include "coalesce/report/summary.h"
#include "coalesce/report/text_writer.h"
#include "golden_fixture.h"

using namespace coalesce;
using namespace coalesce::test;

namespace {

// The golden file's contents, rewritten with `actual` first when COALESCE_UPDATE_GOLDEN is
// set; a missing file reads as a line saying so (which no output equals).
std::string golden(const std::string& name, const std::string& actual) {
  const std::string path = goldenDataDir() + "/" + name;
  if (std::getenv("COALESCE_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << actual;
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) return "missing golden file " + path + "\n";
  std::stringstream expected;
  expected << in.rdbuf();
  return expected.str();
}
// Where a failed comparison says to look.
std::string goldenNote(const std::string& name) {
  return "golden file " + goldenDataDir() + "/" + name + " (COALESCE_UPDATE_GOLDEN=1 rewrites it)";
}

struct Golden {
  AnalysisResult analysis = goldenAnalysis();
  report::Report report = goldenReport(analysis);
};

}  // namespace

TEST_CASE("golden: the filter's counts on the fixed records") {
  Golden g;
  // One per bad access (9), the parity branch, both barriers, and both pointer parameters
  // of `strided` (missing-restrict, on in the golden settings).
  CHECK(g.report.stats.candidates == 14);
  CHECK(g.report.stats.suppressed == 1);  // the NOLINT on line 35
  CHECK(g.report.stats.excluded == 1);    // third_party/
  CHECK(g.report.stats.disabled == 0);
  CHECK(g.report.findings.size() == 12);
}

TEST_CASE("golden: text output") {
  Golden g;
  std::ostringstream out;
  report::writeText(out, g.report);
  INFO(goldenNote("kernels.cu.txt.expected"));
  CHECK(out.str() == golden("kernels.cu.txt.expected", out.str()));
}

TEST_CASE("golden: JSON output") {
  Golden g;
  std::ostringstream out;
  report::writeJson(out, g.report);
  INFO(goldenNote("kernels.cu.json.expected"));
  CHECK(out.str() == golden("kernels.cu.json.expected", out.str()));
}

TEST_CASE("golden: SARIF output") {
  Golden g;
  std::ostringstream out;
  report::writeSarif(out, g.report);
  INFO(goldenNote("kernels.cu.sarif.expected"));
  CHECK(out.str() == golden("kernels.cu.sarif.expected", out.str()));
}

TEST_CASE("golden: --explain pictures") {
  Golden g;
  std::string out;
  for (int id : {0, 2, 3, 8, 10, 6}) out += report::explainAccess(g.analysis.accesses[id], model::defaultArch()) + "\n";
  INFO(goldenNote("kernels.cu.explain.expected"));
  CHECK(out == golden("kernels.cu.explain.expected", out));
}

TEST_CASE("golden: the summary splits guessed shapes into those the figures depend on and those they do not") {
  AnalysisResult analysis = goldenAnalysis();
  analysis.kernels.push_back(analysis.kernels.front());
  analysis.kernels.back().name = "anyBlock";
  analysis.kernels.back().block.source = BlockSource::Assumed;
  analysis.kernels.back().block.shapeInvariant = true;
  analysis.kernels.back().block.shapesTried = {"128x1x1", "512x1x1"};
  const report::Report report = goldenReport(analysis);
  const report::Summary s = report::summarize(report);
  CHECK(s.kernelsOnAssumedBlock == 2);
  CHECK(s.kernelsOnAssumedBlockShapeInvariant == 1);
  CHECK(report::summaryLine(report).find("(2 on an assumed block shape (1 whose figures may depend on it, 1 the same "
                                         "under every shape tried))") != std::string::npos);
  std::ostringstream json;
  report::writeJson(json, report);
  CHECK(json.str().find("\"kernels_on_assumed_block_shape_invariant\": 1") != std::string::npos);
  CHECK(json.str().find("\"shapes_tried\": [\n") != std::string::npos);
}

TEST_CASE("golden: the summary counts a shape the kernel implies apart from a guess") {
  AnalysisResult analysis = goldenAnalysis();
  for (KernelRecord& k : analysis.kernels)
    if (k.name == "columns") {
      k.block.source = BlockSource::KernelImplied;
      k.block.detail = "no launch found: the kernel implies a 32x8x1 block: ...";
    }
  const report::Report report = goldenReport(analysis);
  const report::Summary s = report::summarize(report);
  CHECK(s.kernelsOnAssumedBlock == 1);  // `particles`, still a plain guess
  CHECK(s.kernelsOnImpliedBlock == 1);
  CHECK(report::summaryLine(report).find("(1 on an assumed block shape (1 whose figures may depend on it, 0 the same "
                                         "under every shape tried), 1 on a block shape the kernel implies)") !=
        std::string::npos);
  std::ostringstream json;
  report::writeJson(json, report);
  CHECK(json.str().find("\"kernels_on_implied_block\": 1") != std::string::npos);
}
