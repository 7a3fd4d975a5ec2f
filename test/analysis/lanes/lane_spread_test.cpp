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

namespace {

ExprRef ty() { return leaf(Op::ThreadIdx, 1); }

std::optional<int64_t> grouped(const ExprRef& offset, model::Dim3 block, int64_t bytes = 4) {
  return sharedIndexSectors(offset, Bindings{}, block, 32, bytes, 32);
}

}  // namespace

TEST_CASE("lane groups that load the same index: one run per group, its base on a sector boundary") {
  // sputnik's SpMM dense tile: each row of an 8x4 block reads one column index,
  // `idx[32 * threadIdx.y]`, and its 8 lanes add `2 * threadIdx.x` floats (a float2 each):
  // 4 groups of 64 contiguous bytes, 2 sectors each.
  const ExprRef rowIndex = unary(Op::LaneLoad, mul(ty(), c(128)));
  CHECK(grouped(add(mul(rowIndex, c(4096)), mul(tx(), c(8))), {8, 4, 1}, 8) == 8);
  // 16 lanes of int2 per row: 2 groups of 128 bytes, 4 sectors each.
  CHECK(grouped(add(mul(rowIndex, c(512)), mul(tx(), c(8))), {16, 2, 1}, 8) == 8);
  // A constant 4 bytes past the base moves every run off its boundary: 3 sectors a row.
  CHECK(grouped(add(add(mul(rowIndex, c(4096)), mul(tx(), c(8))), c(4)), {8, 4, 1}, 8) == 12);
  // A warp-wide row (one group of 32 floats): 4 sectors, where a gather said 32.
  const ExprRef warpIndex = unary(Op::LaneLoad, mul(binary(Op::Shr, tx(), c(5)), c(4)));
  CHECK(grouped(add(warpIndex, mul(tx(), c(4))), {128, 1, 1}) == 4);
  // Every lane its own index: 32 groups of one float, one sector each.
  CHECK(grouped(add(mul(load(), c(4)), mul(tx(), c(4))), {128, 1, 1}) == 32);
  // The index multiplied by the thread index, or loaded through a loaded address: not known.
  CHECK_FALSE(grouped(mul(rowIndex, tx()), {8, 4, 1}).has_value());
  CHECK_FALSE(grouped(add(unary(Op::LaneLoad, load()), tx()), {8, 4, 1}).has_value());
  // No load at all: nothing to group.
  CHECK_FALSE(grouped(mul(tx(), c(4)), {128, 1, 1}).has_value());
}
