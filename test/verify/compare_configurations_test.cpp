// The comparison per launch configuration (lib/verify/src/compare_configurations.cpp): a kernel
// measured in two configurations is compared per configuration, with the prediction made for
// each, and the pooled lines of kernels measured once stay as they were.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "coalesce/verify/compare.h"
#include "coalesce/verify/report.h"

using namespace coalesce::verify;

namespace {

LaunchConfig config(const std::string& kernel, std::array<uint32_t, 3> block) {
  LaunchConfig c;
  c.kernel = kernel;
  c.grid = {64, 1, 1};
  c.block = block;
  c.launches = 5;
  c.measured = true;
  return c;
}

MeasuredInstruction load(const std::string& function, uint64_t requests, uint64_t sectors) {
  MeasuredInstruction in;
  in.function = function;
  in.demangled = demangledName(function);
  in.pc = 32;
  in.file = "/src/k.cu";
  in.line = function == "_Z1kPf" ? 3 : 9;
  in.metrics = {{metric::kInstExecuted, requests}, {metric::kGlobalLd, requests}, {metric::kSectors, sectors},
                {metric::kSectorsIdeal, requests}};
  return in;
}

// k ran with a 256x1x1 block (1 sector per request) and a 32x8x1 block (8 per request); g once.
Measurements measured() {
  Measurements m;
  m.device = {"NVIDIA H200", "GH100", 90};
  m.sampling = "config";
  m.kernelLaunches = 15;
  m.launchesMeasured = 3;
  m.launchConfigs = {config("_Z1kPf", {256, 1, 1}), config("_Z1kPf", {32, 8, 1}), config("_Z1gPf", {128, 1, 1})};
  m.instructions = {load("_Z1kPf", 30, 170), load("_Z1gPf", 10, 20)};
  m.configCounters = {{0, 0, {{metric::kInstExecuted, 10}, {metric::kGlobalLd, 10}, {metric::kSectors, 10},
                              {metric::kSectorsIdeal, 10}}},
                      {1, 0, {{metric::kInstExecuted, 20}, {metric::kGlobalLd, 20}, {metric::kSectors, 160},
                              {metric::kSectorsIdeal, 20}}}};
  return m;
}

PredictedAccess access(const std::string& kernel, unsigned line, double sectors) {
  PredictedAccess a;
  a.file = "k.cu";
  a.line = line;
  a.kernel = kernel;
  a.bytes = 4;
  a.pattern = "affine";
  a.sectorsPerRequest = sectors;
  a.idealSectors = 1;
  return a;
}

// Predicted on k's 256x1x1 block: 1 sector per request; g: 2.
Predictions predicted(double kSectors = 1) {
  Predictions p;
  p.schema = kPredictionsSchema;
  p.kernels = {{"k", 256, 1, 1, "launch"}, {"g", 128, 1, 1, "launch"}};
  p.accesses = {access("k", 3, kSectors), access("g", 9, 2)};
  return p;
}

}  // namespace

TEST_CASE("configurations: without the analyzer, the other shape is compared with the prediction given, and said so") {
  const VerifyReport r = compare(predicted(), measured());
  REQUIRE(r.lines.size() == 1);  // g, pooled as before
  CHECK(r.lines[0].kernels == std::vector<std::string>{"g"});
  CHECK(r.lines[0].verdict == Verdict::Match);
  REQUIRE(r.configurations.size() == 2);
  const ConfigurationComparison& same = r.configurations[0];
  CHECK(same.predictedFor == PredictedFor::SameBlock);
  CHECK(same.ordinal == 1);
  CHECK(same.ofKernel == 2);
  REQUIRE(same.lines.size() == 1);
  CHECK(same.lines[0].verdict == Verdict::Match);
  CHECK(same.lines[0].measured.perRequest() == 1);
  const ConfigurationComparison& other = r.configurations[1];
  CHECK(other.predictedFor == PredictedFor::OtherShape);
  CHECK_THAT(other.predictedForDetail, Catch::Contains("another shape: 256x1x1 (launch)") &&
                                           Catch::Contains("ran with 32x8x1"));
  REQUIRE(other.lines.size() == 1);
  CHECK(other.lines[0].measured.perRequest() == 8);
  CHECK(other.lines[0].verdict == Verdict::Mismatch);
  CHECK(exitCodeFor(r, false) == kExitMismatch);
  const std::string text = formatText(r);
  CHECK_THAT(text, Catch::Contains("configuration 2 of 2 of kernel 'k(float*)': grid 64x1x1, block 32x8x1"));
  CHECK_THAT(text, Catch::Contains("  k.cu:3: global load [k]: sectors/request predicted 1 measured 8"));
  CHECK_THAT(text, Catch::Contains("note: kernel 'k(float*)' was measured in 2 configurations"));
  CHECK_THAT(text, Catch::EndsWith("3 lines: 2 match, 1 mismatch (with 2 configurations of 1 kernel compared apart)\n"));
  // The HTML page lists them too, and the mismatch among the disagreements.
  const std::string html = formatHtml(r, kExitMismatch);
  CHECK_THAT(html, Catch::Contains("<h2>Configurations compared apart</h2>"));
  CHECK_THAT(html, Catch::Contains("Configuration 2 of 2 of <code>k(float*)</code>: grid 64x1x1, block 32x8x1"));
  CHECK_THAT(html, Catch::Contains("in configuration 2 of <code>k(float*)</code> (block 32x8x1): predicted 1"));
  CHECK_THAT(html, Catch::Contains("<dt>Lines compared</dt><dd>3</dd>"));
}

TEST_CASE("configurations: with the analyzer, the other shape is predicted again with its launch") {
  CompareOptions o;
  std::vector<LaunchConfig> asked;
  o.repredict = [&](const LaunchConfig& launch, std::string&) -> std::optional<Predictions> {
    asked.push_back(launch);
    Predictions p = predicted(8);
    p.kernels[0].blockX = 32;
    p.kernels[0].blockY = 8;
    return p;
  };
  const VerifyReport r = compare(predicted(), measured(), o);
  REQUIRE(asked.size() == 1);  // only the configuration whose block differs
  CHECK(asked[0].block == std::array<uint32_t, 3>{32, 8, 1});
  REQUIRE(r.configurations.size() == 2);
  CHECK(r.configurations[1].predictedFor == PredictedFor::Repredicted);
  CHECK(r.configurations[1].lines.at(0).verdict == Verdict::Match);
  CHECK(exitCodeFor(r, false) == kExitOk);
  const auto j = nlohmann::json::parse(formatJson(r, 0));
  CHECK(j["summary"]["lines"] == 3);
  CHECK(j["summary"]["match"] == 3);
  REQUIRE(j["configurations"].size() == 2);
  CHECK(j["configurations"][1]["predicted_for"] == "repredicted");
  CHECK(j["configurations"][1]["block"] == nlohmann::json::array({32, 8, 1}));
  CHECK(j["configurations"][1]["lines"][0]["measured"]["per_request"] == 8.0);

  // A failed re-prediction falls back to the prediction given, and says why.
  o.repredict = [](const LaunchConfig&, std::string& error) -> std::optional<Predictions> {
    error = "k.cu: parse error";
    return std::nullopt;
  };
  const VerifyReport failed = compare(predicted(), measured(), o);
  CHECK(failed.configurations.at(1).predictedFor == PredictedFor::OtherShape);
  CHECK_THAT(failed.configurations.at(1).predictedForDetail, Catch::Contains("failed: k.cu: parse error"));
}

TEST_CASE("configurations: without config_counters the comparison is the pooled one, byte for byte") {
  Measurements m = measured();
  m.configCounters.clear();
  const VerifyReport r = compare(predicted(), m);
  const VerifyReport pooled = comparePooled(predicted(), m);
  CHECK(r.configurations.empty());
  CHECK(formatText(r) == formatText(pooled));
  CHECK(formatJson(r, 1) == formatJson(pooled, 1));
  CHECK(formatJson(r, 1).find("\"configurations\"") == std::string::npos);
}

TEST_CASE("configurations: executions in no configuration (past the list's cap) are noted, not compared") {
  Measurements m = measured();
  m.instructions[0].metrics[metric::kInstExecuted] += 7;  // launches whose configuration the list did not keep
  const VerifyReport r = compare(predicted(), m);
  bool noted = false;
  for (const std::string& n : r.notes)
    noted |= n.find("kernel 'k(float*)': 7 instruction executions were measured in launches of configurations past "
                    "the 65536") != std::string::npos;
  CHECK(noted);
  // Nothing is said when the configurations account for every execution.
  for (const std::string& n : compare(predicted(), measured()).notes)
    CHECK(n.find("past the 65536") == std::string::npos);
}

namespace {
std::string samplingNote(const VerifyReport& r) {
  for (const std::string& n : r.notes)
    if (n.find("kernel launches measured") != std::string::npos) return n;
  return "";
}
}  // namespace

TEST_CASE("configurations: the sampling note names the mode and the configurations --max-configs left out") {
  Measurements m = measured();
  CHECK(samplingNote(compare(predicted(), m)) ==
        "3 of 15 kernel launches measured (the first launch of each of 3 distinct configurations); 12 ran unmeasured");
  m.configsOverCap = 5;
  CHECK(samplingNote(compare(predicted(), m)) ==
        "3 of 15 kernel launches measured (the first launch of each of 3 distinct configurations); 12 ran unmeasured, "
        "among them every launch of 5 distinct configurations past the per-kernel cap (--max-configs)");
  m.configsOverCap = 0;
  m.sampling = "first";
  m.launchesMeasured = 2;
  m.launchConfigs[1].measured = false;
  m.configCounters.clear();
  CHECK(samplingNote(compare(predicted(), m)) ==
        "2 of 15 kernel launches measured (the first launch of each of 2 kernels); 13 ran unmeasured");
}
