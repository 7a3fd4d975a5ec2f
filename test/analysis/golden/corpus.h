// The .cu files the golden tests run over, in a stable order.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace coalesce::test {

// The .cu files directly in `dir`, sorted.
inline std::vector<std::string> cuFiles(const std::filesystem::path& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".cu") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// kernels/examples/ then test/analysis/golden/inputs/: every file with expectations beside its code.
inline std::vector<std::string> examplesAndInputs() {
  const std::filesystem::path root(COALESCE_SOURCE_DIR);
  std::vector<std::string> files = cuFiles(root / "kernels" / "examples");
  for (const auto& f : cuFiles(root / "test" / "analysis" / "golden" / "inputs")) files.push_back(f);
  return files;
}

}  // namespace coalesce::test
