// mixedFigures (launch_mix.h): the figures of an access over a run's recorded configurations are
// their mean weighted by each one's requests, per alignment case, with ratios of the sums. And
// which launch contexts repeat an earlier one (lane_function.h): those are not evaluated again,
// their figures are the earlier one's.
#include <catch2/catch.hpp>

#include "lane_function.h"
#include "launch_mix.h"

using namespace coalesce;
using namespace coalesce::analysis;

namespace {

model::AccessFigures shared(double wavefronts, double ideal, int64_t maxWavefronts) {
  model::SharedFigures f;
  f.wavefronts = wavefronts;
  f.idealWavefronts = ideal;
  f.conflictDegree = wavefronts / ideal;
  f.maxWavefronts = maxWavefronts;
  f.requests = 8;
  model::AccessFigures out;
  out.shared = model::AlignmentCases<model::SharedFigures>{f, f, f, true};
  return out;
}

model::AccessFigures global(double aligned, double worst, double ideal) {
  model::GlobalFigures a, w;
  a.sectorsPerRequest = aligned;
  w.sectorsPerRequest = worst;
  a.idealSectors = w.idealSectors = ideal;
  a.minSectors = a.maxSectors = static_cast<int64_t>(aligned);
  w.minSectors = w.maxSectors = static_cast<int64_t>(worst);
  model::AccessFigures out;
  out.global = model::AlignmentCases<model::GlobalFigures>{a, a, w, false};
  return out;
}

}  // namespace

TEST_CASE("launch mix: shared wavefronts weighted by requests, the conflict degree a ratio of sums") {
  // dwtHaar1D's two launches: 64 requests at 2 wavefronts (ideal 2), 1 at 1 (ideal 1).
  const model::AccessFigures m = mixedFigures({{shared(2, 2, 2), 64}, {shared(1, 1, 1), 1}});
  REQUIRE(m.shared);
  CHECK(m.shared->aligned.wavefronts == Approx(129.0 / 65));
  CHECK(m.shared->aligned.idealWavefronts == Approx(129.0 / 65));
  CHECK(m.shared->aligned.conflictDegree == Approx(1.0));
  CHECK(m.shared->worst.maxWavefronts == 2);
}

TEST_CASE("launch mix: each alignment case mixed apart, and a configuration with no request weighs nothing") {
  const model::AccessFigures m =
      mixedFigures({{global(4, 5, 4), 3}, {global(8, 9, 4), 1}, {global(32, 32, 4), 0}});
  REQUIRE(m.global);
  CHECK(m.global->aligned.sectorsPerRequest == Approx(5.0));  // (3 x 4 + 8) / 4
  CHECK(m.global->worst.sectorsPerRequest == Approx(6.0));    // (3 x 5 + 9) / 4
  CHECK(m.global->aligned.efficiency == Approx(4.0 / 5.0));
  CHECK(m.global->aligned.maxSectors == 8);  // the extremes over the configurations that run it
  CHECK_FALSE(m.global->alignmentKnown);
}

TEST_CASE("launch mix: no weight at all keeps the first configuration's figures") {
  const model::AccessFigures m = mixedFigures({{global(4, 4, 4), 0}, {global(8, 8, 4), 0}});
  REQUIRE(m.global);
  CHECK(m.global->aligned.sectorsPerRequest == 4);
}

// repeatsAnEarlier (lane_function.h): a context is skipped only when an earlier one equals it
// in every field, so that skipping it cannot change a figure.
TEST_CASE("launch contexts: only a context equal to an earlier one in every field repeats it") {
  LaunchContext a;
  a.block.dim = {256, 1, 1};
  a.symbolValues[3] = 4096;
  LaunchContext b = a;
  b.block.dim = {128, 2, 1};
  const LaunchContext c = a;
  CHECK(repeatsAnEarlier({a, b, c, b, a}) == std::vector<bool>{false, false, true, true, true});
  CHECK(repeatsAnEarlier({}).empty());
  // Each of these differs in one field the evaluations read: none repeats `a`.
  std::vector<LaunchContext> differing(9, a);
  differing[0].block.detail = "the launch at other.cu:3";
  differing[1].grid = model::Dim3{64, 1, 1};
  differing[2].symbolValues[3] = 2048;
  differing[3].costSymbolValues[5].value = 7;
  differing[4].pointerByteOffsets[0] = 4;
  differing[5].dynamicSharedBytes = 1024;
  differing[6].guessedAxes[1] = true;
  differing[7].hostRuns = 3;
  differing[8].blockKnown = !a.blockKnown;
  for (size_t i = 0; i < differing.size(); ++i) {
    INFO("field " << i);
    CHECK(repeatsAnEarlier({a, differing[i]}) == std::vector<bool>{false, false});
  }
}
