// The divergence check (lib/verify/src/divergence.cpp): synthetic counters for each rule,
// then the counters recorded on the H200 for the divergence examples (data/divergence/).
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>

#include "coalesce/verify/compare.h"
#include "coalesce/verify/report.h"

using namespace coalesce;
using namespace coalesce::verify;

namespace {

const char* const kAll[] = {metric::kInstExecuted,    metric::kThreadInstExecuted, metric::kBranchInst,
                            metric::kBranchUniform,   metric::kBranchDivergent,    metric::kThreadInstPredOn,
                            metric::kSharedLd,        metric::kThreadSharedPredOn, metric::kGlobalSt,
                            metric::kThreadGlobalPredOn};

Measurements withCounters(bool branchCounters = true) {
  Measurements m;
  for (const char* name : kAll) {
    const std::string n = name;
    if (!branchCounters && (n == metric::kBranchInst || n == metric::kBranchUniform || n == metric::kBranchDivergent ||
                            n == metric::kThreadInstPredOn))
      continue;
    m.metricsCollected.push_back(name);
  }
  return m;
}

// A non-memory instruction: `exec` warp executions with `threads` active threads.
MeasuredInstruction plain(unsigned line, uint64_t pc, uint64_t exec, uint64_t threads, const std::string& op = "IADD3") {
  MeasuredInstruction in;
  in.function = "k";
  in.file = "/src/a.cu";
  in.line = line;
  in.pc = pc;
  in.opcode = op;
  in.metrics[metric::kInstExecuted] = exec;
  in.metrics[metric::kThreadInstExecuted] = threads;
  in.metrics[metric::kThreadInstPredOn] = threads;
  return in;
}

MeasuredInstruction branch(unsigned line, uint64_t pc, uint64_t uniform, uint64_t divergent, uint64_t threads) {
  MeasuredInstruction in = plain(line, pc, uniform + divergent, threads, "BRA");
  in.metrics[metric::kBranchInst] = uniform + divergent;
  in.metrics[metric::kBranchUniform] = uniform;
  in.metrics[metric::kBranchDivergent] = divergent;
  return in;
}

// A shared load: `exec` executions, `requests` of them with a lane on, `laneOn` lanes on in all.
MeasuredInstruction sharedLoad(unsigned line, uint64_t pc, uint64_t exec, uint64_t threads, uint64_t requests,
                               uint64_t lanesOn) {
  MeasuredInstruction in = plain(line, pc, exec, threads, "LDS");
  in.metrics[metric::kSharedLd] = requests;
  in.metrics[metric::kThreadSharedPredOn] = lanesOn;
  in.metrics[metric::kThreadInstPredOn] = lanesOn;
  return in;
}

PredictedBranch pb(unsigned line, uint64_t warps, uint64_t divergent, unsigned id = 0, const std::string& kind = "if") {
  PredictedBranch b;
  b.id = id;
  b.file = "a.cu";
  b.line = line;
  b.kernel = "k";
  b.kind = kind;
  b.condition = "c";
  b.warpRequests = warps;
  b.divergentRequests = divergent;
  return b;
}

bool hasNote(const BranchComparison& c, const std::string& text) {
  for (const std::string& n : c.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

BranchComparison one(const Predictions& p, const Measurements& m) {
  const auto all = compareBranches(p, m);
  REQUIRE(all.size() == 1);
  return all.front();
}

}  // namespace

TEST_CASE("divergence: branch targets confirm a divergent branch and compare the share") {
  Predictions p;
  p.branches = {pb(10, 8, 8)};
  Measurements m = withCounters();
  m.instructions = {plain(10, 0x10, 2048, 65536), branch(10, 0x20, 0, 2048, 65536)};
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Confirmed);
  CHECK(c.basis == BranchBasis::BranchTargets);
  CHECK(c.targetsDivergent == true);
  CHECK(c.measured.divergentShare() == Approx(1.0));
  CHECK(c.shareAgrees == true);
  CHECK(c.measured.reachingLanes == Approx(32.0));
}

TEST_CASE("divergence: a predicted-divergent branch whose branch never diverges is contradicted") {
  Predictions p;
  p.branches = {pb(10, 8, 2)};
  Measurements m = withCounters();
  m.instructions = {branch(10, 0x20, 2048, 0, 65536)};
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Contradicted);
  CHECK(c.basis == BranchBasis::BranchTargets);
  CHECK(c.shareAgrees == false);
  VerifyReport r;
  r.branches = {c};
  CHECK(exitCodeFor(r, false) == kExitMismatch);
}

TEST_CASE("divergence: a data-dependent loop the analysis could not evaluate is unpredicted, not contradicted") {
  // spmv's `for (j = rowPtr[r]; j < rowPtr[r + 1]; ++j)`: the bound is loaded per lane, so
  // the analysis evaluates no lane and claims no split; the H200 sees the loop diverge.
  Predictions p;
  p.branches = {pb(21, 256, 0, 0, "loop")};
  p.branches[0].evaluated = false;
  Measurements m = withCounters();
  m.instructions = {branch(21, 0x20, 518, 989, 48224)};
  BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Unpredicted);
  CHECK(hasNote(c, "could not be evaluated for every lane"));
  VerifyReport r;
  r.branches = {c};
  CHECK(exitCodeFor(r, false) != kExitMismatch);
  // A split among the lanes it could evaluate is a claim: measured uniform contradicts it.
  p.branches[0].divergentRequests = 4;
  m.instructions = {branch(21, 0x20, 1507, 0, 48224)};
  c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Contradicted);
}

TEST_CASE("divergence: the share may differ while both agree that the branch diverges") {
  Predictions p;
  p.branches = {pb(10, 8, 2)};  // 0.25 predicted
  Measurements m = withCounters();
  m.instructions = {branch(10, 0x20, 1024, 1024, 65536)};  // 0.5 measured
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Confirmed);
  CHECK(c.shareAgrees == false);
  CHECK(hasNote(c, "divergent share: predicted 0.250, measured 0.500"));
}

TEST_CASE("divergence: a predicated EXIT shows in the active lanes of the body range") {
  // `if (col < width) { ... }` as `@P EXIT`: 4 warps reach line 10 with 32 lanes; the body
  // (lines 11-12) runs in 3 full warps and one with 4 lanes: 25 per execution.
  Predictions p;
  p.branches = {pb(10, 4, 1)};
  Measurements m = withCounters();
  m.instructions = {plain(10, 0x10, 1024, 32768, "ISETP.GE.AND"), plain(10, 0x20, 1024, 32768, "EXIT"),
                    plain(11, 0x30, 1024, 25600), plain(12, 0x40, 1024, 25600, "STG.E")};
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Confirmed);
  CHECK(c.basis == BranchBasis::Lanes);
  CHECK(c.lanesDivergent == true);
  CHECK(c.measured.fewestLanes == Approx(25.0));
  CHECK(c.measured.bodyFirstLine == 11);
  CHECK(c.measured.bodyLastLine == 12);
  CHECK_FALSE(c.targetsDivergent.has_value());
}

TEST_CASE("divergence: the body range ends at the next branch or barrier of the kernel") {
  Predictions p;
  p.branches = {pb(10, 8, 0, 0), pb(20, 8, 8, 1)};
  p.barriers = {{"a.cu", 14, "k"}};
  Measurements m = withCounters();
  m.instructions = {plain(10, 0x10, 2048, 65536), plain(12, 0x20, 2048, 65536),
                    plain(16, 0x30, 256, 256),  // after the barrier: not line 10's body
                    plain(20, 0x40, 2048, 65536), plain(21, 0x50, 256, 256)};
  const auto all = compareBranches(p, m);
  REQUIRE(all.size() == 2);
  CHECK(all[0].verdict == BranchVerdict::Confirmed);
  CHECK(all[0].lanesDivergent == false);
  CHECK(all[0].measured.bodyLastLine == 12);
  CHECK(all[1].verdict == BranchVerdict::Confirmed);
  CHECK(all[1].measured.fewestLanes == Approx(1.0));
}

TEST_CASE("divergence: a predicated memory instruction on the branch's line counts its lanes on") {
  // `if (tid % (2 * s) == 0) s[tid] += s[tid + s];` predicated: every warp executes the
  // LDS with 32 active lanes, fewer of them on.
  Predictions p;
  p.branches = {pb(10, 64, 47)};
  Measurements m = withCounters();
  m.instructions = {plain(10, 0x10, 16384, 524288), sharedLoad(10, 0x20, 16384, 524288, 12032, 65280)};
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Confirmed);
  CHECK(c.basis == BranchBasis::Lanes);
  CHECK(c.measured.fewestLanes == Approx(65280.0 / 12032.0));
}

TEST_CASE("divergence: a predicate in the body range is noted, not counted") {
  // `if (warp == 0) { v = (lane < 8) ? s[lane] : 0; ... }`: the load's predicate is the ?:.
  Predictions p;
  p.branches = {pb(10, 8, 0)};
  Measurements m = withCounters();
  m.instructions = {plain(10, 0x10, 2048, 65536, "EXIT"), sharedLoad(11, 0x20, 256, 8192, 256, 2048)};
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Confirmed);
  CHECK(c.lanesDivergent == false);
  CHECK(hasNote(c, "predicated lanes in the body range"));
}

TEST_CASE("divergence: a grid's one partial tail warp stays within the tolerance") {
  Predictions p;
  p.branches = {pb(10, 8, 0)};
  Measurements m = withCounters();
  // 512 warps, one of them with 24 lanes: 31.984 per execution.
  m.instructions = {plain(10, 0x10, 512, 16384), plain(11, 0x20, 511, 511 * 32 - 8)};
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::Confirmed);
  CHECK(c.lanesDivergent == false);
  CHECK(hasNote(c, "taken as uniform"));
}

TEST_CASE("divergence: a branch with no executed instruction in its kernel is no-counter") {
  Predictions p;
  p.branches = {pb(10, 128, 0, 0, "loop")};
  Measurements m = withCounters();
  MeasuredInstruction other = branch(10, 0x10, 2048, 0, 65536);
  other.function = "otherKernel";
  m.instructions = {other};
  const BranchComparison c = one(p, m);
  CHECK(c.verdict == BranchVerdict::NoCounter);
  CHECK(c.basis == BranchBasis::None);
  CHECK(hasNote(c, "no executed instruction"));
}

TEST_CASE("divergence: several predicted branches on one line are compared with their sums") {
  Predictions p;
  p.branches = {pb(10, 40, 0, 0, "loop"), pb(10, 5, 0, 1, "loop")};
  Measurements m = withCounters();
  m.instructions = {branch(10, 0x20, 18432, 0, 589824)};
  const auto all = compareBranches(p, m);
  REQUIRE(all.size() == 2);
  CHECK(all[0].lineWarpRequests == 45);
  CHECK(all[0].sameLine == std::vector<unsigned>{1});
  CHECK(all[1].sameLine == std::vector<unsigned>{0});
  CHECK(all[0].verdict == BranchVerdict::Confirmed);
}

TEST_CASE("divergence: without branch counters, branch instructions give no targets") {
  Predictions p;
  p.branches = {pb(10, 8, 8)};
  Measurements m = withCounters(false);
  MeasuredInstruction b = plain(10, 0x20, 2048, 65536, "BRA");
  m.instructions = {b};
  const BranchComparison c = one(p, m);
  CHECK_FALSE(c.targetsDivergent.has_value());
  CHECK(c.verdict == BranchVerdict::Contradicted);  // the lanes on the line alone show no split
  CHECK(c.basis == BranchBasis::Lanes);
}

TEST_CASE("divergence: predictions read branches[] and barriers[]") {
  const Predictions p = predictionsFromJson(R"({"version": "coalesce-lint/1", "accesses": [],
    "branches": [{"id": 3, "file": "a.cu", "line": 7, "column": 3, "kernel": "k", "function": "k", "kind": "if",
                  "condition": "threadIdx.x % 2", "evaluated": true, "thread_dependent": true,
                  "warp_requests": 8, "divergent_requests": 8, "only_partial_warps": false,
                  "block": {"x": 256, "y": 1, "z": 1}, "assumptions": []}],
    "barriers": [{"id": 0, "file": "a.cu", "line": 9, "kernel": "k", "reach": "uniform"}]})");
  REQUIRE(p.branches.size() == 1);
  CHECK(p.branches[0].id == 3);
  CHECK(p.branches[0].condition == "threadIdx.x % 2");
  CHECK(p.branches[0].share() == Approx(1.0));
  CHECK(p.branches[0].blockX == 256);
  REQUIRE(p.barriers.size() == 1);
  CHECK(p.barriers[0].line == 9);
  CHECK_THROWS(predictionsFromJson(R"({"version": "coalesce-lint/1", "accesses": [],
    "branches": [{"file": "a.cu", "line": 7}]})"));
}

TEST_CASE("divergence: recorded on the H200, every branch of the divergence examples agrees") {
  const std::string dir = std::string(COALESCE_VERIFY_TEST_DATA) + "/divergence/";
  const Predictions p = loadPredictions(dir + "predictions.json");
  const Measurements m = loadMeasurements(dir + "measurements_h200.json");
  REQUIRE(hasBranchCounters(m));
  const VerifyReport r = compare(p, m);
  REQUIRE(r.branches.size() == 28);
  CHECK(r.count(BranchVerdict::Confirmed) == 28);
  CHECK(exitCodeFor(r, true) == kExitOk);
  std::map<std::pair<std::string, unsigned>, const BranchComparison*> at;
  for (const BranchComparison& c : r.branches)
    at[{c.predicted.file.substr(c.predicted.file.rfind('/') + 1), c.predicted.line}] = &c;
  auto get = [&](const char* f, unsigned l) -> const BranchComparison& {
    REQUIRE(at.count({f, l}));
    return *at[{f, l}];
  };
  // threadIdx.x % 2: every warp execution of the branch diverges, as predicted (8 of 8).
  const BranchComparison& parity = get("divergence_parity.cu", 28);
  CHECK(parity.basis == BranchBasis::BranchTargets);
  CHECK(parity.measured.divergent == 2048);
  CHECK(parity.measured.uniform == 0);
  CHECK(parity.shareAgrees == true);
  // Warp-aligned conditions: uniform branch executions only.
  const BranchComparison& aligned = get("divergence_warp_aligned.cu", 35);
  CHECK(aligned.basis == BranchBasis::BranchTargets);
  CHECK(aligned.measured.divergent == 0);
  CHECK(aligned.measured.uniform == 2048);
  // Bounds tails through a predicated EXIT: (3 x 32 + 4) / 4 = 25 lanes in the body.
  CHECK(get("divergence_bounds_tail.cu", 36).measured.fewestLanes == Approx(25.0));
  CHECK(get("divergence_bounds_tail.cu", 57).measured.fewestLanes == Approx(31.75));
  CHECK(get("global_bounds_check.cu", 31).measured.fewestLanes == Approx(200.0 / 7.0));
  // The sequential reduction's `tid < s`: 255 lanes over 12 requests.
  CHECK(get("reduction_interleaved_divergent.cu", 46).measured.fewestLanes == Approx(21.25));
  CHECK(get("reduction_interleaved_divergent.cu", 37).measured.fewestLanes == Approx(1.0));
  // `if (warp == 0)`: uniform, the `?:` load under it noted.
  const BranchComparison& warp0 = get("warp_shuffle_reduction.cu", 48);
  CHECK(warp0.lanesDivergent == false);
  CHECK(warp0.predicted.divergentRequests == 0);
  CHECK(hasNote(warp0, "predicated lanes in the body range: LDS at line 49 runs 8 lanes"));
  // scaleTail's grid tail warp: within the tolerance.
  CHECK(get("global_bounds_check.cu", 39).lanesDivergent == false);

  const auto j = nlohmann::json::parse(formatJson(r, exitCodeFor(r, true)));
  CHECK(j["branch_summary"]["confirmed"] == 28);
  CHECK(j["branches"].size() == 28);
  CHECK(formatText(r).find("; 28 branches: 28 confirmed\n") != std::string::npos);
}
