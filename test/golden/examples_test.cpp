// Golden test over kernels/examples/: every global and shared access the frontend finds
// must match the `// expect:` comment beside it, and every expectation must be found.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "coalesce/analysis/analyze.h"
#include "expectation_matcher.h"

namespace fs = std::filesystem;
using namespace coalesce;

namespace {

std::vector<std::string> exampleFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(COALESCE_SOURCE_DIR) / "kernels" / "examples"))
    if (e.path().extension() == ".cu") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

const AnalysisResult& analysedExamples() {
  static const AnalysisResult result = [] {
    analysis::AnalysisRequest request;
    request.inputs = exampleFiles();
    return analysis::analyze(request);
  }();
  return result;
}

}  // namespace

TEST_CASE("kernels/examples: at least 40 runnable examples, all analysed") {
  const auto files = exampleFiles();
  REQUIRE(files.size() >= 40);
  const AnalysisResult& r = analysedExamples();
  REQUIRE(r.files.size() == files.size());
  for (const FileRecord& f : r.files) {
    INFO(f.path << ": " << f.error);
    CHECK(f.status == Status::Analysed);
    CHECK(f.hostErrors == 0);
  }
  for (const KernelRecord& k : r.kernels) {
    INFO(k.loc.file << ": kernel " << k.name << ": " << k.reason);
    CHECK(k.status == Status::Analysed);
    CHECK(k.block.source == BlockSource::Launch);
  }
}

TEST_CASE("kernels/examples: every access matches the expectation written beside it") {
  const AnalysisResult& r = analysedExamples();
  for (const std::string& file : exampleFiles()) {
    std::vector<std::string> errors;
    const auto expected = test::parseExpectationsFile(file, errors);
    std::vector<const AccessSite*> found;
    for (const AccessSite& a : r.accesses)
      if (a.loc.file == file) found.push_back(&a);
    for (const auto& f : test::matchExpectations(expected, found, nullptr)) errors.push_back(f);
    INFO(file);
    CHECK(!expected.empty());
    std::string all;
    for (const auto& e : errors) all += "\n  " + e;
    INFO(all);
    CHECK(errors.empty());
  }
}
