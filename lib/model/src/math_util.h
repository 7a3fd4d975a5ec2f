// Integer helpers shared by the model's sources (floor semantics for negative offsets).
#pragma once

#include <cstdint>
#include <numeric>

namespace coalesce::model::detail {

inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

inline int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

inline int64_t ceilDiv(int64_t a, int64_t b) { return floorDiv(a + b - 1, b); }

}  // namespace coalesce::model::detail
