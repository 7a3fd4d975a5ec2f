// laneSpread (lane_spread.h): how far apart one warp's data-dependent addresses can lie, from
// the operations that bound a loaded value on its way into the address.
#include <catch2/catch.hpp>

#include "lane_spread.h"

using namespace coalesce;
using namespace coalesce::analysis;

namespace {

ExprRef c(int64_t v) { return constant(v); }
ExprRef tx() { return leaf(Op::ThreadIdx, 0); }
ExprRef add(ExprRef a, ExprRef b) { return binary(Op::Add, std::move(a), std::move(b)); }
ExprRef mul(ExprRef a, ExprRef b) { return binary(Op::Mul, std::move(a), std::move(b)); }
ExprRef load() { return unary(Op::LaneLoad, mul(tx(), c(4))); }  // keys[threadIdx.x]

std::optional<int64_t> spread(const ExprRef& offset, model::Dim3 block = {128, 1, 1}, const Bindings& b = {}) {
  return laneSpread(offset, b, block, 32);
}

}  // namespace

TEST_CASE("lane spread: a mask, a remainder or a shift bounds a loaded index, nothing else does") {
  // 4 * (key & 15): counters 0..15, 60 bytes apart at most.
  CHECK(spread(mul(binary(Op::And, load(), c(15)), c(4))) == 60);
  // 4 * ((key & mask) >> shift) with the launch's mask 1 and shift 0 (symbols bound).
  Bindings b;
  b.symbols[0] = 1;
  b.symbols[1] = 0;
  CHECK(spread(mul(binary(Op::Shr, binary(Op::And, load(), symbol(0)), symbol(1)), c(4)), {128, 1, 1}, b) == 8);
  // A remainder of a loaded int may be negative: -7..7.
  CHECK(spread(mul(binary(Op::Rem, load(), c(8)), c(4))) == 56);
  // Unbounded: the key itself, or a mask the launch does not fix.
  CHECK_FALSE(spread(mul(load(), c(4))).has_value());
  CHECK_FALSE(spread(mul(binary(Op::And, load(), symbol(0)), c(4))).has_value());
}

TEST_CASE("lane spread: the thread index moves as far as it does within one warp") {
  const ExprRef bucket = mul(binary(Op::And, load(), c(255)), c(4));  // 1020 bytes
  // A warp's own table, `(threadIdx.x >> 5) * 1024`: the same in every lane of a warp.
  CHECK(spread(add(mul(binary(Op::Shr, tx(), c(5)), c(1024)), bucket)) == 1020);
  // A lane's own slot: 31 lanes of 4 bytes more.
  CHECK(spread(add(mul(tx(), c(4)), bucket)) == 1020 + 124);
  // On a block 8 wide the warp holds 4 rows of x: threadIdx.x moves 7 at most.
  CHECK(spread(add(mul(tx(), c(4)), bucket), {8, 16, 1}) == 1020 + 28);
}
