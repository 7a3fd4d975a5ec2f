// The end-of-run summary: the same numbers for the text line and JSON's "summary".
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "coalesce/report/report.h"

namespace coalesce::report {

struct Summary {
  size_t files = 0;
  size_t failedFiles = 0;
  size_t kernels = 0;
  size_t kernelsOnAssumedBlock = 0;  // analysed on a guessed block shape (BlockSource::Assumed)
  size_t accesses = 0;
  size_t findings = 0;
  std::map<std::string, size_t> findingsByRule;  // sorted by rule id
  FilterStats stats;
  double seconds = 0;
};

Summary summarize(const Report& report);

// "coalesce-lint: 2 files (1 failed), 5 kernels (1 on an assumed block shape), 21 accesses; 4 findings
//  (aos-field-access: 1, uncoalesced-global-access: 3); 2 suppressed, 1 baselined; 0.84 s"
std::string summaryLine(const Report& report);

}  // namespace coalesce::report
