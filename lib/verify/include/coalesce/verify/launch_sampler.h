#pragma once
// Which kernel launches the collector instruments (lib/verify/inject/inject.cpp). By default the
// first launch of each distinct configuration of a kernel (grid, block, dynamic shared memory,
// argument bytes), every one of them: a kernel's access pattern depends on those, not on how often
// it runs, and an instrumented launch costs tens of times a plain one. The others run unpatched at
// full speed. `first` is Nsight Compute's `--kernel-id ::regex:.:1` (the first launch of each
// kernel), `all` every launch.
// Pure C++ so that CI tests it without a GPU (test/verify/launch_sampler_test.cpp).
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <unordered_set>
#include <vector>

#include "coalesce/verify/measurements.h"

namespace coalesce::verify {

// Distinct configurations listed per kernel (and so measurable in `config` mode): a guard on the
// collector's memory (each listed configuration keeps its own counters), far above what real
// programs reach (Rodinia gaussian -s 1024 runs 1,023 per kernel). Past it a kernel's further
// configurations run unmeasured and the report says how many.
inline constexpr uint64_t kMaxConfigsKeptPerKernel = 65536;

enum class SamplingMode {
  Config,  // the first launch of each distinct configuration (the default)
  First,   // the first launch of each kernel (Nsight Compute's --kernel-id ::regex:.:1)
  All,     // every launch (the verifier's behaviour before sampling)
};
const char* toString(SamplingMode m);

struct SamplingOptions {
  SamplingMode mode = SamplingMode::Config;
  std::string kernelRegex;           // only kernels whose mangled or demangled name this matches (search)
  uint64_t launchSkip = 0;           // per kernel, launches left unmeasured before the first measured one
  uint64_t launchCount = 0;          // per kernel, the most launches measured; 0 = no cap
  uint64_t maxConfigsPerKernel = 0;  // `config` mode: distinct configurations measured per kernel; 0 = every one
  uint64_t maxConfigsKept = kMaxConfigsKeptPerKernel;  // per kernel, configurations listed (tests lower it)

  // From COALESCE_VERIFY_SAMPLING (config|first|all), COALESCE_VERIFY_KERNEL_REGEX,
  // COALESCE_VERIFY_LAUNCH_SKIP, COALESCE_VERIFY_LAUNCH_COUNT, COALESCE_VERIFY_MAX_CONFIGS.
  // Throws std::invalid_argument on a value that does not parse (the collector reports it).
  static SamplingOptions fromEnvironment();
};

class LaunchSampler {
 public:
  explicit LaunchSampler(SamplingOptions options);

  // Counts one launch of `config.kernel` and says whether to instrument it.
  bool onLaunch(const LaunchConfig& config, const std::string& demangled);
  // A launch the sampler was not asked about (no driver-level callback came for it): counted,
  // measured or not as it ran.
  void record(const LaunchConfig& config, bool measured);

  // Every distinct configuration seen, in first-seen order, with its launch count.
  const std::vector<LaunchConfig>& configs() const { return configs_; }
  // Where the last launch given to onLaunch() or record() is in configs(); nullopt when its
  // configuration was not kept (over the per-kernel cap). The collector tags the counters of a
  // measured launch with it (the measurements' config_counters).
  std::optional<size_t> lastConfigIndex() const { return lastConfig_; }
  uint64_t measured() const { return measured_; }
  uint64_t unmeasured() const { return unmeasured_; }
  // Distinct configurations (`config` mode) that ran unmeasured only because their kernel had
  // reached maxConfigsPerKernel or the list's cap (those past the list are told apart by a hash of
  // their key, not kept).
  uint64_t configsOverCap() const { return configsOverCap_; }

 private:
  struct PerKernel {
    uint64_t launches = 0, measured = 0, configsMeasured = 0, configsKept = 0;
    std::optional<bool> matches;  // the regex's answer, cached
  };
  LaunchConfig* find(const LaunchConfig& config, PerKernel& k);

  SamplingOptions options_;
  std::optional<std::regex> regex_;
  std::map<std::string, PerKernel> kernels_;
  std::map<std::string, size_t> configIndex_;  // key -> index into configs_
  std::vector<LaunchConfig> configs_;
  std::unordered_set<size_t> unlistedKeys_;  // hashes of configurations past the list's cap
  uint64_t measured_ = 0, unmeasured_ = 0, configsOverCap_ = 0;
  std::optional<size_t> lastConfig_;
};

// The key that tells two configurations apart: kernel, grid, block, shared bytes, argument bytes.
std::string configKey(const LaunchConfig& c);

}  // namespace coalesce::verify
