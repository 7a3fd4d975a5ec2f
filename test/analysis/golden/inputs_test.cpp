// Golden test over test/analysis/golden/inputs/: formulations written to find where the frontend
// is wrong or blind (pointer bumping, helpers with several returns, methods, lambdas,
// ?: over lvalues, warp idioms...). Each expectation was computed independently of the
// frontend, from the lane addresses.
#include <catch2/catch.hpp>

#include <filesystem>

#include "coalesce/analysis/analyze.h"
#include "expectation_matcher.h"

namespace fs = std::filesystem;
using namespace coalesce;

TEST_CASE("test/analysis/golden/inputs: every access matches the expectation written beside it") {
  std::vector<std::string> files;
  const fs::path inputs = fs::path(COALESCE_SOURCE_DIR) / "test" / "analysis" / "golden" / "inputs";
  for (const auto& e : fs::directory_iterator(inputs))
    if (e.path().extension() == ".cu") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  analysis::AnalysisRequest request;
  request.inputs = files;
  const AnalysisResult r = analysis::analyze(request);
  for (const std::string& file : files) {
    std::vector<std::string> errors;
    const auto expected = test::parseExpectationsFile(file, errors);
    std::vector<const AccessSite*> found;
    for (const AccessSite& a : r.accesses)
      if (a.loc.file == file) found.push_back(&a);
    for (const auto& f : test::matchExpectations(expected, found, nullptr)) errors.push_back(f);
    for (const FileRecord& f : r.files)
      if (f.path == file && f.status != Status::Analysed) errors.push_back("not analysed: " + f.error);
    std::string all;
    for (const auto& e : errors) all += "\n  " + e;
    INFO(file << all);
    CHECK(errors.empty());
  }
}
