// The address split once per set of loop variables (lane_evaluator.h, LoopSplit, session 21)
// against the split of each iteration's own address: for addresses whose loop variables sit
// in an affine term, inside a scaled sum, under a subtraction, beside a warp-uniform load or
// the block index, at values that fold their sums away (0 and 1), every iteration's split is
// the same (Evaluator::checkLoopSplits), and patternFor gives what it gives without splits.
// Addresses a split cannot stand for (a lane part that names a loop variable, an opaque product
// of one, a scaled retry that is affine) are split per iteration, as before.
#include <catch2/catch.hpp>

#include "lane_evaluator.h"

using namespace coalesce;
using namespace coalesce::analysis;

namespace {

SymbolInfo named(const char* name, SymbolInfo::Kind kind, int64_t alignment = 1) {
  SymbolInfo s;
  s.name = name;
  s.kind = kind;
  s.alignment = alignment;
  return s;
}

ExprRef tx() { return leaf(Op::ThreadIdx, 0); }
ExprRef ty() { return leaf(Op::ThreadIdx, 1); }
ExprRef add(ExprRef a, ExprRef b) { return binary(Op::Add, std::move(a), std::move(b)); }
ExprRef sub(ExprRef a, ExprRef b) { return binary(Op::Sub, std::move(a), std::move(b)); }
ExprRef mul(ExprRef a, ExprRef b) { return binary(Op::Mul, std::move(a), std::move(b)); }
ExprRef shl(ExprRef a, ExprRef b) { return binary(Op::Shl, std::move(a), std::move(b)); }
ExprRef lt(ExprRef a, ExprRef b) { return binary(Op::Lt, std::move(a), std::move(b)); }
ExprRef c(int64_t v) { return constant(v); }

struct Flags {
  Flags(bool use, bool check) {
    lanes::Evaluator::useLoopSplits = use;
    lanes::Evaluator::checkLoopSplits = check;
  }
  ~Flags() {
    lanes::Evaluator::useLoopSplits = true;
    lanes::Evaluator::checkLoopSplits = false;
  }
};

}  // namespace

TEST_CASE("lanes: an address split once per loop gives each iteration the split of its own address") {
  SymbolTable symbols;
  const int k = symbols.add(named("k", SymbolInfo::Kind::LoopVar));
  const int j = symbols.add(named("j", SymbolInfo::Kind::LoopVar));
  const int n = symbols.add(named("n", SymbolInfo::Kind::Param, 4));
  const int m = symbols.add(named("m", SymbolInfo::Kind::Param));
  LaunchContext launch;
  launch.block.dim = {64, 2, 1};
  launch.blockKnown = true;
  launch.grid = model::Dim3{8, 1, 1};
  const ExprRef lane = add(binary(Op::Div, tx(), c(2)), mul(binary(Op::And, tx(), c(1)), c(1104)));  // not affine
  const ExprRef load = unary(Op::LaneLoad, symbol(m));  // a warp-uniform load once resolved: not split

  // Whether a loop split stands for the iterations: always, never (a load, a scaled retry
  // that is affine), or only for iterations with no loop variable (then nothing is put in).
  enum class Split { Always, Never, WithoutLoopVariables };
  struct Case {
    const char* what;
    ExprRef offset;
    Split split;
  };
  const std::vector<Case> cases = {
      {"affine, a row per iteration", mul(add(mul(symbol(k), c(64)), tx()), c(4)), Split::Always},
      {"affine over two loops, the block and a parameter",
       add(add(mul(add(mul(symbol(j), c(16)), tx()), c(8)), mul(add(symbol(k), leaf(Op::BlockIdx, 0)), c(256))),
           mul(symbol(n), c(4))),
       Split::Always},
      {"affine, the loop variable in a constant factor's sum", mul(c(4), add(add(symbol(k), c(3)), mul(ty(), c(32)))), Split::Always},
      {"affine, shifted", shl(add(tx(), mul(symbol(k), c(32))), c(2)), Split::Always},
      {"not affine, a scaled sum", mul(add(lane, mul(add(c(3), symbol(k)), c(98))), c(4)), Split::Always},
      {"not affine, a sum subtracted", sub(lane, add(mul(symbol(n), symbol(k)), symbol(n))), Split::Always},
      {"not affine, left factor", mul(c(8), sub(add(lane, symbol(k)), mul(symbol(j), symbol(m)))), Split::Always},
      {"not affine, a product of loop variables", add(lane, mul(mul(symbol(k), symbol(j)), c(16))), Split::Always},
      {"not affine, opaque uniform beside", add(mul(lane, c(4)), binary(Op::Div, mul(symbol(k), c(96)), c(2))), Split::Always},
      {"a lane part names the loop variable", mul(add(mul(symbol(k), tx()), symbol(j)), c(4)), Split::WithoutLoopVariables},
      {"an opaque product of the loop variable", add(tx(), mul(symbol(k), symbol(n))), Split::WithoutLoopVariables},
      {"a scaled retry that is affine", add(mul(tx(), symbol(n)), symbol(k)), Split::Never},
      {"a load in the address", add(add(tx(), load), symbol(k)), Split::Never},
  };
  const std::vector<std::vector<ExprRef>> guardSets = {
      {},
      {lt(tx(), c(40))},
      {lt(add(symbol(k), tx()), c(50)), lt(ty(), symbol(n))},
  };
  const std::vector<std::map<int, int64_t>> iterations = {
      {{k, 0}, {j, 0}}, {{k, 1}, {j, 0}}, {{k, 1}, {j, 1}}, {{k, 2}, {j, 5}}, {{k, 7}, {j, 3}},
      {{k, -3}, {j, 1}}, {{k, 0}, {j, 1}}, {{k, 4}}, {{k, 0}}, {},
  };
  for (const Case& each : cases)
    for (const auto& guards : guardSets) {
      INFO(each.what << ", " << guards.size() << " guards");
      RawAccess raw;
      raw.space = model::Space::Global;
      raw.bytes = 4;
      raw.rootName = "a";
      raw.rootAlignment = 256;
      raw.offset = each.offset;
      raw.guards = guards;
      for (size_t g = 0; g < guards.size(); ++g) raw.guardTexts.push_back("guard " + std::to_string(g));
      lanes::Evaluator withSplits(raw, launch, symbols, model::defaultArch());
      lanes::Evaluator without(raw, launch, symbols, model::defaultArch());
      for (const auto& iteration : iterations) {
        lanes::Evaluator::Pattern expected, got;
        {
          Flags flags(false, false);
          expected = without.patternFor(iteration);
        }
        const size_t checked = lanes::Evaluator::loopSplitsChecked, differing = lanes::Evaluator::loopSplitsDiffering;
        {
          Flags flags(true, true);
          got = withSplits.patternFor(iteration);
        }
        CHECK(lanes::Evaluator::loopSplitsDiffering == differing);
        const bool split = each.split == Split::Always || (each.split == Split::WithoutLoopVariables && iteration.empty());
        CHECK((lanes::Evaluator::loopSplitsChecked > checked) == split);
        CHECK(got.pattern == expected.pattern);
        CHECK(got.gather == expected.gather);
        CHECK(got.uncomputedRequests == expected.uncomputedRequests);
      }
      CHECK(withSplits.assumptions == without.assumptions);
      CHECK(withSplits.representativeSymbols == without.representativeSymbols);
    }
}
