// The access a finding is about, when it is about one the records hold: every level and note
// that reads the access's record looks it up so.
#pragma once

#include <cstddef>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

inline const AccessSite* accessSiteOf(const Finding& f, const AnalysisResult& analysis) {
  if (!f.access || *f.access < 0 || static_cast<size_t>(*f.access) >= analysis.accesses.size()) return nullptr;
  return &analysis.accesses[static_cast<size_t>(*f.access)];
}

}  // namespace coalesce::report::detail
