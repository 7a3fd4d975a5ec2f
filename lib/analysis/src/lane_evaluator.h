// The per-lane evaluator of one access under one launch context: binds the launch's block,
// grid and known values, lists loop iterations, and gives each of the 32 lanes of a warp its
// address (lane_function.cpp drives it over warps, blocks and iterations). The loops' listing
// and the kernel's memo of it are loop_iterations.h's. Clang-free.
#pragma once

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "iteration_values.h"
#include "lane_function.h"
#include "lane_spread.h"
#include "loop_iterations.h"
#include "periodic_figures.h"

namespace coalesce::analysis::lanes {

using model::AccessFigures;
using model::Dim3;

struct Evaluator {
  Evaluator(const RawAccess& r, const LaunchContext& l, const SymbolTable& s, const model::Arch& a)
      : raw(r), launch(l), symbols(s), arch(a) {
    collectSymbols(raw.offset, relevant);
    for (const auto& g : raw.guards) collectSymbols(g, relevant);
    if (raw.rootLoadAddress) collectSymbols(raw.rootLoadAddress, relevant);
  }
  // Not copied: launchExits() may point into the evaluator's own state.
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;
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

  // An evaluator of an access under the very same guards (the same expressions) in the same
  // launch, block and live values, whose guards' substitutions and masks this one uses instead
  // of making its own (sharedGuards below: the accesses' block runs and a group's members).
  // A guard's program and mask read of the bindings only the guard's own symbols, which every
  // evaluator of that launch, block and live values binds alike (representative()). Null: its own.
  Evaluator* guardSource = nullptr;

  // Shared by the runs of one evaluateLanes when set; else the combos are listed afresh.
  IterationMemo* memo = nullptr;
  IterationMemo::Combos ownCombos;
  // iterationCombos of this access under launchBindings(), what it notes in `assumptions`.
  const IterationMemo::Combos& loopCombos() {
    if (memo) return memo->combos(raw, symbols, launchBindings(), assumptions);
    ownCombos = iterationCombos(raw, symbols, launchBindings(), assumptions);
    return ownCombos;
  }

  // The trip count of a loop under this launch, when its bounds make it exact.
  std::optional<int64_t> tripCount(int counterId) {
    const Bindings& b = launchBindings();  // first: a new block or live values clear the cache
    auto it = tripCache.find(counterId);
    if (it != tripCache.end()) return it->second;
    bool exact = false;
    const auto iterations = loopIterations(loopGroup(counterId, symbols), symbols, b, exact);
    std::optional<int64_t> n;
    if (exact) n = static_cast<int64_t>(iterations.size());
    tripCache[counterId] = n;
    return n;
  }

  // The value a geometric loop variable has when its loop ends under this launch, when
  // its bounds make it known.
  std::optional<int64_t> exitValue(int exitId) {
    const IterationMemo::LaunchExits& e = launchExits();
    const auto it = e.values.find(exitId);
    return it == e.values.end() ? std::nullopt : it->second;
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

  // What the launch fixes, as bindings (no thread, no loop values): its block and grid, the
  // values of its symbols, the live values, and the value each loop's exit takes when known.
  const Bindings& launchBindings() { return launchExits().bindings; }

  // The symbols the access's address and guards mention: the only ones worth binding.
  std::set<int> relevant;
  // Values chosen for unknown runtime scalars so that the access runs (lane_function.cpp,
  // liveValues); the others take kAssumedRuntimeValue.
  std::map<int, int64_t> liveValues;
  int64_t assumedValue(int sid) const {
    auto it = liveValues.find(sid);
    return it != liveValues.end() ? it->second : kAssumedRuntimeValue;
  }

  // launchBindings' state for the block and live values it was made for, kept in the
  // kernel's memo when there is one (IterationMemo::LaunchExits). The evaluator's users set
  // `blockIdx` and `liveValues` before they evaluate; a change after makes it afresh. Every
  // exit is worked out on first use, and what was assumed for any of them is said.
  const IterationMemo::LaunchExits& launchExits() {
    if (exits_ && std::equal(blockIdx, blockIdx + 3, madeBlockIdx_) && madeLiveValues_ == liveValues) return *exits_;
    Bindings b;
    const Dim3 d = block();
    b.blockDim[0] = d.x; b.blockDim[1] = d.y; b.blockDim[2] = d.z;
    bindGrid(b);
    for (const auto& [id, v] : launch.symbolValues) b.symbols[id] = v;
    // Values chosen so that an idle access runs bound its loops too (liveValues).
    for (const auto& [id, v] : liveValues) b.symbols.emplace(id, v);
    for (const int id : symbols.withValue()) b.symbols[id] = *symbols[id].value;
    exits_ = memo ? memo->exitsFor(b) : nullptr;
    if (!exits_) {
      ownExits_ = IterationMemo::LaunchExits{};
      ownExits_.bindings = std::move(b);
      exits_ = &ownExits_;
    }
    if (!exits_->all) {
      for (const int id : symbols.loopExits()) workOutExit(*exits_, id);
      exits_->all = true;
    }
    assumptions.insert(exits_->notes.begin(), exits_->notes.end());
    tripCache.clear();
    std::copy(blockIdx, blockIdx + 3, madeBlockIdx_);
    madeLiveValues_ = liveValues;
    return *exits_;
  }
  // One exit's value into `e` (nothing while it is being worked out: no recursion). The exits
  // its loop's bounds name come first: a scan's down-sweep starts where its up-sweep ended.
  void workOutExit(IterationMemo::LaunchExits& e, int exitId) const {
    if (e.values.count(exitId)) return;
    e.values[exitId] = std::nullopt;
    const int var = symbols[exitId].exitOf;
    const std::vector<int> group = loopGroup(var, symbols);
    for (int id : loopBoundSymbols(group, symbols))
      if (symbols[id].exitOf >= 0) workOutExit(e, id);
    bool exact = false;
    // A loop bounded by a loaded count (loopIterations) leaves its variables at the values
    // that count gives: the next loop (a scan's down-sweep after its up-sweep) starts there.
    bool loadedCount = false;
    const auto iterations = loopIterations(group, symbols, e.bindings, exact, &loadedCount);
    if (loadedCount && exact)
      e.notes.insert("`" + symbols[var].loopText + "` is bounded by a count loaded from memory: taken as two " +
                     "elements per thread of the block, where later code starts from its end");
    std::optional<int64_t> value;
    if (exact && iterations.empty()) {
      value = evaluate(symbols[var].loopInit, e.bindings);  // the loop never ran
    } else if (exact && iterations.back().count(var)) {
      std::set<int> named;
      collectSymbols(symbols[var].loopNext, named);
      Bindings last = boundOnly(e.bindings, named);
      for (const auto& [id, v] : iterations.back()) last.symbols[id] = v;
      value = evaluate(symbols[var].loopNext, last);
    }
    e.values[exitId] = value;
    if (value) e.bindings.symbols[exitId] = *value;
  }
  IterationMemo::LaunchExits ownExits_;
  IterationMemo::LaunchExits* exits_ = nullptr;
  int64_t madeBlockIdx_[3] = {0, 0, 0};
  std::map<int, int64_t> madeLiveValues_;

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
      else b.symbols[sid] = assumedValue(sid);
    }
    return b;
  }

  struct Pattern {
    model::LanePattern pattern;
    bool gather = false;
    // A pattern the model has no figures for (indirect, unknown): the warps with an active
    // lane, so that its requests still count in the launch's cost (launch_requests.cpp).
    int64_t uncomputedRequests = 0;
    // The bytes the block index's terms of the address's uniform part add at this evaluator's
    // block (blockIdx), which pattern.base leaves to its blockCycle; lane parts evaluated
    // whole keep theirs. evaluateGroup adds them, so that members split either way stand
    // where they are in one block (access_groups.cpp).
    int64_t blockBytes = 0;
    // An indirect pattern whose loaded values reach the address only through operations that
    // bound them (lane_spread.h): the bytes one warp's addresses can spread over, else 0.
    int64_t dataSpanBytes = 0;
    // A global gather whose lanes fall in groups sharing their loaded values
    // (sharedIndexSectors): the most sectors one warp's request can touch, else 0.
    int64_t mostSectors = 0;
  };

  // The uniform part of an address -> constant + unknown multiple of an alignment, added up
  // part by part (uniformStart, addUniform, finishUniform; uniformBase does all three).
  // Defined in address_split.cpp.
  struct UniformSum {
    model::UniformOffset base;
    int64_t unknown = 0;
    bool gather = false;  // a part reads a load
    int64_t blockBytes = 0;  // the block index's terms at blockIdx (Pattern::blockBytes)
  };
  UniformSum uniformStart() const;
  void addUniform(UniformSum& sum, const ExprRef& a) const;
  static model::UniformOffset finishUniform(const UniformSum& sum, bool& gather);
  model::UniformOffset uniformBase(const std::vector<ExprRef>& uniformAddends, bool& gather,
                                   int64_t* blockBytes = nullptr) const;

  // The block's threads' indices, in linear order (model::threadFromLinear), made once.
  struct BlockThreads {
    std::vector<int64_t> x, y, z;
  };
  const BlockThreads& blockThreads() const;

  // Per-thread activity from the guards, and the guards some thread reaching them could not
  // evaluate (in order of first use; a thread stops at the first guard false for it).
  // guard_masks.cpp. `keep`: each guard's program and its threads' values kept for the
  // evaluator's run, by the guard's expression (maskOf: the guards of one iteration are those
  // substituted for it, and `b` is the run's representative, the same for them all).
  struct GuardMask {
    std::vector<bool> active;
    std::vector<size_t> unknown;
    // Equalities of a thread's value with one value a warp's lanes share, not known: in each
    // warp only the lanes of one value of the thread's side pass (guard_masks.cpp).
    std::vector<size_t> oneValue;
  };
  GuardMask guardMask(const std::vector<ExprRef>& guards, const Bindings& b, bool keep = false) const;
  // `program`'s value at each of the block's threads listed by linear index, run together
  // (ThreadProgram::runMany): out[k] for threads[k]. guard_masks.cpp.
  void runAt(const ThreadProgram& program, const std::vector<size_t>& threads,
             std::vector<std::optional<int64_t>>& out) const;

  // What a mask says in the figures' notes: each guard a thread could not evaluate.
  void sayUnknownGuards(const GuardMask& mask) {
    for (size_t g : mask.unknown) {
      guardAssumed = true;
      assumptions.insert("assumes every lane passes `" + raw.guardTexts[g] + "` (it depends on values not known statically)");
    }
    for (size_t g : mask.oneValue) {
      guardAssumed = true;
      assumptions.insert("assumes the lanes of a warp that pass `" + raw.guardTexts[g] +
                         "` are those of one value of its thread's side: it compares that side with one value "
                         "the warp's lanes share, not known statically");
    }
  }

  // Per-thread activity from the guards (a guard that could not be evaluated lets the thread
  // through, said in the assumptions). `quiet`: a count only (uncomputedRequests), which states
  // nothing in the figures' notes.
  std::vector<bool> activeMask(const std::vector<ExprRef>& guards, const Bindings& b, bool quiet = false) {
    GuardMask mask = guardMask(guards, b);
    if (!quiet) sayUnknownGuards(mask);
    return std::move(mask.active);
  }

  // The warps of the block with an active lane.
  int64_t warpsWithActiveLane(const std::vector<bool>& active) const {
    int64_t warps = 0;
    for (size_t first = 0; first < active.size(); first += static_cast<size_t>(arch.warpSize))
      if (std::any_of(active.begin() + static_cast<std::ptrdiff_t>(first),
                      active.begin() + static_cast<std::ptrdiff_t>(std::min(active.size(), first + static_cast<size_t>(arch.warpSize))),
                      [](bool on) { return on; }))
        ++warps;
    return warps;
  }

  // A load whose address is the same for every lane of each warp (under this block
  // shape) yields a warp-uniform value: data-dependent, but not scattered.
  ExprRef resolveWarpUniformLoads(const ExprRef& e, const Bindings& rep) {
    if (e->args.empty() || !containsOp(e, Op::LaneLoad)) return e;  // nothing below can change
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
    if (containsOp(address, Op::UniformLoad)) {
      // A value loaded at a warp-uniform address (popsift's `dct.ori_ps[octave] + blockIdx.x +
      // threadIdx.z` on a block of one z) is the same in every lane but has no value the
      // threads can be run with: the address is warp-uniform when it is so with those loads at
      // two unrelated sets of values (a lane term they scale, `load * threadIdx.x`, shows at
      // either); the loads numbered in the order met, so that the answer never depends on
      // where they lie in memory.
      std::map<const SymExpr*, int64_t> order;
      for (const int64_t seed : {int64_t{17}, int64_t{1009}}) {
        const ExprRef valued = substituteLeaves(
            address,
            [&](const ExprRef& leaf) -> ExprRef {
              if (leaf->op != Op::UniformLoad) return nullptr;
              const int64_t n = order.try_emplace(leaf.get(), static_cast<int64_t>(order.size())).first->second;
              return constant(seed + 7 * n);
            },
            opBit(Op::UniformLoad));
        if (containsOp(valued, Op::UniformLoad) || !warpUniform(valued, b)) return false;
      }
      return true;
    }
    const Dim3 d = block();
    const ThreadProgram program(address, b);
    // Every thread of the block in linear order, warp by warp (model::warpThreads' order),
    // the thread index stepped rather than divided out of the linear id and no list built
    // per warp (4 % of Mandelbrot_cuda.cu's profile, session 12).
    const int64_t threads = d.volume();
    int64_t x = 0, y = 0, z = 0, first = 0;
    for (int64_t linear = 0; linear < threads; ++linear) {
      const std::optional<int64_t> v = program.run(x, y, z);
      if (!v) return false;
      if (linear % arch.warpSize == 0) first = *v;  // a warp's first lane
      else if (*v != first) return false;
      if (++x == d.x) {
        x = 0;
        if (++y == d.y) {
          y = 0;
          ++z;
        }
      }
    }
    return true;
  }

  // `e` in one loop iteration: the iteration's values and what the launch fixes put in,
  // then the loads that are warp-uniform under `rep` resolved.
  ExprRef atIteration(const ExprRef& e, const std::map<int, int64_t>& iteration, const Bindings& rep) {
    // Only symbols and blockDim change (fixLaunch), so nothing else is walked.
    return resolveWarpUniformLoads(substituteLeaves(
                                       e,
                                       [&](const ExprRef& leaf) -> ExprRef {
                                         if (leaf->op == Op::Symbol)
                                           if (auto it = iteration.find(leaf->symbolId); it != iteration.end())
                                             return constant(it->second);
                                         return fixLaunch(leaf);
                                       },
                                       opBit(Op::Symbol) | opBit(Op::BlockDim)),
                                   rep);
  }

  // The guards in one iteration, kept for this evaluator's block run (block index, live values
  // and launch fixed). atIteration changes a guard only at its symbols: to the iteration's
  // value when it has one, else to what fixLaunch gives (the same for the whole run); the
  // loads it resolves read the same values through `rep`, whose other symbols are fixed too.
  // So each guard is substituted once per set of values of its own symbols (a loop over rows
  // under `threadIdx.x < 7`: once), and iterations whose guards are the same objects share
  // their mask (docs/analysis-speed.md, session 14).
  struct GuardsAt {
    std::vector<ExprRef> guards;    // held: the key's pointers stay theirs
    bool guarded = false;           // some guard not a known non-zero constant
    std::optional<GuardMask> mask;  // guardMask(guards, rep), made when first asked
  };
  GuardsAt& guardsAt(const std::map<int, int64_t>& iteration, const Bindings& rep) {
    if (guardSymbols_.size() != raw.guards.size()) {
      guardSymbols_.resize(raw.guards.size());
      substitutedGuards_.resize(raw.guards.size());
      std::set<int> all;
      for (size_t g = 0; g < raw.guards.size(); ++g) {
        // A guard no thread can evaluate in any iteration (`isnan(v[i]) == 1`, a test of
        // loaded data: neverKnown) lets every thread that reaches it through, whatever its
        // loop variables: it is substituted once for the run, as if it named no symbol, and
        // the iterations share their guards and mask (myocyte's solver, whose guards test
        // loaded values at the inner loop's `i`, made a new set and mask every iteration).
        std::set<int> named;
        if (!neverKnown(raw.guards[g])) collectSymbols(raw.guards[g], named);
        guardSymbols_[g].assign(named.begin(), named.end());
        all.insert(named.begin(), named.end());
      }
      allGuardSymbols_.assign(all.begin(), all.end());
    }
    // An iteration that gives every guard's symbols the values an earlier one gave has its
    // guards (each guard's substitution below is chosen by those values alone).
    // Looked up with kept buffers, copied only into a new entry: most calls hit.
    fillValuesIn(iteration, allGuardSymbols_, allValuesScratch_);
    if (auto seen = guardsByValues_.find(allValuesScratch_); seen != guardsByValues_.end()) return *seen->second;
    std::vector<ExprRef> guards;
    guards.reserve(raw.guards.size());
    std::vector<const SymExpr*> key;
    key.reserve(raw.guards.size());
    for (size_t g = 0; g < raw.guards.size(); ++g) {
      fillValuesIn(iteration, guardSymbols_[g], valuesScratch_);
      auto& kept = substitutedGuards_[g];
      auto found = kept.find(valuesScratch_);
      if (found == kept.end()) {
        if (kept.size() == kKeptPerGuard) kept.clear();
        found = kept.emplace(valuesScratch_, canonicalGuard(atIteration(raw.guards[g], iteration, rep))).first;
      }
      guards.push_back(found->second);
      key.push_back(found->second.get());
    }
    auto entry = guardsAt_.find(key);
    if (guardsByValues_.size() == kKeptPerGuard) guardsByValues_.clear();
    if (entry != guardsAt_.end()) {
      guardsByValues_.emplace(allValuesScratch_, &entry->second);
      return entry->second;
    }
    if (guardsAt_.size() == kKeptPerGuard) {
      guardsAt_.clear();
      guardsByValues_.clear();  // its entries point into guardsAt_
      ++guardsGeneration;
    }
    GuardsAt& at = guardsAt_[std::move(key)];
    guardsByValues_.emplace(allValuesScratch_, &at);
    at.guards = std::move(guards);
    at.guarded = std::any_of(at.guards.begin(), at.guards.end(), [](const ExprRef& g) {
      auto c = asConstant(g);
      return !c || *c == 0;
    });
    return at;
  }
  // A guard whose substitution is a known constant lets every thread through or none: one
  // object for each, so that iterations whose loop guards all hold (`i < 15` at i = 7, 9, 11)
  // are the same set of guards and share one mask. Each substitution made a new constant
  // node, a new key and a new mask: in Rodinia's rdwt97.cu 415,696 sets for 492,519
  // lookups, none shared (docs/analysis-speed.md, session 28). guardMask reads a constant
  // guard only as zero or not.
  ExprRef canonicalGuard(ExprRef guard) {
    const auto c = asConstant(guard);
    if (!c) return guard;
    ExprRef& kept = *c != 0 ? holds_ : stops_;
    if (!kept) kept = constant(*c != 0 ? 1 : 0);
    return kept;
  }
  ExprRef holds_, stops_;
  // Counts the times the kept guards were forgotten: a GuardsAt's address names it only
  // within one generation (lane_conditions.cpp keeps outcomes by it).
  size_t guardsGeneration = 0;
  // guardMask's programs and values kept by guard (guard_masks.cpp, which defines KeptGuard:
  // a shared_ptr, whose deleter does not need the type here).
  struct KeptGuard;
  mutable std::unordered_map<const SymExpr*, std::shared_ptr<KeptGuard>> keptGuards_;
  mutable BlockThreads blockThreads_;
  const GuardMask& maskOf(GuardsAt& at, const Bindings& rep) const {
    if (!at.mask) at.mask = guardMask(at.guards, rep, /*keep=*/true);
    return *at.mask;
  }

  // The lane offsets last enumerated (patternFor): ThreadProgram's values depend on the lane
  // parts' structure and on `rep` only at symbols no iteration gave a value (substituted
  // before), which are fixed for the run; so structurally equal lane parts under an equal mask
  // give the same offsets (nullopt: a lane's offset unknown). The last few kept.
  struct LaneOffsets {
    std::vector<ExprRef> parts;
    std::vector<bool> active;
    std::optional<std::vector<std::optional<int64_t>>> offsets;
  };
  const LaneOffsets* keptOffsets(const std::vector<ExprRef>& parts, const std::vector<bool>& active) const {
    for (const LaneOffsets& k : laneOffsets_)
      if (k.parts.size() == parts.size() && k.active == active &&
          std::equal(parts.begin(), parts.end(), k.parts.begin(), [](const ExprRef& a, const ExprRef& b) { return sameStructure(a, b); }))
        return &k;
    return nullptr;
  }

  // An address split into a warp-uniform base and a lane part (patternFor). An affine address
  // splits term by term; otherwise the top-level addends split by uniformity.
  struct AddressSplit {
    bool affine = false;
    model::AffineLanes lanes;
    std::vector<ExprRef> laneParts;
    model::UniformOffset base;
    int64_t blockBytes = 0;  // Pattern::blockBytes
  };
  // The split of `offset`, the address in one iteration (atIteration).
  AddressSplit splitAddress(const ExprRef& offset, bool& gather);
  // `e` with the parameters in `scaling` at the values taken for them (assumedValue).
  ExprRef withScalingValues(const ExprRef& e, const std::set<int>& scaling) const;

  // The same split for every iteration of one set of loop variables, made once per block run
  // from the address with the loop variables left as symbols; each iteration's split is that
  // one with the variables' values put in (address_split.cpp says when that is exact; none is
  // made otherwise).
  struct LoopSplit {
    bool affine = false;
    model::AffineLanes lanes;
    std::vector<ExprRef> laneParts;
    UniformSum fixed;                                // affine: the parts that name no loop variable
    std::vector<std::pair<int, int64_t>> loopTerms;  // affine: (loop variable, its coefficient)
    ExprRef uniformSkeleton;                         // not affine: the uniform addends, in the address's shape
  };
  std::optional<LoopSplit> makeLoopSplit(const std::vector<int>& loopVars);
  // The loop split for these loop variables (sorted), made on first use (null: split each
  // iteration from its own address).
  const LoopSplit* loopSplit(const std::vector<int>& loopVars);
  AddressSplit splitAt(const LoopSplit& split, const std::map<int, int64_t>& iteration, bool& gather);

  // For test/analysis/lanes/loop_split_test.cpp: whether loop splits are used, and, when
  // `checkLoopSplits`, every split of an iteration checked against the split of its own
  // address, the iterations checked and those where the two differ counted.
  inline static bool useLoopSplits = true;
  inline static bool checkLoopSplits = false;
  inline static size_t loopSplitsChecked = 0, loopSplitsDiffering = 0;
  void checkLoopSplit(const AddressSplit& fast, bool fastGather, const std::map<int, int64_t>& iteration,
                      const Bindings& rep);

  // Whether a thread of the block passes the access's guards in this iteration: what a probe
  // asks first (lane_function.cpp, evaluateLanesInBlock), since an iteration where none does
  // makes no request in any of patternFor's cases. The mask is kept with the guards, so
  // patternFor does not make it again; the loop split is not made for an idle iteration.
  bool anyThreadRuns(const std::map<int, int64_t>& iteration) {
    const Bindings& rep = representativeAt(iteration);
    Evaluator& guarding = guardSource ? *guardSource : *this;
    GuardsAt& at = guarding.guardsAt(iteration, rep);
    if (!at.guarded) return true;
    const std::vector<bool>& active = guarding.maskOf(at, rep).active;
    return std::find(active.begin(), active.end(), true) != active.end();
  }

  Pattern patternFor(const std::map<int, int64_t>& iteration) {
    Pattern out;
    const Bindings& rep = representativeAt(iteration);
    if (!keptSplitMade_) {
      keptSplit_ = useLoopSplits ? loopSplit(keptLoopVariables_) : nullptr;
      keptSplitMade_ = true;
    }
    const LoopSplit* split = keptSplit_;
    // Without a loop split, the address in this iteration (a loop split says it holds no load
    // and nothing varying).
    const ExprRef offset = split ? nullptr : atIteration(raw.offset, iteration, rep);
    // The guards' substitutions and masks: this evaluator's, or those of the one it shares them
    // with (guardSource), which reads only the guards' symbols of `rep`.
    Evaluator& guarding = guardSource ? *guardSource : *this;
    GuardsAt& at = guarding.guardsAt(iteration, rep);

    // A pointer loaded from a table at a warp-uniform address is a per-warp base.
    const bool rootIndirect =
        raw.rootIndirect && !(raw.rootLoadAddress && warpUniform(atIteration(raw.rootLoadAddress, iteration, rep), rep));
    // A texture fetch: the model has no figures for the texture path; its requests still
    // count in the kernel's memory time (lib/report/src/cost.cpp).
    if (raw.space == model::Space::Texture) {
      out.pattern = model::LanePattern::makeUnknown();
      out.uncomputedRequests = warpsWithActiveLane(guarding.maskOf(at, rep).active);
      return out;
    }
    if (rootIndirect || (offset && containsOp(offset, Op::LaneLoad))) {
      out.pattern = model::LanePattern::makeIndirect();
      if (!rootIndirect) {
        if (const std::optional<int64_t> spread = laneSpread(offset, rep, block(), arch.warpSize))
          out.dataSpanBytes = *spread + raw.bytes;
        if (raw.space == model::Space::Global)
          if (const std::optional<int64_t> most =
                  sharedIndexSectors(offset, rep, block(), arch.warpSize, raw.bytes, arch.sectorBytes))
            out.mostSectors = *most;
      }
      out.uncomputedRequests = warpsWithActiveLane(guarding.maskOf(at, rep).active);
      return out;
    }
    if (offset && containsOp(offset, Op::Varying)) {
      out.pattern = model::LanePattern::makeUnknown();
      out.uncomputedRequests = warpsWithActiveLane(guarding.maskOf(at, rep).active);
      return out;
    }
    AddressSplit parts = split ? splitAt(*split, iteration, out.gather) : splitAddress(offset, out.gather);
    if (split && checkLoopSplits) checkLoopSplit(parts, out.gather, iteration, rep);
    out.blockBytes = parts.blockBytes;
    const bool affine = parts.affine;
    const model::AffineLanes& lanes = parts.lanes;
    const std::vector<ExprRef>& laneParts = parts.laneParts;
    const model::UniformOffset& base = parts.base;
    if (affine && !at.guarded) {
      out.pattern = model::LanePattern::makeAffine(lanes, base);
      return out;
    }
    // Enumerate: evaluate the lane part for every thread of the block.
    const Bindings& b = rep;
    for (const ExprRef& a : laneParts) collectSymbols(a, representativeSymbols);
    const GuardMask& mask = guarding.maskOf(at, b);
    sayUnknownGuards(mask);
    const std::vector<bool>& active = mask.active;
    // Guards every lane passes (a bounds check on full blocks) keep the affine form,
    // which the rules read (thread axes, strides).
    if (affine && std::all_of(active.begin(), active.end(), [](bool on) { return on; })) {
      out.pattern = model::LanePattern::makeAffine(lanes, base);
      return out;
    }
    if (const LaneOffsets* kept = keptOffsets(laneParts, active)) {
      if (!kept->offsets) {
        out.pattern = model::LanePattern::makeUnknown();
        return out;
      }
      out.pattern = model::LanePattern::makeEnumerated(*kept->offsets, base);
      return out;
    }
    if (laneOffsets_.size() == kKeptLaneOffsets) laneOffsets_.pop_front();
    LaneOffsets& kept = laneOffsets_.emplace_back(LaneOffsets{laneParts, active, std::nullopt});
    const Dim3 d = block();
    std::vector<std::optional<int64_t>> offsets(static_cast<size_t>(d.volume()));
    std::vector<ThreadProgram> programs;
    for (const ExprRef& a : laneParts) programs.emplace_back(a, b);
    for (int64_t linear = 0; linear < d.volume(); ++linear) {
      if (!active[static_cast<size_t>(linear)]) continue;
      const model::ThreadIdx t = model::threadFromLinear(d, linear);
      int64_t sum = 0;
      for (const ThreadProgram& program : programs) {
        auto v = program.run(t.x, t.y, t.z);
        if (!v) {
          out.pattern = model::LanePattern::makeUnknown();
          return out;
        }
        sum += *v;
      }
      offsets[static_cast<size_t>(linear)] = sum;
    }
    kept.offsets = offsets;
    out.pattern = model::LanePattern::makeEnumerated(std::move(offsets), base);
    return out;
  }

 private:
  static constexpr size_t kKeptLaneOffsets = 4;
  static constexpr size_t kKeptPerGuard = 64;  // substitutions kept per guard, masks kept (then forgotten)
  // Guards' programs and values kept (guard_masks.cpp): each substitution kept above, of each
  // guard, can have its program here, and a few more before all are forgotten.
  static constexpr size_t kKeptGuardPrograms = 4 * kKeptPerGuard;
  std::vector<std::vector<int>> guardSymbols_;  // per guard, the symbols it names, sorted
  // Per guard, its substitution by the iteration's values of its symbols (nullopt: none).
  std::vector<std::unordered_map<std::vector<std::optional<int64_t>>, ExprRef, ValuesHash>> substitutedGuards_;
  std::map<std::vector<const SymExpr*>, GuardsAt> guardsAt_;  // by the substituted guards
  std::vector<int> allGuardSymbols_;                          // every guard's symbols, sorted
  std::vector<std::optional<int64_t>> allValuesScratch_, valuesScratch_;  // guardsAt's lookup keys
  std::unordered_map<std::vector<std::optional<int64_t>>, GuardsAt*, ValuesHash> guardsByValues_;  // by their values
  std::deque<LaneOffsets> laneOffsets_;
  std::map<std::vector<int>, std::optional<LoopSplit>> loopSplits_;  // by the iteration's loop variables
  std::vector<int> keptLoopVariables_;  // of the last iteration patternFor was asked for
  std::optional<Bindings> keptRep_;
  const LoopSplit* keptSplit_ = nullptr;
  bool keptSplitMade_ = false;  // keptSplit_ is the split of keptLoopVariables_
  // What stays the same over iterations of the same loop variables, kept: representative()'s
  // bindings, in which only those variables' values change, and the loop split (made by
  // patternFor when first needed for those variables).
  const Bindings& representativeAt(const std::map<int, int64_t>& iteration) {
    if (!keptRep_ || !sameLoopVariables(iteration)) {
      keptLoopVariables_.clear();
      for (const auto& [id, value] : iteration) keptLoopVariables_.push_back(id);
      keptRep_ = representative(iteration);
      keptSplitMade_ = false;
    } else {
      for (const auto& [id, value] : iteration)
        if (relevant.count(id)) keptRep_->symbols[id] = value;
    }
    return *keptRep_;
  }
  bool sameLoopVariables(const std::map<int, int64_t>& iteration) const {
    if (iteration.size() != keptLoopVariables_.size()) return false;
    size_t i = 0;
    for (const auto& [id, value] : iteration)
      if (keptLoopVariables_[i++] != id) return false;
    return true;
  }
};

// The evaluator whose guardsAt and maskOf the accesses under one set of guards share in one
// block run (Evaluator::guardSource): over an access of those guards alone, a copy, since the
// entry outlives the run that made it. Holding the guards also keeps the addresses its key
// names from being reused by other expressions.
struct SharedGuards {
  RawAccess raw;
  std::unique_ptr<Evaluator> ev;
};

// Sets of guards kept per kernel (GuardCache::sharedGuards) before all are forgotten.
inline constexpr size_t kKeptSharedGuards = 256;

// The shared guards of `raw`'s guards in the block run of `launch`, `blockIdx` and
// `liveValues`, made on first use (lane_function.cpp); null without a cache or guards. The
// launch must be the context the cache's keys name (not a copy of it): lane_function.cpp's
// runs and access_groups.cpp's members use it.
std::shared_ptr<SharedGuards> sharedGuards(const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                                           const model::Arch& arch, const std::array<int64_t, 3>& blockIdx,
                                           const std::map<int, int64_t>& liveValues, GuardCache* cache);

}  // namespace coalesce::analysis::lanes
