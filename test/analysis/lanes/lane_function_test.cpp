// The symbolic lane functions without Clang: address expressions built by hand, as the
// AST walker would, evaluated for a launch.
#include <catch2/catch.hpp>

#include "lane_function.h"

using namespace coalesce;
using namespace coalesce::analysis;

namespace {

ExprRef tx() { return leaf(Op::ThreadIdx, 0); }
ExprRef ty() { return leaf(Op::ThreadIdx, 1); }
ExprRef add(ExprRef a, ExprRef b) { return binary(Op::Add, std::move(a), std::move(b)); }
ExprRef mul(ExprRef a, ExprRef b) { return binary(Op::Mul, std::move(a), std::move(b)); }
ExprRef c(int64_t v) { return constant(v); }

LaunchContext launch1D(int64_t x, bool known = true) {
  LaunchContext l;
  l.block.dim = {x, 1, 1};
  l.blockKnown = known;
  return l;
}

RawAccess global(ExprRef offsetBytes, int bytes = 4) {
  RawAccess r;
  r.space = model::Space::Global;
  r.bytes = bytes;
  r.offset = std::move(offsetBytes);
  r.rootName = "a";
  return r;
}

}  // namespace

TEST_CASE("lanes: the global index i = blockIdx.x * blockDim.x + threadIdx.x") {
  SymbolTable symbols;
  const ExprRef i = add(mul(leaf(Op::BlockIdx, 0), leaf(Op::BlockDim, 0)), tx());
  for (bool known : {true, false}) {
    auto r = evaluateLanes(global(mul(i, c(4))), launch1D(256, known), symbols, model::defaultArch());
    REQUIRE(r.figures.global);
    CHECK(r.figures.global->alignmentKnown);
    CHECK(r.figures.global->aligned.sectorsPerRequest == 4);
    CHECK(r.access.pattern.kind == model::PatternKind::Affine);
  }
  // a[2 * i]
  auto r = evaluateLanes(global(mul(mul(i, c(2)), c(4))), launch1D(256), symbols, model::defaultArch());
  CHECK(r.figures.global->aligned.sectorsPerRequest == 8);
}

TEST_CASE("lanes: an unknown row width scales the lane stride: assumed large, and said") {
  SymbolTable symbols;
  SymbolInfo w;
  w.name = "width";
  w.kind = SymbolInfo::Kind::Param;
  const int id = symbols.add(w);
  // a[threadIdx.x * width + threadIdx.y]
  auto raw = global(mul(add(mul(tx(), symbol(id)), ty()), c(4)));
  LaunchContext l;
  l.block.dim = {32, 8, 1};
  l.blockKnown = true;
  auto r = evaluateLanes(raw, l, symbols, model::defaultArch());
  CHECK(r.figures.global->aligned.sectorsPerRequest == 32);
  bool said = false;
  for (const auto& a : r.assumptions) said = said || a.find("width = 4096") != std::string::npos;
  CHECK(said);
  // The launch fixes it: width = 1 makes each warp (fixed threadIdx.y) contiguous, 4
  // bytes further per row: aligned for y = 0, one sector more for y = 1..7.
  l.symbolValues[id] = 1;
  l.symbolValueSources[id] = "the launch at t.cu:1";
  r = evaluateLanes(raw, l, symbols, model::defaultArch());
  CHECK(r.figures.global->aligned.sectorsPerRequest == Approx((4 + 7 * 5) / 8.0));
}

TEST_CASE("lanes: non-affine lane parts are enumerated exactly (XOR swizzle)") {
  SymbolTable symbols;
  RawAccess raw;
  raw.space = model::Space::Shared;
  raw.bytes = 4;
  raw.rootAlignment = 128;
  // tile[r][c ^ r] with r = threadIdx.x, c = 5: byte offset (32 r + (5 ^ r)) * 4
  raw.offset = mul(add(mul(tx(), c(32)), binary(Op::Xor, c(5), tx())), c(4));
  auto r = evaluateLanes(raw, launch1D(32), symbols, model::defaultArch());
  CHECK(r.access.pattern.kind == model::PatternKind::Enumerated);
  REQUIRE(r.figures.shared);
  CHECK(r.figures.shared->aligned.wavefronts == 1);
  // Without the swizzle: 32-way.
  raw.offset = mul(add(mul(tx(), c(32)), c(5)), c(4));
  r = evaluateLanes(raw, launch1D(32), symbols, model::defaultArch());
  CHECK(r.figures.shared->aligned.wavefronts == 32);
}

TEST_CASE("lanes: a guard masks lanes, loop iterations are averaged per request") {
  SymbolTable symbols;
  // for (s = 128; s > 0; s >>= 1) if (tid < s) sdata[tid] += ...: one wavefront per
  // request whatever s, and requests only from warps with an active lane.
  SymbolInfo s;
  s.name = "s";
  s.kind = SymbolInfo::Kind::LoopVar;
  s.loopInit = c(128);
  const int id = symbols.add(s);
  symbols[id].loopNext = binary(Op::Shr, symbol(id), c(1));
  symbols[id].loopCond = binary(Op::Gt, symbol(id), c(0));
  symbols[id].loopText = "for (s = 128; s > 0; s >>= 1)";
  RawAccess raw;
  raw.space = model::Space::Shared;
  raw.bytes = 4;
  raw.rootAlignment = 128;
  raw.offset = mul(tx(), c(4));
  raw.guards = {binary(Op::Lt, tx(), symbol(id))};
  raw.guardTexts = {"tid < s"};
  auto r = evaluateLanes(raw, launch1D(256), symbols, model::defaultArch());
  REQUIRE(r.figures.shared);
  CHECK(r.figures.shared->aligned.wavefronts == 1);
  // Requests: s = 128 -> 4 warps, 64 -> 2, 32 -> 1, 16, 8, 4, 2, 1 -> 1 each: 12.
  CHECK(r.figures.shared->aligned.requests == 12);
  // Interleaved: index = 2 * s * tid, guard index < 256: conflicts grow with s.
  SymbolInfo s2;
  s2.name = "s";
  s2.kind = SymbolInfo::Kind::LoopVar;
  s2.loopInit = c(1);
  const int id2 = symbols.add(s2);
  symbols[id2].loopNext = binary(Op::Mul, symbol(id2), c(2));
  symbols[id2].loopCond = binary(Op::Lt, symbol(id2), c(256));
  const ExprRef index = mul(mul(c(2), symbol(id2)), tx());
  raw.offset = mul(index, c(4));
  raw.guards = {binary(Op::Lt, index, c(256))};
  r = evaluateLanes(raw, launch1D(256), symbols, model::defaultArch());
  CHECK(r.figures.shared->aligned.conflictDegree > 1);
}

TEST_CASE("lanes: an indirect index gives a range, a uniform loaded row base stays coalesced") {
  SymbolTable symbols;
  auto r = evaluateLanes(global(mul(leaf(Op::LaneLoad), c(4))), launch1D(256), symbols, model::defaultArch());
  CHECK(r.access.pattern.kind == model::PatternKind::Indirect);
  REQUIRE(r.figures.sectorRange);
  CHECK(r.figures.sectorRange->second == 32);
  // table[row[blockIdx.x] * 256 + threadIdx.x]
  r = evaluateLanes(global(mul(add(mul(leaf(Op::UniformLoad), c(256)), tx()), c(4))), launch1D(256), symbols,
                    model::defaultArch());
  CHECK(r.indirectRowGather);
  CHECK(r.figures.global->aligned.sectorsPerRequest == 4);
}

TEST_CASE("lanes: an index loaded at an address that is warp-uniform only with a loaded value in it") {
  // popsift's ext_desc_notile: `ext = extrema + map[ori_ps[octave] + blockIdx.x + threadIdx.z]`
  // on a block of one z: every lane reads the same map entry, so `ext->xpos` is a broadcast.
  SymbolTable symbols;
  LaunchContext block32x4 = launch1D(32);
  block32x4.block.dim = {32, 4, 1};
  const ExprRef mapIndex = add(add(leaf(Op::UniformLoad), leaf(Op::BlockIdx, 0)), leaf(Op::ThreadIdx, 2));
  auto r = evaluateLanes(global(add(mul(unary(Op::LaneLoad, mul(mapIndex, c(4))), c(44)), c(4))), block32x4, symbols,
                         model::defaultArch());
  CHECK(r.access.pattern.kind != model::PatternKind::Indirect);
  REQUIRE(r.figures.global);
  CHECK(r.figures.global->aligned.sectorsPerRequest == 1);
  // A loaded value that scales the lane (`map[load * threadIdx.x]`) leaves the index per lane.
  r = evaluateLanes(global(mul(unary(Op::LaneLoad, mul(mul(leaf(Op::UniformLoad), tx()), c(4))), c(4))), launch1D(256),
                    symbols, model::defaultArch());
  CHECK(r.access.pattern.kind == model::PatternKind::Indirect);
}
