// Whether a `for` loop's condition `counter OP bound` holds for one value of its counter: the
// loops whose trips are counted by stepping their counter (arithmetic_estimate.cpp) and those
// whose counter a launch passes (launch_counters.cpp). Any other operator: never.
#pragma once

#include <clang/AST/OperationKinds.h>

#include <cstdint>

namespace coalesce::analysis {

inline bool loopConditionHolds(clang::BinaryOperatorKind op, int64_t v, int64_t bound) {
  switch (op) {
    case clang::BO_LT: return v < bound;
    case clang::BO_LE: return v <= bound;
    case clang::BO_GT: return v > bound;
    case clang::BO_GE: return v >= bound;
    case clang::BO_NE: return v != bound;
    default: return false;
  }
}

}  // namespace coalesce::analysis
