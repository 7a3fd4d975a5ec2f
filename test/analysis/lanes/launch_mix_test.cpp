// mixedFigures (launch_mix.h): the figures of an access over a run's recorded configurations are
// their mean weighted by each one's requests, per alignment case, with ratios of the sums.
#include <catch2/catch.hpp>

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
