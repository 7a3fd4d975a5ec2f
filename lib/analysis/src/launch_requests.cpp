// What one launch of a kernel executes of an access: its warp requests (warps with an
// active lane x the blocks that run it x the trips of its loops), the base of a finding's
// cost (lib/report/src/cost.cpp), with the sentence saying what the count rests on.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "analysis_policy.h"
#include "lane_evaluator.h"
#include "lane_function.h"

namespace coalesce::analysis {

using namespace lanes;

namespace {

// 12, 2.5, 0.33: at most two decimals, no trailing zeros (the report's number()).
std::string plainNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// A loop's trip count under the launch: listed when its iterations are few (the evaluator's
// tripCount), else, for a counter k = 0, 1, ... whose condition the launch fixes, the first k
// at which it fails, found by doubling then bisection (a condition true up to some k and
// false after, as a loop's is). Nothing when the condition needs values the launch does not give.
std::optional<int64_t> tripsOf(int id, Evaluator& ev, const SymbolTable& symbols) {
  if (auto n = ev.tripCount(id)) return n;
  const SymbolInfo& s = symbols[id];
  if (s.loopNext || !s.loopCond) return std::nullopt;  // geometric: listed, or not known
  Bindings b = ev.launchBindings();
  auto holds = [&](int64_t k) -> std::optional<bool> {
    b.symbols[id] = k;
    auto v = evaluate(s.loopCond, b);
    if (!v) return std::nullopt;
    return *v != 0;
  };
  const int64_t after = s.testAfter ? 1 : 0;
  auto first = holds(0);
  if (!first) return std::nullopt;
  if (!*first) return after;
  int64_t lo = 0, hi = 1;
  for (;;) {
    auto c = holds(hi);
    if (!c) return std::nullopt;
    if (!*c) break;
    lo = hi;
    hi *= 2;
    if (hi > (int64_t{1} << 40)) return std::nullopt;
  }
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    auto c = holds(mid);
    if (!c) return std::nullopt;
    (*c ? lo : hi) = mid;
  }
  return hi + after;
}

// "`a` and `b`", quoted or not.
std::string listed(const std::vector<std::string>& items, bool quoted) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i)
    text += std::string(i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + (quoted ? "`" : "") + items[i] +
            (quoted ? "`" : "");
  return text;
}

// " with `Size` taken as 4096, the one value ..., and `i` at 2032, the middle of its host loop":
// what a value under the program's defaults rests on (host_sizes.cpp); empty when nothing.
std::string defaultsPhrase(const std::vector<std::string>& leaves, const std::vector<std::string>& counters,
                           const std::vector<std::string>& options) {
  std::string text;
  if (!leaves.empty())
    text += " with " + listed(leaves, true) + " taken as " + std::to_string(kAssumedRuntimeValue) +
            ", the one value every size the code does not fix takes";
  if (!counters.empty())
    text += std::string(text.empty() ? " with " : ", and ") + listed(counters, false) + ", the middle of " +
            (counters.size() == 1 ? "its host loop" : "their host loops");
  if (!options.empty())
    text += std::string(text.empty() ? " with " : ", and ") + listed(options, false) +
            (options.size() == 1 ? ", the default of a run-time option (a command-line option changes it)"
                                 : ", the defaults of run-time options (command-line options change them)");
  return text;
}

}  // namespace

model::Dim3 costGridOf(const LaunchContext& launch) {
  if (launch.grid) return *launch.grid;
  if (launch.costGrid) return *launch.costGrid;
  const int64_t threads = std::max<int64_t>(1, launch.block.dim.x * launch.block.dim.y * launch.block.dim.z);
  return model::Dim3{std::max<int64_t>(1, kAssumedGridThreads / threads), 1, 1};
}

LaunchRequests launchRequests(const LaneResult& lanes, const std::vector<int>& loops, const LaunchContext& launch,
                              const SymbolTable& symbols, const model::Arch& arch, IterationMemo* memo) {
  LaunchRequests out;
  RawAccess none;
  none.offset = constant(0);
  Evaluator ev(none, launch, symbols, arch);
  ev.memo = memo;
  // A grid the host computes from sizes it does not fix has them at the program's one
  // default (host_sizes.cpp), so that the costs of kernels over `Size` and over `Size * Size`,
  // compared across kernels for the program's share (lib/report/src/cost.cpp), keep their
  // ratio (gaussian's one thread per row in Fan1 beside one per element in Fan2). Only a grid
  // expression not followable covers kAssumedGridThreads threads, whatever the block.
  const int64_t blocks = costGridOf(launch).volume();
  // The loops' trips under the grid the cost counts and the kernel's arguments under the same
  // defaults (LaunchContext::costSymbolValues, session 14): histogram256's grid-stride loop
  // `pos < dataCount` over 240 blocks of 192 threads, dataCount = byteCount / 4 with byteCount
  // at its option's default, runs 365 times, where a count the launch alone does not fix
  // took kAssumedLoopTrips (docs/findings.md, "Cost").
  // Two sets of values: those that rest on what the program shows (options' defaults, host
  // loop counters: `byteCount / 4`), for every loop; and, for a loop whose step is the block's or
  // the grid's width only (`i += blockDim.x`, `pos += blockDim.x * gridDim.x`: the threads share
  // n elements), those that rest on a size taken at the bare default too (Chai RSCD's `count`
  // read from the input: 4096 / 256 = 16 trips). A thread's own loop over such a size (leukocyte's
  // `el_i < strel_m`, a 25-wide window) is no share of the data: 4096 there would be a guess
  // of its extent, so it keeps kAssumedLoopTrips.
  std::optional<LaunchContext> shownLaunch, allLaunch;
  if (!launch.costSymbolValues.empty() || (!launch.grid && launch.costGrid)) {
    shownLaunch = launch;
    shownLaunch->grid = costGridOf(launch);
    bool bare = false;
    for (const auto& [id, v] : launch.costSymbolValues) {
      if (v.leaves.empty()) shownLaunch->symbolValues.emplace(id, v.value);
      bare = bare || !v.leaves.empty();
    }
    if (bare) {
      allLaunch = *shownLaunch;
      for (const auto& [id, v] : launch.costSymbolValues) allLaunch->symbolValues.emplace(id, v.value);
    }
  }
  std::optional<Evaluator> shownEv, allEv;
  if (shownLaunch) {
    shownEv.emplace(none, *shownLaunch, symbols, arch);
    shownEv->memo = memo;
  }
  if (allLaunch) {
    allEv.emplace(none, *allLaunch, symbols, arch);
    allEv->memo = memo;
  }
  double trips = 1;
  int assumedLoops = 0;
  std::vector<int> defaulted;  // the cost arguments loop counts read
  bool countedUnderDefaults = false;
  for (int loop : loops) {
    std::optional<int64_t> n;
    // The loop's first variable (its counter, or its first geometric one), found in the table's
    // index: a walk over every symbol per loop and access was a tenth of a thousand-loop kernel's time.
    if (const int id = symbols.firstVarOfLoop(loop); id >= 0) {
      const SymbolInfo& s = symbols[id];
      n = tripsOf(id, ev, symbols);
      if (shownEv) {
        std::optional<int64_t> underDefaults = tripsOf(id, *shownEv, symbols);
        const bool sharesData = s.loopCond && !s.loopNext &&
                                (containsOp(s.loopCond, Op::BlockDim) || containsOp(s.loopCond, Op::GridDim));
        if (!underDefaults && allEv && sharesData) underDefaults = tripsOf(id, *allEv, symbols);
        if (underDefaults && underDefaults != n) {
          n = underDefaults;
          countedUnderDefaults = true;
          std::set<int> read;
          collectLoopBounds(s, read);
          for (int r : read)
            if (launch.costSymbolValues.count(r) && !launch.symbolValues.count(r) &&
                (launch.costSymbolValues.at(r).leaves.empty() || sharesData) &&
                std::find(defaulted.begin(), defaulted.end(), r) == defaulted.end())
              defaulted.push_back(r);
        }
      }
    }
    if (n) trips *= static_cast<double>(*n);
    else ++assumedLoops;
  }
  // Loops of unknown trip count count together as kAssumedLoopTrips iterations, not that many
  // each: a guess per nesting level would grow the cost geometrically with the nest's depth.
  // Tried in session 13 (docs/precision.md, "Session 13, kernel side"): 64 per loop made
  // leukocyte's store after its 25 x 25 window and the eigenvalue bisection's per-pass atomic
  // notes, as the panels judged them, but weighed a loop the analysis cannot count that runs
  // log2(blockDim) times (Chai SC's down-sweep `for (d = 0; d < maxThread; d <<= 1) { d += 1; ...}`)
  // or a block-stride loop over 4096 elements (16 trips; Chai RSCD) as 64, and turned places
  // judged worth fixing into notes. Those iterations are ones that run: their requests are
  // the listed iterations' that have any (the listing, under the default values of the
  // scalars that bound the loop, may run only a few of its samples, which would count the
  // assumed trips as mostly idle).
  if (assumedLoops > 0) trips *= static_cast<double>(kAssumedLoopTrips);
  // A count under the defaults is of iterations that run too: the listing, under the figures'
  // values, need not (the grid-stride loop above at dataCount 4096 runs one of its samples).
  const double perIteration =
      assumedLoops > 0 || countedUnderDefaults ? lanes.requestsPerLiveIteration : lanes.requestsPerIteration;
  const double running = std::max(1.0, std::round(static_cast<double>(blocks) * lanes.blockFraction));
  out.requests = perIteration * running * trips;
  std::string basis = plainNumber(out.requests) + " warp requests per launch: " +
                      plainNumber(perIteration) + " per block x " +
                      (running < static_cast<double>(blocks)
                           ? plainNumber(running) + " of the " + std::to_string(blocks) +
                                 " blocks (its guards on the block index hold in those only)"
                           : std::to_string(blocks) + (blocks == 1 ? " block" : " blocks"));
  if (!launch.grid && launch.costGrid) {
    const model::Dim3& g = *launch.costGrid;
    const std::string shape = g.y == 1 && g.z == 1 ? std::to_string(g.x)
                              : std::to_string(g.x) + "x" + std::to_string(g.y) + (g.z == 1 ? "" : "x" + std::to_string(g.z));
    basis += " (the grid, computed at run time: " + shape + (g.volume() == 1 ? " block" : " blocks") +
             defaultsPhrase(launch.costGridLeaves, launch.costGridCounters, launch.costGridOptions);
    basis += ")";
  } else if (!launch.grid) {
    out.gridAssumed = true;
    basis += " (the grid is not known: taken as " + std::to_string(blocks) + " blocks, " +
             std::to_string(kAssumedGridThreads) + " threads)";
  }
  if (!loops.empty()) {
    basis += " x " + plainNumber(trips) + (trips == 1 ? " iteration of " : " iterations of ") +
             (loops.size() == 1 ? std::string("the enclosing loop") : std::to_string(loops.size()) + " enclosing loops");
    if (assumedLoops == 1)
      basis += std::string(loops.size() == 1 ? " (its" : " (one with a") + " trip count not known statically, taken as " +
               std::to_string(kAssumedLoopTrips) + ")";
    else if (assumedLoops > 1)
      basis += " (" + std::to_string(assumedLoops) + " with trip counts not known statically, taken as " +
               std::to_string(kAssumedLoopTrips) + " iterations together)";
  }
  // The kernel's arguments under the defaults that the blocks or trips counted rest on.
  // (Those of a context whose cost values were dropped, the mix's weights in record_builder.cpp, are not said.)
  for (int id : lanes.costArguments)
    if (launch.costSymbolValues.count(id) && std::find(defaulted.begin(), defaulted.end(), id) == defaulted.end())
      defaulted.push_back(id);
  if (!defaulted.empty()) {
    basis += std::string("; counted with the kernel's ") + (defaulted.size() == 1 ? "argument " : "arguments ");
    for (size_t i = 0; i < defaulted.size(); ++i) {
      const LaunchContext::CostValue& v = launch.costSymbolValues.at(defaulted[i]);
      basis += std::string(i == 0 ? "" : i + 1 == defaulted.size() ? " and " : ", ") + "`" + symbols[defaulted[i]].name +
               "` at " + std::to_string(v.value) + " (the host's value" + defaultsPhrase(v.leaves, v.counters, v.options) +
               ")";
    }
    basis += ", for the cost only";
  }
  out.basis = std::move(basis);
  out.shown = launch.grid.has_value() && assumedLoops == 0 && !countedUnderDefaults && defaulted.empty();
  return out;
}

}  // namespace coalesce::analysis
