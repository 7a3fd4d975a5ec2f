#include "barrier_groups.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <tuple>

namespace coalesce::report::detail {

namespace {

constexpr const char* kBarrierRule = "barrier-in-divergent-code";

const BarrierSite* barrierOf(const Finding& f, const AnalysisResult& analysis) {
  if (f.rule != kBarrierRule || !f.barrier || *f.barrier < 0) return nullptr;
  const auto index = static_cast<size_t>(*f.barrier);
  return index < analysis.barriers.size() ? &analysis.barriers[index] : nullptr;
}

}  // namespace

void mergeBarriersOfOneGuard(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  using Key = std::tuple<std::string, std::string, std::string, int>;
  // The first finding of each guard (findings arrive in findingBefore's order: file, line,
  // column), and the lines of the others.
  std::map<Key, size_t> first;
  std::map<size_t, std::vector<unsigned>> others;
  std::vector<bool> dropped(findings.size(), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    const BarrierSite* b = barrierOf(f, analysis);
    if (!b || b->condition.empty()) continue;
    const Key key{f.loc.file, f.kernel, b->condition, static_cast<int>(f.severity)};
    auto [it, inserted] = first.try_emplace(key, i);
    if (inserted) continue;
    others[it->second].push_back(f.loc.line);
    dropped[i] = true;
  }
  for (auto& [index, lines] : others) {
    std::string list;
    for (unsigned line : lines) list += fmt::format("{}{}", list.empty() ? "" : ", ", line);
    // Before the fix hint, which stays last (notes: assumptions, diagnosis, then the fix).
    std::vector<std::string>& notes = findings[index].notes;
    auto at = notes.end();
    for (auto it = notes.begin(); it != notes.end(); ++it)
      if (it->rfind("fix:", 0) == 0) at = it;
    notes.insert(
        at,
        fmt::format("one finding for {} barriers of '{}' under this guard: this one and line{} {}; one change to the "
                    "guard (an early return, a loop's condition) fixes them together",
                    lines.size() + 1, findings[index].kernel, lines.size() > 1 ? "s" : "", list));
  }
  std::vector<Finding> kept;
  kept.reserve(findings.size());
  for (size_t i = 0; i < findings.size(); ++i)
    if (!dropped[i]) kept.push_back(std::move(findings[i]));
  findings = std::move(kept);
}

}  // namespace coalesce::report::detail
