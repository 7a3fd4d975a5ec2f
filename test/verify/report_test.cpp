#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "coalesce/verify/report.h"

using namespace coalesce;
using namespace coalesce::verify;

namespace {
VerifyReport sample() {
  Predictions p;
  PredictedAccess a;
  a.file = std::string("a.cu");
  a.line = 10;
  a.kernel = std::string("k");
  a.bytes = 4;
  a.sectorsPerRequest = 8;
  a.idealSectors = 4;
  PredictedAccess b = a;
  b.line = 11;
  b.sectorsPerRequest = 4;
  p.accesses = {a, b};
  Measurements m;
  m.device = {"NVIDIA H200", "GH100", 90};
  MeasuredInstruction in;
  in.function = std::string("k");
  in.file = std::string("/x/a.cu");
  in.line = 10;
  in.metrics = {{metric::kInstExecuted, 512}, {metric::kGlobalLd, 512}, {metric::kSectors, 4096},
                {metric::kSectorsIdeal, 2048}};
  MeasuredInstruction in2 = in;
  in2.line = 11;
  in2.pc = 16;
  m.instructions = {in, in2};
  return compare(p, m);
}
}  // namespace

TEST_CASE("report: text has one line per comparison and a summary") {
  const std::string t = formatText(sample());
  CHECK(t.find("device: NVIDIA H200 (sm_90, GH100)") == 0);
  CHECK(t.find("a.cu:10: global load [k]: sectors/request predicted 8 measured 8 (ideal 4/4; 1 instruction, 512 "
               "requests): match\n") != std::string::npos);
  CHECK(t.find("a.cu:11: global load [k]: sectors/request predicted 4 measured 8") != std::string::npos);
  CHECK(t.find("): mismatch\n") != std::string::npos);
  CHECK(t.find("2 lines: 1 match, 1 mismatch\n") != std::string::npos);
}

TEST_CASE("report: JSON carries verdicts, figures and the exit code") {
  const auto r = sample();
  const auto j = nlohmann::json::parse(formatJson(r, exitCodeFor(r, false)));
  CHECK(j["schema"] == "coalesce-verify/1");
  CHECK(j["exit_code"] == 1);
  CHECK(j["summary"]["match"] == 1);
  CHECK(j["summary"]["mismatch"] == 1);
  REQUIRE(j["lines"].size() == 2);
  CHECK(j["lines"][0]["verdict"] == "match");
  CHECK(j["lines"][0]["measured"]["per_request"] == 8.0);
  CHECK(j["lines"][0]["predicted"]["per_request"] == 8.0);
  CHECK(j["lines"][1]["verdict"] == "mismatch");
  CHECK(j["device"]["chip"] == "GH100");
}
