// libFuzzer: random access patterns (affine, uniform, enumerated with predicated-off
// lanes), widths, block shapes and base alignments; the model's figures must equal a
// brute-force enumeration written independently here, byte by byte and word by word,
// for the aligned placement and, with an unknown alignment, for every placement (best
// and worst are the extremes over them).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include "coalesce/model/access_model.h"

using namespace coalesce::model;

namespace {

int64_t fdiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t fmod(int64_t a, int64_t b) { return a - fdiv(a, b) * b; }

[[noreturn]] void fail(const char* what, double model, double brute) {
  std::fprintf(stderr, "model/brute-force mismatch: %s: model %.17g, brute force %.17g\n", what, model, brute);
  std::abort();
}

// The lane offsets of one warp, written from scratch: linear thread id x-fastest.
std::vector<std::optional<int64_t>> lanesOf(const Access& a, const Dim3& b, int64_t warp) {
  std::vector<std::optional<int64_t>> lanes;
  for (int64_t t = warp * 32; t < std::min(b.volume(), warp * 32 + 32); ++t) {
    const int64_t x = t % b.x, y = (t / b.x) % b.y, z = t / (b.x * b.y);
    if (a.pattern.kind == PatternKind::Enumerated)
      lanes.push_back(t < static_cast<int64_t>(a.pattern.threadOffsets.size()) ? a.pattern.threadOffsets[t]
                                                                                 : std::nullopt);
    else
      lanes.push_back(a.pattern.affine.cx * x + a.pattern.affine.cy * y + a.pattern.affine.cz * z);
  }
  return lanes;
}

struct Sums {
  int64_t count = 0, ideal = 0, requests = 0, minPerWarp = INT64_MAX, maxPerWarp = 0;
  double perRequest() const { return requests ? static_cast<double>(count) / requests : 0; }
};

// Global: distinct 32-byte sectors any active lane's bytes fall in; ideal = the distinct
// bytes moved, in sectors (by marking every byte of every lane).
Sums bruteGlobal(const Access& a, const Dim3& b, int64_t base) {
  Sums s;
  for (int64_t w = 0; w * 32 < b.volume(); ++w) {
    std::vector<int64_t> starts;
    for (const auto& off : lanesOf(a, b, w))
      if (off) starts.push_back(base + *off);
    if (starts.empty()) continue;
    const int64_t lo = *std::min_element(starts.begin(), starts.end());
    const int64_t hi = *std::max_element(starts.begin(), starts.end()) + a.bytesPerLane;
    std::set<int64_t> sectors;
    int64_t bytes = 0;
    if (hi - lo <= 1 << 16) {
      std::vector<char> used(static_cast<size_t>(hi - lo), 0);
      for (int64_t st : starts)
        for (int64_t k = 0; k < a.bytesPerLane; ++k) used[static_cast<size_t>(st - lo + k)] = 1;
      for (size_t k = 0; k < used.size(); ++k)
        if (used[k]) {
          ++bytes;
          sectors.insert(fdiv(lo + static_cast<int64_t>(k), 32));
        }
    } else {
      std::set<int64_t> seen;
      for (int64_t st : starts)
        for (int64_t k = 0; k < a.bytesPerLane; ++k) {
          seen.insert(st + k);
          sectors.insert(fdiv(st + k, 32));
        }
      bytes = static_cast<int64_t>(seen.size());
    }
    const int64_t n = static_cast<int64_t>(sectors.size());
    s.count += n;
    s.ideal += (bytes + 31) / 32;
    ++s.requests;
    s.minPerWarp = std::min(s.minPerWarp, n);
    s.maxPerWarp = std::max(s.maxPerWarp, n);
  }
  return s;
}

// Shared (H200): phases of 32/16/8 lanes for <=4/8/16-byte accesses; each bank serves one
// distinct 4-byte word per wavefront; consecutive phases that each read one address
// share a wavefront (pairs for 8-byte, pairs of 16-byte).
Sums bruteShared(const Access& a, const Dim3& b, int64_t base) {
  const size_t phase = a.bytesPerLane <= 4 ? 32 : a.bytesPerLane <= 8 ? 16 : 8;
  const size_t group = a.bytesPerLane <= 4 ? 1 : 2;
  Sums s;
  for (int64_t w = 0; w * 32 < b.volume(); ++w) {
    auto lanes = lanesOf(a, b, w);
    if (std::none_of(lanes.begin(), lanes.end(), [](const auto& l) { return l.has_value(); })) continue;
    int64_t wave = 0;
    for (size_t g = 0; g < lanes.size(); g += phase * group) {
      const size_t gEnd = std::min(lanes.size(), g + phase * group);
      bool single = group > 1;
      for (size_t p = g; p < gEnd; p += phase) {
        std::set<int64_t> addrs;
        for (size_t k = p; k < std::min(gEnd, p + phase); ++k)
          if (lanes[k]) addrs.insert(base + *lanes[k]);
        single = single && addrs.size() <= 1;
      }
      std::vector<std::pair<size_t, size_t>> units;
      if (single) units.push_back({g, gEnd});
      else
        for (size_t p = g; p < gEnd; p += phase) units.push_back({p, std::min(gEnd, p + phase)});
      for (auto [from, to] : units) {
        std::map<int64_t, std::set<int64_t>> perBank;
        for (size_t k = from; k < to; ++k)
          if (lanes[k])
            for (int64_t word = fdiv(base + *lanes[k], 4); word <= fdiv(base + *lanes[k] + a.bytesPerLane - 1, 4);
                 ++word)
              perBank[fmod(word, 32)].insert(word);
        size_t most = 0;
        for (const auto& [bank, words] : perBank) most = std::max(most, words.size());
        wave += static_cast<int64_t>(most);
      }
    }
    s.count += wave;
    ++s.requests;
    s.maxPerWarp = std::max(s.maxPerWarp, wave);
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Access a;
  a.space = in.ConsumeBool() ? Space::Global : Space::Shared;
  a.kind = AccessKind::Load;
  a.bytesPerLane = a.space == Space::Global ? in.ConsumeIntegralInRange<int>(1, 40)
                                            : std::array{1, 2, 4, 8, 16}[in.ConsumeIntegralInRange<int>(0, 4)];
  Dim3 block;
  block.x = in.ConsumeIntegralInRange<int64_t>(1, 1024);
  block.y = in.ConsumeIntegralInRange<int64_t>(1, std::max<int64_t>(1, 1024 / block.x));
  block.z = in.ConsumeIntegralInRange<int64_t>(1, std::max<int64_t>(1, 1024 / (block.x * block.y)));
  if (block.volume() > 1024) return 0;
  UniformOffset base{in.ConsumeIntegralInRange<int64_t>(-100000, 100000), 0};
  if (in.ConsumeBool()) base.unknownAlignment = in.ConsumeIntegralInRange<int64_t>(1, 512);
  // Every placement is brute-forced: keep that to 8 warps per placement.
  if (base.unknownAlignment && block.volume() > 256) return 0;
  const int kind = in.ConsumeIntegralInRange<int>(0, 2);
  if (kind == 0) {
    AffineLanes lanes;
    lanes.cx = in.ConsumeIntegralInRange<int64_t>(-4096, 4096);
    lanes.cy = in.ConsumeIntegralInRange<int64_t>(-4096, 4096);
    lanes.cz = in.ConsumeIntegralInRange<int64_t>(-4096, 4096);
    a.pattern = LanePattern::makeAffine(lanes, base);
  } else if (kind == 1) {
    a.pattern = LanePattern::makeUniform(base);
  } else {
    std::vector<std::optional<int64_t>> offsets(static_cast<size_t>(in.ConsumeIntegralInRange<int64_t>(0, block.volume())));
    for (auto& o : offsets)
      if (in.ConsumeIntegralInRange<int>(0, 7) != 0) o = in.ConsumeIntegralInRange<int64_t>(-2048, 2048);
    a.pattern = LanePattern::makeEnumerated(std::move(offsets), base);
  }

  const AccessFigures f = analyzeAccess(a, block, defaultArch());
  const int64_t period = a.space == Space::Global ? 32 : 128;
  // Every placement the unknown part allows: c + k*alignment for k = 0..period-1 covers
  // every residue it can take; k = 0 is the aligned case.
  std::vector<int64_t> placements = {base.constant};
  std::set<int64_t> residues = {fmod(base.constant, period)};
  if (base.unknownAlignment)
    for (int64_t k = 1; k < period; ++k)
      if (residues.insert(fmod(base.constant + k * base.unknownAlignment, period)).second)
        placements.push_back(base.constant + k * base.unknownAlignment);
  std::vector<Sums> sums;
  for (int64_t p : placements) sums.push_back(a.space == Space::Global ? bruteGlobal(a, block, p) : bruteShared(a, block, p));
  double best = sums[0].perRequest(), worst = best;
  for (const Sums& s : sums) {
    best = std::min(best, s.perRequest());
    worst = std::max(worst, s.perRequest());
  }
  const Sums& aligned = sums[0];
  if (a.space == Space::Global) {
    if (!f.global) fail("no global figures", 0, 1);
    const auto& g = *f.global;
    if (g.aligned.requests != aligned.requests) fail("requests", g.aligned.requests, aligned.requests);
    if (aligned.requests == 0) return 0;
    if (g.aligned.sectorsPerRequest != aligned.perRequest()) fail("sectors per request", g.aligned.sectorsPerRequest, aligned.perRequest());
    const double ideal = static_cast<double>(aligned.ideal) / aligned.requests;
    if (g.aligned.idealSectors != ideal) fail("ideal sectors", g.aligned.idealSectors, ideal);
    if (g.aligned.minSectors != aligned.minPerWarp) fail("min sectors", g.aligned.minSectors, aligned.minPerWarp);
    if (g.aligned.maxSectors != aligned.maxPerWarp) fail("max sectors", g.aligned.maxSectors, aligned.maxPerWarp);
    if (!(g.aligned.efficiency > 0 && g.aligned.efficiency <= 1)) fail("efficiency in (0, 1]", g.aligned.efficiency, 1);
    if (g.best.sectorsPerRequest != best) fail("best placement", g.best.sectorsPerRequest, best);
    if (g.worst.sectorsPerRequest != worst) fail("worst placement", g.worst.sectorsPerRequest, worst);
  } else {
    if (!f.shared) fail("no shared figures", 0, 1);
    const auto& s = *f.shared;
    if (s.aligned.requests != aligned.requests) fail("requests", s.aligned.requests, aligned.requests);
    if (aligned.requests == 0) return 0;
    if (s.aligned.wavefronts != aligned.perRequest()) fail("wavefronts", s.aligned.wavefronts, aligned.perRequest());
    if (s.aligned.maxWavefronts != aligned.maxPerWarp) fail("max wavefronts", s.aligned.maxWavefronts, aligned.maxPerWarp);
    if (!(s.aligned.conflictDegree >= 1)) fail("conflict degree >= 1", s.aligned.conflictDegree, 1);
    if (s.best.wavefronts != best) fail("best placement", s.best.wavefronts, best);
    if (s.worst.wavefronts != worst) fail("worst placement", s.worst.wavefronts, worst);
  }
  return 0;
}
