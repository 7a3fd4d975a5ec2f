// The analyzer's predictions (JSON schema "coalesce-lint/1"), as the verifier reads
// them: one record per predicted access, figures optional (null in the JSON).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/model/geometry.h"

namespace coalesce::verify {

inline constexpr const char* kPredictionsSchema = "coalesce-lint/1";

using Range = std::pair<double, double>;

struct PredictedAccess {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string kernel;
  model::Space space = model::Space::Global;
  model::AccessKind kind = model::AccessKind::Load;
  int bytes = 0;
  std::string pattern;     // "affine", "enumerated", "uniform", "indirect", "unknown"
  std::string expression;  // source text when the analyzer gives it
  // The lanes as the JSON gives them, for the verify page's warp pictures: the pattern's kind
  // and its bytes per threadIdx.x/y/z (`lane_strides`); the JSON carries no base offset and no
  // enumerated offsets. The block shape of `block`, when given.
  model::LanePattern lanes;
  std::optional<model::Dim3> block;
  // Global memory.
  std::optional<double> sectorsPerRequest, idealSectors, efficiency;
  std::optional<Range> sectorsRange;
  // Shared memory.
  std::optional<double> wavefronts, idealWavefronts, conflictDegree;
  std::optional<Range> wavefrontsRange;

  // The figure the verifier compares: sectors (global) or wavefronts (shared) per request.
  std::optional<double> perRequest() const { return space == model::Space::Shared ? wavefronts : sectorsPerRequest; }
  std::optional<double> idealPerRequest() const {
    return space == model::Space::Shared ? idealWavefronts : idealSectors;
  }
  std::optional<Range> range() const { return space == model::Space::Shared ? wavefrontsRange : sectorsRange; }
};

// One entry of the analyzer's `branches[]` (docs/json-schema.md): a branch condition
// evaluated for every lane of the block shape `block`.
struct PredictedBranch {
  unsigned id = 0;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string kernel;
  std::string function;
  std::string kind;       // "if", "loop", "switch", "?:"
  std::string condition;  // source text
  bool evaluated = true;
  bool threadDependent = false;
  uint64_t warpRequests = 0;       // warps (x iterations) reaching the branch with an active lane
  uint64_t divergentRequests = 0;  // of those, the ones whose active lanes disagree
  bool onlyPartialWarps = false;
  unsigned blockX = 0, blockY = 0, blockZ = 0;

  bool divergent() const { return divergentRequests > 0; }
  // Share of the warp requests that diverge, 0 to 1 (0 when no request).
  double share() const {
    return warpRequests ? static_cast<double>(divergentRequests) / static_cast<double>(warpRequests) : 0;
  }
};

// Where a block-wide barrier is (`barriers[]`): the divergence check ends a branch's body
// range there.
struct PredictedBarrier {
  std::string file;
  unsigned line = 0;
  std::string kernel;
};

// A kernel of `kernels[]`: the block shape its figures were evaluated on, and where it came from.
struct PredictedKernel {
  std::string name;
  unsigned blockX = 0, blockY = 0, blockZ = 0;
  std::string blockSource;  // "launch", "assumed", ...
};

struct Predictions {
  std::string schema;
  std::vector<PredictedKernel> kernels;
  std::vector<PredictedAccess> accesses;
  std::vector<PredictedBranch> branches;  // empty when the JSON has no `branches`
  std::vector<PredictedBarrier> barriers;
};

// Throws std::runtime_error with a one-line message on malformed input. Accesses in
// spaces other than global and shared are skipped (the counters do not cover them).
Predictions predictionsFromJson(const std::string& text);
Predictions loadPredictions(const std::string& path);

}  // namespace coalesce::verify
