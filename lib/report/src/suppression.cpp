// NOLINT comments, read the way clang-tidy's NoLintDirectiveHandler reads them: any
// "NOLINT" followed by letters is a directive if the letters name one, with an optional
// "(check list)" closed on the same line.
#include "coalesce/report/suppression.h"

#include <cctype>
#include <optional>
#include <string>

namespace coalesce::report {

namespace {

enum class Kind { NoLint, NextLine, Begin, End };

struct Token {
  Kind kind;
  unsigned line, column;
  std::optional<std::string> checks;  // nullopt: every rule
};

std::optional<Kind> kindOf(std::string_view word) {
  if (word == "NOLINT") return Kind::NoLint;
  if (word == "NOLINTNEXTLINE") return Kind::NextLine;
  if (word == "NOLINTBEGIN") return Kind::Begin;
  if (word == "NOLINTEND") return Kind::End;
  return std::nullopt;
}

// "a, b" and "a,b" name the same list: BEGIN and END must match as lists, not as text.
std::string canonicalList(std::string_view list) {
  std::string out;
  const GlobList globs(list);
  for (const GlobList::Glob& g : globs.globs()) {
    if (!out.empty()) out += ',';
    if (!g.positive) out += '-';
    out += g.pattern;
  }
  return out;
}

GlobList rulesOf(const std::optional<std::string>& checks) {
  return GlobList(checks ? std::string_view(*checks) : std::string_view("*"), /*keepNegative=*/false);
}

std::vector<Token> tokenize(std::string_view text) {
  static constexpr std::string_view kNoLint = "NOLINT";
  std::vector<Token> tokens;
  unsigned line = 1;
  size_t lineStart = 0, counted = 0;
  size_t pos = 0;
  while ((pos = text.find(kNoLint, pos)) != std::string_view::npos) {
    for (; counted < pos; ++counted)
      if (text[counted] == '\n') {
        ++line;
        lineStart = counted + 1;
      }
    const size_t start = pos;
    pos += kNoLint.size();
    while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) ++pos;
    const auto kind = kindOf(text.substr(start, pos - start));
    if (!kind) continue;
    std::optional<std::string> checks;
    if (pos < text.size() && text[pos] == '(') {
      const size_t close = text.find_first_of("\n)", pos + 1);
      if (close != std::string_view::npos && text[close] == ')') {
        checks = canonicalList(text.substr(pos + 1, close - pos - 1));
        pos = close + 1;
      }
    }
    tokens.push_back({*kind, line, static_cast<unsigned>(start - lineStart + 1), std::move(checks)});
  }
  return tokens;
}

bool before(unsigned l1, unsigned c1, unsigned l2, unsigned c2) { return l1 < l2 || (l1 == l2 && c1 < c2); }

}  // namespace

SuppressionIndex SuppressionIndex::parse(std::string_view text) {
  SuppressionIndex index;
  std::vector<Token> open;  // NOLINTBEGINs waiting for their END: matched like brackets
  for (Token& t : tokenize(text)) {
    switch (t.kind) {
      case Kind::NoLint: index.lines_.push_back({t.line, rulesOf(t.checks)}); break;
      case Kind::NextLine: index.lines_.push_back({t.line + 1, rulesOf(t.checks)}); break;
      case Kind::Begin: open.push_back(std::move(t)); break;
      case Kind::End:
        if (!open.empty() && open.back().checks == t.checks) {
          const Token& b = open.back();
          index.blocks_.push_back({b.line, b.column, t.line, t.column, rulesOf(b.checks)});
          open.pop_back();
        } else {
          index.problems_.push_back(
              {t.line, t.column, "unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' comment"});
        }
        break;
    }
  }
  for (const Token& b : open)
    index.problems_.push_back(
        {b.line, b.column, "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment"});
  return index;
}

bool SuppressionIndex::suppresses(unsigned line, unsigned column, std::string_view rule) const {
  for (const LineMarker& m : lines_)
    if (m.line == line && m.rules.contains(rule)) return true;
  for (const Block& b : blocks_)
    if (before(b.beginLine, b.beginColumn, line, column) && before(line, column, b.endLine, b.endColumn) &&
        b.rules.contains(rule))
      return true;
  return false;
}

}  // namespace coalesce::report
