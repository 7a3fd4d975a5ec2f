// A small matcher of our own rather than llvm::GlobPattern: that class keeps a StringRef
// into the pattern it was built from, a lifetime trap once globs are stored in vectors.
#include "coalesce/report/glob.h"

namespace coalesce::report {

bool globMatch(std::string_view pattern, std::string_view text) {
  // Iterative wildcard matching with backtracking to the last '*': linear in practice.
  size_t p = 0, t = 0, starP = std::string_view::npos, starT = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      starP = p++;
      starT = t;
    } else if (starP != std::string_view::npos) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool hasGlobChars(std::string_view pattern) { return pattern.find_first_of("*?") != std::string_view::npos; }

namespace {
std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}
}  // namespace

GlobList::GlobList(std::string_view list, bool keepNegative) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find_first_of(",\n", start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = trim(list.substr(start, end - start));
    start = end + 1;
    if (item.empty()) continue;
    const bool positive = item.front() != '-';
    if (!positive) item = trim(item.substr(1));
    if (!positive && !keepNegative) continue;
    if (!item.empty()) globs_.push_back({positive, std::string(item)});
  }
}

bool GlobList::contains(std::string_view name) const {
  for (auto it = globs_.rbegin(); it != globs_.rend(); ++it)
    if (globMatch(it->pattern, name)) return it->positive;
  return false;
}

}  // namespace coalesce::report
