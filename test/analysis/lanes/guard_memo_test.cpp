// The guards and lane offsets an Evaluator keeps across the iterations of one block run
// (lane_evaluator.h, GuardsAt and LaneOffsets, session 14): a run that asks patternFor for a
// sequence of iterations (repeated values, guards naming and not naming the loops, a guard
// no thread can evaluate, affine, enumerated and unknown lane parts) gets, iteration by
// iteration, what a fresh Evaluator gets for that iteration alone, and says the same
// assumptions and representative symbols in all; so does one that takes its guards from
// another access's evaluator (guardSource), asked in between for the same iterations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "coalesce/model/geometry.h"
#include "lane_evaluator.h"

using namespace coalesce;
using namespace coalesce::analysis;

namespace {

SymbolInfo named(const char* name, SymbolInfo::Kind kind) {
  SymbolInfo s;
  s.name = name;
  s.kind = kind;
  return s;
}

ExprRef tx() { return leaf(Op::ThreadIdx, 0); }
ExprRef add(ExprRef a, ExprRef b) { return binary(Op::Add, std::move(a), std::move(b)); }
ExprRef mul(ExprRef a, ExprRef b) { return binary(Op::Mul, std::move(a), std::move(b)); }
ExprRef lt(ExprRef a, ExprRef b) { return binary(Op::Lt, std::move(a), std::move(b)); }

}  // namespace

TEST_CASE("lanes: an Evaluator's kept guards and lane offsets give what a fresh one gives, iteration by iteration") {
  SymbolTable symbols;
  const int k = symbols.add(named("k", SymbolInfo::Kind::LoopVar));
  const int j = symbols.add(named("j", SymbolInfo::Kind::LoopVar));
  const int n = symbols.add(named("n", SymbolInfo::Kind::Param));
  LaunchContext launch;
  launch.block.dim = {96, 1, 1};
  launch.blockKnown = true;
  launch.grid = model::Dim3{4, 1, 1};

  const std::vector<std::vector<ExprRef>> guardSets = {
      {},
      {lt(tx(), constant(40))},                                        // no loop: one mask
      {lt(tx(), constant(40)), lt(add(symbol(j), tx()), constant(50))},  // one names j
      {lt(leaf(Op::Varying), constant(3)), lt(add(symbol(k), tx()), constant(70))},  // unknown first
      {lt(symbol(k), constant(1)), lt(tx(), symbol(n))},               // all off when k >= 1
      // A test of loaded data at the loop's index (neverKnown: substituted once per run) before
      // one the index decides; a product with a loaded value that k = 0 folds to 0 (known then,
      // so not neverKnown); a logical and whose first half is loaded.
      {lt(unary(Op::LaneLoad, add(symbol(k), tx())), constant(3)), lt(add(symbol(k), tx()), constant(70))},
      {lt(mul(leaf(Op::Varying), symbol(k)), constant(1)), lt(tx(), constant(60))},
      {binary(Op::LAnd, unary(Op::LaneLoad, symbol(j)), lt(add(symbol(j), tx()), constant(20)))},
  };
  const std::vector<ExprRef> offsets = {
      mul(add(mul(symbol(k), constant(64)), tx()), constant(4)),                  // affine
      mul(add(binary(Op::Rem, tx(), constant(3)), symbol(k)), constant(4)),       // enumerated
      mul(add(mul(symbol(j), tx()), symbol(k)), constant(4)),                     // lane part names j
      add(mul(tx(), constant(4)), leaf(Op::Varying)),                             // unknown
  };
  const std::vector<std::map<int, int64_t>> iterations = {
      {{k, 0}, {j, 0}}, {{k, 0}, {j, 3}}, {{k, 1}, {j, 3}}, {{k, 0}, {j, 0}},
      {{k, 2}, {j, 3}}, {{k, 2}}, {{k, 1}, {j, 3}}, {},
  };
  int compared = 0;
  for (const auto& guards : guardSets)
    for (const ExprRef& offset : offsets) {
      RawAccess raw;
      raw.space = model::Space::Global;
      raw.bytes = 4;
      raw.rootName = "a";
      raw.offset = offset;
      raw.guards = guards;
      for (size_t g = 0; g < guards.size(); ++g) raw.guardTexts.push_back("guard " + std::to_string(g));
      lanes::Evaluator kept(raw, launch, symbols, model::defaultArch());
      // Another access under the same guards whose evaluator takes them from this one's
      // (Evaluator::guardSource: a group's members, the accesses of one loop body).
      RawAccess other = raw;
      other.offset = mul(add(tx(), symbol(j)), constant(8));
      lanes::Evaluator source(other, launch, symbols, model::defaultArch());
      lanes::Evaluator sharing(raw, launch, symbols, model::defaultArch());
      sharing.guardSource = &source;
      std::set<std::string> freshAssumptions;
      std::set<int> freshSymbols;
      bool freshAssumed = false;
      for (const auto& iteration : iterations) {
        lanes::Evaluator fresh(raw, launch, symbols, model::defaultArch());
        const auto expected = fresh.patternFor(iteration);
        const auto got = kept.patternFor(iteration);
        CHECK(got.pattern == expected.pattern);
        CHECK(got.gather == expected.gather);
        CHECK(got.uncomputedRequests == expected.uncomputedRequests);
        source.patternFor(iteration);
        const auto shared = sharing.patternFor(iteration);
        CHECK(shared.pattern == expected.pattern);
        CHECK(shared.uncomputedRequests == expected.uncomputedRequests);
        freshAssumptions.insert(fresh.assumptions.begin(), fresh.assumptions.end());
        freshSymbols.insert(fresh.representativeSymbols.begin(), fresh.representativeSymbols.end());
        freshAssumed = freshAssumed || fresh.guardAssumed;
        ++compared;
      }
      CHECK(kept.assumptions == freshAssumptions);
      CHECK(kept.representativeSymbols == freshSymbols);
      CHECK(kept.guardAssumed == freshAssumed);
      CHECK(sharing.assumptions == freshAssumptions);
    }
  CHECK(compared == 256);
}

// Evaluator::guardMask (lib/analysis/src/guard_masks.cpp) runs guard by guard over bits of the
// threads still going; the rule it must keep is the thread-by-thread walk written out here:
// each thread takes the guards in order, stops at the first one known and 0, and passes one
// it cannot evaluate, which is listed once, in the order the walk first meets it. Blocks of
// 100 and 10x7 threads (not whole words of 64), guards over the thread index, unknown for some
// threads (a select on a varying value) or for all, kept and not kept, each set asked twice.
TEST_CASE("lanes: guardMask stops the threads a thread-by-thread walk stops, and lists unknown guards as it meets them") {
  SymbolTable symbols;
  const ExprRef ty = leaf(Op::ThreadIdx, 1);
  const ExprRef varying = leaf(Op::Varying);
  const auto rem = [](ExprRef a, int64_t m) { return binary(Op::Rem, std::move(a), constant(m)); };
  const std::vector<ExprRef> pool = {
      lt(tx(), constant(77)),
      binary(Op::Ne, rem(tx(), 3), constant(0)),
      lt(varying, constant(2)),                                        // unknown for every thread
      select(lt(tx(), constant(30)), lt(varying, constant(1)), constant(1)),  // unknown below 30
      binary(Op::Ge, add(tx(), ty), constant(5)),
      select(binary(Op::Eq, rem(tx(), 7), constant(0)), varying, lt(tx(), constant(95))),
      binary(Op::Lt, ty, constant(4)),
      constant(1),
  };
  std::mt19937 rng(23);
  int masks = 0, unknownListed = 0, stopped = 0;
  for (const model::Dim3 block : {model::Dim3{100, 1, 1}, model::Dim3{10, 7, 1}}) {
    LaunchContext launch;
    launch.block.dim = block;
    launch.blockKnown = true;
    for (int trial = 0; trial < 60; ++trial) {
      std::vector<ExprRef> guards;
      const int count = 1 + static_cast<int>(rng() % 5);
      for (int g = 0; g < count; ++g) guards.push_back(pool[rng() % pool.size()]);
      RawAccess raw;
      raw.offset = tx();
      raw.guards = guards;
      lanes::Evaluator ev(raw, launch, symbols, model::defaultArch());
      const Bindings b = ev.launchBindings();
      // The walk, thread by thread.
      std::vector<bool> active(static_cast<size_t>(block.volume()), true);
      std::vector<size_t> unknown;
      for (int64_t linear = 0; linear < block.volume(); ++linear) {
        Bindings t = b;
        const model::ThreadIdx idx = model::threadFromLinear(block, linear);
        t.tid[0] = idx.x, t.tid[1] = idx.y, t.tid[2] = idx.z;
        for (size_t g = 0; g < guards.size(); ++g) {
          const auto v = evaluate(guards[g], t);
          if (!v) {
            if (std::find(unknown.begin(), unknown.end(), g) == unknown.end()) unknown.push_back(g);
            continue;
          }
          if (*v == 0) {
            active[static_cast<size_t>(linear)] = false;
            break;
          }
        }
      }
      for (const bool keep : {false, true, true}) {
        const auto mask = ev.guardMask(guards, b, keep);
        CHECK(mask.active == active);
        CHECK(mask.unknown == unknown);
        ++masks;
      }
      unknownListed += static_cast<int>(unknown.size());
      stopped += static_cast<int>(std::count(active.begin(), active.end(), false));
    }
  }
  CHECK(masks == 360);
  // Both outcomes were exercised.
  CHECK(unknownListed > 20);
  CHECK(stopped > 1000);
}

// neverKnown (symbolic.h) lets Evaluator::guardsAt substitute a guard once per run: it must
// hold only of expressions that no substitution of their symbols, with the builders' folding,
// makes known at any thread.
TEST_CASE("lanes: an expression neverKnown calls so stays unknown at every thread whatever its symbols become") {
  SymbolTable symbols;
  const int k = symbols.add(named("k", SymbolInfo::Kind::LoopVar));
  const ExprRef load = unary(Op::LaneLoad, add(symbol(k), tx()));
  const ExprRef varying = leaf(Op::Varying);
  struct Case {
    ExprRef e;
    bool expected;
  };
  const std::vector<Case> cases = {
      {lt(load, constant(3)), true},
      {binary(Op::Eq, add(load, symbol(k)), constant(1)), true},
      {mul(varying, symbol(k)), false},  // k = 0 folds it to 0
      {mul(varying, load), true},
      {binary(Op::LAnd, load, lt(tx(), symbol(k))), true},
      {binary(Op::LAnd, lt(tx(), symbol(k)), load), false},  // false first half: 0
      {select(lt(symbol(k), constant(2)), load, constant(1)), false},
      {select(load, symbol(k), symbol(k)), false},  // equal arms: select() folds
      {lt(tx(), symbol(k)), false},
      {unary(Op::Neg, unary(Op::Neg, leaf(Op::UniformLoad))), true},
  };
  int unknownChecked = 0;
  for (const Case& c : cases) {
    CHECK(neverKnown(c.e) == c.expected);
    if (!neverKnown(c.e)) continue;
    for (int64_t value = -1; value <= 3; ++value) {
      const ExprRef at = substituteLeaves(
          c.e, [&](const ExprRef& leaf) -> ExprRef { return leaf->symbolId == k ? constant(value) : nullptr; },
          opBit(Op::Symbol));
      Bindings b;
      for (int64_t t = 0; t < 4; ++t) {
        b.tid[0] = t;
        CHECK_FALSE(evaluate(at, b).has_value());
        ++unknownChecked;
      }
    }
  }
  CHECK(unknownChecked == 5 * 5 * 4);  // five cases, five values, four threads
}
