// The per-lane evaluation of branch conditions and barrier guards (lane_function.h): which
// warps a condition splits, and which threads reach a barrier, over the blocks that stand for
// the grid (block_samples.h) as for accesses (lane_function.cpp).
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "block_samples.h"
#include "branch_paths.h"
#include "lane_evaluator.h"
#include "lane_function.h"

namespace coalesce::analysis {

using namespace lanes;

namespace {

// A split warp for the record: its lanes' values (nullopt: not reaching) as indices into
// their distinct values, in increasing order.
LaneSplit splitOf(int64_t warp, const int64_t blockIdx[3], int iteration,
                  const std::vector<std::optional<int64_t>>& perLane) {
  std::vector<int64_t> distinct;
  for (const auto& v : perLane)
    if (v) distinct.push_back(*v);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  LaneSplit s{warp, blockIdx[0], blockIdx[1], blockIdx[2], iteration, {}, {}, {}, {}};
  for (int64_t v : distinct) s.values.push_back(std::to_string(v));
  for (const auto& v : perLane)
    s.lanes.push_back(v ? static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), *v) - distinct.begin())
                        : -1);
  return s;
}

}  // namespace

namespace {

// Conditions kept per set of values of their symbols in one block run (then forgotten).
constexpr size_t kKeptConditions = 64;

// One block's warps against a condition: warp requests that reach it, and those whose lanes
// disagree (by truth, or by value for a switch); and those that would still disagree after the
// remap fix (remappedSplitWarps).
ConditionFigures conditionInBlock(const ExprRef& condition, const RawAccess& raw, Evaluator& ev,
                                  const model::Arch& arch, bool byValue) {
  ConditionFigures out;
  const Dim3 d = ev.launch.block.dim;
  const int64_t warps = model::warpCount(d, arch);
  const bool partialLast = d.volume() % arch.warpSize != 0;
  out.onlyPartialWarps = true;
  // The condition in an iteration depends on the values the iteration gives its own symbols
  // (the others' are the run's, as for the guards: Evaluator::guardsAt); so does each thread's
  // value of it, kept per set of those values. An iteration whose condition and guards are
  // those of an earlier one adds what that one added (`outcomes`): the same warps reach the
  // branch and split, and the first split warp was taken then.
  std::set<int> named;
  collectSymbols(condition, named);
  const std::vector<int> condSymbols(named.begin(), named.end());
  struct CondAt {
    ExprRef cond;
    std::optional<ThreadProgram> program;
    std::vector<std::optional<int64_t>> values;  // per thread, in linear order, once `computed`
    std::vector<bool> computed;                  // only the threads some iteration let through
  };
  std::unordered_map<std::vector<std::optional<int64_t>>, CondAt, ValuesHash> conds;  // pointers stay valid: `outcomes`
  struct Outcome {
    int64_t warpRequests = 0, divergentRequests = 0, remapped = 0;
    bool anyUnknown = false, notOnlyPartial = false;
  };
  std::map<std::tuple<const CondAt*, const Evaluator::GuardsAt*, size_t>, Outcome> outcomes;
  int iteration = -1;
  for (const auto& combo : ev.loopCombos()) {
    ++iteration;
    Bindings rep = ev.representative(combo);
    std::vector<std::optional<int64_t>> key = valuesIn(combo, condSymbols);
    if (conds.size() == kKeptConditions && !conds.count(key)) {
      conds.clear();
      outcomes.clear();  // its keys point into conds
    }
    auto [entry, added] = conds.try_emplace(std::move(key));
    CondAt& at = entry->second;
    if (added) {
      at.cond = ev.atIteration(condition, combo, rep);
      at.program.emplace(at.cond, rep);
      at.values.resize(static_cast<size_t>(d.volume()));
      at.computed.assign(static_cast<size_t>(d.volume()), false);
    }
    const ExprRef& cond = at.cond;
    out.threadDependent = out.threadDependent || dependsOnThread(cond);
    Evaluator::GuardsAt& guardsHere = ev.guardsAt(combo, rep);
    const Evaluator::GuardMask& mask = ev.maskOf(guardsHere, rep);
    ev.sayUnknownGuards(mask);
    const std::vector<bool>& active = mask.active;
    // No thread reaches the branch in this iteration: no warp request, none split, nothing
    // unknown (the outcome below would add nothing). Rodinia's dwt2d: most iterations of the
    // boundary blocks' branches, evaluated in blocks where they idle (session 28).
    if (std::find(active.begin(), active.end(), true) == active.end()) continue;
    const auto seen = outcomes.find({&at, &guardsHere, ev.guardsGeneration});
    if (seen != outcomes.end()) {
      const Outcome& o = seen->second;
      if (o.anyUnknown) {
        out.evaluated = false;
        out.remapKnown = false;
      } else {
        out.remappedDivergentRequests += o.remapped;
      }
      out.warpRequests += o.warpRequests;
      out.divergentRequests += o.divergentRequests;
      if (o.notOnlyPartial) out.onlyPartialWarps = false;
      continue;
    }
    Outcome o;
    // Every thread of the block first (the remap and the block's picture need them all).
    std::vector<std::optional<int64_t>> values(static_cast<size_t>(d.volume()));
    std::vector<bool> unknown(values.size(), false);
    bool anyUnknown = false;
    // The active threads no iteration computed yet, run together (ThreadProgram::runMany).
    std::vector<size_t> todo;
    for (size_t i = 0; i < values.size(); ++i)
      if (active[i] && !at.computed[i]) todo.push_back(i);
    if (!todo.empty()) {
      std::vector<std::optional<int64_t>> ran;
      ev.runAt(*at.program, todo, ran);
      for (size_t k = 0; k < todo.size(); ++k) {
        at.values[todo[k]] = ran[k];
        at.computed[todo[k]] = true;
      }
    }
    for (int64_t linear = 0; linear < d.volume(); ++linear) {
      const auto i = static_cast<size_t>(linear);
      if (!active[i]) continue;
      const std::optional<int64_t>& v = at.values[i];
      if (!v) {
        unknown[i] = anyUnknown = true;
        continue;
      }
      values[i] = byValue ? *v : static_cast<int64_t>(*v != 0);
    }
    if (anyUnknown) {
      out.evaluated = false;
      out.remapKnown = false;
    }
    o.anyUnknown = anyUnknown;
    bool splitHere = false;
    for (int64_t w = 0; w < warps; ++w) {
      const int64_t begin = w * arch.warpSize, end = std::min(d.volume(), (w + 1) * arch.warpSize);
      std::optional<int64_t> first;
      bool any = false, split = false;
      for (int64_t linear = begin; linear < end; ++linear) {
        const auto i = static_cast<size_t>(linear);
        if (!active[i]) continue;
        any = true;
        if (!values[i]) continue;
        if (!first) first = values[i];
        else if (*first != *values[i]) split = true;
      }
      if (!any) continue;
      ++out.warpRequests;
      ++o.warpRequests;
      if (split) {
        ++out.divergentRequests;
        ++o.divergentRequests;
        if (!(partialLast && w == warps - 1)) {
          out.onlyPartialWarps = false;
          o.notOnlyPartial = true;
        }
        if (out.split.warp < 0) {
          out.split = splitOf(w, ev.blockIdx, iteration,
                              std::vector<std::optional<int64_t>>(values.begin() + begin, values.begin() + end));
          splitHere = true;
        }
      }
    }
    if (splitHere) blockPaths(out.split, values, unknown, warps, arch);
    if (!anyUnknown) {
      o.remapped = remappedSplitWarps(values, byValue, arch);
      out.remappedDivergentRequests += o.remapped;
    }
    outcomes.emplace(std::make_tuple(&at, &guardsHere, ev.guardsGeneration), o);
  }
  return out;
}

}  // namespace

// Which blocks stand for the grid, as for accesses (evaluateLanes): one inside the grid, not
// the first, whose edge guards (`i > 0`) would split warps no other block splits; the first
// when nothing reaches the branch inside. Over a known grid, a condition or guard naming the
// block index is counted over the edge blocks too, each standing for the blocks it
// represents: a bounds check splits only the edge warps of edge blocks, its true share.
ConditionFigures evaluateCondition(const ExprRef& condition, const RawAccess& guarded, const LaunchContext& launch,
                                   const SymbolTable& symbols, const model::Arch& arch, bool byValue,
                                   GuardCache* cache) {
  RawAccess raw = guarded;
  raw.offset = condition;
  // The kernel's listed iterations, shared with its accesses and other conditions (the same
  // loops under the same launch list the same values): IterationMemo, lane_evaluator.h.
  IterationMemo* memo = kernelIterations(cache);
  Evaluator ev(raw, launch, symbols, arch);
  ev.memo = memo;
  for (int d = 0; d < 3; ++d) ev.blockIdx[d] = launch.grid && dimOf(*launch.grid, d) <= 1 ? 0 : 1;
  ConditionFigures out = conditionInBlock(condition, raw, ev, arch, byValue);
  if (out.warpRequests == 0 && (ev.blockIdx[0] || ev.blockIdx[1] || ev.blockIdx[2])) {
    Evaluator first(raw, launch, symbols, arch);
    first.memo = memo;
    ConditionFigures inFirst = conditionInBlock(condition, raw, first, arch, byValue);
    if (inFirst.warpRequests > 0) {
      out = std::move(inFirst);
      std::swap(ev.assumptions, first.assumptions);
    }
  }
  if (launch.grid && (namesBlock(condition) || anyNamesBlock(raw.guards)) && out.warpRequests > 0) {
    const auto blocks = edgeBlocks(*launch.grid, 1);
    if (blocks.size() > 1) {
      ConditionFigures grid;
      grid.onlyPartialWarps = true;
      grid.split = out.split;  // the representative block's split warp, else an edge block's
      for (const auto& [idx, count] : blocks) {
        Evaluator edge(raw, launch, symbols, arch);
        edge.memo = memo;
        for (int d = 0; d < 3; ++d) edge.blockIdx[d] = idx[static_cast<size_t>(d)];
        const ConditionFigures f = conditionInBlock(condition, raw, edge, arch, byValue);
        grid.evaluated = grid.evaluated && f.evaluated;
        grid.threadDependent = grid.threadDependent || f.threadDependent;
        grid.warpRequests += f.warpRequests * count;
        grid.divergentRequests += f.divergentRequests * count;
        grid.remappedDivergentRequests += f.remappedDivergentRequests * count;
        grid.remapKnown = grid.remapKnown && f.remapKnown;
        if (f.divergentRequests > 0 && !f.onlyPartialWarps) grid.onlyPartialWarps = false;
        if (grid.split.warp < 0) grid.split = f.split;
      }
      if (grid.divergentRequests * out.warpRequests != out.divergentRequests * grid.warpRequests)
        ev.assumptions.insert("counted over the grid of " + std::to_string(launch.grid->volume()) +
                              " blocks: the condition splits warps of its edge blocks only");
      out = grid;
    }
  }
  if (out.divergentRequests == 0) out.onlyPartialWarps = false;
  if (out.warpRequests == 0) out.evaluated = false;  // no warp reaches it: no figure claimed
  out.assumptions.assign(ev.assumptions.begin(), ev.assumptions.end());
  return out;
}

namespace {

// The threads that reach a barrier once guard `from - 1` split the block: `alive` after it,
// asked of the guards inside it too, drawn per warp (BarrierSite::reachByWarp).
template <class Combo>
std::vector<std::string> reachByWarp(const RawAccess& raw, size_t from, std::vector<bool> alive, Evaluator& ev,
                                     const Combo& combo, Bindings& rep, const Dim3& d, const model::Arch& arch) {
  std::vector<bool> unknown(alive.size(), false);
  for (size_t g = from; g < raw.guards.size(); ++g) {
    const ExprRef guard = ev.atIteration(raw.guards[g], combo, rep);
    const ThreadProgram program(guard, rep);
    if (!dependsOnThread(guard)) {  // uniform over the block, as evaluateBarrier treats it
      if (const auto v = program.run(0, 0, 0); v && *v == 0) alive.assign(alive.size(), false);
      continue;
    }
    for (int64_t linear = 0; linear < d.volume(); ++linear) {
      const auto i = static_cast<size_t>(linear);
      if (!alive[i] || unknown[i]) continue;
      const model::ThreadIdx t = model::threadFromLinear(d, linear);
      const auto v = program.run(t.x, t.y, t.z);
      if (!v) unknown[i] = true;
      else alive[i] = *v != 0;
    }
  }
  std::vector<std::string> out;
  const int64_t warps = model::warpCount(d, arch);
  for (int64_t w = 0; w < warps; ++w) {
    std::string lanes;
    for (int64_t k = 0; k < arch.warpSize; ++k) {
      const int64_t linear = w * arch.warpSize + k;
      const auto i = static_cast<size_t>(linear);
      lanes += linear >= d.volume() ? '-' : unknown[i] ? '?' : alive[i] ? '1' : '0';
    }
    out.push_back(std::move(lanes));
  }
  return out;
}

}  // namespace

BarrierReach evaluateBarrier(const RawAccess& guarded, const LaunchContext& launch, const SymbolTable& symbols,
                             const model::Arch& arch, bool skippersExit) {
  BarrierReach out;
  if (guarded.guards.empty()) return out;
  RawAccess raw = guarded;
  raw.offset = constant(0);
  Evaluator ev(raw, launch, symbols, arch);
  const Dim3 d = launch.block.dim;
  int iteration = -1;
  for (const auto& combo : iterationCombos(raw, symbols, ev.launchBindings(), ev.assumptions)) {
    ++iteration;
    Bindings rep = ev.representative(combo);
    // Guards in order: each one is asked only of the threads the outer ones let through.
    std::vector<bool> alive(static_cast<size_t>(d.volume()), true);
    for (size_t g = 0; g < raw.guards.size(); ++g) {
      const ExprRef guard = ev.atIteration(raw.guards[g], combo, rep);
      const bool exits = (g < raw.guardExits.size() && raw.guardExits[g]) ||
                         (skippersExit && g < raw.guardSkippersExit.size() && raw.guardSkippersExit[g]);
      if (!dependsOnThread(guard)) {  // uniform over the block
        // Known false: no thread of the block gets past it (a `__trap()` taken by every
        // thread, an early return on a parameter), so none reaches the barrier here.
        if (const auto v = ThreadProgram(guard, rep).run(0, 0, 0); v && *v == 0) break;
        continue;
      }
      std::optional<bool> first;
      bool unknown = false, split = false;
      std::vector<bool> next = alive;
      const ThreadProgram program(guard, rep);
      for (int64_t linear = 0; linear < d.volume(); ++linear) {
        if (!alive[static_cast<size_t>(linear)]) continue;
        const model::ThreadIdx t = model::threadFromLinear(d, linear);
        auto v = program.run(t.x, t.y, t.z);
        if (!v) {
          unknown = true;
          continue;
        }
        next[static_cast<size_t>(linear)] = *v != 0;
        if (exits) continue;  // a thread failing it has left the kernel: no barrier waits for it
        if (!first) first = *v != 0;
        else if (*first != (*v != 0)) split = true;
      }
      if (split) {
        std::vector<std::string> reach = reachByWarp(raw, g + 1, next, ev, combo, rep, d, arch);
        // A later guard no thread passes (`if (offset > 16)` in the last step of a recursive
        // reduction template, CloverLeaf's Reduce<T, 16>): no thread reaches the barrier here.
        const bool none = std::all_of(reach.begin(), reach.end(), [](const std::string& w) {
          return w.find_first_of("1?") == std::string::npos;
        });
        if (none) break;
        out.kind = BarrierReach::Kind::Divergent;
        out.guard = raw.guardTexts[g];
        out.iteration = iteration;
        out.reachByWarp = std::move(reach);
        out.assumptions.assign(ev.assumptions.begin(), ev.assumptions.end());
        return out;
      }
      // An exit not known for some threads: each of them either leaves or goes on to the barrier.
      if (unknown && !exits && out.kind == BarrierReach::Kind::Uniform) {
        out.kind = BarrierReach::Kind::Unknown;
        out.guard = raw.guardTexts[g];
      }
      alive = next;
    }
  }
  out.assumptions.assign(ev.assumptions.begin(), ev.assumptions.end());
  return out;
}


}  // namespace coalesce::analysis
