// Builders for the control-flow records (branches, barriers, pointer parameters) as the
// frontend fills them, so each rule test states the counts it is about.
#pragma once

#include <string>
#include <vector>

#include "coalesce/report/finding.h"
#include "coalesce/records/records.h"
#include "coalesce/report/rule_registry.h"

namespace coalesce::test {

// An `if` in kernel k of k.cu at `line`, with its counts for `block`.
inline BranchSite makeBranch(std::string condition, int64_t warpRequests, int64_t divergentRequests,
                             model::Dim3 block = {256, 1, 1}, unsigned line = 20, BranchKind kind = BranchKind::If) {
  BranchSite b;
  b.loc = {"k.cu", line, 3};
  b.kernel = "k";
  b.function = "k";
  b.kind = kind;
  b.condition = std::move(condition);
  b.lineText = "  if (" + b.condition + ") {";
  b.block.dim = block;
  b.block.source = BlockSource::Launch;
  b.block.detail = "launch at main.cu:40";
  b.evaluated = true;
  b.threadDependent = true;
  b.warpRequests = warpRequests;
  b.divergentRequests = divergentRequests;
  return b;
}

inline BarrierSite makeBarrier(BarrierSite::Reach reach, std::string guard, unsigned line = 30) {
  BarrierSite b;
  b.loc = {"k.cu", line, 5};
  b.kernel = "k";
  b.function = "k";
  b.call = "__syncthreads()";
  b.lineText = "    __syncthreads();";
  b.block.dim = {256, 1, 1};
  b.block.source = BlockSource::Launch;
  b.block.detail = "launch at main.cu:40";
  b.reach = reach;
  b.condition = std::move(guard);
  return b;
}

inline PointerParam pointerParam(std::string kernel, std::string name, bool read, bool written,
                                 bool isRestrict = false, unsigned column = 20) {
  PointerParam p;
  p.kernel = std::move(kernel);
  p.loc = {"k.cu", 5, column};
  p.name = std::move(name);
  p.read = read;
  p.written = written;
  p.isRestrict = isRestrict;
  return p;
}

// The candidates (no filtering) of one rule over a result whose records get their ids.
inline std::vector<report::Finding> findingsOf(AnalysisResult r, const std::string& rule) {
  for (size_t i = 0; i < r.branches.size(); ++i) r.branches[i].id = static_cast<int>(i);
  for (size_t i = 0; i < r.barriers.size(); ++i) r.barriers[i].id = static_cast<int>(i);
  for (size_t i = 0; i < r.accesses.size(); ++i) r.accesses[i].id = static_cast<int>(i);
  std::vector<report::Finding> out;
  for (report::Finding& f : report::runRules(r, model::defaultArch()))
    if (f.rule == rule) out.push_back(std::move(f));
  return out;
}

}  // namespace coalesce::test
