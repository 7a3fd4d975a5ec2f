// The access a finding is about, when it is about one the records hold: every level and note
// that reads the access's record looks it up so.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

inline const AccessSite* accessSiteOf(const Finding& f, const AnalysisResult& analysis) {
  if (!f.access || *f.access < 0 || static_cast<size_t>(*f.access) >= analysis.accesses.size()) return nullptr;
  return &analysis.accesses[static_cast<size_t>(*f.access)];
}

// The kernel record each access belongs to (an index into analysis.kernels; SIZE_MAX: none):
// the walk's order, or the kernel's name where records were assembled by hand (cost.cpp).
std::vector<size_t> kernelOfAccesses(const AnalysisResult& analysis);

// The kernel records a finding covers: its kernel and instantiations by name, defined where
// the kernel of its access is (kernelOf: kernelOfAccesses) when it is about an access. Two
// programs of one tree may each define a kernel of the same name and signature (the Parallel
// Research Kernels' `init` in every driver): they are different kernels. A kernel a header
// gives two units is one record per unit, at one place: both are covered (setup_level.cpp,
// launch_level.cpp).
std::vector<const KernelRecord*> kernelsCovered(const Finding& f, const AnalysisResult& analysis,
                                                const std::vector<size_t>& kernelOf);

}  // namespace coalesce::report::detail
