// Random affine patterns, block shapes, widths and alignments: the model's answers
// equal a brute-force enumeration written independently here.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

#include "coalesce/model/global_model.h"
#include "coalesce/model/shared_model.h"
#include "model_test_util.h"

using namespace coalesce::test;

namespace {

int64_t fdiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Brute force: every byte of every lane.
int64_t bruteSectors(const std::vector<int64_t>& addrs, int bytes) {
  std::set<int64_t> sectors;
  for (int64_t a : addrs)
    for (int64_t b = a; b < a + bytes; ++b) sectors.insert(fdiv(b, 32));
  return static_cast<int64_t>(sectors.size());
}

// Independent statement of the H200's rule: phases of 32/16/8 lanes for <=4/8/16-byte
// accesses; two neighbouring phases that each read a single address share a wavefront.
int64_t bruteWavefronts(const std::vector<std::optional<int64_t>>& lanes, int bytes) {
  const size_t phase = bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
  const size_t pair = bytes <= 4 ? 1 : 2;
  int64_t total = 0;
  for (size_t g = 0; g < lanes.size(); g += phase * pair) {
    std::vector<std::pair<size_t, size_t>> units;  // lane ranges served as one wavefront group
    std::set<int64_t> single;
    bool allSingle = pair > 1;
    for (size_t p = g; p < std::min(lanes.size(), g + phase * pair); p += phase) {
      std::set<int64_t> addrs;
      for (size_t k = p; k < std::min(lanes.size(), p + phase); ++k)
        if (lanes[k]) addrs.insert(*lanes[k]);
      allSingle = allSingle && addrs.size() <= 1;
    }
    if (allSingle) units.push_back({g, std::min(lanes.size(), g + phase * pair)});
    else
      for (size_t p = g; p < std::min(lanes.size(), g + phase * pair); p += phase)
        units.push_back({p, std::min(lanes.size(), p + phase)});
    for (auto [from, to] : units) {
      std::map<int64_t, std::set<int64_t>> bankWords;
      for (size_t k = from; k < to; ++k)
        if (lanes[k])
          for (int64_t b = *lanes[k]; b < *lanes[k] + bytes; ++b) {
            const int64_t word = fdiv(b, 4);
            bankWords[((word % 32) + 32) % 32].insert(word);
          }
      size_t most = 0;
      for (auto& [bank, words] : bankWords) most = std::max(most, words.size());
      total += static_cast<int64_t>(most);
    }
  }
  return total;
}

}  // namespace

TEST_CASE("property: strided-run closed form equals enumeration") {
  std::mt19937_64 rng(12345);
  const Arch& arch = defaultArch();
  for (int i = 0; i < 20000; ++i) {
    const int bytes = std::array{1, 2, 4, 8, 12, 16, 24}[rng() % 7];
    const int64_t stride = static_cast<int64_t>(rng() % 600) - 300;
    const int64_t start = static_cast<int64_t>(rng() % 4096) - 2048;
    const int64_t lanes = 1 + static_cast<int64_t>(rng() % 32);
    std::vector<int64_t> addrs;
    for (int64_t k = 0; k < lanes; ++k) addrs.push_back(start + k * stride);
    const WarpSectors closed = sectorsOfStridedRun(start, stride, lanes, bytes, arch);
    const WarpSectors counted = countSectors(addrs, bytes, arch);
    INFO("bytes=" << bytes << " stride=" << stride << " start=" << start << " lanes=" << lanes);
    REQUIRE(closed.sectors == counted.sectors);
    REQUIRE(closed.sectors == bruteSectors(addrs, bytes));
    REQUIRE(closed.uniqueBytes == counted.uniqueBytes);
  }
}

TEST_CASE("property: sectors of byte ranges of mixed widths equal enumeration") {
  // A group's union (record fields, halves of a wide element, stencil taps): ranges of
  // different widths that overlap, nest and touch.
  std::mt19937_64 rng(4242);
  const Arch& arch = defaultArch();
  for (int i = 0; i < 20000; ++i) {
    std::vector<ByteRange> ranges;
    std::set<int64_t> bytes, sectors;
    const size_t n = 1 + rng() % 64;
    for (size_t k = 0; k < n; ++k) {
      const ByteRange r{static_cast<int64_t>(rng() % 1024) - 512, std::array{1, 2, 4, 8, 12, 16, 20, 64}[rng() % 8]};
      ranges.push_back(r);
      for (int64_t b = r.address; b < r.address + r.bytes; ++b) {
        bytes.insert(b);
        sectors.insert(fdiv(b, 32));
      }
    }
    const WarpSectors w = countSectorsOfRanges(ranges, arch);
    REQUIRE(w.sectors == static_cast<int64_t>(sectors.size()));
    REQUIRE(w.uniqueBytes == static_cast<int64_t>(bytes.size()));
    REQUIRE(w.idealSectors == (static_cast<int64_t>(bytes.size()) + 31) / 32);
  }
  // Equal widths: the same answer as countSectors.
  const std::vector<int64_t> addrs{0, 4, 8, 100, 96, 1000};
  std::vector<ByteRange> same;
  for (int64_t a : addrs) same.push_back({a, 4});
  CHECK(countSectorsOfRanges(same, arch).sectors == countSectors(addrs, 4, arch).sectors);
}

TEST_CASE("property: block-level figures equal per-warp brute force") {
  std::mt19937_64 rng(777);
  const Arch& arch = defaultArch();
  const std::vector<Dim3> blocks = {{32, 1, 1}, {256, 1, 1}, {16, 16, 1}, {8, 4, 2}, {100, 1, 1}, {33, 3, 1}, {4, 4, 4}};
  for (int i = 0; i < 3000; ++i) {
    Access a;
    a.space = (rng() % 2) ? Space::Global : Space::Shared;
    a.bytesPerLane = std::array{1, 2, 4, 8, 16}[rng() % 5];
    const auto coef = [&]() -> int64_t {
      const int64_t sign = static_cast<int64_t>(rng() % 9) - 4;
      const int64_t unit = (rng() % 3) ? a.bytesPerLane : 1;
      return sign * unit * (1 + static_cast<int64_t>(rng() % 40));
    };
    const int64_t base = static_cast<int64_t>(rng() % 512);
    a.pattern = LanePattern::makeAffine({coef(), coef(), coef()}, {base, 0});
    const Dim3 block = blocks[rng() % blocks.size()];
    auto figs = analyzeAccess(a, block, arch);
    double sum = 0;
    int64_t warps = 0;
    for (int64_t w = 0; w < warpCount(block, arch); ++w) {
      std::vector<int64_t> addrs;
      std::vector<std::optional<int64_t>> lanes;
      for (const ThreadIdx& t : warpThreads(block, w, arch)) {
        addrs.push_back(base + a.pattern.affine.at(t));
        lanes.push_back(addrs.back());
      }
      sum += static_cast<double>(a.space == Space::Global ? bruteSectors(addrs, a.bytesPerLane)
                                                          : bruteWavefronts(lanes, a.bytesPerLane));
      ++warps;
    }
    INFO("space=" << toString(a.space) << " bytes=" << a.bytesPerLane << " block=" << block.x << "x" << block.y << "x"
                  << block.z << " c=" << a.pattern.affine.cx << "," << a.pattern.affine.cy << "," << a.pattern.affine.cz);
    const double model = a.space == Space::Global ? figs.global->aligned.sectorsPerRequest : figs.shared->aligned.wavefronts;
    REQUIRE(model == Approx(sum / warps));
  }
}

TEST_CASE("property: unknown alignment brackets every placement") {
  std::mt19937_64 rng(99);
  const Arch& arch = defaultArch();
  for (int i = 0; i < 500; ++i) {
    const int bytes = std::array{1, 2, 4, 8, 16}[rng() % 5];
    Access a = strided(Space::Global, static_cast<int64_t>(rng() % 6), bytes);
    a.pattern.base.unknownAlignment = bytes;
    auto cases = *analyzeAccess(a, {64, 1, 1}, arch).global;
    for (int64_t shift = 0; shift < 64; shift += bytes) {
      Access placed = a;
      placed.pattern.base = {shift, 0};
      const double s = analyzeAccess(placed, {64, 1, 1}, arch).global->aligned.sectorsPerRequest;
      REQUIRE(s >= cases.best.sectorsPerRequest);
      REQUIRE(s <= cases.worst.sectorsPerRequest);
    }
  }
}
