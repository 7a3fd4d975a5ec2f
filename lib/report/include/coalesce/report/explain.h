// --explain: a picture of one access for one warp, lanes against the global sectors or
// the shared banks they touch, with the figures, so a user sees why 8 sectors and not 4;
// at a barrier or a branch, which threads reach it or how it splits a warp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "coalesce/report/result.h"

namespace coalesce::report {

struct ExplainOptions {
  int64_t warp = 0;  // which warp of the block to draw
};

std::string explainAccess(const AccessSite& site, const model::Arch& arch, const ExplainOptions& options = {});

// FILE:LINE[:COL] as given to --explain.
struct ExplainTarget {
  std::string file;
  unsigned line = 0;
  std::optional<unsigned> column;
};
Result<ExplainTarget> parseExplainTarget(std::string_view text);

// The accesses at a target, in record order. Paths match when equal after normalisation
// or when one ends with the other on a directory boundary ("k.cu" finds "src/k.cu").
std::vector<const AccessSite*> accessesAt(const AnalysisResult& analysis, const ExplainTarget& target);
bool atTarget(const SourceLocation& loc, const ExplainTarget& target);

// A barrier or branch finding's line: which threads reach the barrier, how the branch
// splits a warp (explain_control.cpp).
std::vector<const BarrierSite*> barriersAt(const AnalysisResult& analysis, const ExplainTarget& target);
std::vector<const BranchSite*> branchesAt(const AnalysisResult& analysis, const ExplainTarget& target);
std::string explainBarrier(const BarrierSite& barrier);
std::string explainBranch(const BranchSite& branch);

}  // namespace coalesce::report
