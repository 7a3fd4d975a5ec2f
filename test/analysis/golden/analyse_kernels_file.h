// The analysis of a folder's kernels.cu alone, as a run over that one file makes it (with or
// without the program's other files: AnalysisRequest::readSiblingFiles). Shared by the tests
// of what the rest of a program tells a file (sibling_files_test.cpp,
// launches_from_other_files_test.cpp); and of one source file alone, with the kernel looked up
// by name (block_shape_test.cpp, shape_trials_test.cpp, block_from_options_test.cpp).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "temp_dir.h"
#include "coalesce/analysis/analyze.h"

namespace coalesce::test {

inline AnalysisResult analyseKernels(const TempDir& dir, bool readSiblings = true) {
  analysis::AnalysisRequest request;
  request.inputs = {dir.str("kernels.cu")};
  request.jobs = 1;
  request.readSiblingFiles = readSiblings;
  return analysis::analyze(request);
}

// `source` written as k.cu in a fresh folder and analysed alone.
inline AnalysisResult analyseSource(const std::string& source) {
  TempDir dir;
  analysis::AnalysisRequest request;
  request.inputs = {dir.write("k.cu", source)};
  request.jobs = 1;
  return analysis::analyze(request);
}

inline const KernelRecord& kernelNamed(const AnalysisResult& r, const std::string& name) {
  auto it = std::find_if(r.kernels.begin(), r.kernels.end(), [&](const KernelRecord& k) { return k.name == name; });
  INFO("kernel " << name);
  REQUIRE(it != r.kernels.end());
  return *it;
}

}  // namespace coalesce::test
