// Predicted accesses against measured instructions, per source line and per class
// (space, kind). Instructions are grouped by the line their -lineinfo names; the
// figure compared is (sum of sectors or wavefronts) / (sum of requests) over the
// line's instructions of that class, which loop unrolling does not change.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/verify/divergence.h"
#include "coalesce/verify/measurements.h"
#include "coalesce/verify/predictions.h"

namespace coalesce::verify {

struct AccessClass {
  model::Space space = model::Space::Global;
  model::AccessKind kind = model::AccessKind::Load;
  bool operator==(const AccessClass&) const = default;
  bool operator<(const AccessClass& o) const {
    return space != o.space ? space < o.space : kind < o.kind;
  }
};

// The class of a memory instruction, from its op counters (or its opcode when it has
// none); nullopt for instructions that are not global or shared accesses.
std::optional<AccessClass> classify(const MeasuredInstruction& in);

// Warp-level requests: the op counters (smsp__sass_inst_executed_op_*), which count
// only executions with at least one lane predicated on. smsp__sass_inst_executed also
// counts warps whose lanes are all predicated off (field notes 7).
uint64_t requestsOf(const MeasuredInstruction& in, const AccessClass& c);

struct MeasuredFigures {
  size_t instructions = 0;   // distinct PCs (after unrolling, one line may have several)
  uint64_t requests = 0;     // warp executions with at least one active lane
  uint64_t executions = 0;   // smsp__sass_inst_executed, fully predicated-off warps included
  uint64_t units = 0;        // sectors (global) or wavefronts (shared)
  uint64_t idealUnits = 0;
  uint64_t activeThreads = 0;  // predicated-on thread executions, when the counter exists
  std::vector<double> perInstruction;  // units / requests of each instruction, PC order
  std::vector<int> widths;             // bytes per lane of each instruction, from its opcode (0: unknown)

  double perRequest() const { return requests ? static_cast<double>(units) / static_cast<double>(requests) : 0; }
  double idealPerRequest() const {
    return requests ? static_cast<double>(idealUnits) / static_cast<double>(requests) : 0;
  }
  // units / ideal: the conflict degree (shared) or 1/efficiency (global).
  double ratio() const { return idealUnits ? static_cast<double>(units) / static_cast<double>(idealUnits) : 1; }
};

MeasuredFigures aggregate(const std::vector<const MeasuredInstruction*>& instructions, const AccessClass& c);

// Whether a path from the predictions and a path from -lineinfo name the same file:
// equal, or one a suffix of the other at a '/' boundary, or (weakest) the same basename.
bool sameSourceFile(std::string_view predicted, std::string_view measured);

// Whether a CUPTI function name (mangled or demangled) is the kernel the analyzer
// named (a plain identifier, possibly qualified).
bool sameKernel(std::string_view predictedKernel, const MeasuredInstruction& in);

enum class Verdict {
  Match,        // measured equals predicted (per request, or by ratio to ideal; see basis)
  Mismatch,     // measured differs, or falls outside the predicted range
  WithinRange,  // indirect access: measured inside the predicted range
  NotFound,     // predicted line has no executed instruction of that class
  Unpredicted,  // executed instruction on a line of a predicted file with no prediction
  Unchecked,    // the prediction has no figure and no range
};
std::string_view toString(Verdict v);

enum class Basis { None, PerRequest, RatioToIdeal, Bounds };  // Bounds: the predicted range
std::string_view toString(Basis b);

struct LineComparison {
  std::string file;  // as the predictions name it (or -lineinfo, for unpredicted lines)
  unsigned line = 0;
  AccessClass cls;
  std::vector<std::string> kernels;  // predicted kernels on this line and class
  std::vector<PredictedAccess> predicted;
  MeasuredFigures measured;
  std::optional<double> predictedPerRequest;  // mean over the line's predicted accesses
  std::optional<double> predictedIdeal;
  std::optional<Range> predictedRange;
  Verdict verdict = Verdict::Unchecked;
  Basis basis = Basis::None;
  std::vector<std::string> notes;
};

// Predictions made again with one recorded launch (its block, grid and arguments), for a
// configuration whose block differs from the one the predictions were made for; nullopt and
// `error` (one line) when the analysis failed. Set by the pipeline when the analyzer is built in.
using Repredict = std::function<std::optional<Predictions>(const LaunchConfig& launch, std::string& error)>;

struct CompareOptions {
  double relativeTolerance = 1e-3;  // |measured - predicted| <= tol * max(1, |predicted|)
  BranchCompareOptions branches;
  Repredict repredict;  // empty: a configuration of another shape is compared with the predictions as given
};

// What the prediction a configuration was compared with was made for.
enum class PredictedFor {
  SameBlock,    // the predictions' block is the one this configuration ran with
  Repredicted,  // predicted again with this launch (CompareOptions::repredict)
  OtherShape,   // made for another block shape, and not predicted again
  Unknown,      // the predictions do not say which block they were made for
};
std::string_view toString(PredictedFor p);

// One measured configuration of a kernel the collector measured in two or more (the
// measurements' config_counters): its lines and branches compared with the prediction made
// for it, apart from the kernel's other configurations.
struct ConfigurationComparison {
  uint32_t index = 0;  // into the measurements' launchConfigs
  LaunchConfig config;
  std::string kernel;  // demangled, or the mangled name when it is not a C++ name
  size_t ordinal = 1, ofKernel = 1;  // configuration `ordinal` of `ofKernel` measured for its kernel
  PredictedFor predictedFor = PredictedFor::Unknown;
  std::string predictedForDetail;  // one sentence: which block, and where it came from
  std::vector<LineComparison> lines;
  std::vector<BranchComparison> branches;
  std::vector<std::string> notes;
  size_t count(Verdict v) const;
  size_t count(BranchVerdict v) const;
};

struct VerifyReport {
  std::vector<LineComparison> lines;
  DeviceInfo device;
  std::vector<std::string> notes;  // run-level remarks (instructions outside predicted files...)
  std::vector<BranchComparison> branches;  // one per predicted branch (divergence.h)
  // Kernels measured in two or more configurations, compared per configuration; their lines
  // and branches are then not in `lines` and `branches` (which pool every launch).
  std::vector<ConfigurationComparison> configurations;
  size_t count(Verdict v) const;  // in `lines` and in every configuration
  size_t count(BranchVerdict v) const;
  bool anyMismatch() const { return count(Verdict::Mismatch) != 0; }
};

// Every kernel's instructions pooled over its measured launches; then, for each kernel the
// measurements keep apart per configuration (config_counters), each configuration compared on
// its own (compare_configurations.cpp) and left out of the pooled lines.
VerifyReport compare(const Predictions& predictions, const Measurements& measurements,
                     const CompareOptions& options = {});
// The pooled comparison alone, config_counters ignored (what compare() did before it told
// configurations apart).
VerifyReport comparePooled(const Predictions& predictions, const Measurements& measurements,
                           const CompareOptions& options = {});

// Exit codes of `coalesce-lint verify`.
inline constexpr int kExitOk = 0;          // every predicted line confirmed
inline constexpr int kExitMismatch = 1;    // at least one mismatch, or a contradicted branch
inline constexpr int kExitError = 2;       // could not verify (no GPU, CUPTI, permission, crash, timeout...)
inline constexpr int kExitIncomplete = 3;  // no mismatch, but predicted lines mapped to no instruction
int exitCodeFor(const VerifyReport& report, bool allowNotFound);

}  // namespace coalesce::verify
