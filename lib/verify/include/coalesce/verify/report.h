// Writers for the comparison: text (one diagnostic-like line per source line and
// class, then a summary) and JSON (schema "coalesce-verify/1").
#pragma once

#include <string>

#include "coalesce/verify/compare.h"

namespace coalesce::verify {

inline constexpr const char* kReportSchema = "coalesce-verify/1";

std::string formatText(const VerifyReport& report);
std::string formatJson(const VerifyReport& report, int exitCode);
// "12 lines: 10 match, 1 mismatch, 1 not-found"
// With branches: "...; 5 branches: 4 confirmed, 1 no-counter"
std::string summaryLine(const VerifyReport& report);
// One branch comparison as text (a line, then its notes).
std::string formatBranchText(const BranchComparison& c);

}  // namespace coalesce::verify
