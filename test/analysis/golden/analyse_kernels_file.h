// The analysis of a folder's kernels.cu alone, as a run over that one file makes it (with or
// without the program's other files: AnalysisRequest::readSiblingFiles). Shared by the tests
// of what the rest of a program tells a file (sibling_files_test.cpp,
// launches_from_other_files_test.cpp).
#pragma once

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

}  // namespace coalesce::test
