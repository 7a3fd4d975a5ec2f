// Text output: `path:line:col: warning: message [rule-id]`, the source line with a
// caret, then indented `note:` lines; paths as given; a summary line at the end.
#pragma once

#include <ostream>

#include "coalesce/report/report.h"

namespace coalesce::report {

struct TextOptions {
  bool showSource = true;   // the line and a caret under the column
  bool showSummary = true;  // the summary line at the end
  // Order: false, file by file (in the report's order), the costliest finding first within
  // each file, findings without a cost after them in source order; true, the whole run by
  // cost. Finding::rank says the same in JSON and SARIF.
  bool sortByCost = false;
};

void writeText(std::ostream& out, const Report& report, const TextOptions& options = {});

}  // namespace coalesce::report
