#include "build_hints.h"

#include <algorithm>
#include <cstring>

namespace coalesce::analysis {

// Names the errors say are undeclared (`use of undeclared identifier 'BLOCK_SIZE'`, `unknown
// type name 'dfloat'`), in order, once each: real code often leaves them to the build's -D flags.
std::vector<std::string> undeclaredNames(const std::vector<TranslationUnitOptions::ErrorSpot>& errors) {
  std::vector<std::string> names;
  for (const auto& e : errors)
    for (const char* prefix : {"use of undeclared identifier '", "unknown type name '"})
      if (e.message.rfind(prefix, 0) == 0) {
        const size_t from = std::strlen(prefix);
        const size_t to = e.message.find('\'', from);
        const std::string name = e.message.substr(from, to == std::string::npos ? std::string::npos : to - from);
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      }
  return names;
}

// "; if the build defines 'dfloat' and 'BLOCK_SIZE', pass them after -- (coalesce-lint FILE -- -DBLOCK_SIZE=...)"
std::string buildDefinesHint(const std::vector<std::string>& names) {
  if (names.empty()) return {};
  std::string list;
  const size_t shown = std::min<size_t>(names.size(), 3);
  for (size_t i = 0; i < shown; ++i)
    list += (i == 0 ? "" : i + 1 == shown ? " and " : ", ") + ("'" + names[i] + "'");
  if (names.size() > shown) list += " (and " + std::to_string(names.size() - shown) + " more)";
  return "; if the build defines " + list + ", pass " + (names.size() > 1 ? "them" : "it") +
         " after -- (coalesce-lint FILE -- -D" + names.back() + "=...)";
}

}  // namespace coalesce::analysis
