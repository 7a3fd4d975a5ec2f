// What the injection library measured: per-instruction CUPTI SASS metrics, each
// instruction mapped to its source line. Written by libcoalesce_verify_inject.so at
// process exit, read by the CPU-side comparison. Schema "coalesce-verify-measurements/1".
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coalesce::verify {

inline constexpr const char* kMeasurementsSchema = "coalesce-verify-measurements/1";

// CUPTI SASS metric names the collector asks for (those the chip offers).
namespace metric {
inline constexpr const char* kInstExecuted = "smsp__sass_inst_executed";
inline constexpr const char* kThreadInstExecuted = "smsp__sass_thread_inst_executed";
inline constexpr const char* kGlobalLd = "smsp__sass_inst_executed_op_global_ld";
inline constexpr const char* kGlobalSt = "smsp__sass_inst_executed_op_global_st";
inline constexpr const char* kGlobalAtom = "smsp__sass_inst_executed_op_global_atom";
inline constexpr const char* kGlobalRed = "smsp__sass_inst_executed_op_global_red";
inline constexpr const char* kSharedLd = "smsp__sass_inst_executed_op_shared_ld";
inline constexpr const char* kSharedSt = "smsp__sass_inst_executed_op_shared_st";
inline constexpr const char* kSharedAtom = "smsp__sass_inst_executed_op_shared_atom";
inline constexpr const char* kSectors = "smsp__sass_sectors_mem_global";
inline constexpr const char* kSectorsIdeal = "smsp__sass_sectors_mem_global_ideal";
inline constexpr const char* kWavefronts = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";
inline constexpr const char* kWavefrontsIdeal = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal";
inline constexpr const char* kThreadGlobalPredOn = "smsp__sass_thread_inst_executed_op_global_pred_on";
inline constexpr const char* kThreadSharedPredOn = "smsp__sass_thread_inst_executed_op_shared_pred_on";
// Divergence (lib/verify's divergence check). Per branch instruction (BRA, JMP, BRX, ...):
// warp executions whose active threads all chose the same target, and those where two or
// more active threads chose different targets; and every thread instruction whose
// predicates were all true (any opcode).
inline constexpr const char* kBranchInst = "smsp__sass_inst_executed_op_branch";
inline constexpr const char* kBranchUniform = "smsp__sass_branch_targets_threads_uniform";
inline constexpr const char* kBranchDivergent = "smsp__sass_branch_targets_threads_divergent";
inline constexpr const char* kThreadInstPredOn = "smsp__sass_thread_inst_executed_pred_on";
}  // namespace metric

// Why a collection failed, so the CLI can print one clear line per cause.
enum class ErrorKind { None, NoGpu, NoCupti, NoPermission, UnsupportedDevice, CuptiError, NoOutput };
const char* toString(ErrorKind k);
ErrorKind errorKindFromString(const std::string& s);

// How the collector names a failed CUPTI call: the cause from the CUptiResult value
// (cupti_result.h: 35 INSUFFICIENT_PRIVILEGES and 40 VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
// are ERR_NVGPUCTRPERM; 27 NOT_SUPPORTED and 2 INVALID_DEVICE an unsupported device),
// and its one-line message. `what` names the call, `cuptiText` is cuptiGetResultString's.
ErrorKind errorKindForCuptiResult(int result);
std::string cuptiFailureMessage(int result, const std::string& what, const std::string& cuptiText);

// The demangled form of a kernel's mangled name, or "" when it is not a C++ name: what the
// collector records (MeasuredInstruction::demangled) and what the comparison matches.
std::string demangledName(const std::string& mangled);

struct MeasuredInstruction {
  uint32_t moduleCrc = 0;
  std::string function;   // mangled kernel name as CUPTI reports it
  std::string demangled;  // demangled, or empty when it is not a C++ name
  uint64_t pc = 0;        // offset inside the function
  std::string file;       // source path from -lineinfo (dir + name), empty when unknown
  unsigned line = 0;      // 0 when unknown
  // Call sites this instruction was inlined into, innermost first (from
  // `nvdisasm --print-line-info-inline`); empty when not inlined or unknown.
  std::vector<std::pair<std::string, unsigned>> inlinedAt;
  std::string opcode;     // SASS mnemonic with modifiers when known (e.g. "LDG.E.64"), else empty
  std::map<std::string, uint64_t> metrics;  // metric name -> value summed over the run

  uint64_t get(const std::string& name) const {
    auto it = metrics.find(name);
    return it == metrics.end() ? 0 : it->second;
  }
  bool has(const std::string& name) const { return metrics.count(name) != 0; }
};

struct DeviceInfo {
  std::string name;  // "NVIDIA H200"
  std::string chip;  // "GH100"
  int sm = 0;        // 90
};

// One distinct launch configuration of a kernel as the program ran it (the collector's sampling,
// coalesce/verify/launch_sampler.h). `args` is every argument's bytes in hex, in parameter order
// (pointers included), or empty when the launch API did not say; `arg_sizes` their sizes.
struct LaunchConfig {
  std::string kernel;  // mangled name
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  uint32_t sharedBytes = 0;
  std::string args;
  std::vector<uint32_t> argSizes;
  uint64_t launches = 0;  // launches with this configuration
  bool measured = false;  // its first launch ran instrumented
  bool operator==(const LaunchConfig&) const = default;
};

// What ptxas gave one kernel (`cuobjdump --dump-resource-usage` on the kept cubins):
// the registers that decide its occupancy (docs/occupancy.md), and its memory.
struct KernelResources {
  std::string kernel;       // mangled name, as the cubin lists it
  int registers = -1;       // per thread; -1 when the listing does not say
  int64_t sharedBytes = 0;  // static shared memory per block
  int64_t stackBytes = 0;
  int64_t localBytes = 0;
  bool operator==(const KernelResources&) const = default;
};

// One instruction's counters in one measured configuration: the collector keeps them apart for
// every kernel it measured in two or more configurations (the comparison per configuration,
// compare.h). `config` indexes Measurements::launchConfigs, `instruction` Measurements::instructions,
// whose own metrics are the sums over every measured launch.
struct ConfigCounters {
  uint32_t config = 0;
  uint32_t instruction = 0;
  std::map<std::string, uint64_t> metrics;
  bool operator==(const ConfigCounters&) const = default;
};

struct Measurements {
  std::string status = "ok";  // "ok" or "error"
  ErrorKind errorKind = ErrorKind::None;
  std::string error;          // one line
  DeviceInfo device;
  std::vector<std::string> metricsCollected;
  std::vector<std::string> availableMetrics;  // only when asked for (COALESCE_VERIFY_LIST_METRICS=1)
  uint64_t kernelLaunches = 0;
  uint64_t droppedRecords = 0;
  uint64_t launchesMeasured = 0;  // launches that ran instrumented (all of them before sampling)
  uint64_t processes = 1;         // processes whose measurements these are (written when above 1)
  std::string sampling;           // "config", "first", "all" or empty (measurements from before sampling)
  // `config` sampling: distinct configurations that ran unmeasured because their kernel had reached
  // --max-configs (or the collector's list cap); written as `configs_over_cap` when not 0.
  uint64_t configsOverCap = 0;
  std::vector<LaunchConfig> launchConfigs;
  std::vector<std::string> notes;
  // Per kernel, from the cubins (empty when no cuobjdump or no kept cubin; written only then).
  std::vector<KernelResources> kernelResources;
  std::vector<MeasuredInstruction> instructions;
  std::vector<ConfigCounters> configCounters;  // written as `config_counters`, only when not empty

  bool ok() const { return status == "ok"; }
};

// JSON text of `m` (stable field order, 1 instruction per line for readable diffs).
std::string toJson(const Measurements& m);
// Throws std::runtime_error with a one-line message when the text is not a
// measurements document.
Measurements measurementsFromJson(const std::string& text);
Measurements loadMeasurements(const std::string& path);

// Kernels (mangled names) with counters kept apart for two or more measured configurations, in
// the order their first configuration appears in launchConfigs.
std::vector<std::string> kernelsMeasuredPerConfiguration(const Measurements& m);
// What one configuration measured: the instructions of its kernel with that configuration's
// counters only, and that configuration alone in launchConfigs (its sampling fields left empty).
Measurements configurationView(const Measurements& m, uint32_t config);
// The same, given the positions in m.configCounters of that configuration's counters (from
// countersByConfiguration): a program measured in thousands of configurations (Rodinia gaussian
// runs 2,046) would otherwise scan every counter once per configuration.
Measurements configurationView(const Measurements& m, uint32_t config, const std::vector<size_t>& counters);
// `m` without its instructions and config counters (everything else copied): what a view of part of
// a run starts from, without copying a counter map per instruction and configuration first.
Measurements withoutInstructions(const Measurements& m);
// For each configuration (index into launchConfigs), the positions of its counters in configCounters.
std::vector<std::vector<size_t>> countersByConfiguration(const Measurements& m);
// `b` appended to `a` (two programs' measurements side by side), indices of b's config counters
// shifted past a's instructions and configurations. `processes` is left to the caller (one
// program's processes are counted, separate programs are not).
void appendMeasurements(Measurements& a, const Measurements& b);

}  // namespace coalesce::verify
