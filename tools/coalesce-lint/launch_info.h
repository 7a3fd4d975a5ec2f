#pragma once
// --launch-info FILE: the launches `coalesce-lint verify` saw a program make (the measurements
// JSON it writes, with `launch_configs`), turned into what the analysis uses in place of guesses.
#include <string>
#include <vector>

#include "coalesce/analysis/analyze.h"
#include "coalesce/verify/measurements.h"

namespace coalesce::cli {

// The launches (graphs skipped) as the analysis takes them; `source` names where they came from.
std::vector<analysis::RecordedLaunch> recordedLaunches(const std::vector<verify::LaunchConfig>& configs,
                                                       const std::string& source);

// Throws std::runtime_error with a one-line message naming the file on anything it cannot use.
std::vector<analysis::RecordedLaunch> readLaunchInfo(const std::string& path);

}  // namespace coalesce::cli
