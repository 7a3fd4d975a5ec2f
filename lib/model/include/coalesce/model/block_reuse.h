// How the warps of one block share the bytes of one global load: each warp's distinct
// bytes (and sectors) added up, against the distinct bytes (and sectors) of the whole block.
// When several warps read the same bytes, a shared-memory tile would fetch them once
// (docs/rules/shared-tiling-opportunity.md). Reuse inside one warp (a broadcast) does not
// count: each warp's bytes are counted once.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/model/arch.h"
#include "coalesce/model/geometry.h"

namespace coalesce::model {

struct BlockBytes {
  int64_t requestedBytes = 0;  // sum over warps of the distinct bytes each asks for
  int64_t distinctBytes = 0;   // distinct bytes of the whole block
  int64_t warpSectors = 0;     // sum over warps of the sectors each touches
  int64_t blockSectors = 0;    // distinct sectors of the whole block
  int64_t warps = 0;           // warps with an active lane
};

// Nothing for an access whose addresses are not known per lane (indirect, unknown). The
// sectors assume the base aligned as its known part says (the `aligned` case of the figures).
std::optional<BlockBytes> blockBytes(const Access& access, const Dim3& block, const Arch& arch);

// A warp's sectors over consecutive iterations of the loops around an access, counted once
// within windows of `window` iterations: what L1 (loads) and L2 (stores) serve when each
// thread walks its own run, its next iterations using the rest of the sectors it touched
// (a per-thread row read element by element). `sectorsPerRequest()` is the distinct
// sectors per warp request over the windows; the per-iteration figure counts each again.
class IterationWindow {
 public:
  explicit IterationWindow(int window) : window_(window) {}
  // One listed iteration, in order; false when its sectors are not known per lane.
  bool add(const Access& access, const Dim3& block, const Arch& arch);
  // Distinct sectors per warp request over the windows; 0 when nothing was added.
  double sectorsPerRequest() const;
  // Distinct cache lines one warp request touches, averaged over the requests: the lines a
  // warp must keep resident for its next iterations to hit them.
  double linesPerRequest() const { return requests_ > 0 ? lines_ / requests_ : 0; }
  // The share of the bytes of the sectors each warp touches over a window that its lanes
  // read, over the windows: near 1 when the next iterations read the words a request skips
  // (stride-2 lanes over taps 0, 1, 2, ...), the single request's share when every iteration
  // reads the same words again, or skips the same words (stride-2 lanes over even taps).
  double bytesReadShare() const;
  bool known() const { return known_; }
  // The loop the window runs along ended (an outer loop moved): the next iteration starts a
  // new window, as a thread's next pass over the inner loop starts elsewhere.
  void closeWindow();

 private:
  int window_;
  int inWindow_ = 0;
  bool known_ = true;
  std::vector<std::vector<int64_t>> open_;  // per warp, the window's sectors so far
  std::vector<std::vector<std::pair<int64_t, int64_t>>> openBytes_;  // per warp, the window's byte ranges so far
  double distinctSectors_ = 0;             // over closed windows
  double readBytes_ = 0;                   // over closed windows: distinct bytes the lanes read
  int64_t sectorBytes_ = 32;
  double requests_ = 0;                    // warp requests with an active lane, every iteration
  double lines_ = 0;                       // distinct cache lines of those requests, summed
};

}  // namespace coalesce::model
