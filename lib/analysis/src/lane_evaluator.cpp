#include "lane_evaluator.h"

#include <algorithm>
#include <limits>
#include <functional>
#include <numeric>

namespace coalesce::analysis::lanes {

// The symbols of one loop: its iteration counter and its geometric variables (`d >>= 1`,
// `offset *= 2`), which share its condition and advance together.
std::vector<int> loopGroup(int id, const SymbolTable& symbols) {
  const SymbolInfo& s = symbols[id];
  std::vector<int> group;
  if (s.loopCond) group = symbols.loopVarsOf(s.loopCond.get());
  if (group.empty()) group.push_back(id);
  return group;
}

// One loop's iterations under `base`: the values its symbols take together, while its
// condition holds (for thread-dependent conditions, while it holds for the first or the
// last thread of the block). Capped; `exact` says whether the loop ended within the cap.
std::set<int> loopBoundSymbols(const std::vector<int>& group, const SymbolTable& symbols) {
  std::set<int> out;
  for (int id : group) collectLoopBounds(symbols[id], out);
  return out;
}

Bindings boundOnly(const Bindings& b, const std::set<int>& ids) {
  Bindings out;
  std::copy(b.tid, b.tid + 3, out.tid);
  std::copy(b.blockDim, b.blockDim + 3, out.blockDim);
  std::copy(b.blockIdx, b.blockIdx + 3, out.blockIdx);
  std::copy(b.gridDim, b.gridDim + 3, out.gridDim);
  for (int id : ids)
    if (auto it = b.symbols.find(id); it != b.symbols.end()) out.symbols.emplace_hint(out.symbols.end(), id, it->second);
  return out;
}

std::vector<std::map<int, int64_t>> loopIterations(const std::vector<int>& group, const SymbolTable& symbols,
                                                   const Bindings& base, bool& exact, bool* loadedStart) {
  std::vector<std::map<int, int64_t>> out;
  exact = false;
  std::map<int, int64_t> state;
  std::vector<int> members;  // those whose first value is known; the others stay unbound
  // A geometric loop bounded by a count loaded from memory (`for (d = n >> 1; d > 0; d >>= 1)`
  // and `for (d = 2; d < n; d <<= 1)` with n a __shared__ count: the up- and down-sweeps of
  // eigenvalues' compaction scans) is a tree over the block's data: the count is taken as two
  // elements per thread of the block, the span of a work-efficient scan, whose first level
  // keeps every thread busy; said in the notes (iterationCombos).
  const bool geometric = std::any_of(group.begin(), group.end(), [&](int id) { return symbols[id].loopNext; });
  const int64_t loadedCount = 2 * base.blockDim[0] * base.blockDim[1] * base.blockDim[2];
  auto withLoadedCount = [&](const ExprRef& e) {
    if (!loadedStart || !geometric || !e || !containsOp(e, Op::UniformLoad)) return e;
    *loadedStart = true;
    return substituteLeaves(
        e, [&](const ExprRef& leaf) -> ExprRef { return leaf->op == Op::UniformLoad ? constant(loadedCount) : nullptr; },
        opBit(Op::UniformLoad));
  };
  for (int id : group) {
    const SymbolInfo& s = symbols[id];
    if (s.loopNext) {
      auto x = evaluate(s.loopInit, base);
      if (!x) x = evaluate(withLoadedCount(s.loopInit), base);
      if (!x) continue;
      state[id] = *x;
    } else {
      state[id] = 0;  // the iteration counter
    }
    members.push_back(id);
  }
  if (members.empty()) return out;
  const SymbolInfo& head = symbols[group.front()];
  // The block's first thread and its last: one copy of `base` whose thread index is switched
  // between them, holding only the symbols the loop's bounds name (the bindings are large:
  // copying them twice per call was most of its cost, and a copy of all of them per loop
  // made a kernel of many loops quadratic).
  Bindings at = boundOnly(base, loopBoundSymbols(group, symbols));
  auto first = [&]() -> const Bindings& {
    for (int d = 0; d < 3; ++d) at.tid[d] = 0;
    return at;
  };
  auto last = [&]() -> const Bindings& {
    for (int d = 0; d < 3; ++d) at.tid[d] = base.blockDim[d] - 1;
    return at;
  };
  while (static_cast<int64_t>(out.size()) < kMaxLoopValues) {
    for (const auto& [id, v] : state) at.symbols[id] = v;
    std::optional<int64_t> c1 = head.loopCond ? evaluate(head.loopCond, first()) : std::nullopt;
    std::optional<int64_t> c2 = head.loopCond ? evaluate(head.loopCond, last()) : std::nullopt;
    if (!c1 && !c2 && head.loopCond) {
      const ExprRef cond = withLoadedCount(head.loopCond);
      c1 = evaluate(cond, first());
      c2 = evaluate(cond, last());
    }
    if (head.testAfter) out.push_back(state);  // a do-while runs its body before the test
    if (!c1 && !c2) return out;  // the bound is not known: what was listed
    if (!(c1.value_or(0) || c2.value_or(0))) {
      exact = true;
      return out;
    }
    if (!head.testAfter) out.push_back(state);
    std::map<int, int64_t> next = state;
    bool moved = false;
    for (int id : members) {
      const SymbolInfo& s = symbols[id];
      if (!s.loopNext) {
        ++next[id];
        moved = true;
        continue;
      }
      auto n = evaluate(s.loopNext, first());
      if (!n) return out;
      moved = moved || *n != state[id];
      next[id] = *n;
    }
    if (!moved) return out;
    state = std::move(next);
  }
  return out;
}

void addLoopBoundSymbols(const RawAccess& raw, const SymbolTable& symbols, std::set<int>& out) {
  std::set<int> seen;
  std::vector<int> todo(out.begin(), out.end());
  collectSymbols(raw.offset, seen);
  todo.insert(todo.end(), seen.begin(), seen.end());
  seen.clear();
  while (!todo.empty()) {
    const int id = todo.back();
    todo.pop_back();
    const SymbolInfo& s = symbols[id];
    if (s.kind != SymbolInfo::Kind::LoopVar || !seen.insert(id).second) continue;
    std::set<int> bounds;
    collectLoopBounds(s, bounds);
    for (int b : bounds) {
      if (symbols[b].kind == SymbolInfo::Kind::LoopVar) todo.push_back(b);
      else out.insert(b);
    }
  }
}

std::set<int> boundingSymbols(const std::vector<const RawAccess*>& accesses, const SymbolTable& symbols) {
  std::set<int> out;
  const auto freeOfThreadAndLoops = [&](const ExprRef& side) {
    if (dependsOnThread(side)) return false;
    std::set<int> ids;
    collectSymbols(side, ids);
    return std::none_of(ids.begin(), ids.end(), [&](int id) { return symbols[id].kind == SymbolInfo::Kind::LoopVar; });
  };
  std::set<const SymExpr*> visited;  // expressions are DAGs: each node once
  std::function<void(const ExprRef&)> walk = [&](const ExprRef& e) {
    if (!e || !visited.insert(e.get()).second) return;
    const bool comparison = e->op == Op::Lt || e->op == Op::Le || e->op == Op::Gt || e->op == Op::Ge || e->op == Op::Ne;
    if (comparison && e->args.size() == 2) {
      // Only a comparison between the thread's (or a loop's) value and a bound: `n > 0` alone
      // says nothing about what n measures.
      const bool left = freeOfThreadAndLoops(e->args[0]), right = freeOfThreadAndLoops(e->args[1]);
      if (left != right) {
        std::set<int> ids;
        collectSymbols(left ? e->args[0] : e->args[1], ids);
        out.insert(ids.begin(), ids.end());
      }
    }
    for (const ExprRef& a : e->args) walk(a);
  };
  std::set<int> loops;
  for (const RawAccess* raw : accesses) {
    for (const ExprRef& g : raw->guards) walk(g);
    collectSymbols(raw->offset, loops);
    for (const ExprRef& g : raw->guards) collectSymbols(g, loops);
  }
  std::set<int> seen;
  std::vector<int> todo(loops.begin(), loops.end());
  while (!todo.empty()) {
    const int id = todo.back();
    todo.pop_back();
    const SymbolInfo& s = symbols[id];
    if (s.kind != SymbolInfo::Kind::LoopVar || !seen.insert(id).second) continue;
    walk(s.loopCond);
    std::set<int> inner;
    collectLoopBounds(s, inner);
    todo.insert(todo.end(), inner.begin(), inner.end());
  }
  return out;
}

ComboInputs comboInputs(const RawAccess& raw, const SymbolTable& symbols) {
  // iterationCombos reads a symbol's binding in two places: whether a loop variable of the
  // address, the guards or a loop bound is bound (`isLoop`: other symbols are not looked up),
  // and the evaluation of its loops' starts, steps and conditions.
  std::set<int> used;
  collectSymbols(raw.offset, used);
  for (const auto& g : raw.guards) collectSymbols(g, used);
  ComboInputs out;
  std::set<int> reads;
  std::vector<int> todo(used.begin(), used.end());
  std::set<int> expanded;
  while (!todo.empty()) {
    const int id = todo.back();
    todo.pop_back();
    if (symbols[id].kind != SymbolInfo::Kind::LoopVar || !expanded.insert(id).second) continue;
    reads.insert(id);
    for (int member : loopGroup(id, symbols)) {
      reads.insert(member);
      todo.push_back(member);
      const SymbolInfo& s = symbols[member];
      for (const ExprRef& e : {s.loopInit, s.loopNext, s.loopCond}) {
        if (!e) continue;
        out.blockIdx = out.blockIdx || containsOp(e, Op::BlockIdx);
        std::set<int> more;
        collectSymbols(e, more);
        for (int m : more) {
          reads.insert(m);
          todo.push_back(m);
        }
      }
    }
  }
  out.symbols.assign(reads.begin(), reads.end());
  return out;
}

// Loop symbols in the address or guards: their iterations are enumerated (up to a cap)
// and the figures averaged per warp request, as the hardware's counters add up.
std::vector<std::map<int, int64_t>> iterationCombos(const RawAccess& raw, const SymbolTable& symbols,
                                                    const Bindings& base, std::set<std::string>& notes) {
  std::set<int> used;
  collectSymbols(raw.offset, used);
  for (const auto& g : raw.guards) collectSymbols(g, used);
  // The loops to enumerate: those whose symbols the address and guards use, and the outer
  // loops their bounds depend on (`for (j = k >> 1; j > 0; j >>= 1)` inside a loop over
  // k), outer ones first, so that an inner loop runs its own bounds under every outer
  // iteration. A loop's symbols (its counter, its geometric variables) go in lockstep.
  auto isLoop = [&](int id) { return symbols[id].kind == SymbolInfo::Kind::LoopVar && !base.symbols.count(id); };
  std::vector<std::vector<int>> groups;
  std::map<int, size_t> groupOf;
  std::vector<int> todo(used.begin(), used.end());
  while (!todo.empty()) {
    const int id = todo.back();
    todo.pop_back();
    if (!isLoop(id) || groupOf.count(id)) continue;
    std::vector<int> group = loopGroup(id, symbols);
    for (int member : group) groupOf[member] = groups.size();
    for (int member : group) {
      const SymbolInfo& s = symbols[member];
      std::set<int> deps;
      collectLoopBounds(s, deps);
      for (int dep : deps) todo.push_back(dep);
    }
    groups.push_back(std::move(group));
  }
  auto dependsOn = [&](size_t g) {
    std::set<size_t> out;
    for (int member : groups[g]) {
      const SymbolInfo& s = symbols[member];
      std::set<int> deps;
      collectLoopBounds(s, deps);
      for (int dep : deps)
        if (auto it = groupOf.find(dep); it != groupOf.end() && it->second != g) out.insert(it->second);
    }
    return out;
  };
  // Among the loops whose bounds are ready, the outermost first (the walker numbers a loop
  // before the loops of its body: SymbolInfo::loop), so that consecutive combos are one
  // thread's consecutive iterations of the innermost loop, as the warp runs them: the
  // iteration window (model::IterationWindow, lane_function.cpp) reads them in this order,
  // and kMaxIterationCombos cuts whole inner loops. In the order found, a loop over the
  // fields of an element (`for (m = 0; m < 5; m++) v[m + 5 * i]`) could come outside the
  // loop over the elements, and the window saw the same field of other elements.
  auto nesting = [&](size_t g) {
    const int loop = symbols[groups[g].front()].loop;
    return loop < 0 ? std::numeric_limits<int>::max() : loop;
  };
  std::vector<size_t> order;
  std::vector<bool> placed(groups.size(), false);
  while (order.size() < groups.size()) {
    std::optional<size_t> ready;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (placed[g]) continue;
      const std::set<size_t> deps = dependsOn(g);
      if (std::all_of(deps.begin(), deps.end(), [&](size_t d) { return placed[d]; }) &&
          (!ready || nesting(g) < nesting(*ready)))
        ready = g;
    }
    if (!ready) {  // bounds that depend on each other: in the order found
      for (size_t g = 0; g < groups.size(); ++g)
        if (!placed[g]) order.push_back(g), placed[g] = true;
      break;
    }
    order.push_back(*ready);
    placed[*ready] = true;
  }

  std::vector<std::map<int, int64_t>> combos{{}};
  for (size_t g : order) {
    const std::vector<int>& group = groups[g];
    const SymbolInfo& s = symbols[group.front()];
    const bool arithmetic = std::none_of(group.begin(), group.end(), [&](int id) { return symbols[id].loopNext; });
    std::vector<std::map<int, int64_t>> next;
    size_t listed = 0;
    bool allExact = true, sampled = false;
    // loopIterations reads of the outer combo only the values of the symbols its members'
    // starts, steps and conditions name: an inner loop whose bounds do not name an outer
    // loop's variable (`for (j = 0; j < 32; j++)` inside `for (i = 0; i < n; i++)`) has the
    // same iterations under every outer combo, listed once (myocyte's nests listed them again
    // under each of the outer loop's values, 4.8 million iterations for 55 thousand combos).
    const std::set<int> boundSymbols = loopBoundSymbols(group, symbols);
    // `b`: the base's values of those symbols with the outer combo's values set, then put back
    // as they were (one copy per group, not one per outer combo).
    Bindings b = boundOnly(base, boundSymbols);
    std::vector<std::pair<int, std::optional<int64_t>>> saved;
    struct Listed {
      std::vector<std::map<int, int64_t>> iterations;
      bool exact = false, loadedStart = false, sampled = false;
    };
    std::map<std::vector<std::optional<int64_t>>, Listed> listedFor;  // by the outer values read
    const std::vector<int> boundList(boundSymbols.begin(), boundSymbols.end());
    for (const auto& c : combos) {
      auto [entry, added] = listedFor.try_emplace(valuesIn(c, boundList));
      Listed& l = entry->second;
      if (added) {
        for (const auto& [sid, old] : saved) {
          if (old) b.symbols[sid] = *old;
          else b.symbols.erase(sid);
        }
        saved.clear();
        for (const auto& [sid, v] : c) {
          auto it = b.symbols.find(sid);
          saved.emplace_back(sid, it == b.symbols.end() ? std::nullopt : std::optional<int64_t>(it->second));
          b.symbols[sid] = v;
        }
        l.iterations = loopIterations(group, symbols, b, l.exact, &l.loadedStart);
        if (l.iterations.empty() && arithmetic) {
          // Unknown trip count: a sample of the first iterations, enough to cover every
          // alignment period of a small stride.
          for (int64_t k = 0; k < 64; ++k) {
            std::map<int, int64_t> it;
            for (int id : group) it[id] = k;
            l.iterations.push_back(std::move(it));
          }
          l.sampled = true;
        }
      }
      const std::vector<std::map<int, int64_t>>& iterations = l.iterations;
      if (l.loadedStart && !iterations.empty())
        notes.insert("`" + s.loopText + "` is bounded by a count loaded from memory: taken as " +
                     std::to_string(2 * b.blockDim[0] * b.blockDim[1] * b.blockDim[2]) +
                     ", two elements per thread of the block (a tree over the block's data)");
      sampled = sampled || l.sampled;
      allExact = allExact && l.exact;
      if (iterations.empty()) {  // not enumerable: the loop is left unbound, as before
        next.push_back(c);
        continue;
      }
      listed += iterations.size();
      for (const auto& it : iterations) {
        if (next.size() >= kMaxIterationCombos) break;
        auto n = c;
        for (const auto& [id, v] : it) n[id] = v;
        next.push_back(std::move(n));
      }
    }
    const size_t outer = combos.size();
    combos = std::move(next);
    // "the 1 iterations" would contradict itself: one listed iteration is said as such. An
    // inner loop's count is said per pass, with the passes: "the 320 iterations of
    // `for (m = 0; m < 5; m++)`" would contradict its own text.
    const bool inner = order.size() > 1 && g != order.front() && outer > 1;
    const std::string kind = allExact && !sampled ? "the " : "a sample of ";
    if (listed == 1)
      notes.insert(std::string(allExact && !sampled ? "for the one iteration" : "for one sampled iteration") +
                   " of `" + s.loopText + "`");
    else if (inner && listed % outer == 0)
      notes.insert("averaged over " + kind + std::to_string(listed / outer) + " iterations of `" + s.loopText +
                   "` in each of " + std::to_string(outer) + " iterations of the loops around it (" +
                   std::to_string(listed) + " in all)");
    else if (inner)
      notes.insert("averaged over " + kind + std::to_string(listed) + " iterations of `" + s.loopText + "` across " +
                   std::to_string(outer) + " iterations of the loops around it");
    else if (listed > 0)
      notes.insert("averaged over " + kind + std::to_string(listed) + " iterations of `" + s.loopText + "`");
  }
  return combos;
}

}  // namespace coalesce::analysis::lanes
