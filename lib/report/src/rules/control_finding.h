// The frame of findings about control flow (branches and barriers): rule id, location,
// line text, and the notes saying for which block the frontend's counts are exact and
// what they assume.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "coalesce/report/finding.h"
#include "coalesce/report/rule.h"

namespace coalesce::report::detail {

// `what` says what was evaluated over the block: "split warps counted exactly over every
// warp", "the guard evaluated for every thread".
Finding controlFinding(const Rule& rule, const SourceLocation& loc, const std::string& lineText, std::string message,
                       std::string_view what, const BlockShape& block, const std::vector<std::string>& assumptions);

}  // namespace coalesce::report::detail
