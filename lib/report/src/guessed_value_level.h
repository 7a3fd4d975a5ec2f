// A finding whose figure rests on a guessed value of a scalar that spaces the lanes'
// addresses but bounds nothing the access runs under: a pooling stride, a pad, a window size
// (darknet's `input[j * stride + m]`, `data_col[... + w_col * coeff_w_col]`). The analysis
// takes unknown scalars large (kAssumedRuntimeValue), which is right for extents (`i < n`: a
// program's data is large) and a guess for these, whose real values are as often 1 or 2: the
// figure, and whether there is anything to fix, flips with them. Such findings are notes that
// name the values taken and how to give the real ones (AccessSite::guessedScalars;
// docs/findings.md, "Levels").
#pragma once

#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

// Caps at Note every access finding whose access's figures rest on such a guessed value, and
// ends its message with the values taken: the figure holds only under them.
void capGuessedValueAccesses(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
