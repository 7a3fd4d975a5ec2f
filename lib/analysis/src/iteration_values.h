// The values one loop iteration gives a list of symbols, and their hash: the keys under which
// the lane evaluator keeps what an expression naming only those symbols becomes in an
// iteration (lane_evaluator.h's guardsAt, lane_conditions.cpp's conditions, lane_evaluator.cpp's
// listed iterations). Split from lane_evaluator.h (session 29). Clang-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace coalesce::analysis::lanes {

// The values `iteration` gives the symbols `ids` (nullopt: none), into `out`, whose buffer is
// kept (guardsAt's lookup keys, filled again per iteration): what an expression naming only
// those symbols is substituted by in that iteration (the kept guards and conditions' key,
// lane_evaluator.h's guardsAt, lane_conditions.cpp).
inline void fillValuesIn(const std::map<int, int64_t>& iteration, const std::vector<int>& ids,
                         std::vector<std::optional<int64_t>>& out) {
  out.clear();
  for (int id : ids) {
    auto it = iteration.find(id);
    out.push_back(it == iteration.end() ? std::nullopt : std::optional<int64_t>(it->second));
  }
}
// A hash of such values, for the kept guards' lookups (guardsAt): each is asked once per
// iteration of every loop an access sits in, and an ordered map compared the keys element by
// element, reading each optional's flag, at every level of its tree (a third of guardsAt's
// time in Rodinia's myocyte, docs/analysis-speed.md, session 29).
struct ValuesHash {
  size_t operator()(const std::vector<std::optional<int64_t>>& values) const {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ values.size();
    for (const std::optional<int64_t>& v : values) {
      const uint64_t x = v ? static_cast<uint64_t>(*v) * 0xbf58476d1ce4e5b9ULL : 0x94d049bb133111ebULL;
      h = (h ^ x ^ (h >> 29)) * 0x9e3779b97f4a7c15ULL;
    }
    return static_cast<size_t>(h ^ (h >> 32));
  }
};
inline std::vector<std::optional<int64_t>> valuesIn(const std::map<int, int64_t>& iteration, const std::vector<int>& ids) {
  std::vector<std::optional<int64_t>> out;
  out.reserve(ids.size());
  fillValuesIn(iteration, ids, out);
  return out;
}

}  // namespace coalesce::analysis::lanes
