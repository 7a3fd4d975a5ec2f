// `coalesce-lint verify` as a user runs it: the verifier-only CLI, on recorded H200 data
// (data/programs/, recorded by bench/calibration/verify_checks.sh) and on the failures a
// machine without a GPU can produce.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "coalesce/verify/compare.h"
#include "coalesce/verify/process.h"

using namespace coalesce::verify;

namespace {

// ctest runs each case in its own process, in parallel: temp names must not collide.
std::string uniqueTemp(const std::string& stem, const std::string& ext) {
  return "/tmp/" + stem + "." + std::to_string(::getpid()) + "." + ext;
}

struct CliResult {
  int rc = -1;
  std::string out;  // stdout and stderr together
};

CliResult cli(std::vector<std::string> args) {
  const std::string log = uniqueTemp("coalesce_verify_cli_test", "log");
  RunOptions o;
  o.argv = {COALESCE_VERIFY_CLI, "verify"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.captureFile = log;
  o.timeoutSeconds = 60;
  const RunResult r = runProcess(o);
  CliResult c;
  c.rc = r.started && !r.signal ? r.exitCode : -1;
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  c.out = ss.str();
  std::remove(log.c_str());
  return c;
}

std::string data(const std::string& rel) { return std::string(COALESCE_VERIFY_TEST_DATA) + "/" + rel; }

}  // namespace

TEST_CASE("cli: the H200 recording of verify_demo.cu confirms every predicted line") {
  const auto r = cli({"--predictions", data("programs/verify_demo.predictions.json"), "--measurements",
                      data("programs/verify_demo.measurements.json"), "--sass", data("programs/verify_demo.sass.txt")});
  INFO(r.out);
  // deadLoad's unused load was optimised out: not-found, so exit 3 without --allow-not-found.
  CHECK(r.rc == kExitIncomplete);
  CHECK(r.out.find("device: NVIDIA H200 (sm_90, GH100)") != std::string::npos);
  CHECK(r.out.find(": mismatch\n") == std::string::npos);
  CHECK(r.out.find("verify_demo.cu:74: global load [deadLoad]") != std::string::npos);
  CHECK(r.out.find(": not-found\n") != std::string::npos);
  CHECK(r.out.find("map to no executed instruction") != std::string::npos);
  const auto ok = cli({"--predictions", data("programs/verify_demo.predictions.json"), "--measurements",
                       data("programs/verify_demo.measurements.json"), "--sass", data("programs/verify_demo.sass.txt"),
                       "--allow-not-found"});
  CHECK(ok.rc == kExitOk);
}

TEST_CASE("cli: JSON report of the recording, per line") {
  const std::string out = uniqueTemp("coalesce_verify_cli_test", "json");
  const auto r = cli({"--predictions", data("programs/verify_demo.predictions.json"), "--measurements",
                      data("programs/verify_demo.measurements.json"), "--sass", data("programs/verify_demo.sass.txt"),
                      "--format", "json", "-o", out, "--allow-not-found"});
  REQUIRE(r.rc == kExitOk);
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["schema"] == "coalesce-verify/1");
  CHECK(j["summary"]["mismatch"] == 0);
  CHECK(j["summary"]["match"].get<int>() >= 20);
  CHECK(j["summary"]["within-range"] == 1);
  CHECK(j["summary"]["not-found"] == 1);
  bool sawConflict = false;
  for (const auto& l : j["lines"])
    if (l["space"] == "shared" && l["kind"] == "load" && l["kernels"][0] == "transposeNaive") {
      sawConflict = true;
      CHECK(l["measured"]["per_request"] == 32.0);
      CHECK(l["verdict"] == "match");
    }
  CHECK(sawConflict);
  std::remove(out.c_str());
}

TEST_CASE("cli: a wrong prediction is a mismatch, exit 1") {
  // The stride-2 load predicted at 4 sectors instead of 8.
  std::ifstream in(data("programs/verify_demo.predictions.json"));
  auto j = nlohmann::json::parse(in);
  for (auto& a : j["accesses"])
    if (a["kernel"] == "strided" && a["kind"] == "load") a["sectors_per_request"] = 4.0;
  const std::string wrong = uniqueTemp("coalesce_verify_wrong", "json");
  std::ofstream(wrong) << j.dump();
  const auto r = cli({"--predictions", wrong, "--measurements", data("programs/verify_demo.measurements.json"),
                      "--allow-not-found"});
  INFO(r.out);
  CHECK(r.rc == kExitMismatch);
  CHECK(r.out.find("sectors/request predicted 4 measured 8") != std::string::npos);
  CHECK(r.out.find(": mismatch\n") != std::string::npos);
  std::remove(wrong.c_str());
}

TEST_CASE("cli: failures give one line and exit 2") {
  auto r = cli({data("programs/verify_demo.cu")});
  CHECK(r.rc == kExitError);
  CHECK(r.out.find("--predictions P.json is required") != std::string::npos);

  r = cli({"--predictions", data("programs/verify_demo.predictions.json")});
  CHECK(r.rc == kExitError);
  CHECK(r.out.find("nothing to verify") != std::string::npos);

  r = cli({"--predictions", data("programs/verify_demo.predictions.json"), "--"});
  CHECK(r.rc == kExitError);

  // A collection that failed on the GPU machine is reported, not compared.
  const std::string failed = uniqueTemp("coalesce_verify_failed", "json");
  std::ofstream(failed) << R"JSON({"schema":"coalesce-verify-measurements/1","status":"error","error_kind":"no-permission",
    "error":"no permission to read GPU performance counters (ERR_NVGPUCTRPERM, cuptiProfilerInitialize)"})JSON";
  r = cli({"--predictions", data("programs/verify_demo.predictions.json"), "--measurements", failed});
  CHECK(r.rc == kExitError);
  CHECK(r.out.find("ERR_NVGPUCTRPERM") != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  std::remove(failed.c_str());

  // Running for real on a machine without a GPU (CI): one line naming the cause.
  if (!probeGpu().ok) {
    r = cli({"--predictions", data("programs/verify_demo.predictions.json"), data("programs/verify_demo.cu")});
    CHECK(r.rc == kExitError);
    CHECK(r.out.find("error: no GPU") != std::string::npos);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  }
}

TEST_CASE("cli: --analyze in the verifier-only build is one line saying the analyzer is not built in") {
  const auto r = cli({"--analyze", "--sources", data("programs/verify_demo.cu"), "--", "/bin/true"});
  INFO(r.out);
  CHECK(r.rc == kExitError);
  CHECK(r.out.find("verifier-only build") != std::string::npos);
  CHECK(r.out.find("--predictions P.json") != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  // Without --analyze, --sources is a mistake, not ignored.
  const auto s = cli({"--sources", data("programs/verify_demo.cu"), "--predictions",
                      data("programs/verify_demo.predictions.json"), "--", "/bin/true"});
  CHECK(s.rc == kExitError);
  CHECK(s.out.find("add --analyze") != std::string::npos);
}

TEST_CASE("cli: the H200 recording of configs_demo.cu compares each block shape apart") {
  const auto r = cli({"--predictions", data("programs/configs_demo.predictions.json"), "--measurements",
                      data("programs/configs_demo.measurements.json")});
  INFO(r.out);
  // Predicted for 32x8 (32 sectors per request); the 8x32 launch measured 8: without the
  // analyzer it is compared with the 32x8 prediction, said so, and is a mismatch.
  CHECK(r.rc == kExitMismatch);
  CHECK(r.out.find("configuration 1 of 2 of kernel 'columnStore(float*, int)': grid 8x32x1, block 32x8x1") !=
        std::string::npos);
  CHECK(r.out.find("sectors/request predicted 32 measured 32 (ideal 4/4; 1 instruction, 2048 requests): match") !=
        std::string::npos);
  CHECK(r.out.find("compared against a prediction made for another shape: 32x8x1 (launch), but this configuration "
                   "ran with 8x32x1") != std::string::npos);
  CHECK(r.out.find("sectors/request predicted 32 measured 8 (ideal 4/4; 1 instruction, 2048 requests): mismatch") !=
        std::string::npos);
  // `scale` ran ten times in one configuration: pooled, as before.
  CHECK(r.out.find("configs_demo.cu:15: global load [scale]: sectors/request predicted 4 measured 4") !=
        std::string::npos);
  CHECK(r.out.find("4 lines: 3 match, 1 mismatch (with 2 configurations of 1 kernel compared apart)") !=
        std::string::npos);
}

TEST_CASE("cli: the H200 recording of procs_demo.cu (a fork, four launching threads) compares both processes") {
  const std::string out = uniqueTemp("coalesce_verify_procs", "json");
  const auto r = cli({"--predictions", data("programs/procs_demo.predictions.json"), "--measurements",
                      data("programs/procs_demo.measurements.json"), "--format", "json", "-o", out});
  INFO(r.out);
  CHECK(r.rc == kExitOk);
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  // The child's stride2 (8 sectors per request) and the parent's fill, measured in 16
  // configurations of the 100 its threads launched (recorded when --max-configs was 16 by
  // default), each matching.
  CHECK(j["summary"]["mismatch"] == 0);
  CHECK(j["configurations"].size() == 16);
  bool sawChild = false;
  for (const auto& l : j["lines"])
    if (l["kernels"][0] == "stride2" && l["kind"] == "load") sawChild = l["measured"]["per_request"] == 8.0;
  CHECK(sawChild);
  const std::string notes = j["notes"].dump();
  CHECK(notes.find("2 processes ran CUDA kernels under the collector") != std::string::npos);
  CHECK(notes.find("17 of 101 kernel launches measured") != std::string::npos);
  std::remove(out.c_str());
}
