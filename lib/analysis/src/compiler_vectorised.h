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
  // The merged accesses one pass of the loop makes: 1, or for a longer loop of loads over whole
  // 16-byte pieces (`for (i = 0; i < 16; i++) ... s[16 * tx + i]`) one per piece, each a
  // uniform 16 bytes after the one before (four LDS.128: compiler_vectorised.cpp).
  int passes = 1;
  std::string note;  // the sentence the figures rest on
};

// Only shared memory, whose arrays nvcc places at alignments it knows (a static __shared__
// array; an `extern` one only where its declared alignment says so), and only where every
// lane's first word is aligned to the merged width: global pointers' alignment is not known to
// the compiler, which keeps their loads scalar.
std::optional<CompilerVectorised> compilerVectorised(const SeenAccess& s, const SymbolTable& symbols,
                                                     const LoopVariables& loopVariables);

// A thread's accesses to the components of one element of a CUDA vector type in shared memory
// (`s[t].x = ...; s[t].y = ...;`, helper_math's `a.x += b.x; a.y += b.y; ...` on a `uint4&`),
// which nvcc merges into the widest aligned vector access their contiguous components allow:
// x..w of a uint4 into one 16-byte LDS.128, x and y into one 8-byte access, a lone z stays 4
// bytes (checked in nvcc 13's PTX for sm_90; cudaforengineers' centroid, judged by blind panel
// 30: `ld.shared.v4.u32`, no conflict, where four 4-byte accesses 16 bytes apart gave a 4-way
// conflict). For each of `accesses`, the merged access it belongs to (every member of a run gets
// the same one: its figures are that instruction's), or none. Members: shared loads (stores) of
// one object's components, in the same function, loops and guards, with no other shared
// object's access between them in the walk, their addresses a constant apart and the run's
// first component aligned to the merged width for every lane. Not checked: a barrier between
// two components of one object (`s[t].x = a; __syncthreads(); s[t].y = b;`, which nvcc keeps apart).
// The same in global memory (session 36), where a vector type's alignment is what nvcc knows of
// the element: a run ends only at a store or atomic to another object (a load between two
// components does not part them), and a load of x with a component past y reads the whole
// float4 (`ld.global.v4.f32` for x and z). And the pieces of one record copied whole from or
// into an extern shared array (`.align 16`), or one declared aligned, are one 8- or 16-byte
// access (thundergbm's `GHPair src = local_hist[i]`: one `ld.shared.v2.f32`).
std::vector<std::optional<CompilerVectorised>> vectorComponentsMerged(const std::vector<SeenAccess>& accesses);

}  // namespace coalesce::analysis
