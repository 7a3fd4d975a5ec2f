// Bytes shared by the warps of a block (block_reuse.h), on the shapes of the tiling rule's
// examples: naive matrix multiply, a broadcast inside one warp, a coalesced stream.
#include <catch2/catch.hpp>

#include "coalesce/model/block_reuse.h"

using namespace coalesce::model;

namespace {

Access affineLoad(AffineLanes lanes, int bytes = 4) {
  return Access{Space::Global, AccessKind::Load, bytes, LanePattern::makeAffine(lanes, {})};
}

}  // namespace

TEST_CASE("block reuse: B[k * n + col] in a 16x16 block is read by all 8 warps") {
  // Each warp (two rows of 16 threads) reads the same 16 floats: 64 bytes, 2 sectors.
  const auto b = blockBytes(affineLoad({4, 0, 0}), {16, 16, 1}, defaultArch());
  REQUIRE(b);
  CHECK(b->warps == 8);
  CHECK(b->requestedBytes == 8 * 64);
  CHECK(b->distinctBytes == 64);
  CHECK(b->warpSectors == 8 * 2);
  CHECK(b->blockSectors == 2);
}

TEST_CASE("block reuse: A[row * n + k] in a 16x16 block is a broadcast per half-warp, not shared across warps") {
  // Lanes of one row read one float: each warp asks for 2 floats, all distinct over the block.
  const auto a = blockBytes(affineLoad({0, 4096, 0}), {16, 16, 1}, defaultArch());
  REQUIRE(a);
  CHECK(a->requestedBytes == 8 * 8);
  CHECK(a->distinctBytes == 64);
}

TEST_CASE("block reuse: a uniform load (n-body's pos[j]) is read by every warp") {
  const Access uniform{Space::Global, AccessKind::Load, 16, LanePattern::makeUniform({})};
  const auto u = blockBytes(uniform, {256, 1, 1}, defaultArch());
  REQUIRE(u);
  CHECK(u->requestedBytes == 8 * 16);
  CHECK(u->distinctBytes == 16);
  // One warp alone: its broadcast is no reuse across warps.
  const auto one = blockBytes(uniform, {32, 1, 1}, defaultArch());
  CHECK(one->requestedBytes == one->distinctBytes);
}

TEST_CASE("block reuse: a coalesced stream shares nothing, unknown addresses give nothing") {
  const auto s = blockBytes(affineLoad({4, 0, 0}), {256, 1, 1}, defaultArch());
  REQUIRE(s);
  CHECK(s->requestedBytes == 1024);
  CHECK(s->distinctBytes == 1024);
  CHECK(s->warpSectors == s->blockSectors);
  const Access indirect{Space::Global, AccessKind::Load, 4, LanePattern::makeIndirect()};
  CHECK_FALSE(blockBytes(indirect, {256, 1, 1}, defaultArch()));
}

TEST_CASE("block reuse: overlapping windows (a 1D convolution tap) share their halo only") {
  // in[i + 3] with 4-byte lanes over 64 threads: no overlap between warps for one tap.
  Access tap = affineLoad({4, 0, 0});
  tap.pattern.base.constant = 12;
  const auto t = blockBytes(tap, {64, 1, 1}, defaultArch());
  CHECK(t->requestedBytes == t->distinctBytes);
  // A misaligned base: the warps touch 5 sectors each, sharing the one between them.
  CHECK(t->warpSectors == 10);
  CHECK(t->blockSectors == 9);
}

TEST_CASE("iteration window: a thread walking its own row uses each sector over 8 iterations") {
  // row[tid * 4096 + x], x = 0..15: lanes 16 KB apart, the base 4 bytes further each iteration.
  IterationWindow walk(8);
  for (int x = 0; x < 16; ++x) {
    Access a = affineLoad({4 * 4096, 0, 0});
    a.pattern.base.constant = 4 * x;
    REQUIRE(walk.add(a, {256, 1, 1}, defaultArch()));
  }
  // 32 sectors per warp per iteration, but the same 32 over each window of 8 iterations.
  CHECK(walk.sectorsPerRequest() == Approx(32.0 / 8));
  // Each lane's sector lies in a line of its own: the warp keeps 32 lines for its next iterations.
  CHECK(walk.linesPerRequest() == Approx(32.0));

  // The same lanes, each iteration a fresh row: nothing is touched again.
  IterationWindow fresh(8);
  for (int x = 0; x < 16; ++x) {
    Access a = affineLoad({4 * 4096, 0, 0});
    a.pattern.base.constant = 4 * 4096 * 32 * 8 * x;
    fresh.add(a, {256, 1, 1}, defaultArch());
  }
  CHECK(fresh.sectorsPerRequest() == Approx(32.0));

  // Consecutive lanes: 128 bytes per warp, one line.
  IterationWindow rows(8);
  for (int x = 0; x < 4; ++x) {
    Access a = affineLoad({4, 0, 0});
    a.pattern.base.constant = 4 * 1024 * x;
    rows.add(a, {256, 1, 1}, defaultArch());
  }
  CHECK(rows.linesPerRequest() == Approx(1.0));

  // An address only known as data: no figure.
  IterationWindow gather(8);
  CHECK_FALSE(gather.add(Access{Space::Global, AccessKind::Load, 4, LanePattern::makeIndirect()}, {256, 1, 1},
                         defaultArch()));
  CHECK_FALSE(gather.known());
}

TEST_CASE("iteration window: the share of the touched bytes read tells filled gaps from repeats") {
  // in[2 * tid + t], t = 0..7: lanes 8 bytes apart, each tap reads the words the last one skipped.
  IterationWindow filled(8), again(8), even(8);
  for (int t = 0; t < 8; ++t) {
    Access a = affineLoad({8, 0, 0});
    a.pattern.base.constant = 4 * t;
    REQUIRE(filled.add(a, {32, 1, 1}, defaultArch()));
    a.pattern.base.constant = 0;  // the same words every iteration
    REQUIRE(again.add(a, {32, 1, 1}, defaultArch()));
    a.pattern.base.constant = 8 * t;  // even taps only: the odd words are never read
    REQUIRE(even.add(a, {32, 1, 1}, defaultArch()));
  }
  // Words 0..69 (lane 31 at tap 7: word 69) read over 9 sectors.
  CHECK(filled.bytesReadShare() == Approx(280.0 / 288));
  // Per request 8 sectors for 128 bytes; over the window the same: half.
  CHECK(again.bytesReadShare() == Approx(0.5));
  CHECK(again.sectorsPerRequest() == Approx(1.0));  // which the sector count alone calls reuse
  // The even words 0..76 (156 bytes) over 10 sectors.
  CHECK(even.bytesReadShare() == Approx(156.0 / 320));
}
