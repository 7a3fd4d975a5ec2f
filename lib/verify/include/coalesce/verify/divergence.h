// Predicted branch divergence against the hardware's counters, per branch of the
// analyzer's `branches[]` (docs/verification/README.md, "Divergence"). Two kinds of evidence,
// both from the executed SASS instructions of the branch's kernel:
//
//  - branch targets: on the branch instructions (BRA, ...) that -lineinfo puts on the
//    branch's own line, the warp executions whose active threads chose different targets
//    (smsp__sass_branch_targets_threads_divergent) and those where all chose the same
//    (..._uniform). Their share is the same unit as the prediction's
//    divergent_requests / warp_requests.
//  - lanes: nvcc often compiles an `if` without a branch instruction on its line: a
//    predicated EXIT (`if (i < n) {...}` at the end of a kernel) or predicated instructions.
//    Then the lanes tell: the active threads per warp execution on the branch's line (the
//    lanes reaching it) against the lanes that execute the code under it, on the branch's
//    line and the body range (the lines after it up to the next predicted branch or barrier
//    of the same kernel in the same file; the JSON gives no body range). An instruction
//    whose warps execute with fewer lanes than reached the branch (active threads per
//    execution; for memory instructions, predicated-on threads per request) means lanes of
//    one warp went different ways.
//
// Measured divergent when either shows it; a branch with neither (loop unrolled, condition
// folded away) is no-counter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/verify/measurements.h"
#include "coalesce/verify/predictions.h"

namespace coalesce::verify {

enum class BranchVerdict {
  Confirmed,     // measured divergence (or its absence) agrees with the prediction
  Contradicted,  // the prediction says divergent and the counters say uniform, or the reverse
  NoCounter,     // no counter speaks for the branch
  Unpredicted,   // the analysis could not evaluate the condition (data-dependent) and found no
                 // split among the lanes it could: it made no claim to confirm or contradict
};
std::string_view toString(BranchVerdict v);

// What decided the measured side: the branch-target counters, or the lanes.
enum class BranchBasis { None, BranchTargets, Lanes };
std::string_view toString(BranchBasis b);

// One branch instruction (a PC) on the branch's line.
struct BranchInstruction {
  std::string function;
  uint64_t pc = 0;
  std::string opcode;
  uint64_t executions = 0;  // smsp__sass_inst_executed_op_branch
  uint64_t uniform = 0;
  uint64_t divergent = 0;
};

struct BranchMeasured {
  // The branch's own line.
  size_t instructions = 0;     // executed PCs on the line, in the branch's kernel
  uint64_t executions = 0;     // smsp__sass_inst_executed over them (warp level)
  uint64_t threads = 0;        // smsp__sass_thread_inst_executed (active threads)
  uint64_t predOnThreads = 0;  // smsp__sass_thread_inst_executed_pred_on
  bool predOnKnown = false;    // that counter was collected
  // Branch targets on the line (when the counters were collected).
  bool branchCountersKnown = false;
  std::vector<BranchInstruction> branches;
  uint64_t uniform = 0, divergent = 0, branchExecutions = 0;
  // Lanes: reaching the branch, and the fewest executing an instruction under it.
  unsigned bodyFirstLine = 0, bodyLastLine = 0;  // the body range (0, 0: empty)
  size_t bodyInstructions = 0;                   // executed PCs in the body range
  std::optional<double> reachingLanes;           // max active threads per execution on the line
  std::optional<double> fewestLanes;             // min lanes per execution, line and body range
  unsigned fewestLine = 0;                       // where that instruction is
  uint64_t fewestPc = 0;
  std::string fewestOpcode;

  // Divergent share of the branch executions (divergent / (divergent + uniform)).
  std::optional<double> divergentShare() const;
  // Mean active threads per executed warp instruction on the line, and predicated-on ones.
  std::optional<double> activePerInstruction() const;
  std::optional<double> predOnPerInstruction() const;
};

struct BranchComparison {
  PredictedBranch predicted;
  // Other predicted branches of the same kernel on the same line: the counters cannot tell
  // them apart, so the line is compared with their sums.
  std::vector<unsigned> sameLine;
  uint64_t lineWarpRequests = 0, lineDivergentRequests = 0;
  BranchMeasured measured;
  std::optional<bool> targetsDivergent;  // branch targets: some execution diverged
  std::optional<bool> lanesDivergent;    // lanes: fewer lanes under the branch than reached it
  BranchVerdict verdict = BranchVerdict::NoCounter;
  BranchBasis basis = BranchBasis::None;
  // With branch targets: whether the measured divergent share equals the predicted one
  // within the tolerance (the verdict only needs both to agree on divergent or not).
  std::optional<bool> shareAgrees;
  std::vector<std::string> notes;

  double predictedShare() const {
    return lineWarpRequests ? static_cast<double>(lineDivergentRequests) / static_cast<double>(lineWarpRequests)
                            : 0;
  }
};

struct BranchCompareOptions {
  double shareTolerance = 0.01;  // |measured share - predicted share| <= this
  // Lanes: divergent when fewest < reaching x (1 - this): the memory comparison's 0.1 %,
  // which absorbs a grid's one partial tail warp in hundreds (the prediction is per block).
  double laneTolerance = 1e-3;
};

// Whether the metrics that the branch-targets evidence needs were collected.
bool hasBranchCounters(const Measurements& m);

// The lanes one instruction executes with: predicated-on threads per request for a global
// or shared access (requests exclude fully predicated-off warps), else active threads per
// warp execution; nullopt when it did not execute.
std::optional<double> lanesPerExecution(const MeasuredInstruction& in);

std::vector<BranchComparison> compareBranches(const Predictions& predictions, const Measurements& measurements,
                                              const BranchCompareOptions& options = {});

}  // namespace coalesce::verify
