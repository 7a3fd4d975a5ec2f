// Writers for the comparison: text (one diagnostic-like line per source line and
// class, then a summary), JSON (schema "coalesce-verify/1") and HTML (one page).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "coalesce/verify/compare.h"

namespace coalesce::verify {

inline constexpr const char* kReportSchema = "coalesce-verify/1";

std::string formatText(const VerifyReport& report);
std::string formatJson(const VerifyReport& report, int exitCode);
// The text of a predicted source file (nullopt when it cannot be read).
using SourceText = std::function<std::optional<std::string>(const std::string& path)>;
// One self-contained page (docs/html-report.md): disagreements first, then every line's
// predicted and measured figures side by side, the branches, and each predicted file's
// source with its compared lines marked. Without `readSource` (or when it gives nullopt)
// a file's view lists its compared lines only.
std::string formatHtml(const VerifyReport& report, int exitCode, const SourceText& readSource = {});
// "12 lines: 10 match, 1 mismatch, 1 not-found"
// With branches: "...; 5 branches: 4 confirmed, 1 no-counter"
std::string summaryLine(const VerifyReport& report);
// One branch comparison as text (a line, then its notes).
std::string formatBranchText(const BranchComparison& c);

}  // namespace coalesce::verify
