// A finding in a kernel that is one of several alternatives the host chooses between at run
// time for one job (KernelRecord::choice, lib/analysis/src/launch_alternatives.cpp: llm.c's
// `kernel1` ... `kernelN` picked by a command-line number, the CUDA samples' transpose kernels
// launched in turn through one function pointer), where another alternative does not waste
// what this one does: the naive variant a benchmark keeps on purpose. The finding is a note
// naming that alternative; when every alternative wastes it, it keeps its level
// (docs/findings.md, "Levels").
#pragma once

#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

void capAlternativesDoneBetter(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
