#include "branch_paths.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string>

namespace coalesce::analysis {

void blockPaths(LaneSplit& split, const std::vector<std::optional<int64_t>>& values, const std::vector<bool>& unknown,
                int64_t warps, const model::Arch& arch) {
  std::vector<int64_t> distinct;
  for (const auto& v : values)
    if (v) distinct.push_back(*v);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() > LaneSplit::kMaxBlockPaths) return;
  for (int64_t v : distinct) split.blockValues.push_back(std::to_string(v));
  for (int64_t w = 0; w < warps; ++w) {
    std::string lanes;
    for (int64_t k = 0; k < arch.warpSize; ++k) {
      const auto i = static_cast<size_t>(w * arch.warpSize + k);
      if (i >= values.size()) lanes += '-';
      else if (unknown[i]) lanes += '?';
      else if (!values[i]) lanes += '-';
      else lanes += static_cast<char>('a' + (std::lower_bound(distinct.begin(), distinct.end(), *values[i]) -
                                             distinct.begin()));
    }
    split.byWarp.push_back(std::move(lanes));
  }
}

int64_t remappedSplitWarps(const std::vector<std::optional<int64_t>>& values, bool byValue, const model::Arch& arch) {
  std::vector<int64_t> reaching, sorted;  // linear ids of the reaching threads; their values
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i]) {
      reaching.push_back(static_cast<int64_t>(i));
      sorted.push_back(*values[i]);
    }
  // The true side first for a condition (the fix "the first k threads take it").
  if (byValue) std::sort(sorted.begin(), sorted.end());
  else std::sort(sorted.begin(), sorted.end(), std::greater<>());
  std::set<int64_t> split;
  for (size_t r = 1; r < sorted.size(); ++r)
    if (sorted[r] != sorted[r - 1] && reaching[r] / arch.warpSize == reaching[r - 1] / arch.warpSize)
      split.insert(reaching[r] / arch.warpSize);
  return static_cast<int64_t>(split.size());
}

}  // namespace coalesce::analysis
