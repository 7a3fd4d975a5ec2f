// Globs as clang-tidy uses them: '*' matches any run of characters ('/' included),
// '?' one character. A glob list is comma-separated; a leading '-' negates; the last
// glob that matches decides ("*,-aos-*" enables everything but the aos rules).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace coalesce::report {

bool globMatch(std::string_view pattern, std::string_view text);
bool hasGlobChars(std::string_view pattern);

class GlobList {
 public:
  GlobList() = default;
  // keepNegative = false drops '-' entries, as NOLINT(...) lists do in clang-tidy.
  explicit GlobList(std::string_view list, bool keepNegative = true);
  bool contains(std::string_view name) const;
  bool empty() const { return globs_.empty(); }

  struct Glob {
    bool positive = true;
    std::string pattern;
  };
  const std::vector<Glob>& globs() const { return globs_; }

 private:
  std::vector<Glob> globs_;
};

}  // namespace coalesce::report
