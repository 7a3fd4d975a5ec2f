// From a symbolic address (what the AST walker found) to the model's figures for one
// block shape: substitutes what the launch fixes, enumerates loop iterations and lane
// guards, and calls lib/model. Clang-free, so it is unit-tested without parsing.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "coalesce/model/access_model.h"
#include "coalesce/records/records.h"
#include "analysis_policy.h"
#include "symbolic.h"

namespace coalesce::analysis {

// One memory access as the AST walker saw it.
struct RawAccess {
  model::Space space = model::Space::Global;
  model::AccessKind kind = model::AccessKind::Load;
  int bytes = 4;
  ExprRef offset;                // byte offset from the root pointer
  std::string rootName;          // the array or pointer parameter, for assumptions
  int rootParam = -1;            // the kernel's pointer parameter the root is, or -1
  int64_t rootAlignment = 256;   // bytes the root is known to be aligned to
  int64_t rootBytes = 0;         // the root object's size when known (Root::bytes), else 0
  bool rootIndirect = false;     // the pointer itself was loaded per lane
  bool sameWordSerialised = false;  // an atomic whose lanes on one word go one by one (model::Access)
  ExprRef rootLoadAddress;       // ...from this offset: warp-uniform under some launches
  std::vector<std::string> notes;  // assumptions the walker already knows
  std::vector<ExprRef> guards;   // each must be non-zero for a lane to execute the access
  std::vector<std::string> guardTexts;  // source text of each guard, for assumptions
  // Each guard: an if's (?:'s, early return's) test of per-thread values the analysis does not
  // follow (data each thread loads): AccessSite::dataGuards.
  std::vector<bool> guardTestsData;
  // Each guard: an early return's out of the kernel (`if (warp_id != 0) { ...; return; }`): a
  // thread failing it has exited, and a barrier waits only for the block's threads that have
  // not (CUDA C++ Programming Guide, compute capability 7.x: __syncthreads() "will not succeed
  // until reached by all non-exited threads in the block"). Set for barriers only
  // (Interpreter::currentGuards); evaluateBarrier reads it.
  std::vector<bool> guardExits;
  // Each guard of a barrier: a thread failing it reaches no barrier after it and exits, which
  // releases a barrier it held up (PTX ISA `exit`; lib/analysis/src/barrier_skippers.cpp).
  // evaluateBarrier reads it as guardExits when asked to.
  std::vector<bool> guardSkippersExit;
};

// What the launch (or the fallback) fixes.
struct LaunchContext {
  BlockShape block;
  bool blockKnown = false;             // false: blockDim is an unknown multiple of 32
  std::optional<model::Dim3> grid;     // the launch's grid, when its size is known
  // Else, for the cost only (launchRequests), never the figures: the grid under the
  // program's one default for the sizes the host code does not fix (host_sizes.cpp), and
  // those sizes as written; none when the grid expression is not followable.
  std::optional<model::Dim3> costGrid;
  std::vector<std::string> costGridLeaves;
  std::vector<std::string> costGridCounters;  // host loop counters at their middle: "`i` at 2032"
  std::vector<std::string> costGridOptions;   // run-time options at their defaults: "`byteCount` 67108864"
  std::map<int, int64_t> symbolValues;  // parameters fixed by the launch or --assume
  // Else, for the cost only (session 14): an integer argument the host computes from sizes it
  // does not fix, under the same defaults as costGrid (HostValues::valueWithDefaults), by
  // symbol, with what it took at a default (as costGrid's). The blocks that run an access
  // (runningBlocks) and its loops' trips (launchRequests) read it; the figures never do.
  struct CostValue {
    int64_t value = 0;
    std::vector<std::string> leaves, counters, options;
    bool operator==(const CostValue&) const = default;
  };
  std::map<int, CostValue> costSymbolValues;
  std::map<int, std::string> symbolValueSources;  // "the launch at f.cu:40", "--assume"
  // Those of symbolValues that are the defaults of run-time options (block_shape.cpp): the
  // default run's, not what the code fixes, so a count that reads one is not shown
  // (record_builder.cpp, requestsShown).
  std::set<int> defaultedSymbols;
  // Pointer parameters the launch passes as an offset into their allocation (`buf + 3`):
  // bytes past the allocation's start, by parameter index, and where that was seen.
  std::map<int, int64_t> pointerByteOffsets;
  std::map<int, std::string> pointerOffsetSources;
  // The launch's dynamic shared memory (its third <<<>>> argument), when known.
  std::optional<int64_t> dynamicSharedBytes;
  // An assumed block (BlockSource::Assumed): the axes that are a guess, not a launch's or
  // the kernel's own (block_shape.cpp); the ones shape_trials.cpp varies.
  std::array<bool, 3> guessedAxes{false, false, false};
  // A launch recorded by verify (--launch-info): the launches of the run it stands for (its
  // own, and those of the configurations left out past kMaxEnvironments). 0: not recorded.
  // The figures of an access launched so in several configurations are their mix, weighted
  // by these and the requests of each (launch_mix.h), as the run's counters add them up.
  double recordedLaunches = 0;
  // The launches of a run the host code shows for this context (Launch::runs); unset: not
  // shown. When every context of a kernel has one, its figures are their mix too.
  std::optional<double> hostRuns;
  // Every field: two equal contexts give every evaluation below the same inputs.
  bool operator==(const LaunchContext&) const = default;
};

// For each of a kernel's contexts, whether an earlier one is equal to it. An evaluation
// (evaluateLanes, evaluateCondition, evaluateBarrier, a group's) reads nothing but the context
// and the kernel, so an equal context's figures are the earlier one's: each is evaluated once.
// One launch line inside a host template gives a context per instantiation of that template,
// all equal: DualSPHysics' boundary-interaction kernel had 360, each evaluated again
// (docs/analysis-speed.md, "Session 24").
std::vector<bool> repeatsAnEarlier(const std::vector<LaunchContext>& contexts);
// For each context, the index of the first context equal to it (its own when none before is):
// where a repeat takes the earlier one's figures from (record_builder.cpp's mix of launches).
std::vector<size_t> firstEqualContexts(const std::vector<LaunchContext>& contexts);

struct LaneResult {
  model::Access access;  // the pattern of the first evaluated iteration (for pictures)
  model::AccessFigures figures;
  std::vector<std::string> assumptions;
  bool indirectRowGather = false;
  // Warp requests with an active lane per listed iteration, in the block that stands for
  // the grid: the base of the launch's request count (launchRequests).
  double requestsPerIteration = 0;
  // The same over the listed iterations with a request only: a loop whose trip count is
  // not known counts kAssumedLoopTrips iterations that run (launch_requests.cpp), whereas
  // the listing, under the default values of the scalars that bound it, may run few of its
  // samples (a grid-stride loop `pos < n` at n = 4096 in a 240-block grid).
  double requestsPerLiveIteration = 0;
  // Warp requests of the listed iterations whose pattern the model has no figures for
  // (indirect, unknown): the warps with an active lane (lane_evaluator.h, patternFor).
  int64_t uncomputedRequests = 0;
  // The share of the grid's blocks that run it: 1, unless its guards on the block index
  // hold only in some (`if (blockIdx.x == 0)`, the last block's tail): from a lattice of
  // blocks over the grid (evaluateLanes, `runningBlocks`).
  double blockFraction = 1;
  // Global loads: how the block's warps share the bytes, per iteration (records.h).
  BlockReuse blockReuse;
  // Global accesses over several listed iterations: AccessSite::iterationReuse.
  IterationReuse iterationReuse;
  // Unknown scalars of the lane stride the figures rest on, each with the value taken: those
  // that bound nothing in the kernel are AccessSite::guessedScalars (record_builder.cpp).
  std::vector<std::pair<int, int64_t>> assumedStrideScalars;
  // The symbols of LaunchContext::costSymbolValues its guards read (the blocks that run it
  // were counted with them), for the sentence of its cost (launchRequests).
  std::vector<int> costArguments;
};

// Warp requests one launch executes: requestsPerIteration x blocks x the trips of every
// loop the access sits in (known trip counts, else kAssumedLoopTrips), with the sentence
// saying what that rests on.
struct LaunchRequests {
  double requests = 0;
  std::string basis;
  // The grid is the launch's own and every loop's trip count came from it, with no value
  // under the program's defaults and no assumed count (AccessSite::requestsShown needs this).
  bool shown = false;
  // Neither the launch nor the program's defaults give the grid: kAssumedGridThreads threads.
  bool gridAssumed = false;
};
// The grid one launch's cost counts: the launch's when known, else the one under the
// program's defaults (LaunchContext::costGrid), else kAssumedGridThreads threads along x. The
// share of its blocks that run an access (LaneResult::blockFraction) is taken over the same grid.
model::Dim3 costGridOf(const LaunchContext& launch);

namespace lanes {
class IterationMemo;  // lane_evaluator.h
struct SharedGuards;  // lane_evaluator.h
}

// `memo`: the kernel's (GuardCache::iterations), whose loop exits under the same values the
// evaluation of its accesses already worked out; null: worked out here.
LaunchRequests launchRequests(const LaneResult& lanes, const std::vector<int>& loops, const LaunchContext& launch,
                              const SymbolTable& symbols, const model::Arch& arch, lanes::IterationMemo* memo);

// What evaluating one kernel's accesses learns about their guards, shared by the accesses
// whose guards are the same expressions under the same launch context (a block's accesses
// share them): the values under which an otherwise idle access runs (lane_function.cpp,
// liveValues). Keys are the guards' addresses, alive as long as the kernel's events: keep
// one cache per kernel (record_builder.cpp).
// Entries keyed by a context's address are made only for the contexts evaluated: a context
// equal to an earlier one is skipped (repeatsAnEarlier), so a reader that walks every context
// must skip the same ones (access_groups.cpp does).
struct GuardCache {
  using Key = std::pair<std::vector<const SymExpr*>, const LaunchContext*>;
  // The loops' iterations listed for the kernel's accesses (lane_evaluator.h): made by the
  // first evaluateLanes that gets this cache.
  std::shared_ptr<lanes::IterationMemo> iterations;
  // Whether an access runs depends on its guards alone, so one answer serves every access under
  // them: true of each access evaluated (a texture fetch or a gather counts its requests
  // without figures), not of local and constant ones, which look idle and are not evaluated
  // (lanesEvaluated below; before session 20 they cached "no values" for the rest).
  std::map<Key, std::map<int, int64_t>> liveValues;
  // The edge block that runs an access the representative blocks do not (none: no block).
  std::map<Key, std::optional<std::array<int64_t, 3>>> edgeBlock;
  // The share of the grid's blocks that run it, when the representative block does not.
  std::map<Key, double> blockFraction;
  // The guards' substitutions and masks in each listed iteration of one block run, made once
  // for every access under the same guards in the same context, block and live values (the
  // loads and stores of one loop body: lane_function.cpp, sharedGuards), forgotten past
  // kKeptSharedGuards sets.
  using BlockRunKey = std::tuple<std::vector<const SymExpr*>, const LaunchContext*, std::array<int64_t, 3>,
                                 std::map<int, int64_t>>;
  std::map<BlockRunKey, std::shared_ptr<lanes::SharedGuards>> sharedGuards;
};

LaneResult evaluateLanes(const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                         const model::Arch& arch, GuardCache* cache = nullptr);

// Whether anything reads an access's lanes: the model's figures (global, shared), a texture
// fetch's requests in its kernel's memory time (lib/report/src/cost.cpp). A thread's private
// array (local memory) and a `__constant__` table get no figures and no cost, and their lanes
// were evaluated for nothing: worse, an access without figures looks idle to the evaluation, so
// each one also searched the values of its guards' scalars under which it might run (up to a
// few hundred block runs). They were 78 % of GPUMD's nep.cu (3,510 of its 3,831 accesses).
inline bool lanesEvaluated(model::Space space) {
  return space != model::Space::Local && space != model::Space::Constant;
}

// A branch condition (or a barrier's guards) evaluated per lane for one launch: how many
// warp requests reach it, how many of them split, and whether its guards differ across
// the threads of a block.
struct ConditionFigures {
  bool evaluated = true;         // every lane's value was known
  bool threadDependent = false;  // the condition depends on the lane at all
  int64_t warpRequests = 0;
  int64_t divergentRequests = 0;
  bool onlyPartialWarps = true;  // all divergent warps are the block's partial last warp
  std::vector<std::string> assumptions;
  LaneSplit split;               // the first warp found split, for pictures
  // Warp requests that would still split after the remap fix (BranchSite::remappedDivergentRequests);
  // meaningful only when remapKnown (every lane's value known on every pass).
  int64_t remappedDivergentRequests = 0;
  bool remapKnown = true;
};
// `condition`, guarded by `raw.guards`; raw.offset is ignored.
// byValue: lanes split when their values differ (switch), not only their truth (if).
// `cache`: the kernel's (evaluateLanes), whose listed loop iterations the condition shares.
ConditionFigures evaluateCondition(const ExprRef& condition, const RawAccess& guards, const LaunchContext& launch,
                                   const SymbolTable& symbols, const model::Arch& arch, bool byValue = false,
                                   GuardCache* cache = nullptr);

struct BarrierReach {
  enum class Kind { Uniform, Divergent, Unknown } kind = Kind::Uniform;
  std::string guard;  // the responsible guard's text
  std::vector<std::string> assumptions;
  // Divergent: which threads reach the barrier, per warp (BarrierSite::reachByWarp).
  std::vector<std::string> reachByWarp;
  int iteration = 0;  // the iteration combination where the guard split the block
};
// Whether every thread of a block passes the same way through `raw.guards`. `skippersExit`:
// the threads failing a guard of `guardSkippersExit` count as exited.
BarrierReach evaluateBarrier(const RawAccess& guards, const LaunchContext& launch, const SymbolTable& symbols,
                             const model::Arch& arch, bool skippersExit = false);

}  // namespace coalesce::analysis
