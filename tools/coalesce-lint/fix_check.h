// The proof behind every fix-it (docs/fixes.md): a rule's proposed edit is applied to an
// in-memory copy of its file, the file is analysed again (AnalysisRequest::replacedFiles),
// and the fix is offered only if its finding is gone and no finding of the file, of any rule
// and before any threshold, appears or gets worse. The verdict goes into the finding's notes.
#pragma once

#include <string>
#include <vector>

#include "coalesce/analysis/analyze.h"
#include "coalesce/model/arch.h"
#include "coalesce/report/finding.h"
#include "coalesce/report/source_reader.h"

namespace coalesce::cli {

struct FixCheckStats {
  size_t offered = 0, withheld = 0;
  size_t reanalyses = 0;  // analyze() calls made
};

// Sets SourceFix::check and verdict on each of `shown` that has a SourceFix, and adds the
// verdict to its notes. `request` is the run's (its inputs replaced per check); `analysis`
// the run's records.
FixCheckStats checkFixes(std::vector<report::Finding>& shown, const AnalysisResult& analysis,
                         const analysis::AnalysisRequest& request, const model::Arch& arch,
                         const report::SourceReader& readSource);

}  // namespace coalesce::cli
