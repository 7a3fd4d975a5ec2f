// The reuse of figures across listed iterations (periodic_figures.h, access_groups.cpp) rests
// on the model reading a base only modulo a period: these tests move random patterns by whole
// periods and check every figure is the same, and that the group's per-iteration sums, with
// their single sort per warp, are those of the per-warp code they replaced.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "coalesce/model/block_reuse.h"
#include "coalesce/model/global_model.h"
#include "periodic_figures.h"

using namespace coalesce;
using namespace coalesce::analysis;

namespace {

model::LanePattern randomPattern(std::mt19937_64& rng, const model::Dim3& block) {
  std::uniform_int_distribution<int> kind(0, 2), coef(-3, 12), offset(-200, 4000), align(0, 3);
  model::UniformOffset base;
  base.constant = offset(rng) * 7;
  base.unknownAlignment = std::array<int64_t, 4>{0, 4, 16, 256}[static_cast<size_t>(align(rng))];
  base.blockCycle = std::array<int64_t, 4>{0, 8, 64, 1024}[static_cast<size_t>(align(rng))];
  switch (kind(rng)) {
    case 0: return model::LanePattern::makeAffine({4LL * coef(rng), 4LL * coef(rng), 0}, base);
    case 1: return model::LanePattern::makeAffine({coef(rng), 0, 0}, base);
    default: {
      std::vector<std::optional<int64_t>> offsets(static_cast<size_t>(block.volume()));
      for (auto& o : offsets)
        if (rng() % 5 != 0) o = offset(rng);
      return model::LanePattern::makeEnumerated(std::move(offsets), base);
    }
  }
}

model::LanePattern moved(model::LanePattern p, int64_t by) {
  p.base.constant += by;
  return p;
}

// The group's figures of one iteration as evaluateGroup computed them before (session 12):
// per warp, each member's ranges counted alone, their union counted, and the runs of the
// union's sector spans sorted as pairs.
std::vector<MemberWarpSums> perWarpSums(const std::vector<model::LanePattern>& patterns, const std::vector<int>& bytes,
                                        const model::Dim3& block, const model::Arch& arch) {
  std::vector<MemberWarpSums> sums(patterns.size());
  auto sectorOf = [&](int64_t a) { return a >= 0 ? a / arch.sectorBytes : -((-a + arch.sectorBytes - 1) / arch.sectorBytes); };
  for (int64_t w = 0; w < model::warpCount(block, arch); ++w) {
    std::vector<model::ByteRange> ranges;
    std::vector<bool> active(patterns.size());
    int64_t memberSectors = 0;
    for (size_t m = 0; m < patterns.size(); ++m) {
      std::vector<model::ByteRange> own;
      for (const auto& lane : model::warpLaneOffsets(patterns[m], block, w, arch))
        if (lane) own.push_back({patterns[m].base.constant + *lane, bytes[m]});
      active[m] = !own.empty();
      memberSectors += model::countSectorsOfRanges(own, arch).sectors;
      ranges.insert(ranges.end(), own.begin(), own.end());
    }
    if (ranges.empty()) continue;
    const model::WarpSectors together = model::countSectorsOfRanges(ranges, arch);
    std::vector<std::pair<int64_t, int64_t>> spans;
    for (const auto& r : ranges) spans.push_back({sectorOf(r.address), sectorOf(r.address + r.bytes - 1)});
    std::sort(spans.begin(), spans.end());
    int64_t runs = 0;
    for (size_t k = 0; k < spans.size();) {
      const int64_t first = spans[k].first;
      int64_t last = spans[k].second;
      for (++k; k < spans.size() && spans[k].first <= last + 1; ++k) last = std::max(last, spans[k].second);
      if (last > first) ++runs;
    }
    for (size_t m = 0; m < patterns.size(); ++m)
      if (active[m]) {
        sums[m].sectors += together.sectors;
        sums[m].idealSectors += together.idealSectors;
        sums[m].memberSectors += memberSectors;
        sums[m].sectorRuns += runs;
        ++sums[m].requests;
      }
  }
  return sums;
}

}  // namespace

TEST_CASE("lanes: an access's figures and block bytes are the same at every move of its base by whole periods") {
  const model::Arch& arch = model::defaultArch();
  std::mt19937_64 rng(16);
  for (const model::Dim3 block : {model::Dim3{64, 1, 1}, model::Dim3{16, 6, 1}, model::Dim3{40, 1, 1}}) {
    for (int trial = 0; trial < 60; ++trial) {
      for (model::Space space : {model::Space::Global, model::Space::Shared}) {
        const model::Access a{space, model::AccessKind::Load, (trial % 3 == 0) ? 8 : 4, randomPattern(rng, block), false};
        const int64_t period = figuresPeriod(space, arch);
        const model::AccessFigures f = model::analyzeAccess(a, block, arch);
        const auto bytes = model::blockBytes(a, block, arch);
        PeriodicFigures kept;
        for (int64_t k : {-3, -1, 1, 2, 17}) {
          model::Access b = a;
          b.pattern = moved(a.pattern, k * period);
          CHECK(model::analyzeAccess(b, block, arch) == f);
          const auto movedBytes = model::blockBytes(b, block, arch);
          REQUIRE(movedBytes.has_value() == bytes.has_value());
          if (bytes) {
            CHECK(movedBytes->requestedBytes == bytes->requestedBytes);
            CHECK(movedBytes->distinctBytes == bytes->distinctBytes);
            CHECK(movedBytes->warpSectors == bytes->warpSectors);
            CHECK(movedBytes->blockSectors == bytes->blockSectors);
          }
          // The kept figures: computed once, found again for the moved access.
          const PeriodicFigures::Entry& e = kept.at(b, block, arch, space == model::Space::Global);
          CHECK(e.figures == f);
        }
        // A move by less than a period is another entry, with that placement's own figures.
        model::Access c = a;
        c.pattern = moved(a.pattern, 4);
        CHECK(kept.at(c, block, arch, false).figures == model::analyzeAccess(c, block, arch));
      }
    }
  }
}

TEST_CASE("lanes: a group's sums per iteration are the per-warp code's, at every move by whole sectors") {
  const model::Arch& arch = model::defaultArch();
  std::mt19937_64 rng(61);
  for (const model::Dim3 block : {model::Dim3{64, 1, 1}, model::Dim3{8, 8, 1}, model::Dim3{48, 1, 1}}) {
    for (int trial = 0; trial < 80; ++trial) {
      const size_t members = 2 + static_cast<size_t>(trial % 4);
      std::vector<model::LanePattern> patterns;
      std::vector<int> bytes;
      for (size_t m = 0; m < members; ++m) {
        patterns.push_back(randomPattern(rng, block));
        bytes.push_back(std::array<int, 4>{4, 8, 16, 2}[m % 4]);
      }
      const auto expected = perWarpSums(patterns, bytes, block, arch);
      CHECK(groupWarpSums(patterns, bytes, block, arch) == expected);
      for (int64_t k : {-5, 1, 3, 1000}) {
        std::vector<model::LanePattern> shifted;
        for (const auto& p : patterns) shifted.push_back(moved(p, k * arch.sectorBytes));
        CHECK(groupWarpSums(shifted, bytes, block, arch) == expected);
      }
    }
  }
}
