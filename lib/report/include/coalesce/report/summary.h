// The end-of-run summary: the same numbers for the text line and JSON's "summary".
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "coalesce/report/report.h"

namespace coalesce::report {

struct Summary {
  size_t files = 0;
  size_t failedFiles = 0;
  size_t kernels = 0;
  size_t kernelsOnAssumedBlock = 0;  // analysed on a guessed block shape (BlockSource::Assumed)
  // Of those, the ones whose figures came out the same under every other shape tried
  // (BlockShape::shapeInvariant): their figures do not rest on the guess.
  size_t kernelsOnAssumedBlockShapeInvariant = 0;
  size_t kernelsOnImpliedBlock = 0;  // on the shape the kernel's own code implies (BlockSource::KernelImplied)
  // Instantiations of kernel templates past --max-instantiations, not analysed
  // (KernelRecord::instantiationsLeftOut), and the templates they belong to, counted once per
  // translation unit that sampled them.
  size_t instantiationsNotAnalysed = 0;
  size_t templatesSampled = 0;
  size_t accesses = 0;
  size_t findings = 0;
  std::map<std::string, size_t> findingsByRule;  // sorted by rule id
  std::map<std::string, size_t> findingsBySeverity;  // "error", "note", "warning"
  FilterStats stats;
  double seconds = 0;
};

Summary summarize(const Report& report);

// "coalesce-lint: 2 files (1 failed), 5 kernels (2 on an assumed block shape (1 whose figures may depend on it, 1 the
//  same under every shape tried)), 21 accesses; 4 findings
//  (aos-field-access: 1, uncoalesced-global-access: 3); 2 suppressed, 1 baselined; 0.84 s"
std::string summaryLine(const Report& report);

// The places whose findings waste the most per launch, costliest first (at most `n`):
// what the summary ends with.
std::vector<const Finding*> mostExpensive(const Report& report, size_t n = 5);
// "coalesce-lint:   1. path:line:col [rule] 1.05 MB, 62% of kernel 'k''s global traffic", after a
// header line; every line starts with the tool's name, as every line on stderr does.
std::vector<std::string> mostExpensiveLines(const Report& report, size_t n = 5);

}  // namespace coalesce::report
