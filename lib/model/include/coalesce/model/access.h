// What one memory instruction does for every thread of a block, as the model sees it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "coalesce/model/geometry.h"

namespace coalesce::model {

// Texture: a fetch through the texture path (tex1Dfetch, tex2D, surf2Dread...): no figures,
// counted in its kernel's memory time only (lib/report/src/cost.cpp).
enum class Space { Global, Shared, Constant, Local, Texture };
enum class AccessKind { Load, Store, Atomic };
// Affine: byte address = base + cx*tx + cy*ty + cz*tz.
// Enumerated: an explicit byte offset per thread (computable but not affine).
// Uniform: every lane of a warp uses the same address (broadcast).
// Indirect: the address depends on data loaded from memory.
// Unknown: the frontend could not follow the address.
enum class PatternKind { Affine, Enumerated, Uniform, Indirect, Unknown };

std::string_view toString(Space);
std::string_view toString(AccessKind);
std::string_view toString(PatternKind);
// Exact inverses of toString: the enumerator whose name is `text`, nullopt for any other
// text. Readers of the JSON report (lib/verify/src/predictions.cpp) and of the worker's
// records (lib/analysis/src/worker_protocol.cpp) use them.
std::optional<Space> parseSpace(std::string_view text);
std::optional<AccessKind> parseKind(std::string_view text);
std::optional<PatternKind> parsePatternKind(std::string_view text);

// The warp-uniform part of an address: a known constant plus, optionally, an unknown
// term known only to be a multiple of `unknownAlignment` bytes (a pointer's
// alignment, a loaded offset times its element size, ...). unknownAlignment == 0 means
// the whole offset is known. `blockCycle`: a term that steps by that many bytes from one
// block to the next (`a[blockIdx.x + threadIdx.x]`: 4 bytes a block); over the grid's
// blocks it takes every residue of its cycle equally often, so the figures average over
// them (the counters add up every block) instead of ranging over them. 0: none.
struct UniformOffset {
  int64_t constant = 0;
  int64_t unknownAlignment = 0;
  int64_t blockCycle = 0;
  bool fullyKnown() const { return unknownAlignment == 0; }
  bool operator==(const UniformOffset&) const = default;
};

struct AffineLanes {
  int64_t cx = 0, cy = 0, cz = 0;  // bytes per unit of threadIdx.x/y/z
  int64_t at(const ThreadIdx& t) const { return cx * t.x + cy * t.y + cz * t.z; }
  bool isZero() const { return cx == 0 && cy == 0 && cz == 0; }
  bool operator==(const AffineLanes&) const = default;
};

struct LanePattern {
  PatternKind kind = PatternKind::Unknown;
  AffineLanes affine;  // Affine (Uniform: all zero)
  // Enumerated: byte offset per linear thread id of the block; nullopt marks a
  // thread that does not execute the access (predicated off).
  std::vector<std::optional<int64_t>> threadOffsets;
  UniformOffset base;  // added to every lane (Affine, Enumerated, Uniform)

  static LanePattern makeAffine(AffineLanes lanes, UniformOffset base);
  static LanePattern makeUniform(UniformOffset base);
  static LanePattern makeEnumerated(std::vector<std::optional<int64_t>> offsets, UniformOffset base);
  static LanePattern makeIndirect();
  static LanePattern makeUnknown();
  bool operator==(const LanePattern&) const = default;
};

struct Access {
  Space space = Space::Global;
  AccessKind kind = AccessKind::Load;
  int bytesPerLane = 4;  // bytes each lane moves: 1, 2, 4, 8, 16, or a field's size
  LanePattern pattern;
  // A shared-memory atomic whose lanes on one word each take their own wavefront (the
  // update is serialised per lane: ATOMS.EXCH, ATOMS.ADD...), unlike a load's broadcast.
  // False for loads and stores, and for nvcc's counting form atomicAdd(p, 1), which updates
  // a word once for all its lanes (ATOMS.POPC.INC). Measured on the H200: docs/model.md.
  bool sameWordSerialised = false;
  // The bytes of the object the address lies in, when known (an array of constant size, a
  // string literal), else 0. An address that cannot be computed (data-dependent) still stays
  // inside it: a gather from a 58-byte table touches 3 sectors at most, not one per lane, and
  // a 256-word shared histogram holds at most 8 words per bank (analyzeAccess).
  int64_t objectBytes = 0;
  // A data-dependent global address whose lanes fall in groups that share their loaded values
  // (one column index per row of an 8x4 block): the most sectors one warp's request can touch,
  // the groups' runs each with its loaded base on a sector boundary (lib/analysis/src/
  // lane_spread.h, sharedIndexSectors); 0 when not known. Caps the range as objectBytes does.
  int64_t mostSectors = 0;
  bool operator==(const Access&) const = default;
};

}  // namespace coalesce::model
