// The analyzer's predictions (JSON schema "coalesce-lint/1"), as the verifier reads
// them: one record per predicted access, figures optional (null in the JSON).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coalesce/model/access.h"

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

struct Predictions {
  std::string schema;
  std::vector<PredictedAccess> accesses;
};

// Throws std::runtime_error with a one-line message on malformed input. Accesses in
// spaces other than global and shared are skipped (the counters do not cover them).
Predictions predictionsFromJson(const std::string& text);
Predictions loadPredictions(const std::string& path);

std::optional<model::Space> spaceFromString(const std::string& s);
std::optional<model::AccessKind> kindFromString(const std::string& s);

}  // namespace coalesce::verify
