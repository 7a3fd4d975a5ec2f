#include "coalesce/verify/launch_sampler.h"

#include <cstdlib>
#include <functional>
#include <stdexcept>

namespace coalesce::verify {

namespace {

uint64_t envNumber(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (*end != '\0' || *v == '-') throw std::invalid_argument(std::string(name) + "='" + v + "' is not a count");
  return n;
}

}  // namespace

const char* toString(SamplingMode m) {
  switch (m) {
    case SamplingMode::Config: return "config";
    case SamplingMode::First: return "first";
    case SamplingMode::All: return "all";
  }
  return "config";
}

SamplingOptions SamplingOptions::fromEnvironment() {
  SamplingOptions o;
  if (const char* s = std::getenv("COALESCE_VERIFY_SAMPLING"); s && *s) {
    const std::string mode = s;
    if (mode == "all") o.mode = SamplingMode::All;
    else if (mode == "first") o.mode = SamplingMode::First;
    else if (mode != "config")
      throw std::invalid_argument("COALESCE_VERIFY_SAMPLING='" + mode + "' (config, first or all)");
  }
  if (const char* r = std::getenv("COALESCE_VERIFY_KERNEL_REGEX")) o.kernelRegex = r;
  o.launchSkip = envNumber("COALESCE_VERIFY_LAUNCH_SKIP", 0);
  o.launchCount = envNumber("COALESCE_VERIFY_LAUNCH_COUNT", 0);
  o.maxConfigsPerKernel = envNumber("COALESCE_VERIFY_MAX_CONFIGS", o.maxConfigsPerKernel);
  return o;
}

std::string configKey(const LaunchConfig& c) {
  std::string k = c.kernel;
  for (uint32_t v : c.grid) k += ' ' + std::to_string(v);
  for (uint32_t v : c.block) k += ' ' + std::to_string(v);
  k += ' ' + std::to_string(c.sharedBytes) + ' ' + c.args;
  return k;
}

LaunchSampler::LaunchSampler(SamplingOptions options) : options_(std::move(options)) {
  if (!options_.kernelRegex.empty()) regex_.emplace(options_.kernelRegex, std::regex::ECMAScript);
}

LaunchConfig* LaunchSampler::find(const LaunchConfig& config, PerKernel& k) {
  const std::string key = configKey(config);
  lastConfig_.reset();
  if (auto it = configIndex_.find(key); it != configIndex_.end()) {
    lastConfig_ = it->second;
    return &configs_[it->second];
  }
  if (k.configsKept >= options_.maxConfigsKept) {
    if (options_.mode == SamplingMode::Config && unlistedKeys_.insert(std::hash<std::string>{}(key)).second)
      ++configsOverCap_;
    return nullptr;
  }
  ++k.configsKept;
  lastConfig_ = configs_.size();
  configIndex_[key] = configs_.size();
  configs_.push_back(config);
  configs_.back().launches = 0;
  configs_.back().measured = false;
  return &configs_.back();
}

bool LaunchSampler::onLaunch(const LaunchConfig& config, const std::string& demangled) {
  PerKernel& k = kernels_[config.kernel];
  const uint64_t index = k.launches++;
  if (!k.matches)
    k.matches = !regex_ || std::regex_search(config.kernel, *regex_) || std::regex_search(demangled, *regex_);
  LaunchConfig* c = find(config, k);
  const bool firstOfConfig = c && c->launches == 0;
  if (c) ++c->launches;
  bool measure = *k.matches && index >= options_.launchSkip &&
                 (options_.launchCount == 0 || k.measured < options_.launchCount);
  if (measure && options_.mode == SamplingMode::First) measure = k.measured == 0;
  if (measure && options_.mode == SamplingMode::Config) {
    // A configuration not kept (over the list's cap) is never measured: its key cannot be remembered.
    const bool underCap = options_.maxConfigsPerKernel == 0 || k.configsMeasured < options_.maxConfigsPerKernel;
    measure = c && !c->measured && underCap;
    if (measure) ++k.configsMeasured;
    else if (c && !c->measured && firstOfConfig) ++configsOverCap_;
  }
  if (measure) {
    ++k.measured;
    ++measured_;
    if (c) c->measured = true;
  } else {
    ++unmeasured_;
  }
  return measure;
}

void LaunchSampler::record(const LaunchConfig& config, bool measured) {
  PerKernel& k = kernels_[config.kernel];
  ++k.launches;
  LaunchConfig* c = find(config, k);
  if (c) ++c->launches;
  if (!measured) {
    ++unmeasured_;
    return;
  }
  ++k.measured;
  ++measured_;
  if (c) c->measured = true;
}

}  // namespace coalesce::verify
