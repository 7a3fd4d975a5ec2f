// The loops of a kernel under one launch's values: the iterations each loop group takes
// (loopIterations), those of the loops around an access, outer first (iterationCombos), what
// they read of the bindings, and the kernel's memo of them and of its loops' exit values
// (IterationMemo), shared by the evaluators of lane_evaluator.h. Defined in
// lane_evaluator.cpp. Clang-free.
#pragma once

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "iteration_values.h"
#include "lane_function.h"
#include "periodic_figures.h"

namespace coalesce::analysis::lanes {

using model::Dim3;

inline int64_t dimOf(const Dim3& d, int64_t i) { return i == 0 ? d.x : i == 1 ? d.y : d.z; }

inline void collectSymbols(const ExprRef& e, std::set<int>& out) {
  if (e->op == Op::Symbol) out.insert(e->symbolId);
  for (const auto& a : e->args) collectSymbols(a, out);
}

// Whether every iteration of the loop whose counter is `counter` reaches the access: no guard
// of it but the loop's own condition reads the counter (`if (i < 16) cache[i] = ...` does).
inline bool everyIterationReaches(const RawAccess& raw, int counter, const ExprRef& loopCond) {
  for (const ExprRef& g : raw.guards) {
    if (sameStructure(g, loopCond)) continue;
    std::set<int> read;
    collectSymbols(g, read);
    if (read.count(counter)) return false;
  }
  return true;
}

// Adds to `out` the symbols a loop variable's start, step and condition name.
inline void collectLoopBounds(const SymbolInfo& s, std::set<int>& out) {
  for (const ExprRef& e : {s.loopInit, s.loopNext, s.loopCond})
    if (e) collectSymbols(e, out);
}

// The symbols of one loop: its iteration counter and its geometric variables (`d >>= 1`,
// `offset *= 2`), which share its condition and advance together.
std::vector<int> loopGroup(int id, const SymbolTable& symbols);
// The values a loop group takes under `base`, in order; `exact`: every iteration listed
// (no sample, the bounds known). With `loadedStart`, a geometric loop bounded by a value
// loaded from memory takes it as twice the block's thread count (set true when used).
std::vector<std::map<int, int64_t>> loopIterations(const std::vector<int>& group, const SymbolTable& symbols,
                                                   const Bindings& base, bool& exact, bool* loadedStart = nullptr);
// The symbols a loop group's starts, steps and conditions name: all loopIterations reads of
// its bindings' symbols.
std::set<int> loopBoundSymbols(const std::vector<int>& group, const SymbolTable& symbols);
// `b`'s thread, block and grid, and of its symbols only `ids`: what evaluating an expression
// that names no others reads, without a copy of every binding (a kernel binds thousands).
Bindings boundOnly(const Bindings& b, const std::set<int>& ids);
// The iterations of every loop the address or guards use, outer loops first, each inner loop
// listed under every outer iteration (up to kMaxIterationCombos); what was listed or
// sampled is said in `notes`.
std::vector<std::map<int, int64_t>> iterationCombos(const RawAccess& raw, const SymbolTable& symbols,
                                                    const Bindings& base, std::set<std::string>& notes);

// What iterationCombos can read of its bindings for one access: the values of `symbols` (the
// loop variables of the address and guards, their loops' other variables and every symbol of
// those loops' starts, steps and conditions, transitively: a superset of what it looks up)
// and, when one of those expressions names it, the block index. The thread index, block and
// grid sizes are always compared. A symbol of the guards that no loop mentions (a probe's
// live value) is not read.
struct ComboInputs {
  std::vector<int> symbols;  // sorted
  bool blockIdx = false;
};
ComboInputs comboInputs(const RawAccess& raw, const SymbolTable& symbols);

// The iteration combos of the accesses of one kernel, kept across the block runs of each
// evaluateLanes (lane_function.cpp: the chosen block, the live-value probes and the edge
// blocks each ask for them again) and across its accesses (GuardCache::iterations: the
// accesses of one loop body list the same loops). iterationCombos reads of an access only
// the loop variables its address and guards name (`used`, filtered by `isLoop`: the others
// are skipped before anything is looked up, and the loops are found from those in the same
// order), and of its bindings only ComboInputs, which the same loop variables determine. So
// an entry is reused when the loop variables and those bindings agree: a probe's live value
// that no loop bound mentions, an edge block whose loops do not name the block index,
// another access of the same loops. What iterationCombos said of them (`notes`) is kept with
// them and said again on every hit, so a hit changes nothing.
class IterationMemo {
 public:
  using Combos = std::vector<std::map<int, int64_t>>;
  const Combos& combos(const RawAccess& raw, const SymbolTable& symbols, const Bindings& base,
                       std::set<std::string>& notes) {
    if (inputsOf_ != &raw) {
      loops_ = loopVariablesOf(raw, symbols);
      inputs_ = comboInputs(raw, symbols);
      inputsOf_ = &raw;
    }
    std::vector<size_t>& same = byLoops_[loops_];
    for (size_t k : same)
      if (sameInputs(entries_[k].base, base)) {
        notes.insert(entries_[k].notes.begin(), entries_[k].notes.end());
        return entries_[k].combos;
      }
    same.push_back(entries_.size());
    Entry& e = entries_.emplace_back();  // a deque: earlier entries' references stay valid
    e.base = base;
    e.combos = iterationCombos(raw, symbols, base, e.notes);
    notes.insert(e.notes.begin(), e.notes.end());
    return e.combos;
  }

  // A new evaluateLanes: the access's loop variables are found again (a kernel's memo
  // outlives no access, but an access's address may be another's after it).
  void startAccess() { inputsOf_ = nullptr; }

  // What a launch fixes (Evaluator::launchBindings): its bindings, the values its loops' exits
  // take under them (nullopt: unknown, or while being worked out), what was assumed to find
  // them, and whether every exit is in. A function of the bindings without exits (`base`)
  // and the kernel's symbols alone, so the evaluators of every access and block run under the
  // same values share one: a kernel of a thousand loops (LonestarGPU's pta) worked them all
  // out again for each evaluator, minutes per file.
  struct LaunchExits {
    Bindings bindings;
    std::map<int, std::optional<int64_t>> values;
    std::set<std::string> notes;
    bool all = false;
  };
  // The kept state for `base`, made on first use; null once kKeptLaunchExits are kept (the
  // caller then works its own out).
  LaunchExits* exitsFor(const Bindings& base) {
    ExitsKey key{{base.blockDim[0], base.blockDim[1], base.blockDim[2], base.blockIdx[0], base.blockIdx[1],
                  base.blockIdx[2], base.gridDim[0], base.gridDim[1], base.gridDim[2]},
                 base.symbols};
    if (auto it = exits_.find(key); it != exits_.end()) return &it->second;
    if (exits_.size() >= kKeptLaunchExits) return nullptr;
    LaunchExits& e = exits_[std::move(key)];
    e.bindings = base;
    return &e;
  }

  // The model's figures of the kernel's accesses in blocks of shape `block`, kept across its
  // accesses (periodic_figures.h): they read an access's pattern, width, space and kind, and
  // the block's shape alone, so a macro-unrolled body's loads `in[b * 1024 + idx]`, b = 0 to
  // 65,535, have their figures computed once (bench/RESULTS.md, "Session 23"). The arch is the
  // run's, the same for every access of the kernel.
  PeriodicFigures& figuresIn(const model::Dim3& block) { return figures_[{block.x, block.y, block.z}]; }

  // The loop variables an access's address and guards name, sorted: all iterationCombos and
  // comboInputs read of the access.
  static std::vector<int> loopVariablesOf(const RawAccess& raw, const SymbolTable& symbols) {
    std::set<int> used;
    collectSymbols(raw.offset, used);
    for (const auto& g : raw.guards) collectSymbols(g, used);
    std::vector<int> out;
    for (int id : used)
      if (symbols[id].kind == SymbolInfo::Kind::LoopVar) out.push_back(id);
    return out;
  }

 private:
  bool sameInputs(const Bindings& a, const Bindings& b) const {
    auto same3 = [](const int64_t* x, const int64_t* y) { return std::equal(x, x + 3, y); };
    if (!same3(a.tid, b.tid) || !same3(a.blockDim, b.blockDim) || !same3(a.gridDim, b.gridDim)) return false;
    if (inputs_.blockIdx && !same3(a.blockIdx, b.blockIdx)) return false;
    for (int id : inputs_.symbols) {
      auto x = a.symbols.find(id), y = b.symbols.find(id);
      const bool hasX = x != a.symbols.end(), hasY = y != b.symbols.end();
      if (hasX != hasY || (hasX && x->second != y->second)) return false;
    }
    return true;
  }
  struct Entry {
    Bindings base;
    Combos combos;
    std::set<std::string> notes;
  };
  std::deque<Entry> entries_;
  std::map<std::vector<int>, std::vector<size_t>> byLoops_;  // loop variables -> entries
  const RawAccess* inputsOf_ = nullptr;  // the access `loops_` and `inputs_` are of
  std::vector<int> loops_;
  ComboInputs inputs_;
  std::map<std::array<int64_t, 3>, PeriodicFigures> figures_;  // by block shape
  using ExitsKey = std::pair<std::array<int64_t, 9>, std::map<int, int64_t>>;
  static constexpr size_t kKeptLaunchExits = 256;
  std::map<ExitsKey, LaunchExits> exits_;  // a map: kept states' addresses stay valid
};

// The kernel's memo in `cache` (made on first use), ready for a new access or condition;
// null without a cache. evaluateLanes and evaluateCondition share it.
inline IterationMemo* kernelIterations(GuardCache* cache) {
  if (!cache) return nullptr;
  if (!cache->iterations) cache->iterations = std::make_shared<IterationMemo>();
  cache->iterations->startAccess();
  return cache->iterations.get();
}

// Adds to `out` the symbols that bound the loops the access's address and the loop symbols
// already in `out` run over (`for (stride = (1 << log2N) >> 2; stride > 0; ...)` adds
// log2N): the live-value search (lane_function.cpp) treats them as guards.
void addLoopBoundSymbols(const RawAccess& raw, const SymbolTable& symbols, std::set<int>& out);

// The scalars that bound something in a kernel: those on the side of a comparison (<, <=, >,
// >=, !=) in its accesses' guards or their loops' conditions that holds no thread index and no
// loop variable (`id < n`, `i < Size - 1 - t`, `for (x = 0; x < countOnes; ++x)`, leukocyte's
// `x < img_n` beside the unguarded store `dilated[i * img_n + j]`). Such a scalar is an
// extent: the data's size, which the program makes large. One that only spaces the lanes'
// addresses (a pooling stride, a pad, a window: `input[j * stride + m]`) bounds nothing, and
// a program's value of it is as often 1 or 2 as large (AccessSite::guessedScalars). Each
// expression node is walked once for the kernel.
std::set<int> boundingSymbols(const std::vector<const RawAccess*>& accesses, const SymbolTable& symbols);

}  // namespace coalesce::analysis::lanes
