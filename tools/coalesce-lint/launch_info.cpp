#include "launch_info.h"

#include <algorithm>
#include <stdexcept>

#include "coalesce/verify/measurements.h"

namespace coalesce::cli {

namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The argument bytes, split by their sizes; empty when they do not add up (then no argument is used).
std::vector<std::vector<uint8_t>> splitArguments(const verify::LaunchConfig& c) {
  std::vector<std::vector<uint8_t>> out;
  size_t at = 0;
  for (uint32_t size : c.argSizes) {
    if (at + 2 * size > c.args.size()) return {};
    std::vector<uint8_t> bytes;
    for (uint32_t i = 0; i < size; ++i, at += 2) {
      const int hi = hexDigit(c.args[at]), lo = hexDigit(c.args[at + 1]);
      if (hi < 0 || lo < 0) return {};
      bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
    }
    out.push_back(std::move(bytes));
  }
  return at == c.args.size() ? out : std::vector<std::vector<uint8_t>>{};
}

}  // namespace

std::vector<analysis::RecordedLaunch> readLaunchInfo(const std::string& path) {
  verify::Measurements m;
  try {
    m = verify::loadMeasurements(path);
  } catch (const std::exception& e) {
    throw std::runtime_error("--launch-info " + path + ": " + e.what());
  }
  if (m.launchConfigs.empty())
    throw std::runtime_error("--launch-info " + path +
                             ": no launch configurations in it (measurements of a verifier older than its "
                             "launch sampling, or a program that launched no kernel)");
  return recordedLaunches(m.launchConfigs, path);
}

std::vector<analysis::RecordedLaunch> recordedLaunches(const std::vector<verify::LaunchConfig>& configs,
                                                       const std::string& source) {
  std::vector<analysis::RecordedLaunch> out;
  for (const verify::LaunchConfig& c : configs) {
    if (c.kernel.empty() || c.kernel.front() == '(') continue;  // graphs: no kernel of their own
    analysis::RecordedLaunch r;
    r.kernel = c.kernel;
    r.grid = {c.grid[0], c.grid[1], c.grid[2]};
    r.block = {c.block[0], c.block[1], c.block[2]};
    r.args = splitArguments(c);
    r.source = source;
    r.launches = std::max<uint64_t>(1, c.launches);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace coalesce::cli
