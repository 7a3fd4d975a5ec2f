// The comparison per launch configuration (issue #19): a kernel the collector measured in two or
// more configurations (grid, block, dynamic shared memory, arguments) has its counters kept apart
// per configuration (the measurements' config_counters, lib/verify/inject/inject.cpp). Pooling
// them would mix, say, a 32x8 block's column accesses with a 8x32 block's, and match neither
// prediction; so each configuration is compared on its own with the prediction made for it: the
// predictions as given when their block is the one it ran with, else predicted again with that
// launch when the analyzer is built in (CompareOptions::repredict), else as given, and said so.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "coalesce/verify/compare.h"
#include "coalesce/verify/launch_sampler.h"

namespace coalesce::verify {

namespace {

MeasuredInstruction asInstruction(const std::string& mangled) {
  MeasuredInstruction in;
  in.function = mangled;
  in.demangled = demangledName(mangled);
  return in;
}

bool ofAny(const std::string& predictedKernel, const std::vector<MeasuredInstruction>& kernels) {
  return std::any_of(kernels.begin(), kernels.end(),
                     [&](const MeasuredInstruction& k) { return sameKernel(predictedKernel, k); });
}

// The predictions of the kernels in `kernels` (keep = true) or of every other kernel (keep = false).
// A prediction with no kernel name belongs to every kernel, so it stays in both.
Predictions selectKernels(const Predictions& p, const std::vector<std::string>& kernels, bool keep) {
  std::vector<MeasuredInstruction> as;
  for (const std::string& k : kernels) as.push_back(asInstruction(k));
  auto wanted = [&](const std::string& name) { return name.empty() || ofAny(name, as) == keep; };
  Predictions out;
  out.schema = p.schema;
  for (const PredictedKernel& k : p.kernels)
    if (wanted(k.name)) out.kernels.push_back(k);
  for (const PredictedAccess& a : p.accesses)
    if (wanted(a.kernel)) out.accesses.push_back(a);
  for (const PredictedBranch& b : p.branches)
    if (wanted(b.kernel)) out.branches.push_back(b);
  for (const PredictedBarrier& b : p.barriers)
    if (wanted(b.kernel)) out.barriers.push_back(b);
  return out;
}

// The measurements without the instructions of `kernels` (their counters are compared per configuration).
Measurements withoutKernels(const Measurements& m, const std::vector<std::string>& kernels) {
  Measurements out = withoutInstructions(m);
  const std::set<std::string> skip(kernels.begin(), kernels.end());
  for (const MeasuredInstruction& in : m.instructions)
    if (!skip.count(in.function)) out.instructions.push_back(in);
  return out;
}

std::string dims(const std::array<uint32_t, 3>& d) { return fmt::format("{}x{}x{}", d[0], d[1], d[2]); }

// Executions of `kernel`'s instructions that are in no configuration's counters: launches of
// configurations past the list's cap (kMaxConfigsKeptPerKernel), whose counters the collector pooled only.
uint64_t executionsInNoConfiguration(const Measurements& m, const std::string& kernel) {
  uint64_t pooled = 0, apart = 0;
  for (const MeasuredInstruction& in : m.instructions)
    if (in.function == kernel) pooled += in.get(metric::kInstExecuted);
  for (const ConfigCounters& c : m.configCounters)
    if (m.instructions[c.instruction].function == kernel) {
      auto it = c.metrics.find(metric::kInstExecuted);
      if (it != c.metrics.end()) apart += it->second;
    }
  return pooled > apart ? pooled - apart : 0;
}

// The block the predictions were made for, for `kernel`, or null when they do not say.
const PredictedKernel* predictedBlock(const Predictions& p, const std::string& kernel) {
  const MeasuredInstruction as = asInstruction(kernel);
  for (const PredictedKernel& k : p.kernels)
    if (!k.name.empty() && k.blockX && sameKernel(k.name, as)) return &k;
  return nullptr;
}

}  // namespace

std::string_view toString(PredictedFor p) {
  switch (p) {
    case PredictedFor::SameBlock: return "same-block";
    case PredictedFor::Repredicted: return "repredicted";
    case PredictedFor::OtherShape: return "other-shape";
    case PredictedFor::Unknown: return "unknown";
  }
  return "?";
}

VerifyReport compare(const Predictions& predictions, const Measurements& measurements, const CompareOptions& opt) {
  const std::vector<std::string> apart = kernelsMeasuredPerConfiguration(measurements);
  if (apart.empty()) return comparePooled(predictions, measurements, opt);
  VerifyReport report = comparePooled(selectKernels(predictions, apart, false), withoutKernels(measurements, apart), opt);
  CompareOptions inner = opt;
  inner.repredict = {};
  std::map<std::string, std::vector<uint32_t>> configsOf;  // kernel -> its configurations with counters
  std::set<uint32_t> withCounters;
  for (const ConfigCounters& c : measurements.configCounters) withCounters.insert(c.config);
  for (uint32_t i : withCounters) configsOf[measurements.launchConfigs[i].kernel].push_back(i);
  const std::vector<std::vector<size_t>> countersOf = countersByConfiguration(measurements);
  for (const std::string& kernel : apart) {
    const Predictions given = selectKernels(predictions, {kernel}, true);
    const PredictedKernel* block = predictedBlock(given, kernel);
    const std::vector<uint32_t>& configs = configsOf[kernel];
    const std::string name = demangledName(kernel).empty() ? kernel : demangledName(kernel);
    for (size_t n = 0; n < configs.size(); ++n) {
      ConfigurationComparison cc;
      cc.index = configs[n];
      cc.config = measurements.launchConfigs[cc.index];
      cc.kernel = name;
      cc.ordinal = n + 1;
      cc.ofKernel = configs.size();
      std::optional<Predictions> again;
      const Predictions* use = &given;
      if (!block) {
        cc.predictedFor = PredictedFor::Unknown;
        cc.predictedForDetail = "the predictions do not say which block they were made for";
      } else if (cc.config.block == std::array<uint32_t, 3>{block->blockX, block->blockY, block->blockZ}) {
        cc.predictedFor = PredictedFor::SameBlock;
        cc.predictedForDetail = fmt::format("predicted for this block ({}x{}x{}, {})", block->blockX, block->blockY,
                                            block->blockZ, block->blockSource);
      } else {
        std::string error;
        if (opt.repredict) again = opt.repredict(cc.config, error);
        if (again) {
          again = selectKernels(*again, {kernel}, true);
          use = &*again;
          cc.predictedFor = PredictedFor::Repredicted;
          cc.predictedForDetail = fmt::format("predicted again with this launch (block {}, grid {} and its "
                                              "arguments; the predictions given were for {}x{}x{})",
                                              dims(cc.config.block), dims(cc.config.grid), block->blockX,
                                              block->blockY, block->blockZ);
        } else {
          cc.predictedFor = PredictedFor::OtherShape;
          cc.predictedForDetail = fmt::format(
              "compared against a prediction made for another shape: {}x{}x{} ({}), but this configuration ran "
              "with {}{}",
              block->blockX, block->blockY, block->blockZ, block->blockSource, dims(cc.config.block),
              opt.repredict ? "; predicting again with this launch failed: " + error
                            : " (verify --analyze predicts each configuration with its own launch)");
        }
      }
      Measurements view = configurationView(measurements, cc.index, countersOf[cc.index]);
      view.launchConfigs.clear();  // the shape is judged above: no second note about it
      VerifyReport one = comparePooled(*use, view, inner);
      cc.lines = std::move(one.lines);
      cc.branches = std::move(one.branches);
      cc.notes = std::move(one.notes);
      report.configurations.push_back(std::move(cc));
    }
    report.notes.push_back(fmt::format("kernel '{}' was measured in {} configurations: each is compared with the "
                                       "prediction for it (below), not pooled",
                                       name, configs.size()));
    if (const uint64_t lost = executionsInNoConfiguration(measurements, kernel))
      report.notes.push_back(fmt::format("kernel '{}': {} instruction executions were measured in launches of "
                                         "configurations past the {} the collector lists per kernel; they are in "
                                         "no configuration and not compared",
                                         name, lost, kMaxConfigsKeptPerKernel));
  }
  return report;
}

}  // namespace coalesce::verify
