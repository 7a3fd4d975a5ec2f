// libFuzzer: unified diffs (--changed-lines, docs/ci.md). parseUnifiedDiff must never crash
// or hang, whatever the text (hunk counts in the billions, names of any bytes); an error is
// one line; what it accepts is the same when read twice.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "coalesce/report/changed_lines.h"

using namespace coalesce::report;

namespace {
[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "diff property broken: %s\n", what.c_str());
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = parseUnifiedDiff(text, "/nonexistent-fuzz-root", "fuzz.diff");
  if (!parsed) {
    if (parsed.error().message.find('\n') != std::string::npos) fail("multi-line error: " + parsed.error().message);
    if (parsed.error().message.rfind("fuzz.diff:", 0) != 0) fail("error without the diff's name: " + parsed.error().message);
    return 0;
  }
  auto again = parseUnifiedDiff(text, "/nonexistent-fuzz-root", "fuzz.diff");
  if (!again || again->files() != parsed->files()) fail("two reads of one diff differ");
  return 0;
}
