#include "expectation_matcher.h"

#include <cmath>
#include <sstream>

namespace coalesce::test {

std::optional<std::pair<double, double>> figureOf(const AccessSite& a, const std::string& key) {
  const auto& f = a.figures;
  auto point = [](double v) { return std::optional<std::pair<double, double>>({v, v}); };
  if (a.access.space == model::Space::Global) {
    if (key == "sectors") {
      if (f.global) return point(f.global->aligned.sectorsPerRequest);
      if (f.sectorRange) return f.sectorRange;
    }
    if (key == "ideal" && f.global) return point(f.global->aligned.idealSectors);
    if (key == "eta" && f.global) return point(f.global->aligned.efficiency);
  } else if (a.access.space == model::Space::Shared) {
    if (key == "wavefronts") {
      if (f.shared) return point(f.shared->aligned.wavefronts);
      if (f.wavefrontRange) return f.wavefrontRange;
    }
    if (key == "ideal" && f.shared) return point(f.shared->aligned.idealWavefronts);
    if (key == "degree" && f.shared) return point(f.shared->aligned.conflictDegree);
  }
  return std::nullopt;
}

std::string describe(const AccessSite& a) {
  std::ostringstream os;
  os << "line " << a.loc.line << ": " << model::toString(a.access.space) << " " << model::toString(a.access.kind)
     << " '" << a.expression << "' pattern=" << model::toString(a.access.pattern.kind);
  for (const char* key : {"sectors", "ideal", "eta", "wavefronts", "degree"})
    if (auto v = figureOf(a, key)) {
      os << " " << key << "=";
      if (v->first == v->second) os << v->first;
      else os << v->first << ".." << v->second;
    }
  return os.str();
}

namespace {

bool close(double a, double b) { return std::fabs(a - b) <= 0.0051 + 1e-9 * std::fabs(b); }

bool matches(const Expectation& e, const AccessSite& a, const std::map<int, std::vector<std::string>>* rules) {
  if (model::toString(a.access.space) != e.space || model::toString(a.access.kind) != e.kind) return false;
  if (!e.pattern.empty() && model::toString(a.access.pattern.kind) != e.pattern) return false;
  for (const auto& [key, want] : e.figures) {
    auto got = figureOf(a, key);
    if (!got || !close(got->first, want.first) || !close(got->second, want.second)) return false;
  }
  if (rules) {
    auto it = rules->find(a.id);
    const std::vector<std::string> none;
    const auto& fired = it == rules->end() ? none : it->second;
    if (e.rule) {
      if (fired.size() != 1 || fired.front() != *e.rule) return false;
    } else if (!fired.empty()) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> matchExpectations(const std::vector<Expectation>& expected,
                                           const std::vector<const AccessSite*>& found,
                                           const std::map<int, std::vector<std::string>>* rules) {
  std::vector<std::string> failures;
  std::vector<bool> used(found.size(), false);
  for (const Expectation& e : expected) {
    bool ok = false;
    for (size_t i = 0; i < found.size() && !ok; ++i)
      if (!used[i] && found[i]->loc.line == e.line && matches(e, *found[i], rules)) used[i] = ok = true;
    if (!ok) {
      std::string msg = "line " + std::to_string(e.line) + ": expected '" + e.text + "', found:";
      bool any = false;
      for (size_t i = 0; i < found.size(); ++i)
        if (found[i]->loc.line == e.line) {
          msg += "\n      " + describe(*found[i]);
          if (rules)
            if (auto it = rules->find(found[i]->id); it != rules->end())
              for (const auto& r : it->second) msg += " !" + r;
          any = true;
        }
      if (!any) msg += " nothing";
      failures.push_back(msg);
    }
  }
  for (size_t i = 0; i < found.size(); ++i) {
    if (used[i]) continue;
    const auto space = found[i]->access.space;
    if (space != model::Space::Global && space != model::Space::Shared) continue;
    bool lineHasExpectation = false;
    for (const Expectation& e : expected) lineHasExpectation = lineHasExpectation || e.line == found[i]->loc.line;
    if (!lineHasExpectation) failures.push_back("unexpected access: " + describe(*found[i]));
  }
  return failures;
}

}  // namespace coalesce::test
