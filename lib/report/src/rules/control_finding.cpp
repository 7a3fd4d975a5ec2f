#include "control_finding.h"

#include <fmt/format.h>

#include "../format.h"

namespace coalesce::report::detail {

Finding controlFinding(const Rule& rule, const SourceLocation& loc, const std::string& lineText, std::string message,
                       std::string_view what, const BlockShape& block, const std::vector<std::string>& assumptions) {
  Finding f;
  f.rule = rule.id();
  f.severity = rule.defaultSeverity();
  f.loc = loc;
  f.message = std::move(message);
  f.lineText = lineText;
  // The frontend evaluates the condition for every thread of one block of this shape, so
  // the figures are exact for it, not a sample; another block shape can give others.
  std::string from(toString(block.source));
  if (!block.detail.empty()) from += ": " + block.detail;
  f.notes.push_back(fmt::format("{} of block {} ({})", what, dims(block.dim), from));
  f.notes.insert(f.notes.end(), assumptions.begin(), assumptions.end());
  return f;
}

}  // namespace coalesce::report::detail
