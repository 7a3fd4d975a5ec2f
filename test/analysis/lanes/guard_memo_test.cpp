// The guards and lane offsets an Evaluator keeps across the iterations of one block run
// (lane_evaluator.h, GuardsAt and LaneOffsets, session 14): a run that asks patternFor for a
// sequence of iterations (repeated values, guards naming and not naming the loops, a guard
// no thread can evaluate, affine, enumerated and unknown lane parts) gets, iteration by
// iteration, what a fresh Evaluator gets for that iteration alone, and says the same
// assumptions and representative symbols in all.
#include <catch2/catch.hpp>

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
        freshAssumptions.insert(fresh.assumptions.begin(), fresh.assumptions.end());
        freshSymbols.insert(fresh.representativeSymbols.begin(), fresh.representativeSymbols.end());
        freshAssumed = freshAssumed || fresh.guardAssumed;
        ++compared;
      }
      CHECK(kept.assumptions == freshAssumptions);
      CHECK(kept.representativeSymbols == freshSymbols);
      CHECK(kept.guardAssumed == freshAssumed);
    }
  CHECK(compared == 160);
}
