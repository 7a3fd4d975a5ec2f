// A thread's loads (stores) of consecutive shared-memory words in a short loop of constant trip
// count, which nvcc unrolls and merges into one wide access: `for (i = 0; i < 4; i++) ... =
// shImages[c][pp][tx * 4 + i]` is one LDS.128 per thread, not four LDS.32 (cuda-convnet2's
// filterActs, judged by blind panel 16 from its SASS: conflict-free 16-byte loads, where the
// lane-by-lane model of four 4-byte loads 16 bytes apart gave a 4-way conflict). Used by
// record_builder.cpp, which judges the merged access instead.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interpreter_state.h"
#include "symbolic.h"

namespace coalesce::analysis {

// Each loop's variables by loop id (record_builder.cpp builds it once per kernel).
using LoopVariables = std::map<int, std::vector<int>>;

struct CompilerVectorised {
  RawAccess raw;    // the merged access: bytes = trips x the element, at the loop's first iteration
  int trips = 1;    // the loop's iterations merged into it
  int loop = -1;    // that loop's id (the access's innermost)
  std::string note;  // the sentence the figures rest on
};

// Only shared memory, whose arrays nvcc places at alignments it knows (a static __shared__
// array; an `extern` one only where its declared alignment says so), and only where every
// lane's first word is aligned to the merged width: global pointers' alignment is not known to
// the compiler, which keeps their loads scalar.
std::optional<CompilerVectorised> compilerVectorised(const SeenAccess& s, const SymbolTable& symbols,
                                                     const LoopVariables& loopVariables);

}  // namespace coalesce::analysis
