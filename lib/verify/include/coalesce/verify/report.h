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
std::string summaryLine(const VerifyReport& report);

}  // namespace coalesce::verify
