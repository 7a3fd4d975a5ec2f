#include "suggest.h"

#include <algorithm>

#include <llvm/ADT/StringRef.h>

namespace coalesce::report::detail {

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  // A third of the word, at least two edits: close enough for a typo, far enough that an
  // unrelated name is not proposed.
  const unsigned limit = std::max<unsigned>(2, static_cast<unsigned>(word.size() / 3));
  const llvm::StringRef w(word.data(), word.size());
  const std::string* best = nullptr;
  unsigned bestDistance = limit + 1;
  for (const std::string& c : candidates) {
    // A word cut short ("warn" for "warning") is as good as one edit.
    const bool prefix = w.size() >= 3 && llvm::StringRef(c).starts_with_insensitive(w);
    const unsigned d = prefix ? 1 : w.edit_distance_insensitive(c, /*AllowReplacements=*/true, limit);
    if (d < bestDistance) {
      bestDistance = d;
      best = &c;
    }
  }
  return best ? "; did you mean '" + *best + "'?" : "";
}

}  // namespace coalesce::report::detail
