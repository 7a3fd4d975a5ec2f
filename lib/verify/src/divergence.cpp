#include "coalesce/verify/divergence.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>

#include "coalesce/verify/compare.h"
#include "coalesce/verify/format_number.h"

namespace coalesce::verify {

std::string_view toString(BranchVerdict v) {
  switch (v) {
    case BranchVerdict::Confirmed: return "confirmed";
    case BranchVerdict::Contradicted: return "contradicted";
    case BranchVerdict::NoCounter: return "no-counter";
    case BranchVerdict::Unpredicted: return "unpredicted";
  }
  return "?";
}

std::string_view toString(BranchBasis b) {
  switch (b) {
    case BranchBasis::None: return "none";
    case BranchBasis::BranchTargets: return "branch-targets";
    case BranchBasis::Lanes: return "lanes";
  }
  return "?";
}

namespace {

std::optional<double> ratio(uint64_t a, uint64_t b) {
  if (!b) return std::nullopt;
  return static_cast<double>(a) / static_cast<double>(b);
}

bool collected(const Measurements& m, const char* metric) {
  return std::find(m.metricsCollected.begin(), m.metricsCollected.end(), metric) != m.metricsCollected.end();
}

}  // namespace

std::optional<double> BranchMeasured::divergentShare() const { return ratio(divergent, divergent + uniform); }
std::optional<double> BranchMeasured::activePerInstruction() const { return ratio(threads, executions); }
std::optional<double> BranchMeasured::predOnPerInstruction() const {
  if (!predOnKnown) return std::nullopt;
  return ratio(predOnThreads, executions);
}

bool hasBranchCounters(const Measurements& m) {
  return collected(m, metric::kBranchDivergent) && collected(m, metric::kBranchUniform);
}

std::optional<double> lanesPerExecution(const MeasuredInstruction& in) {
  const uint64_t exec = in.get(metric::kInstExecuted);
  if (exec == 0) return std::nullopt;
  if (auto cls = classify(in)) {
    const char* predOn =
        cls->space == model::Space::Shared ? metric::kThreadSharedPredOn : metric::kThreadGlobalPredOn;
    const uint64_t req = requestsOf(in, *cls);
    if (in.has(predOn) && req > 0) return ratio(in.get(predOn), req);
    if (in.has(predOn)) return std::nullopt;  // every lane predicated off: no request
  }
  if (!in.has(metric::kThreadInstExecuted)) return std::nullopt;
  return ratio(in.get(metric::kThreadInstExecuted), exec);
}

std::vector<BranchComparison> compareBranches(const Predictions& predictions, const Measurements& measurements,
                                              const BranchCompareOptions& options) {
  std::vector<BranchComparison> out;
  const bool branchCounters = hasBranchCounters(measurements);
  const bool predOnCounter = collected(measurements, metric::kThreadInstPredOn);

  // Predicted branches of one kernel on one line are compared together.
  using Key = std::tuple<std::string, unsigned, std::string>;
  std::map<Key, std::vector<const PredictedBranch*>> groups;
  for (const PredictedBranch& b : predictions.branches) groups[{b.file, b.line, b.kernel}].push_back(&b);

  // Instructions grouped by file and kernel, so that whether a branch's file and kernel match is
  // decided once per group rather than once per instruction: a program measured in thousands of
  // configurations (Rodinia gaussian, 2,046) compares each one's instructions with every branch.
  using Origin = std::tuple<std::string_view, std::string_view, std::string_view>;  // file, mangled, demangled
  std::map<Origin, size_t> originIds;
  std::vector<const MeasuredInstruction*> originOf;  // one instruction of each group
  std::vector<size_t> groupOf;
  groupOf.reserve(measurements.instructions.size());
  for (const MeasuredInstruction& in : measurements.instructions) {
    auto [it, fresh] = originIds.try_emplace(Origin{in.file, in.function, in.demangled}, originOf.size());
    if (fresh) originOf.push_back(&in);
    groupOf.push_back(it->second);
  }

  // The first line after `b` that starts another branch or a barrier of its kernel.
  auto bodyEnd = [&](const PredictedBranch& b) {
    unsigned next = std::numeric_limits<unsigned>::max();
    for (const PredictedBranch& o : predictions.branches)
      if (o.line > b.line && o.kernel == b.kernel && o.file == b.file) next = std::min(next, o.line);
    for (const PredictedBarrier& o : predictions.barriers)
      if (o.line > b.line && o.kernel == b.kernel && o.file == b.file) next = std::min(next, o.line);
    return next;
  };

  for (const PredictedBranch& b : predictions.branches) {
    BranchComparison c;
    c.predicted = b;
    for (const PredictedBranch* o : groups[{b.file, b.line, b.kernel}]) {
      if (o != &b) c.sameLine.push_back(o->id);
      c.lineWarpRequests += o->warpRequests;
      c.lineDivergentRequests += o->divergentRequests;
    }
    BranchMeasured& m = c.measured;
    m.branchCountersKnown = branchCounters;
    m.predOnKnown = predOnCounter;
    const unsigned end = bodyEnd(b);
    std::optional<double> reachingBefore;  // widest active mask before the branch (line without instructions)
    struct Lane {
      double lanes;
      unsigned line;
      uint64_t pc;
      const std::string* opcode;
    };
    std::vector<Lane> under;  // lanes of the instructions on the line and in the body range
    std::optional<Lane> predicatedInBody;
    unsigned bodyMin = 0, bodyMax = 0;
    std::vector<char> ofBranch(originOf.size());
    for (size_t g = 0; g < originOf.size(); ++g)
      ofBranch[g] = sameSourceFile(b.file, originOf[g]->file) && sameKernel(b.kernel, *originOf[g]);
    for (size_t i = 0; i < measurements.instructions.size(); ++i) {
      const MeasuredInstruction& in = measurements.instructions[i];
      if (!ofBranch[groupOf[i]]) continue;
      const uint64_t exec = in.get(metric::kInstExecuted);
      if (exec == 0) continue;
      const std::optional<double> active = ratio(in.get(metric::kThreadInstExecuted), exec);
      if (in.line > 0 && in.line < b.line && active && in.has(metric::kThreadInstExecuted))
        reachingBefore = std::max(reachingBefore.value_or(0), *active);
      if (in.line == b.line) {
        ++m.instructions;
        m.executions += exec;
        m.threads += in.get(metric::kThreadInstExecuted);
        m.predOnThreads += in.get(metric::kThreadInstPredOn);
        if (active && in.has(metric::kThreadInstExecuted))
          m.reachingLanes = std::max(m.reachingLanes.value_or(0), *active);
        const uint64_t u = in.get(metric::kBranchUniform), d = in.get(metric::kBranchDivergent);
        const uint64_t br = in.get(metric::kBranchInst);
        if (u + d > 0 || br > 0) {
          m.branches.push_back({in.function, in.pc, in.opcode, br, u, d});
          m.uniform += u;
          m.divergent += d;
          m.branchExecutions += br;
        }
      } else if (in.line > b.line && in.line < end) {
        ++m.bodyInstructions;
        bodyMin = bodyMin ? std::min(bodyMin, in.line) : in.line;
        bodyMax = std::max(bodyMax, in.line);
      } else {
        continue;
      }
      // On the branch's line, a memory instruction's predicated-on lanes (its predicate is
      // the condition when nvcc predicated the body there); in the body range, only the
      // active mask: a predicate there may be another condition (a `?:` with no side
      // effects is no branch), which is noted, not counted.
      if (in.line == b.line) {
        if (auto lanes = lanesPerExecution(in)) under.push_back({*lanes, in.line, in.pc, &in.opcode});
      } else if (in.has(metric::kThreadInstExecuted)) {
        under.push_back({*active, in.line, in.pc, &in.opcode});
        if (auto lanes = lanesPerExecution(in); lanes && *lanes < *active * (1 - options.laneTolerance))
          if (!predicatedInBody || *lanes < predicatedInBody->lanes)
            predicatedInBody = Lane{*lanes, in.line, in.pc, &in.opcode};
      }
    }
    if (predicatedInBody)
      c.notes.push_back(fmt::format("predicated lanes in the body range: {} at line {} runs {} lanes on per request "
                                    "(a predicate, not the active mask: not counted as this branch's divergence)",
                                    predicatedInBody->opcode->empty() ? "an instruction" : *predicatedInBody->opcode,
                                    predicatedInBody->line, formatNumber(predicatedInBody->lanes)));
    m.bodyFirstLine = bodyMin;
    m.bodyLastLine = bodyMax;
    if (!m.reachingLanes) m.reachingLanes = reachingBefore;
    std::sort(m.branches.begin(), m.branches.end(), [](const BranchInstruction& x, const BranchInstruction& y) {
      return std::tie(x.function, x.pc) < std::tie(y.function, y.pc);
    });
    for (const Lane& l : under)
      if (!m.fewestLanes || l.lanes < *m.fewestLanes) {
        m.fewestLanes = l.lanes;
        m.fewestLine = l.line;
        m.fewestPc = l.pc;
        m.fewestOpcode = *l.opcode;
      }

    const double predictedShare = c.predictedShare();
    // Over a grid, a bounds check splits only the partial warps of edge blocks: a share the
    // counters cannot tell from none (nvcc predicates such tails). Divergent is a share
    // above the tolerance the measured share is compared with.
    const bool predictedDivergent = c.lineDivergentRequests > 0 && predictedShare > options.shareTolerance;
    if (!c.sameLine.empty())
      c.notes.push_back(fmt::format("{} predicted branches of this kernel on this line: compared with their sums "
                                    "({} of {} warp requests divergent)",
                                    c.sameLine.size() + 1, c.lineDivergentRequests, c.lineWarpRequests));
    if (!b.evaluated)
      c.notes.push_back("the condition could not be evaluated for every lane: the prediction covers the lanes "
                        "that could");

    if (branchCounters && m.uniform + m.divergent > 0) {
      c.targetsDivergent = m.divergent > 0;
      const double share = *m.divergentShare();
      c.shareAgrees = std::fabs(share - predictedShare) <= options.shareTolerance;
      if (!*c.shareAgrees) {
        std::string per;
        for (const BranchInstruction& bi : m.branches) {
          if (bi.uniform + bi.divergent == 0) continue;
          per += fmt::format("{}{}@{:#x} {} of {}", per.empty() ? "" : ", ", bi.opcode.empty() ? "branch" : bi.opcode,
                             bi.pc, bi.divergent, bi.uniform + bi.divergent);
        }
        c.notes.push_back(fmt::format("divergent share: predicted {}, measured {} ({})", formatNumber(predictedShare),
                                      formatNumber(share), per));
      }
      if (m.branchExecutions && m.branchExecutions != m.uniform + m.divergent)
        c.notes.push_back(fmt::format("branch executions {} != uniform {} + divergent {}", m.branchExecutions,
                                      m.uniform, m.divergent));
    }
    if (m.reachingLanes && m.fewestLanes) {
      c.lanesDivergent = *m.fewestLanes < *m.reachingLanes * (1 - options.laneTolerance);
      if (!*c.lanesDivergent && *m.fewestLanes < *m.reachingLanes)
        c.notes.push_back(fmt::format("lanes: fewest {} below the {} reaching by less than {} %: taken as uniform "
                                      "(a grid's partial tail warp; the prediction is per block)",
                                      formatNumber(*m.fewestLanes), formatNumber(*m.reachingLanes),
                                      formatNumber(100 * options.laneTolerance, NumberStyle::Shortest)));
      c.notes.push_back(fmt::format(
          "lanes: {} reach the branch{}, fewest under it {} ({} at line {}, pc {:#x}; body range {}){}",
          formatNumber(*m.reachingLanes), m.instructions ? "" : " (widest before it: no instruction on its line)",
          formatNumber(*m.fewestLanes), m.fewestOpcode.empty() ? "instruction" : m.fewestOpcode, m.fewestLine,
          m.fewestPc,
          m.bodyInstructions ? fmt::format("lines {}-{}, {} instructions", m.bodyFirstLine, m.bodyLastLine,
                                           m.bodyInstructions)
                             : std::string("empty"),
          *c.lanesDivergent ? ": some warps ran it with part of their lanes" : ""));
    }

    std::optional<bool> measuredDivergent;
    if (c.targetsDivergent && *c.targetsDivergent) {
      measuredDivergent = true;
      c.basis = BranchBasis::BranchTargets;
    } else if (c.lanesDivergent && *c.lanesDivergent) {
      measuredDivergent = true;
      c.basis = BranchBasis::Lanes;
    } else if (c.targetsDivergent) {
      measuredDivergent = false;
      c.basis = BranchBasis::BranchTargets;
    } else if (c.lanesDivergent) {
      measuredDivergent = false;
      c.basis = BranchBasis::Lanes;
    }
    if (!measuredDivergent) {
      c.verdict = BranchVerdict::NoCounter;
      if (m.instructions == 0 && m.bodyInstructions == 0)
        c.notes.push_back("no executed instruction on this line or in its body range in this kernel (folded "
                          "away, unrolled, or never run)");
      else
        c.notes.push_back(branchCounters ? "no branch instruction on the line and no lane count to compare"
                                         : "branch counters not collected and no lane count to compare");
    } else {
      c.verdict = *measuredDivergent == predictedDivergent ? BranchVerdict::Confirmed : BranchVerdict::Contradicted;
      // "No split among the lanes that could be evaluated" is no claim when some could not
      // (a loop bound loaded per lane): the measurement has nothing to contradict.
      if (!b.evaluated && !predictedDivergent) c.verdict = BranchVerdict::Unpredicted;
      if (c.targetsDivergent && c.lanesDivergent && *c.targetsDivergent != *c.lanesDivergent)
        c.notes.push_back(fmt::format("the evidence disagrees: branch targets {}, lanes {}",
                                      *c.targetsDivergent ? "divergent" : "uniform",
                                      *c.lanesDivergent ? "divergent" : "uniform"));
    }
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const BranchComparison& x, const BranchComparison& y) {
    return std::tie(x.predicted.file, x.predicted.line, x.predicted.column, x.predicted.id) <
           std::tie(y.predicted.file, y.predicted.line, y.predicted.column, y.predicted.id);
  });
  return out;
}

}  // namespace coalesce::verify
