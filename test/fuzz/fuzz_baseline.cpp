// libFuzzer: baseline files. Baseline::parse must never crash or hang; what it accepts
// writes (toJson) to text that parses back to the same entries; a matcher built from it
// absorbs exactly the counts it holds.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "coalesce/report/baseline.h"

using namespace coalesce::report;

namespace {
[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "baseline property broken: %s\n", what.c_str());
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = Baseline::parse(text, "fuzz.json");
  if (!parsed) {
    if (parsed.error().message.find('\n') != std::string::npos) fail("multi-line error: " + parsed.error().message);
    return 0;
  }
  const std::string json = parsed->toJson();
  auto again = Baseline::parse(json, "again.json");
  if (!again) fail("toJson does not parse back: " + again.error().message + "\n" + json);
  if (again->toJson() != json) fail("toJson differs after a round trip");
  const auto& a = parsed->entries();
  const auto& b = again->entries();
  if (a.size() != b.size()) fail("entry count changed");
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].rule != b[i].rule || a[i].path != b[i].path || a[i].lineText != b[i].lineText || a[i].count != b[i].count)
      fail("entry " + std::to_string(i) + " changed");
  // Each entry absorbs its count (capped here so a huge count does not take forever).
  BaselineMatcher matcher(*parsed);
  for (const BaselineEntry& e : a) {
    if (e.count < 1) fail("an entry with a count below 1");
    Finding f;
    f.rule = e.rule;
    f.loc.file = e.path;
    f.lineText = e.lineText;
    if (!matcher.consume(f)) fail("an entry of the baseline does not match its own finding");
  }
  return 0;
}
