// Path spelling shared by the filter, baselines, SARIF and --explain.
#pragma once

#include <string>
#include <string_view>

namespace coalesce::report::detail {

// Forward slashes, "." and "x/.." removed, no leading "./"; relative stays relative.
std::string normalisePath(std::string_view path);
// Under a system prefix (/usr/, /opt/, a CUDA toolkit's include directory).
bool isSystemPath(std::string_view normalisedPath);
// `path` made absolute against `base` (the current directory when empty), normalised.
std::string absolutePath(std::string_view path, std::string_view base = {});

}  // namespace coalesce::report::detail
