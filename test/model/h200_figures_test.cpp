// Figures measured on the H200 with Nsight Compute (the model and where it meets the
// hardware: docs/model.md, docs/verification/calibration.md).
#include <catch2/catch.hpp>

#include "model_test_util.h"

using namespace coalesce::test;

TEST_CASE("H200 global: sectors per request for one warp instruction, block 256") {
  CHECK(globalOf(strided(Space::Global, 1, 4)).sectorsPerRequest == 4);      // float a[i]
  CHECK(globalOf(strided(Space::Global, 1, 4, 1)).sectorsPerRequest == 5);   // a[i+1]
  CHECK(globalOf(strided(Space::Global, 2, 4)).sectorsPerRequest == 8);
  CHECK(globalOf(strided(Space::Global, 4, 4)).sectorsPerRequest == 16);
  CHECK(globalOf(strided(Space::Global, 8, 4)).sectorsPerRequest == 32);
  CHECK(globalOf(strided(Space::Global, 32, 4)).sectorsPerRequest == 32);
  CHECK(globalOf(strided(Space::Global, 0, 4)).sectorsPerRequest == 1);      // a[0]
  auto d = globalOf(strided(Space::Global, 1, 8));                           // double a[i]
  CHECK(d.sectorsPerRequest == 8);
  CHECK(d.efficiency == Approx(1.0));
  auto q = globalOf(strided(Space::Global, 1, 16));                          // float4 a[i]
  CHECK(q.sectorsPerRequest == 16);
  CHECK(q.efficiency == Approx(1.0));
  Access field;                                                              // p[i].x, 24-byte struct
  field.space = Space::Global;
  field.bytesPerLane = 4;
  field.pattern = LanePattern::makeAffine({24, 0, 0}, {0, 0});
  CHECK(globalOf(field).sectorsPerRequest == 24);
  Access rowsFromX;                                                          // 32x8 block, 2048-wide
  rowsFromX.space = Space::Global;
  rowsFromX.bytesPerLane = 4;
  rowsFromX.pattern = LanePattern::makeAffine({2048 * 4, 4, 0}, {0, 0});
  CHECK(globalOf(rowsFromX, {32, 8, 1}).sectorsPerRequest == 32);
}

TEST_CASE("H200 shared: wavefronts per request, and the wide-access minimum") {
  for (auto [stride, wf] : {std::pair{1, 1}, {2, 2}, {4, 4}, {32, 32}, {33, 1}, {0, 1}})
    CHECK(sharedOf(strided(Space::Shared, stride, 4)).wavefronts == wf);
  // 64-bit: two half-warp phases, conflict-free minimum 2.
  CHECK(sharedOf(strided(Space::Shared, 1, 8)).wavefronts == 2);
  // A uniform 128-bit load (the compiler merged four same-address reads): 2 wavefronts,
  // which is also its ideal (field notes §7).
  auto u = sharedOf(strided(Space::Shared, 0, 16));
  CHECK(u.wavefronts == 2);
  CHECK(u.idealWavefronts == 2);
  CHECK(u.conflictDegree == 1);
  // Calibration (test/verify/data/calibration): a uniform LDS.64 is one wavefront, and
  // so is one where each half-warp reads its own single double; float4 s[t % 8] is 4
  // (quarter-warp phases, each full).
  CHECK(sharedOf(strided(Space::Shared, 0, 8)).wavefronts == 1);
  Access halfPair;
  halfPair.space = Space::Shared;
  halfPair.bytesPerLane = 8;
  halfPair.pattern = LanePattern::makeAffine({0, 8, 0}, {0, 0});  // threadIdx.y selects s[0] or s[1]
  CHECK(sharedOf(halfPair, {16, 2, 1}).wavefronts == 1);
  std::vector<std::optional<int64_t>> mod8;
  for (int t = 0; t < 32; ++t) mod8.push_back((t % 8) * 16);
  Access m;
  m.space = Space::Shared;
  m.bytesPerLane = 16;
  m.pattern = LanePattern::makeEnumerated(mod8, {0, 0});
  CHECK(sharedOf(m, {32, 1, 1}).wavefronts == 4);
}

TEST_CASE("H200 shared atomics: lanes on one word are served one by one, not broadcast") {
  // eigenvalues' same-word atomicExch (realcode set): one wavefront per active lane, ideal 1.
  Access same = strided(Space::Shared, 0, 4);
  same.kind = AccessKind::Atomic;
  same.sameWordSerialised = true;
  const SharedFigures s = sharedOf(same, {32, 1, 1});
  CHECK(s.wavefronts == 32);
  CHECK(s.idealWavefronts == 1);
  CHECK(s.conflictDegree == 32);
  // Distinct words: as a load (s[t] conflict-free, s[32t] 32 words in one bank).
  Access spread = strided(Space::Shared, 1, 4);
  spread.kind = AccessKind::Atomic;
  spread.sameWordSerialised = true;
  CHECK(sharedOf(spread).wavefronts == 1);
  spread.pattern = LanePattern::makeAffine({128, 0, 0}, {0, 0});
  CHECK(sharedOf(spread).wavefronts == 32);
  // Pairs of lanes on 16 words (s[t % 16]): 2 per bank.
  std::vector<std::optional<int64_t>> pairs;
  for (int t = 0; t < 32; ++t) pairs.push_back((t % 16) * 4);
  Access p;
  p.space = Space::Shared;
  p.kind = AccessKind::Atomic;
  p.sameWordSerialised = true;
  p.pattern = LanePattern::makeEnumerated(pairs, {0, 0});
  CHECK(sharedOf(p, {32, 1, 1}).wavefronts == 2);
  // nvcc's counting form atomicAdd(&s[0], 1) is not serialised (calibration satom_u32_s0: 1).
  same.sameWordSerialised = false;
  CHECK(sharedOf(same, {32, 1, 1}).wavefronts == 1);
}
