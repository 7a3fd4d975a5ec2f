// The faster forms of the symbolic layer (lib/analysis/src/symbolic.h) against the plain ones
// they replace, which stay the reference: ThreadProgram against evaluate(), the structural
// hash and sameStructure against the structure, substituteLeaves against substitute. Random
// expressions (a fixed seed) with the cases where eager and lazy evaluation could differ:
// selects and && / || over unknown values, division by zero, oversized shifts, loads.
#include <catch2/catch.hpp>

#include <iterator>
#include <random>

#include "symbolic.h"

using namespace coalesce::analysis;

namespace {

// A random expression of about `depth` levels over the thread index, the block, two symbols
// (the second left unbound, so unknown), a uniform load and a load at a thread's address
// (unknown for every thread: ThreadProgram fixes the nodes above it unknown where evaluate()
// finds them so, and keeps the select arms and logical operands it may short-circuit).
struct RandomExpr {
  std::mt19937 rng{12345};
  ExprRef load = leaf(Op::UniformLoad);
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  ExprRef leafExpr() {
    switch (pick(9)) {
      case 7: return unary(Op::LaneLoad, binary(Op::Add, leaf(Op::ThreadIdx, 0), constant(pick(4))));
      case 0: return leaf(Op::ThreadIdx, pick(3));
      case 1: return leaf(Op::BlockIdx, 0);
      case 2: return leaf(Op::BlockDim, pick(2));
      case 3: return symbol(0);
      case 4: return symbol(1);  // unbound
      case 5: return load;
      default: return constant(pick(9) - 2);
    }
  }
  ExprRef make(int depth) {
    if (depth == 0 || pick(5) == 0) return leafExpr();
    static const Op binaryOps[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem, Op::Shl, Op::Shr, Op::And,
                                   Op::Or,  Op::Xor, Op::Min, Op::Max, Op::Lt,  Op::Le,  Op::Gt,  Op::Ge,
                                   Op::Eq,  Op::Ne,  Op::LAnd, Op::LOr};
    switch (pick(6)) {
      case 0: return unary(pick(2) ? Op::Neg : (pick(2) ? Op::Not : Op::BitNot), make(depth - 1));
      case 1: return select(make(depth - 1), make(depth - 1), make(depth - 1));
      default: {
        ExprRef shared = make(depth - 1);  // a DAG: one operand used twice
        const Op op = binaryOps[pick(static_cast<int>(std::size(binaryOps)))];
        return pick(3) == 0 ? binary(op, shared, shared) : binary(op, shared, make(depth - 1));
      }
    }
  }
};

Bindings someBindings() {
  Bindings b;
  b.blockDim[0] = 64;
  b.blockDim[1] = 2;
  b.blockIdx[0] = 3;
  b.symbols[0] = 5;
  return b;
}

}  // namespace

TEST_CASE("lanes: ThreadProgram gives what evaluate gives, thread by thread") {
  RandomExpr gen;
  const Bindings base = someBindings();
  int known = 0, unknown = 0;
  for (int i = 0; i < 400; ++i) {
    const ExprRef e = gen.make(6);
    const ThreadProgram program(e, base);
    for (int64_t tz = 0; tz < 2; ++tz)
      for (int64_t ty = 0; ty < 2; ++ty)
        for (int64_t tx = 0; tx < 40; tx += 3) {
          Bindings b = base;
          b.tid[0] = tx;
          b.tid[1] = ty;
          b.tid[2] = tz;
          const auto expected = evaluate(e, b);
          const auto got = program.run(tx, ty, tz);
          REQUIRE(got.has_value() == expected.has_value());
          if (expected) {
            REQUIRE(*got == *expected);
            ++known;
          } else {
            ++unknown;
          }
        }
  }
  // Both outcomes were exercised, so the comparison above meant something.
  CHECK(known > 1000);
  CHECK(unknown > 1000);
}

TEST_CASE("lanes: ThreadProgram::runMany gives what run gives, for a batch and its remainder") {
  RandomExpr gen;
  const Bindings base = someBindings();
  // 150 threads: two full batches of 64 and a partial one; the thread indices out of order.
  std::vector<int64_t> tx, ty, tz;
  for (int64_t k = 0; k < 150; ++k) {
    tx.push_back((k * 37) % 64);
    ty.push_back(k % 2);
    tz.push_back((k / 7) % 2);
  }
  int differing = 0, known = 0;
  for (int i = 0; i < 400; ++i) {
    const ExprRef e = gen.make(6);
    const ThreadProgram program(e, base);
    std::vector<std::optional<int64_t>> many(tx.size());
    program.runMany(tx.data(), ty.data(), tz.data(), tx.size(), many.data());
    for (size_t k = 0; k < tx.size(); ++k) {
      const auto one = program.run(tx[k], ty[k], tz[k]);
      if (one != many[k]) ++differing;
      if (one) ++known;
    }
  }
  // Every op over thread-dependent operands that meet (x == y for some threads, both signs,
  // zero divisors, oversized shifts), beside the random expressions above.
  const ExprRef tx0 = leaf(Op::ThreadIdx, 0), ty0 = leaf(Op::ThreadIdx, 1);
  const ExprRef operands[] = {tx0, binary(Op::Sub, tx0, constant(32)), ty0, constant(3), constant(0),
                              constant(70), unary(Op::LaneLoad, tx0)};
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem, Op::Shl, Op::Shr, Op::And, Op::Or, Op::Xor, Op::Min,
                    Op::Max, Op::Lt,  Op::Le,  Op::Gt,  Op::Ge,  Op::Eq,  Op::Ne, Op::LAnd, Op::LOr};
  int directed = 0;
  for (const Op op : ops)
    for (const ExprRef& x : operands)
      for (const ExprRef& y : operands) {
        const ThreadProgram program(binary(op, x, y), base);
        std::vector<std::optional<int64_t>> many(tx.size());
        program.runMany(tx.data(), ty.data(), tz.data(), tx.size(), many.data());
        for (size_t k = 0; k < tx.size(); ++k) {
          if (program.run(tx[k], ty[k], tz[k]) != many[k]) ++differing;
          ++directed;
        }
      }
  CHECK(differing == 0);
  CHECK(known > 10000);
  CHECK(directed > 100000);
}

TEST_CASE("lanes: structural hash and sameStructure: equal structures match, distinct loads never") {
  const ExprRef tx = leaf(Op::ThreadIdx, 0), n = symbol(0);
  const ExprRef a = binary(Op::Add, binary(Op::Mul, tx, n), constant(4));
  const ExprRef b = binary(Op::Add, binary(Op::Mul, leaf(Op::ThreadIdx, 0), symbol(0)), constant(4));
  CHECK(a != b);
  CHECK(a->hash == b->hash);
  CHECK(sameStructure(a, b));
  CHECK_FALSE(sameStructure(a, binary(Op::Add, binary(Op::Mul, tx, n), constant(8))));
  CHECK_FALSE(sameStructure(a, binary(Op::Add, binary(Op::Mul, tx, symbol(1)), constant(4))));
  const ExprRef l1 = leaf(Op::UniformLoad), l2 = leaf(Op::UniformLoad);
  CHECK(sameStructure(l1, l1));
  CHECK_FALSE(sameStructure(l1, l2));
  CHECK_FALSE(sameStructure(binary(Op::Add, l1, tx), binary(Op::Add, l2, tx)));
  CHECK(sameStructure(binary(Op::Add, l1, tx), binary(Op::Add, l1, leaf(Op::ThreadIdx, 0))));
  // select(c, x, x') with x' a copy of x folds to x; affine terms merge (2 * n).
  CHECK(select(binary(Op::Lt, tx, n), a, b) == a);
  auto form = linearize(binary(Op::Add, binary(Op::Mul, n, constant(3)), binary(Op::Sub, symbol(0), constant(1))));
  REQUIRE(form);
  REQUIRE(form->terms.size() == 1);
  CHECK(form->terms[0].coef == 4);
  CHECK(form->constant == -1);
}

TEST_CASE("lanes: substituteLeaves rebuilds what substitute rebuilds, and a shared load stays one load per use") {
  RandomExpr gen;
  auto replace = [](const ExprRef& leafExpr) -> ExprRef {
    if (leafExpr->op == Op::Symbol && leafExpr->symbolId == 0) return constant(7);
    if (leafExpr->op == Op::BlockDim) return constant(32);
    return nullptr;
  };
  const Bindings b = someBindings();
  for (int i = 0; i < 300; ++i) {
    const ExprRef e = gen.make(6);
    const ExprRef plain = substitute(e, replace);
    const ExprRef fast = substituteLeaves(e, replace, opBit(Op::Symbol) | opBit(Op::BlockDim));
    REQUIRE(plain->size == fast->size);
    REQUIRE(plain->opsBelow == fast->opsBelow);
    REQUIRE(evaluate(plain, b) == evaluate(fast, b));
    REQUIRE(toString(plain, SymbolTable{}) == toString(fast, SymbolTable{}));
  }
  // A lane-varying load used twice: rebuilt once per use, as a tree walk does, so the two
  // uses stay two values (affine forms do not merge them).
  const ExprRef ld = unary(Op::LaneLoad, binary(Op::Add, leaf(Op::ThreadIdx, 0), symbol(0)));
  const ExprRef twice = binary(Op::Add, ld, ld);
  const ExprRef fast = substituteLeaves(twice, replace, opBit(Op::Symbol));
  const ExprRef plain = substitute(twice, replace);
  REQUIRE(fast->args.size() == 2);
  CHECK(fast->args[0] != fast->args[1]);
  CHECK(plain->args[0] != plain->args[1]);
  // A subtree without the leaves asked for is kept as it is.
  const ExprRef noSymbols = binary(Op::Mul, leaf(Op::ThreadIdx, 0), constant(4));
  CHECK(substituteLeaves(noSymbols, replace, opBit(Op::Symbol)) == noSymbols);
}

TEST_CASE("the symbol table's index lists what a walk over every symbol finds, and follows changes") {
  SymbolTable t;
  SymbolInfo param;
  param.kind = SymbolInfo::Kind::Param;
  const int p = t.add(param);
  const ExprRef cond = binary(Op::Lt, symbol(0), constant(8));
  SymbolInfo counter;
  counter.kind = SymbolInfo::Kind::LoopVar;
  counter.loopCond = cond;
  const int k = t.add(counter);
  SymbolInfo geometric = counter;  // the same loop's geometric variable
  const int s = t.add(geometric);
  SymbolInfo exit;
  exit.exitOf = s;
  const int e = t.add(exit);
  CHECK(t.withValue().empty());
  CHECK(t.loopExits() == std::vector<int>{e});
  CHECK(t.loopVarsOf(cond.get()) == std::vector<int>{k, s});
  CHECK(t.loopVarsOf(constant(1).get()).empty());
  // A value set through the writable access, and a symbol added later, are seen.
  t[p].value = 64;
  CHECK(t.withValue() == std::vector<int>{p});
  SymbolInfo assumed;
  assumed.value = 4096;
  const int a = t.add(assumed);
  CHECK(t.withValue() == std::vector<int>{p, a});
}
