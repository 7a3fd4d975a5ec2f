// Loop trip counts that a kernel's own arrays bound: `float cache[2048]; for (int i = 0; i < k;
// i++) cache[i] = ...` runs past the array's end for any k above 2048, so no correct launch
// passes one. Runtime scalars the analysis takes at a default (4096, kAssumedRuntimeValue) where
// such a bound is smaller are a default no launch can have (AccessSite::impossibleScalars, read
// by record_builder.cpp), as a block's lanes spanning more than an array holds are. Blind panel 38
// judged Hetu's top-k kernels' warnings false: each thread's k results 4096 floats apart, where
// the kernel's private `cache[2048]` (and its callers) keep k at 1 or 2. Clang-free.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lane_function.h"

namespace coalesce::analysis {

struct ArrayLoopBound {
  int64_t most = 0;     // the largest value of the scalar that keeps the access inside its array
  std::string because;  // "its loop `for (int i = 0; i < k; i++)` would take `cache` past its 2048 elements"
};

// For each runtime scalar that bounds a loop whose counter indexes an array of known size (a
// private or shared array, a constant-size global), the most it can be: the access's offset is
// the counter's multiple plus a constant, the loop starts at a constant and continues while
// `start + step * counter < scalar` (or <=), and no other guard of the access reads the counter.
// The smallest bound over the kernel's accesses, by symbol id.
std::map<int, ArrayLoopBound> arrayLoopBounds(const std::vector<const RawAccess*>& accesses, const SymbolTable& symbols);

}  // namespace coalesce::analysis
