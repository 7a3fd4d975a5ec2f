#include "lane_function.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>

namespace coalesce::analysis {

namespace {

using model::AccessFigures;
using model::Dim3;

int64_t dimOf(const Dim3& d, int64_t i) { return i == 0 ? d.x : i == 1 ? d.y : d.z; }

void collectSymbols(const ExprRef& e, std::set<int>& out) {
  if (e->op == Op::Symbol) out.insert(e->symbolId);
  for (const auto& a : e->args) collectSymbols(a, out);
}

std::vector<int> loopGroup(int id, const SymbolTable& symbols);
std::vector<std::map<int, int64_t>> loopIterations(const std::vector<int>& group, const SymbolTable& symbols,
                                                   const Bindings& base, bool& exact);

struct Evaluator {
  Evaluator(const RawAccess& r, const LaunchContext& l, const SymbolTable& s, const model::Arch& a)
      : raw(r), launch(l), symbols(s), arch(a) {
    collectSymbols(raw.offset, relevant);
    for (const auto& g : raw.guards) collectSymbols(g, relevant);
    if (raw.rootLoadAddress) collectSymbols(raw.rootLoadAddress, relevant);
  }
  const RawAccess& raw;
  const LaunchContext& launch;
  const SymbolTable& symbols;
  const model::Arch& arch;
  std::set<std::string> assumptions;
  // The block whose threads stand for the grid's: see evaluateLanes.
  int64_t blockIdx[3] = {0, 0, 0};
  bool usedRepresentative = false;
  std::set<int> representativeSymbols;
  bool guardAssumed = false;

  std::map<int, std::optional<int64_t>> tripCache;

  // The trip count of a loop under this launch, when its bounds make it exact.
  std::optional<int64_t> tripCount(int counterId) {
    auto it = tripCache.find(counterId);
    if (it != tripCache.end()) return it->second;
    bool exact = false;
    const auto iterations = loopIterations(loopGroup(counterId, symbols), symbols, launchBindings(), exact);
    std::optional<int64_t> n;
    if (exact) n = static_cast<int64_t>(iterations.size());
    tripCache[counterId] = n;
    return n;
  }

  std::map<int, std::optional<int64_t>> exitCache;

  // The value a geometric loop variable has when its loop ends under this launch, when
  // its bounds make it known (nothing while it is being worked out: no recursion).
  std::optional<int64_t> exitValue(int exitId) {
    if (auto it = exitCache.find(exitId); it != exitCache.end()) return it->second;
    exitCache[exitId] = std::nullopt;
    const int var = symbols[exitId].exitOf;
    bool exact = false;
    const auto iterations = loopIterations(loopGroup(var, symbols), symbols, launchBindings(), exact);
    std::optional<int64_t> value;
    if (exact && iterations.empty()) {
      value = evaluate(symbols[var].loopInit, launchBindings());  // the loop never ran
    } else if (exact && iterations.back().count(var)) {
      Bindings last = launchBindings();
      for (const auto& [id, v] : iterations.back()) last.symbols[id] = v;
      value = evaluate(symbols[var].loopNext, last);
    }
    exitCache[exitId] = value;
    return value;
  }

  // Leaves the launch fixes: blockDim when known, parameters with known values, trip
  // counts of loops with known bounds.
  ExprRef fixLaunch(const ExprRef& leaf) {
    if (leaf->op == Op::BlockDim && launch.blockKnown) return constant(dimOf(launch.block.dim, leaf->value));
    if (leaf->op == Op::Symbol && symbols[leaf->symbolId].exitOf >= 0) {
      if (auto v = exitValue(leaf->symbolId)) return constant(*v);
      return nullptr;
    }
    if (leaf->op == Op::Symbol && symbols[leaf->symbolId].tripOf >= 0) {
      if (auto n = tripCount(symbols[leaf->symbolId].tripOf)) return constant(*n);
      return nullptr;
    }
    if (leaf->op == Op::Symbol) {
      auto it = launch.symbolValues.find(leaf->symbolId);
      if (it != launch.symbolValues.end()) return constant(it->second);
      if (symbols[leaf->symbolId].value) return constant(*symbols[leaf->symbolId].value);
    }
    return nullptr;
  }

  int64_t leafAlignment(const ExprRef& leaf) const {
    switch (leaf->op) {
      case Op::BlockDim: return leaf->value == 0 ? 32 : 1;  // assumed: blockDim.x a multiple of 32
      case Op::Symbol: return symbols[leaf->symbolId].alignment;
      default: return 1;
    }
  }

  // The grid: the launch's when it is known, else a large one; and the chosen block.
  void bindGrid(Bindings& b) const {
    for (int d = 0; d < 3; ++d) {
      b.gridDim[d] = launch.grid ? dimOf(*launch.grid, d) : kAssumedGridDim;
      b.blockIdx[d] = blockIdx[d];
    }
  }

  // Bindings used to evaluate lane-varying, non-affine parts: representative values
  // for what is still unknown (said in the assumptions).
  model::Dim3 block() const { return launch.block.dim; }

  // What the launch fixes, as bindings (no thread, no loop values).
  Bindings launchBindings() {
    Bindings b;
    const Dim3 d = block();
    b.blockDim[0] = d.x; b.blockDim[1] = d.y; b.blockDim[2] = d.z;
    bindGrid(b);
    for (const auto& [id, v] : launch.symbolValues) b.symbols[id] = v;
    for (size_t id = 0; id < symbols.size(); ++id)
      if (symbols[static_cast<int>(id)].value) b.symbols[static_cast<int>(id)] = *symbols[static_cast<int>(id)].value;
    for (size_t id = 0; id < symbols.size(); ++id)
      if (symbols[static_cast<int>(id)].exitOf >= 0)
        if (auto v = exitValue(static_cast<int>(id))) b.symbols[static_cast<int>(id)] = *v;
    return b;
  }

  // The symbols the access's address and guards mention: the only ones worth binding.
  std::set<int> relevant;

  Bindings representative(const std::map<int, int64_t>& iteration) {
    Bindings b;
    const Dim3 d = block();
    b.blockDim[0] = d.x; b.blockDim[1] = d.y; b.blockDim[2] = d.z;
    bindGrid(b);
    for (int sid : relevant) {
      if (auto it = iteration.find(sid); it != iteration.end()) b.symbols[sid] = it->second;
      else if (auto lv = launch.symbolValues.find(sid); lv != launch.symbolValues.end()) b.symbols[sid] = lv->second;
      else if (symbols[sid].value) b.symbols[sid] = *symbols[sid].value;
      else if (symbols[sid].kind == SymbolInfo::Kind::LoopVar) b.symbols[sid] = 0;
      else b.symbols[sid] = kAssumedRuntimeValue;
    }
    return b;
  }

  struct Pattern {
    model::LanePattern pattern;
    bool gather = false;
  };

  // The uniform part of an address -> constant + unknown multiple of an alignment.
  model::UniformOffset uniformBase(const std::vector<ExprRef>& uniformAddends, bool& gather) {
    model::UniformOffset base;
    int64_t unknown = raw.rootAlignment;
    // A pointer the launch passes as `buf + k`: k's bytes past the allocation's alignment.
    if (auto it = launch.pointerByteOffsets.find(raw.rootParam); raw.rootParam >= 0 && it != launch.pointerByteOffsets.end())
      base.constant += ((it->second % raw.rootAlignment) + raw.rootAlignment) % raw.rootAlignment;
    for (const ExprRef& a : uniformAddends) {
      auto form = linearize(a);
      if (!form) continue;  // cannot happen for uniform parts (opaque terms)
      base.constant += form->constant;
      for (const AffineTerm& t : form->terms) {
        if (containsOp(t.leaf, Op::UniformLoad)) gather = true;
        const int64_t div = knownDivisor(t.leaf, [&](const ExprRef& l) { return leafAlignment(l); });
        const int64_t termAlign = div == 0 ? 0 : std::abs(t.coef) * div;
        unknown = std::gcd(unknown, termAlign);
      }
    }
    base.unknownAlignment = unknown == 0 ? 0 : unknown;
    // An alignment that is a multiple of the model's period is as good as known; the
    // model checks that itself.
    return base;
  }

  // Per-thread activity from the guards (nullopt: the guard could not be evaluated).
  std::vector<bool> activeMask(const std::vector<ExprRef>& guards, Bindings b) {
    const Dim3 d = block();
    std::vector<bool> active(static_cast<size_t>(d.volume()), true);
    if (guards.empty()) return active;
    for (int64_t linear = 0; linear < d.volume(); ++linear) {
      const model::ThreadIdx t = model::threadFromLinear(d, linear);
      b.tid[0] = t.x; b.tid[1] = t.y; b.tid[2] = t.z;
      for (size_t g = 0; g < guards.size(); ++g) {
        auto v = evaluate(guards[g], b);
        if (!v) {
          guardAssumed = true;
          assumptions.insert("assumes every lane passes `" + raw.guardTexts[g] + "` (it depends on values not known statically)");
          continue;
        }
        if (*v == 0) {
          active[static_cast<size_t>(linear)] = false;
          break;
        }
      }
    }
    return active;
  }

  // A load whose address is the same for every lane of each warp (under this block
  // shape) yields a warp-uniform value: data-dependent, but not scattered.
  ExprRef resolveWarpUniformLoads(const ExprRef& e, const Bindings& rep) {
    if (e->args.empty()) return e;
    if (e->op == Op::LaneLoad) {
      const ExprRef address = resolveWarpUniformLoads(e->args[0], rep);
      if (warpUniform(address, rep)) return leaf(Op::UniformLoad);
      return unary(Op::LaneLoad, address);
    }
    bool changed = false;
    std::vector<ExprRef> args;
    for (const auto& a : e->args) {
      args.push_back(resolveWarpUniformLoads(a, rep));
      changed = changed || args.back() != a;
    }
    if (!changed) return e;
    if (e->op == Op::Select) return select(args[0], args[1], args[2]);
    if (args.size() == 1) return unary(e->op, args[0]);
    return binary(e->op, args[0], args[1]);
  }

  bool warpUniform(const ExprRef& address, Bindings b) {
    if (!dependsOnThread(address)) return true;
    if (containsOp(address, Op::LaneLoad) || containsOp(address, Op::Varying)) return false;
    const Dim3 d = block();
    for (int64_t w = 0; w < model::warpCount(d, arch); ++w) {
      std::optional<int64_t> first;
      for (const model::ThreadIdx& t : model::warpThreads(d, w, arch)) {
        b.tid[0] = t.x; b.tid[1] = t.y; b.tid[2] = t.z;
        auto v = evaluate(address, b);
        if (!v) return false;
        if (!first) first = v;
        else if (*first != *v) return false;
      }
    }
    return true;
  }

  // `e` in one loop iteration: the iteration's values and what the launch fixes put in,
  // then the loads that are warp-uniform under `rep` resolved.
  ExprRef atIteration(const ExprRef& e, const std::map<int, int64_t>& iteration, const Bindings& rep) {
    return resolveWarpUniformLoads(substitute(e, [&](const ExprRef& leaf) -> ExprRef {
                                     if (leaf->op == Op::Symbol)
                                       if (auto it = iteration.find(leaf->symbolId); it != iteration.end())
                                         return constant(it->second);
                                     return fixLaunch(leaf);
                                   }),
                                   rep);
  }

  Pattern patternFor(const std::map<int, int64_t>& iteration) {
    Pattern out;
    Bindings rep = representative(iteration);
    const ExprRef offset = atIteration(raw.offset, iteration, rep);
    std::vector<ExprRef> guards;
    for (const auto& g : raw.guards) guards.push_back(atIteration(g, iteration, rep));

    // A pointer loaded from a table at a warp-uniform address is a per-warp base.
    const bool rootIndirect =
        raw.rootIndirect && !(raw.rootLoadAddress && warpUniform(atIteration(raw.rootLoadAddress, iteration, rep), rep));
    if (rootIndirect || containsOp(offset, Op::LaneLoad)) {
      out.pattern = model::LanePattern::makeIndirect();
      return out;
    }
    if (containsOp(offset, Op::Varying)) {
      out.pattern = model::LanePattern::makeUnknown();
      return out;
    }
    // Split the address into a warp-uniform base and a lane part. An affine address
    // splits term by term; otherwise the top-level addends split by uniformity.
    std::vector<ExprRef> uniformParts, laneParts;
    model::AffineLanes lanes;
    bool affine = false;
    auto form = linearize(offset);
    if (!form) {
      // tx * width with width unknown: take the stated large value for the parameters that
      // scale lanes, so the address stays affine (the rules read its thread axes).
      std::set<int> scaling;
      for (const ExprRef& a : addends(offset))
        if (dependsOnThread(a)) collectSymbols(a, scaling);
      ExprRef fixed = substitute(offset, [&](const ExprRef& l) -> ExprRef {
        if (l->op == Op::Symbol && scaling.count(l->symbolId) && symbols[l->symbolId].kind == SymbolInfo::Kind::Param)
          return constant(kAssumedRuntimeValue);
        return nullptr;
      });
      if ((form = linearize(fixed)))
        for (int id : scaling)
          if (symbols[id].kind == SymbolInfo::Kind::Param) representativeSymbols.insert(id);
    }
    if (form) {
      affine = true;
      uniformParts.push_back(constant(form->constant));
      for (const AffineTerm& t : form->terms) {
        if (t.leaf->op == Op::ThreadIdx) {
          (t.leaf->value == 0 ? lanes.cx : t.leaf->value == 1 ? lanes.cy : lanes.cz) += t.coef;
          laneParts.push_back(binary(Op::Mul, t.leaf, constant(t.coef)));
        } else if (isUniform(t.leaf)) {
          uniformParts.push_back(binary(Op::Mul, t.leaf, constant(t.coef)));
        } else {
          affine = false;
        }
      }
    }
    if (!affine) {
      uniformParts.clear();
      laneParts.clear();
      for (const ExprRef& a : addends(offset)) (isUniform(a) ? uniformParts : laneParts).push_back(a);
    }
    const model::UniformOffset base = uniformBase(uniformParts, out.gather);
    const bool guarded = std::any_of(guards.begin(), guards.end(), [](const ExprRef& g) {
      auto c = asConstant(g);
      return !c || *c == 0;
    });
    if (affine && !guarded) {
      out.pattern = model::LanePattern::makeAffine(lanes, base);
      return out;
    }
    // Enumerate: evaluate the lane part for every thread of the block.
    Bindings b = rep;
    for (const ExprRef& a : laneParts) collectSymbols(a, representativeSymbols);
    const std::vector<bool> active = activeMask(guards, b);
    // Guards every lane passes (a bounds check on full blocks) keep the affine form,
    // which the rules read (thread axes, strides).
    if (affine && std::all_of(active.begin(), active.end(), [](bool on) { return on; })) {
      out.pattern = model::LanePattern::makeAffine(lanes, base);
      return out;
    }
    const Dim3 d = block();
    std::vector<std::optional<int64_t>> offsets(static_cast<size_t>(d.volume()));
    for (int64_t linear = 0; linear < d.volume(); ++linear) {
      if (!active[static_cast<size_t>(linear)]) continue;
      const model::ThreadIdx t = model::threadFromLinear(d, linear);
      b.tid[0] = t.x; b.tid[1] = t.y; b.tid[2] = t.z;
      int64_t sum = 0;
      for (const ExprRef& a : laneParts) {
        auto v = evaluate(a, b);
        if (!v) {
          out.pattern = model::LanePattern::makeUnknown();
          return out;
        }
        sum += *v;
      }
      offsets[static_cast<size_t>(linear)] = sum;
    }
    out.pattern = model::LanePattern::makeEnumerated(std::move(offsets), base);
    return out;
  }
};

// The symbols of one loop: its iteration counter and its geometric variables (`d >>= 1`,
// `offset *= 2`), which share its condition and advance together.
std::vector<int> loopGroup(int id, const SymbolTable& symbols) {
  const SymbolInfo& s = symbols[id];
  std::vector<int> group;
  for (size_t other = 0; other < symbols.size(); ++other) {
    const SymbolInfo& o = symbols[static_cast<int>(other)];
    if (o.kind == SymbolInfo::Kind::LoopVar && s.loopCond && o.loopCond == s.loopCond) group.push_back(static_cast<int>(other));
  }
  if (group.empty()) group.push_back(id);
  return group;
}

// One loop's iterations under `base`: the values its symbols take together, while its
// condition holds (for thread-dependent conditions, while it holds for the first or the
// last thread of the block). Capped; `exact` says whether the loop ended within the cap.
std::vector<std::map<int, int64_t>> loopIterations(const std::vector<int>& group, const SymbolTable& symbols,
                                                   const Bindings& base, bool& exact) {
  std::vector<std::map<int, int64_t>> out;
  exact = false;
  std::map<int, int64_t> state;
  std::vector<int> members;  // those whose first value is known; the others stay unbound
  for (int id : group) {
    const SymbolInfo& s = symbols[id];
    if (s.loopNext) {
      auto x = evaluate(s.loopInit, base);
      if (!x) continue;
      state[id] = *x;
    } else {
      state[id] = 0;  // the iteration counter
    }
    members.push_back(id);
  }
  if (members.empty()) return out;
  const SymbolInfo& head = symbols[group.front()];
  Bindings first = base, last = base;
  for (int d = 0; d < 3; ++d) {
    first.tid[d] = 0;
    last.tid[d] = base.blockDim[d] - 1;
  }
  while (static_cast<int64_t>(out.size()) < kMaxLoopValues) {
    for (const auto& [id, v] : state) first.symbols[id] = last.symbols[id] = v;
    std::optional<int64_t> c1 = head.loopCond ? evaluate(head.loopCond, first) : std::nullopt;
    std::optional<int64_t> c2 = head.loopCond ? evaluate(head.loopCond, last) : std::nullopt;
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
      auto n = evaluate(s.loopNext, first);
      if (!n) return out;
      moved = moved || *n != state[id];
      next[id] = *n;
    }
    if (!moved) return out;
    state = std::move(next);
  }
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
      for (const ExprRef& e : {s.loopInit, s.loopNext, s.loopCond})
        if (e) collectSymbols(e, deps);
      for (int dep : deps) todo.push_back(dep);
    }
    groups.push_back(std::move(group));
  }
  auto dependsOn = [&](size_t g) {
    std::set<size_t> out;
    for (int member : groups[g]) {
      const SymbolInfo& s = symbols[member];
      std::set<int> deps;
      for (const ExprRef& e : {s.loopInit, s.loopNext, s.loopCond})
        if (e) collectSymbols(e, deps);
      for (int dep : deps)
        if (auto it = groupOf.find(dep); it != groupOf.end() && it->second != g) out.insert(it->second);
    }
    return out;
  };
  std::vector<size_t> order;
  std::vector<bool> placed(groups.size(), false);
  while (order.size() < groups.size()) {
    bool progressed = false;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (placed[g]) continue;
      const std::set<size_t> deps = dependsOn(g);
      if (std::all_of(deps.begin(), deps.end(), [&](size_t d) { return placed[d]; })) {
        order.push_back(g);
        placed[g] = progressed = true;
      }
    }
    if (!progressed)  // bounds that depend on each other: in the order found
      for (size_t g = 0; g < groups.size(); ++g)
        if (!placed[g]) order.push_back(g), placed[g] = true;
  }

  std::vector<std::map<int, int64_t>> combos{{}};
  for (size_t g : order) {
    const std::vector<int>& group = groups[g];
    const SymbolInfo& s = symbols[group.front()];
    const bool arithmetic = std::none_of(group.begin(), group.end(), [&](int id) { return symbols[id].loopNext; });
    std::vector<std::map<int, int64_t>> next;
    size_t listed = 0;
    bool allExact = true, sampled = false;
    for (const auto& c : combos) {
      Bindings b = base;
      for (const auto& [sid, v] : c) b.symbols[sid] = v;
      bool exact = false;
      std::vector<std::map<int, int64_t>> iterations = loopIterations(group, symbols, b, exact);
      if (iterations.empty() && arithmetic) {
        // Unknown trip count: a sample of the first iterations, enough to cover every
        // alignment period of a small stride.
        for (int64_t k = 0; k < 64; ++k) {
          std::map<int, int64_t> it;
          for (int id : group) it[id] = k;
          iterations.push_back(std::move(it));
        }
        sampled = true;
      }
      allExact = allExact && exact;
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
    combos = std::move(next);
    if (listed > 0)
      notes.insert("averaged over " + std::string(allExact && !sampled ? "the " : "a sample of ") +
                   std::to_string(listed) + " iterations of `" + s.loopText + "`" +
                   (order.size() > 1 && g != order.front() ? " (over the outer loops)" : ""));
  }
  return combos;
}

template <class F>
void accumulate(F& sum, const F& f, double weight);

template <>
void accumulate(model::GlobalFigures& sum, const model::GlobalFigures& f, double w) {
  sum.sectorsPerRequest += f.sectorsPerRequest * w;
  sum.idealSectors += f.idealSectors * w;
  sum.minSectors = sum.requests == 0 ? f.minSectors : std::min(sum.minSectors, f.minSectors);
  sum.maxSectors = std::max(sum.maxSectors, f.maxSectors);
  sum.broadcast = (sum.requests == 0 || sum.broadcast) && f.broadcast;
  sum.requests += f.requests;
}
template <>
void accumulate(model::SharedFigures& sum, const model::SharedFigures& f, double w) {
  sum.wavefronts += f.wavefronts * w;
  sum.idealWavefronts += f.idealWavefronts * w;
  sum.maxWavefronts = std::max(sum.maxWavefronts, f.maxWavefronts);
  sum.maxWaysInPhase = std::max(sum.maxWaysInPhase, f.maxWaysInPhase);
  sum.requests += f.requests;
}

void finish(model::GlobalFigures& f) {
  if (f.requests == 0) return;
  f.sectorsPerRequest /= static_cast<double>(f.requests);
  f.idealSectors /= static_cast<double>(f.requests);
  f.efficiency = f.sectorsPerRequest > 0 ? f.idealSectors / f.sectorsPerRequest : 1.0;
}
void finish(model::SharedFigures& f) {
  if (f.requests == 0) return;
  f.wavefronts /= static_cast<double>(f.requests);
  f.idealWavefronts /= static_cast<double>(f.requests);
  f.conflictDegree = f.idealWavefronts > 0 ? f.wavefronts / f.idealWavefronts : 1.0;
}

template <class F>
void mergeCases(std::optional<model::AlignmentCases<F>>& sum, const std::optional<model::AlignmentCases<F>>& c) {
  if (!c) return;
  if (!sum) sum.emplace();
  sum->alignmentKnown = (sum->aligned.requests == 0 || sum->alignmentKnown) && c->alignmentKnown;
  accumulate(sum->aligned, c->aligned, static_cast<double>(c->aligned.requests));
  accumulate(sum->best, c->best, static_cast<double>(c->best.requests));
  accumulate(sum->worst, c->worst, static_cast<double>(c->worst.requests));
}

template <class F>
void finishCases(std::optional<model::AlignmentCases<F>>& c) {
  if (!c) return;
  finish(c->aligned);
  finish(c->best);
  finish(c->worst);
}

}  // namespace

namespace {

// Binds thread `linear` of the block.
void bindThread(Bindings& b, const Dim3& d, int64_t linear) {
  const model::ThreadIdx t = model::threadFromLinear(d, linear);
  b.tid[0] = t.x;
  b.tid[1] = t.y;
  b.tid[2] = t.z;
}

}  // namespace

ConditionFigures evaluateCondition(const ExprRef& condition, const RawAccess& guarded, const LaunchContext& launch,
                                   const SymbolTable& symbols, const model::Arch& arch, bool byValue) {
  ConditionFigures out;
  RawAccess raw = guarded;
  raw.offset = condition;
  Evaluator ev(raw, launch, symbols, arch);
  const Dim3 d = launch.block.dim;
  const int64_t warps = model::warpCount(d, arch);
  const bool partialLast = d.volume() % arch.warpSize != 0;
  out.onlyPartialWarps = true;
  for (const auto& combo : iterationCombos(raw, symbols, ev.launchBindings(), ev.assumptions)) {
    Bindings rep = ev.representative(combo);
    const ExprRef cond = ev.atIteration(condition, combo, rep);
    out.threadDependent = out.threadDependent || dependsOnThread(cond);
    std::vector<ExprRef> guards;
    for (const auto& g : raw.guards) guards.push_back(ev.atIteration(g, combo, rep));
    const std::vector<bool> active = ev.activeMask(guards, rep);
    for (int64_t w = 0; w < warps; ++w) {
      std::optional<int64_t> first;
      bool any = false, split = false;
      for (int64_t linear = w * arch.warpSize; linear < std::min(d.volume(), (w + 1) * arch.warpSize); ++linear) {
        if (!active[static_cast<size_t>(linear)]) continue;
        any = true;
        Bindings& b = rep;  // only the thread index changes: no copy per lane
        bindThread(b, d, linear);
        auto v = evaluate(cond, b);
        if (!v) {
          out.evaluated = false;
          continue;
        }
        const int64_t value = byValue ? *v : static_cast<int64_t>(*v != 0);
        if (!first) first = value;
        else if (*first != value) split = true;
      }
      if (!any) continue;
      ++out.warpRequests;
      if (split) {
        ++out.divergentRequests;
        if (!(partialLast && w == warps - 1)) out.onlyPartialWarps = false;
      }
    }
  }
  if (out.divergentRequests == 0) out.onlyPartialWarps = false;
  out.assumptions.assign(ev.assumptions.begin(), ev.assumptions.end());
  return out;
}

BarrierReach evaluateBarrier(const RawAccess& guarded, const LaunchContext& launch, const SymbolTable& symbols,
                             const model::Arch& arch) {
  BarrierReach out;
  if (guarded.guards.empty()) return out;
  RawAccess raw = guarded;
  raw.offset = constant(0);
  Evaluator ev(raw, launch, symbols, arch);
  const Dim3 d = launch.block.dim;
  for (const auto& combo : iterationCombos(raw, symbols, ev.launchBindings(), ev.assumptions)) {
    Bindings rep = ev.representative(combo);
    // Guards in order: each one is asked only of the threads the outer ones let through.
    std::vector<bool> alive(static_cast<size_t>(d.volume()), true);
    for (size_t g = 0; g < raw.guards.size(); ++g) {
      const ExprRef guard = ev.atIteration(raw.guards[g], combo, rep);
      if (!dependsOnThread(guard)) continue;  // uniform over the block
      std::optional<bool> first;
      bool unknown = false, split = false;
      std::vector<bool> next = alive;
      for (int64_t linear = 0; linear < d.volume(); ++linear) {
        if (!alive[static_cast<size_t>(linear)]) continue;
        Bindings& b = rep;  // only the thread index changes: no copy per lane
        bindThread(b, d, linear);
        auto v = evaluate(guard, b);
        if (!v) {
          unknown = true;
          continue;
        }
        next[static_cast<size_t>(linear)] = *v != 0;
        if (!first) first = *v != 0;
        else if (*first != (*v != 0)) split = true;
      }
      if (split) {
        out.kind = BarrierReach::Kind::Divergent;
        out.guard = raw.guardTexts[g];
        out.assumptions.assign(ev.assumptions.begin(), ev.assumptions.end());
        return out;
      }
      if (unknown && out.kind == BarrierReach::Kind::Uniform) {
        out.kind = BarrierReach::Kind::Unknown;
        out.guard = raw.guardTexts[g];
      }
      alive = next;
    }
  }
  out.assumptions.assign(ev.assumptions.begin(), ev.assumptions.end());
  return out;
}

namespace {

// One block's worth of an access: its figures over the loop iterations, with the evaluator
// (and its assumptions) that made them.
LaneResult evaluateLanesInBlock(const RawAccess& raw, Evaluator& ev, const model::Arch& arch) {
  LaneResult result;
  auto combos = iterationCombos(raw, ev.symbols, ev.launchBindings(), ev.assumptions);
  bool first = true;
  for (const auto& combo : combos) {
    auto p = ev.patternFor(combo);
    model::Access access{raw.space, raw.kind, raw.bytes, std::move(p.pattern)};
    result.indirectRowGather = result.indirectRowGather || p.gather;
    AccessFigures f = model::analyzeAccess(access, ev.launch.block.dim, arch);
    if (first) {
      result.access = access;
      result.figures.sectorRange = f.sectorRange;
      result.figures.wavefrontRange = f.wavefrontRange;
      result.figures.activeLanesPerWarp = f.activeLanesPerWarp;
      first = false;
    }
    mergeCases(result.figures.global, f.global);
    mergeCases(result.figures.shared, f.shared);
  }
  finishCases(result.figures.global);
  finishCases(result.figures.shared);
  return result;
}

// Adds one block's figures standing for `blocks` blocks of the grid (weights by requests).
template <class F>
void addBlocks(std::optional<model::AlignmentCases<F>>& sum, std::optional<model::AlignmentCases<F>> part,
               int64_t blocks) {
  if (!part) return;
  for (F* f : {&part->aligned, &part->best, &part->worst}) f->requests *= blocks;
  mergeCases(sum, part);
}

// The blocks that stand for a known grid when an access's guards depend on the block
// index: along each axis the first, one inside (standing for all but the first and the
// last) and the last, each with the weight of the blocks it stands for. With `inside`
// above 1 (a 1D grid whose address bends on the block index: `blockIdx.x & 1 ? i : 2 * i`),
// that many consecutive blocks share the inside's weight, so that patterns repeating every
// few blocks are averaged; weights are then scaled by `inside` to stay whole.
std::vector<std::pair<std::array<int64_t, 3>, int64_t>> edgeBlocks(const model::Dim3& grid, int64_t inside) {
  std::vector<std::pair<std::array<int64_t, 3>, int64_t>> out{{{0, 0, 0}, 1}};
  for (int d = 0; d < 3; ++d) {
    const int64_t g = dimOf(grid, d);
    std::vector<std::pair<int64_t, int64_t>> axis;
    if (g <= 1) {
      axis = {{0, 1}};
    } else if (d == 0 && inside > 1 && g > inside + 1) {
      axis = {{0, inside}, {g - 1, inside}};
      for (int64_t k = 1; k <= inside; ++k) axis.push_back({k, g - 2});
    } else if (g == 2) {
      axis = {{0, 1}, {1, 1}};
    } else {
      axis = {{0, 1}, {1, g - 2}, {g - 1, 1}};
    }
    std::vector<std::pair<std::array<int64_t, 3>, int64_t>> next;
    for (const auto& [idx, count] : out)
      for (const auto& [i, c] : axis) {
        auto at = idx;
        at[static_cast<size_t>(d)] = i;
        next.push_back({at, count * c});
      }
    out = std::move(next);
  }
  return out;
}

bool anyRequest(const LaneResult& r) {
  return (r.figures.global && r.figures.global->aligned.requests > 0) ||
         (r.figures.shared && r.figures.shared->aligned.requests > 0);
}

}  // namespace

LaneResult evaluateLanes(const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                         const model::Arch& arch) {
  // Which block stands for the grid: one inside it (blockIdx 1 along every axis the grid
  // may extend on), not the first, whose edge guards (`i >= 1`, `x > 0`) leave lanes idle
  // that the grid's other blocks use; the first block when the access does nothing there
  // (`if (blockIdx.x == 0)`) or the grid is one block along an axis.
  Evaluator ev(raw, launch, symbols, arch);
  for (int d = 0; d < 3; ++d) ev.blockIdx[d] = launch.grid && dimOf(*launch.grid, d) <= 1 ? 0 : 1;
  LaneResult result = evaluateLanesInBlock(raw, ev, arch);
  if (!anyRequest(result) && (ev.blockIdx[0] || ev.blockIdx[1] || ev.blockIdx[2])) {
    Evaluator first(raw, launch, symbols, arch);
    LaneResult inFirst = evaluateLanesInBlock(raw, first, arch);
    if (anyRequest(inFirst)) {
      result = std::move(inFirst);
      std::swap(ev.assumptions, first.assumptions);
      std::swap(ev.representativeSymbols, first.representativeSymbols);
    }
  }

  // Over a known grid, guards that depend on the block index (`i < n` with n not a
  // multiple of the block, `x >= 1`) idle lanes in the edge blocks only: the figures then
  // average the whole grid, each edge block weighing one block and the inside block the
  // rest, which is what the hardware's counters add up to.
  // The same for clamps on the block index in the address (`min(max(x - R, 0), w - 1)`).
  const bool guardsUseBlock = std::any_of(raw.guards.begin(), raw.guards.end(), [](const ExprRef& g) {
    return containsOp(g, Op::BlockIdx) || containsOp(g, Op::GridDim);
  });
  const bool addressBendsOnBlock = containsOp(raw.offset, Op::BlockIdx) && !linearize(raw.offset);
  if (launch.grid && (guardsUseBlock || addressBendsOnBlock) && anyRequest(result)) {
    const bool oneDimensional = launch.grid->y == 1 && launch.grid->z == 1;
    const auto blocks = edgeBlocks(*launch.grid, addressBendsOnBlock && oneDimensional ? kBendingBlocksAveraged : 1);
    if (blocks.size() > 1) {
      std::optional<model::AlignmentCases<model::GlobalFigures>> global;
      std::optional<model::AlignmentCases<model::SharedFigures>> shared;
      for (const auto& [idx, count] : blocks) {
        Evaluator edge(raw, launch, symbols, arch);
        for (int d = 0; d < 3; ++d) edge.blockIdx[d] = idx[static_cast<size_t>(d)];
        const LaneResult r = evaluateLanesInBlock(raw, edge, arch);
        addBlocks(global, r.figures.global, count);
        addBlocks(shared, r.figures.shared, count);
      }
      finishCases(global);
      finishCases(shared);
      const bool differs = (global && result.figures.global &&
                            global->aligned.sectorsPerRequest != result.figures.global->aligned.sectorsPerRequest) ||
                           (shared && result.figures.shared &&
                            shared->aligned.wavefronts != result.figures.shared->aligned.wavefronts);
      if (differs)
        ev.assumptions.insert("averaged over the grid of " + std::to_string(launch.grid->volume()) +
                              " blocks: its edge blocks run part of their lanes or clamp their addresses");
      if (global) result.figures.global = global;
      if (shared) result.figures.shared = shared;
    }
  }

  // Say what the figures rest on.
  auto& notes = ev.assumptions;
  for (const auto& n : raw.notes) notes.insert(n);
  const auto offsetAtLaunch = launch.pointerByteOffsets.find(raw.rootParam);
  if (raw.space == model::Space::Global && !raw.rootIndirect && raw.rootAlignment >= 32) {
    if (raw.rootParam >= 0 && offsetAtLaunch != launch.pointerByteOffsets.end())
      notes.insert("'" + raw.rootName + "' is " + std::to_string(offsetAtLaunch->second) + " bytes past the start of " +
                   "its allocation (" + launch.pointerOffsetSources.at(raw.rootParam) +
                   "), which is taken to be " + std::to_string(raw.rootAlignment) + "-byte aligned, as cudaMalloc returns");
    else
      notes.insert("assumes '" + raw.rootName + "' is " + std::to_string(raw.rootAlignment) +
                   "-byte aligned, as cudaMalloc returns");
  }
  if (result.access.pattern.kind == model::PatternKind::Indirect)
    notes.insert("the address depends on data loaded from memory: figures are the range from a broadcast to one sector per lane");
  if (result.access.pattern.kind == model::PatternKind::Unknown)
    notes.insert("the address could not be followed statically");
  for (int id : ev.representativeSymbols) {
    const SymbolInfo& s = symbols[id];
    if (launch.symbolValues.count(id) || s.value || s.kind == SymbolInfo::Kind::LoopVar) continue;
    notes.insert("assumes " + s.name + " = " + std::to_string(kAssumedRuntimeValue) +
                 " (a runtime value that scales the lane stride; set it with --assume " + s.name + "=N)");
  }
  std::set<int> used;
  collectSymbols(raw.offset, used);
  for (const auto& guard : raw.guards) collectSymbols(guard, used);
  for (const auto& [id, source] : launch.symbolValueSources)
    if (used.count(id)) notes.insert(symbols[id].name + " = " + std::to_string(launch.symbolValues.at(id)) + " from " + source);
  const auto& g = result.figures.global;
  if (g && !g->alignmentKnown)
    notes.insert("the base offset's alignment is not known: figures assume it aligned; the range covers every placement");
  result.assumptions.assign(notes.begin(), notes.end());
  return result;
}

}  // namespace coalesce::analysis
