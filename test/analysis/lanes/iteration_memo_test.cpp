// IterationMemo (lane_evaluator.h): a listing is reused only when every binding iterationCombos
// reads agrees (ComboInputs), so what it returns is always what iterationCombos returns afresh;
// and it is reused when only bindings no loop reads differ (the speed it is for).
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

struct Loops {
  SymbolTable symbols;
  int n = -1, m = -1, k = -1, j = -1;
  Loops() {
    n = symbols.add(named("n", SymbolInfo::Kind::Param));
    m = symbols.add(named("m", SymbolInfo::Kind::Param));
    // for (k = 0; k < n; ++k) for (j = 0; j < k + blockIdx.x; ++j)
    k = symbols.add(named("k", SymbolInfo::Kind::LoopVar));
    symbols[k].loopCond = binary(Op::Lt, symbol(k), symbol(n));
    symbols[k].loopText = "k";
    j = symbols.add(named("j", SymbolInfo::Kind::LoopVar));
    symbols[j].loopCond = binary(Op::Lt, symbol(j), binary(Op::Add, symbol(k), leaf(Op::BlockIdx, 0)));
    symbols[j].loopText = "j";
  }
  // a[(loopVar + threadIdx.x) * 4] under `m > 0`
  RawAccess access(int loopVar) const {
    RawAccess r;
    r.space = model::Space::Global;
    r.bytes = 4;
    r.rootName = "a";
    r.offset = binary(Op::Mul, binary(Op::Add, symbol(loopVar), leaf(Op::ThreadIdx, 0)), constant(4));
    r.guards = {binary(Op::Gt, symbol(m), constant(0))};
    r.guardTexts = {"m > 0"};
    return r;
  }
};

Bindings bindings(std::map<int, int64_t> values, int64_t blockIdx = 1) {
  Bindings b;
  b.blockDim[0] = 64;
  b.blockIdx[0] = blockIdx;
  b.gridDim[0] = 8;
  b.symbols = std::move(values);
  return b;
}

}  // namespace

TEST_CASE("lanes: IterationMemo gives what iterationCombos gives, and reuses a listing no changed binding touches") {
  Loops loops;
  const RawAccess inner = loops.access(loops.j), outer = loops.access(loops.k);
  const std::vector<Bindings> sequence = {
      bindings({{loops.n, 3}}),           bindings({{loops.n, 3}, {loops.m, 5}}),
      bindings({{loops.n, 4}, {loops.m, 5}}), bindings({{loops.n, 3}}, 2),
      bindings({}),                       bindings({{loops.n, 3}, {loops.m, 1}}, 0),
      bindings({{loops.n, 3}}),
  };
  for (const RawAccess* raw : {&inner, &outer}) {
    lanes::IterationMemo memo;
    for (const Bindings& b : sequence) {
      std::set<std::string> fresh, memoised;
      const auto expected = lanes::iterationCombos(*raw, loops.symbols, b, fresh);
      CHECK(memo.combos(*raw, loops.symbols, b, memoised) == expected);
      CHECK(memoised == fresh);
    }
  }

  // Reused: m is read by no loop; the block index by the inner loop only.
  lanes::IterationMemo memo;
  std::set<std::string> notes;
  const auto* first = &memo.combos(inner, loops.symbols, bindings({{loops.n, 3}}), notes);
  CHECK(&memo.combos(inner, loops.symbols, bindings({{loops.n, 3}, {loops.m, 7}}), notes) == first);
  CHECK(&memo.combos(inner, loops.symbols, bindings({{loops.n, 3}}, 2), notes) != first);
  CHECK(&memo.combos(inner, loops.symbols, bindings({{loops.n, 4}}), notes) != first);
  const auto* outerFirst = &memo.combos(outer, loops.symbols, bindings({{loops.n, 3}}), notes);
  CHECK(&memo.combos(outer, loops.symbols, bindings({{loops.n, 3}, {loops.m, 7}}, 5), notes) == outerFirst);
  CHECK(outerFirst->size() == 3);
}

TEST_CASE("lanes: one IterationMemo serves the accesses of one kernel that name the same loops") {
  Loops loops;
  const RawAccess inner = loops.access(loops.j), outer = loops.access(loops.k);
  // b[j * 8 + n] under `threadIdx.x < m`: other address, other guard, the same loop variable.
  RawAccess other = loops.access(loops.j);
  other.offset = binary(Op::Add, binary(Op::Mul, symbol(loops.j), constant(8)), symbol(loops.n));
  other.guards = {binary(Op::Lt, leaf(Op::ThreadIdx, 0), symbol(loops.m))};
  lanes::IterationMemo memo;
  std::set<std::string> notes;
  const auto* first = &memo.combos(inner, loops.symbols, bindings({{loops.n, 3}}), notes);
  memo.startAccess();
  CHECK(&memo.combos(other, loops.symbols, bindings({{loops.n, 3}, {loops.m, 9}}), notes) == first);
  memo.startAccess();
  CHECK(&memo.combos(outer, loops.symbols, bindings({{loops.n, 3}}), notes) != first);
  // Interleaved accesses and bindings: always iterationCombos's listing and notes.
  const std::vector<Bindings> sequence = {bindings({{loops.n, 3}}), bindings({{loops.n, 4}}, 2),
                                          bindings({{loops.n, 3}}, 0), bindings({{loops.n, 4}, {loops.m, 1}}, 2)};
  for (const Bindings& b : sequence)
    for (const RawAccess* raw : {&inner, static_cast<const RawAccess*>(&other), &outer}) {
      memo.startAccess();
      std::set<std::string> fresh, memoised;
      const auto expected = lanes::iterationCombos(*raw, loops.symbols, b, fresh);
      CHECK(memo.combos(*raw, loops.symbols, b, memoised) == expected);
      CHECK(memoised == fresh);
    }
}
