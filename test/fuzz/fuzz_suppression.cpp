// libFuzzer: source text with NOLINT comments. SuppressionIndex::parse must never crash
// or hang; a bare `NOLINT` (not followed by a letter or '(') suppresses every rule on its
// line; `NOLINTNEXTLINE` the same on the next line; problems name lines that exist.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "coalesce/report/suppression.h"

using namespace coalesce::report;

namespace {
[[noreturn]] void fail(const char* what, unsigned line) {
  std::fprintf(stderr, "suppression property broken: %s (line %u)\n", what, line);
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const SuppressionIndex index = SuppressionIndex::parse(text);
  unsigned lines = 1;
  for (char c : text) lines += c == '\n';
  for (const NoLintProblem& p : index.problems())
    if (p.line < 1 || p.line > lines || p.column < 1) fail("a problem outside the text", p.line);

  unsigned line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n') continue;
    const std::string_view body = text.substr(lineStart, i - lineStart);
    // A line with one NOLINT word, not followed by a letter or '(': it is a directive (with
    // two, the second may sit inside the first's "(...)" list, which is no directive).
    const size_t at = body.find("NOLINT");
    if (at != std::string_view::npos && body.find("NOLINT", at + 1) == std::string_view::npos) {
      auto bareAt = [&](size_t after) {
        return after == body.size() || (!std::isalpha(static_cast<unsigned char>(body[after])) && body[after] != '(');
      };
      if (bareAt(at + 6) && !index.suppresses(line, 1, "uncoalesced-global-access"))
        fail("bare NOLINT does not suppress", line);
      static constexpr std::string_view kNext = "NOLINTNEXTLINE";
      if (body.substr(at, kNext.size()) == kNext && bareAt(at + kNext.size()) &&
          !index.suppresses(line + 1, 1, "shared-bank-conflict"))
        fail("bare NOLINTNEXTLINE does not suppress the next line", line);
    }
    // Queries anywhere are safe.
    (void)index.suppresses(line, static_cast<unsigned>(body.size() + 1), "divergent-branch");
    ++line;
    lineStart = i + 1;
  }
  return 0;
}
