// clang-tidy's NOLINT grammar, read from a file's text: NOLINT (this line),
// NOLINTNEXTLINE (the next one), NOLINTBEGIN ... NOLINTEND (a range, matched like
// brackets, with the same check list). "(rule, glob, ...)" restricts them to rules;
// no parentheses means every rule; "()" means none; negative globs are ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "coalesce/report/glob.h"

namespace coalesce::report {

struct NoLintProblem {
  unsigned line = 0;
  unsigned column = 0;
  std::string message;  // e.g. "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment"
};

class SuppressionIndex {
 public:
  static SuppressionIndex parse(std::string_view text);

  // Whether a finding of `rule` at line:column (1-based) is suppressed.
  bool suppresses(unsigned line, unsigned column, std::string_view rule) const;
  const std::vector<NoLintProblem>& problems() const { return problems_; }

 private:
  struct LineMarker {
    unsigned line;  // the line it applies to
    GlobList rules;
  };
  struct Block {
    unsigned beginLine, beginColumn, endLine, endColumn;
    GlobList rules;
  };
  std::vector<LineMarker> lines_;
  std::vector<Block> blocks_;
  std::vector<NoLintProblem> problems_;
};

}  // namespace coalesce::report
