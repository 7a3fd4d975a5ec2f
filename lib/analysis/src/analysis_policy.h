// The analysis' policy constants, named in one place: what it assumes when nothing fixes a
// value, and how far it follows code before it stops. Hardware numbers are not here: they
// live in model::Arch (lib/model/include/coalesce/model/arch.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace coalesce::analysis {

// ---- assumptions, each stated in the figures that rest on it --------------------------
// A runtime scalar that scales a lane stride when nothing fixes it (--assume overrides).
inline constexpr int64_t kAssumedRuntimeValue = 4096;
// The block when nothing fixes it: 1D, blockDim.x a multiple of the warp size.
inline constexpr int64_t kAssumedBlockX = 256;
// A kernel on a guessed block with more accesses, branches and barriers than this together is
// not tried under other shapes (shape_trials.h): each trial evaluates every one of them again,
// and such kernels (Rodinia's myocyte solver, 376 accesses) cost as much as the rest of a tree
// together. Said in the detail.
inline constexpr size_t kMaxShapeTrialEvents = 128;
// Values tried, in order, for an unknown scalar of an access's guards when the access runs
// under none of the defaults (lane_function.cpp, liveValues): the default first, then smaller.
inline constexpr int64_t kLiveValueCandidates[] = {kAssumedRuntimeValue, 1024, 256, 64, 16, 4, 1, 0};
// When neither one scalar at a time nor all at once makes the access run, every subset of two
// or more of them takes each of these values at once, the others keeping their default
// (pathfinder's `iteration` and `border` only run together, with the width left large).
// 4 comes last, so that an access that runs under the others keeps the values it had: it is
// for a loop count that must exceed 1 yet stay small beside the block's tile (hotspot's copy
// `if (computed) ...` after `if (i == iteration - 1) break;` runs only from 2 iterations on,
// and only while `i + 1 < BLOCK_SIZE - i - 2` leaves lanes computing: 16 is too many).
inline constexpr int64_t kJointLiveValueCandidates[] = {256, 16, 1, 0, 4};
// Last, when no smaller value makes it run: a value larger than the default, one scalar at a
// time, then all at once. A loop that starts one grid past the thread (SobolQRNG's `for (i =
// i0 + gridDim.x * blockDim.x; i < n_vectors; i += stride)`, the grid taken as kAssumedGridDim
// blocks) runs only when n exceeds the whole grid's threads.
inline constexpr int64_t kLargeLiveValue = int64_t{1} << 24;
// Loop iterations a search for a context under which an idle access runs looks at.
inline constexpr size_t kProbeIterations = 16;
// More unknown scalars in one access's guards than this: no values are tried.
inline constexpr size_t kMaxLiveValueScalars = 6;
// gridDim along an axis the launch does not fix.
inline constexpr int64_t kAssumedGridDim = 1024;
// Threads of a launch whose grid expression the analysis cannot follow (a device property,
// a call whose result the code does not show), for the cost of a finding only (the warp
// requests one launch executes, launch_requests.cpp): 1024 blocks of 256 threads. A grid
// computed from sizes the code does not fix takes them at kAssumedRuntimeValue instead
// (host_sizes.cpp).
inline constexpr int64_t kAssumedGridThreads = 1024 * 256;
// Iterations of the loops whose trip counts are not known statically, all of them together, for
// the cost of a finding only (the warp requests one launch executes, lane_function.cpp): the
// figures never use it.
inline constexpr int64_t kAssumedLoopTrips = 64;
// Two allocations chosen per lane (`c ? a : b`) are placed this many bytes apart: aligned,
// and far enough that their sectors never meet (separate cudaMalloc buffers).
inline constexpr int64_t kFarApartBytes = int64_t{1} << 40;

// ---- how far code is followed ----------------------------------------------------------
// Nested inlined __device__ calls (deeper calls are opaque).
inline constexpr size_t kMaxInlineDepth = 12;
// Host code: callers followed up from a launch's wrapper, call sites per level, and
// environments (hence launch contexts) per launch (launch_collector.cpp).
inline constexpr int kCallerDepth = 3;
inline constexpr size_t kMaxCallSites = 16;
inline constexpr size_t kMaxEnvironments = 32;
// Files beside the analysed one whose host code is read for values the file leaves open
// (sibling_files.cpp): at most this many, none larger than this.
inline constexpr size_t kMaxSiblingFiles = 12;
inline constexpr uintmax_t kMaxSiblingBytes = 1 << 20;
// A worker that needs a sibling another worker of the run is parsing waits at most this long
// for its summary before parsing it itself (sibling_summaries.h).
inline constexpr int kSiblingWaitSeconds = 60;
// Comment lines above a kernel searched for a `coalesce-lint: block=` annotation.
inline constexpr int kAnnotationLinesAbove = 5;

// ---- samples (lane_function.cpp) ---------------------------------------------------------
// Values listed per loop variable, and combinations of iterations over nested loops.
inline constexpr int64_t kMaxLoopValues = 128;
inline constexpr size_t kMaxIterationCombos = 256;
// Consecutive inside blocks averaged in a 1D grid whose address bends on the block index.
inline constexpr int64_t kBendingBlocksAveraged = 8;

// A launch in a host loop passing the loop's counter (launch_counters.cpp): the values listed at
// most (more: the counter's first value, as before), and the launches analysed at most, evenly
// spaced over them (each a context of the kernel, evaluated in full).
inline constexpr size_t kMaxCounterValues = 4096;
inline constexpr size_t kMaxCounterLaunches = 8;

}  // namespace coalesce::analysis
