// HTML output (--format=html): one self-contained page per run (docs/html-report.md): the
// run's summary, an index of the findings sortable by cost, rule and file, the files and
// their kernels, and a source view per file with each access coloured by its efficiency or
// conflict degree and each finding inline with its notes and the warp it is about drawn
// as SVG, as written and as the fix would leave it.
#pragma once

#include <cstddef>
#include <ostream>

#include "coalesce/report/report.h"
#include "coalesce/report/source_reader.h"

namespace coalesce::report {

struct HtmlOptions {
  // The text of each file for its source view; diskSourceReader() when empty. A file that
  // cannot be read shows the lines the records carry (AccessSite/Finding::lineText).
  SourceReader readSource;
  // Warp pictures start open up to this many findings, and closed (a <details> to expand)
  // above, so that a large tree's page opens quickly.
  size_t openPicturesUpTo = 100;
};

void writeHtml(std::ostream& out, const Report& report, const HtmlOptions& options = {});

}  // namespace coalesce::report
