#include "coalesce/model/access_model.h"

#include <algorithm>
#include <numeric>

#include "coalesce/model/global_model.h"
#include "coalesce/model/shared_model.h"
#include "math_util.h"

namespace coalesce::model {

using detail::ceilDiv;
using detail::floorMod;

std::string_view toString(Space s) {
  switch (s) {
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Constant: return "constant";
    case Space::Local: return "local";
    case Space::Texture: return "texture";
  }
  return "?";
}
std::string_view toString(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return "load";
    case AccessKind::Store: return "store";
    case AccessKind::Atomic: return "atomic";
  }
  return "?";
}
std::string_view toString(PatternKind k) {
  switch (k) {
    case PatternKind::Affine: return "affine";
    case PatternKind::Enumerated: return "enumerated";
    case PatternKind::Uniform: return "uniform";
    case PatternKind::Indirect: return "indirect";
    case PatternKind::Unknown: return "unknown";
  }
  return "?";
}

namespace {
// Walks the enumerators 0..last, so each parse is the inverse of its toString by
// construction (no second list of names to keep in step).
template <class E>
std::optional<E> parseByName(std::string_view text, E last) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (toString(static_cast<E>(i)) == text) return static_cast<E>(i);
  return std::nullopt;
}
}  // namespace

std::optional<Space> parseSpace(std::string_view text) { return parseByName(text, Space::Texture); }
std::optional<AccessKind> parseKind(std::string_view text) { return parseByName(text, AccessKind::Atomic); }
std::optional<PatternKind> parsePatternKind(std::string_view text) { return parseByName(text, PatternKind::Unknown); }

LanePattern LanePattern::makeAffine(AffineLanes lanes, UniformOffset base) {
  LanePattern p;
  p.kind = lanes.isZero() ? PatternKind::Uniform : PatternKind::Affine;
  p.affine = lanes;
  p.base = base;
  return p;
}
LanePattern LanePattern::makeUniform(UniformOffset base) { return makeAffine({}, base); }
LanePattern LanePattern::makeEnumerated(std::vector<std::optional<int64_t>> offsets, UniformOffset base) {
  LanePattern p;
  p.kind = PatternKind::Enumerated;
  p.threadOffsets = std::move(offsets);
  p.base = base;
  return p;
}
LanePattern LanePattern::makeIndirect() {
  LanePattern p;
  p.kind = PatternKind::Indirect;
  return p;
}
LanePattern LanePattern::makeUnknown() { return LanePattern{}; }

std::vector<std::optional<int64_t>> warpLaneOffsets(const LanePattern& p, const Dim3& block, int64_t warp,
                                                    const Arch& arch) {
  std::vector<std::optional<int64_t>> out;
  const int64_t first = warp * arch.warpSize;
  const int64_t last = std::min(block.volume(), first + arch.warpSize);
  out.reserve(static_cast<size_t>(std::max<int64_t>(0, last - first)));
  if (first >= last) return out;
  if (p.kind == PatternKind::Affine || p.kind == PatternKind::Uniform) {
    // The thread index steps as the linear id does (x fastest), without a division per lane:
    // this runs for every warp of every access, iteration and block (issue 16's profiles).
    ThreadIdx t = threadFromLinear(block, first);
    for (int64_t linear = first; linear < last; ++linear) {
      out.push_back(p.affine.at(t));
      if (++t.x == block.x) {
        t.x = 0;
        if (++t.y == block.y) t.y = 0, ++t.z;
      }
    }
    return out;
  }
  for (int64_t linear = first; linear < last; ++linear) {
    if (p.kind == PatternKind::Enumerated)
      out.push_back(static_cast<size_t>(linear) < p.threadOffsets.size() ? p.threadOffsets[linear] : std::nullopt);
    else
      out.push_back(std::nullopt);
  }
  return out;
}

namespace {

// Absolute residues (mod period) the uniform base can take. The first is the
// "aligned" case: the unknown part is a multiple of the period.
std::vector<int64_t> baseResidues(const UniformOffset& base, int64_t period) {
  const int64_t c = floorMod(base.constant, period);
  if (base.fullyKnown() || base.unknownAlignment % period == 0) return {c};
  const int64_t step = std::gcd(base.unknownAlignment, period);
  std::vector<int64_t> residues;
  for (int64_t k = 0; k < period / step; ++k) residues.push_back(floorMod(c + k * step, period));
  return residues;
}

GlobalFigures globalForBase(const Access& a, const Dim3& block, const Arch& arch, int64_t baseResidue) {
  GlobalFigures f;
  int64_t sumSectors = 0, sumIdeal = 0, requests = 0;
  bool broadcast = true;
  f.minSectors = INT64_MAX;
  for (int64_t w = 0; w < warpCount(block, arch); ++w) {
    std::vector<int64_t> addrs;
    for (const auto& off : warpLaneOffsets(a.pattern, block, w, arch))
      if (off) addrs.push_back(baseResidue + *off);
    if (addrs.empty()) continue;
    const WarpSectors ws = countSectors(addrs, a.bytesPerLane, arch);
    sumSectors += ws.sectors;
    sumIdeal += ws.idealSectors;
    ++requests;
    f.minSectors = std::min(f.minSectors, ws.sectors);
    f.maxSectors = std::max(f.maxSectors, ws.sectors);
    broadcast = broadcast && ws.uniqueBytes == a.bytesPerLane;
  }
  if (requests == 0) return GlobalFigures{};
  f.requests = requests;
  f.sectorsPerRequest = static_cast<double>(sumSectors) / requests;
  f.idealSectors = static_cast<double>(sumIdeal) / requests;
  f.efficiency = sumSectors ? static_cast<double>(sumIdeal) / sumSectors : 1.0;
  f.broadcast = broadcast;
  return f;
}

SharedFigures sharedForBase(const Access& a, const Dim3& block, const Arch& arch, int64_t baseResidue) {
  SharedFigures f;
  int64_t sumWave = 0, sumIdeal = 0, requests = 0;
  for (int64_t w = 0; w < warpCount(block, arch); ++w) {
    auto lanes = warpLaneOffsets(a.pattern, block, w, arch);
    bool any = false;
    for (auto& off : lanes)
      if (off) {
        *off += baseResidue;
        any = true;
      }
    if (!any) continue;
    const WarpWavefronts ww = countWavefronts(lanes, a.bytesPerLane, arch, a.sameWordSerialised);
    sumWave += ww.wavefronts;
    sumIdeal += ww.idealWavefronts;
    ++requests;
    f.maxWavefronts = std::max(f.maxWavefronts, ww.wavefronts);
    f.maxWaysInPhase = std::max(f.maxWaysInPhase, ww.maxWaysInPhase);
  }
  if (requests == 0) return SharedFigures{};
  f.requests = requests;
  f.wavefronts = static_cast<double>(sumWave) / requests;
  f.idealWavefronts = static_cast<double>(sumIdeal) / requests;
  f.conflictDegree = sumIdeal ? static_cast<double>(sumWave) / sumIdeal : 1.0;
  return f;
}

// The offsets a block-cycling term (UniformOffset::blockCycle) takes mod period, each as
// often as the others over the grid's blocks: {0} when it has none or keeps the alignment.
std::vector<int64_t> cycleOffsets(int64_t blockCycle, int64_t period) {
  if (blockCycle == 0 || blockCycle % period == 0) return {0};
  const int64_t step = std::gcd(blockCycle, period);
  std::vector<int64_t> out;
  for (int64_t k = 0; k < period / step; ++k) out.push_back(k * step);
  return out;
}

// The mean of one access's figures over the placements of its block-cycling term: what the
// counters add up to over the blocks (every placement runs the same lanes, so as many requests).
GlobalFigures meanOf(const std::vector<GlobalFigures>& all) {
  if (all.size() == 1 || all.front().requests == 0) return all.front();
  GlobalFigures m = all.front();
  double sectors = 0, ideal = 0;
  for (const GlobalFigures& f : all) {
    sectors += f.sectorsPerRequest;
    ideal += f.idealSectors;
    m.minSectors = std::min(m.minSectors, f.minSectors);
    m.maxSectors = std::max(m.maxSectors, f.maxSectors);
    m.broadcast = m.broadcast && f.broadcast;
  }
  const double n = static_cast<double>(all.size());
  m.sectorsPerRequest = sectors / n;
  m.idealSectors = ideal / n;
  m.efficiency = sectors > 0 ? ideal / sectors : 1.0;
  return m;
}

SharedFigures meanOf(const std::vector<SharedFigures>& all) {
  if (all.size() == 1 || all.front().requests == 0) return all.front();
  SharedFigures m = all.front();
  double wave = 0, ideal = 0;
  for (const SharedFigures& f : all) {
    wave += f.wavefronts;
    ideal += f.idealWavefronts;
    m.maxWavefronts = std::max(m.maxWavefronts, f.maxWavefronts);
    m.maxWaysInPhase = std::max(m.maxWaysInPhase, f.maxWaysInPhase);
  }
  const double n = static_cast<double>(all.size());
  m.wavefronts = wave / n;
  m.idealWavefronts = ideal / n;
  m.conflictDegree = ideal > 0 ? wave / ideal : 1.0;
  return m;
}

// Figures at one placement of the unknown part: the mean over the block-cycling offsets.
template <class Figures, class Compute>
auto overCycle(const std::vector<int64_t>& cycle, Compute compute) {
  return [cycle, compute](int64_t residue) {
    std::vector<Figures> all;
    all.reserve(cycle.size());
    for (int64_t c : cycle) all.push_back(compute(residue + c));
    return meanOf(all);
  };
}

template <class Figures, class Compute, class Key>
AlignmentCases<Figures> overResidues(const std::vector<int64_t>& residues, Compute compute, Key key) {
  AlignmentCases<Figures> c;
  c.alignmentKnown = residues.size() == 1;
  c.aligned = c.best = c.worst = compute(residues.front());
  for (size_t i = 1; i < residues.size(); ++i) {
    Figures f = compute(residues[i]);
    if (key(f) < key(c.best)) c.best = f;
    if (key(f) > key(c.worst)) c.worst = f;
  }
  return c;
}

int64_t meanActiveLanes(const Dim3& block, const Arch& arch) {
  const int64_t warps = warpCount(block, arch);
  return warps ? ceilDiv(block.volume(), warps) : 0;
}

}  // namespace

AccessFigures analyzeAccess(const Access& a, const Dim3& block, const Arch& arch) {
  AccessFigures out;
  out.activeLanesPerWarp = meanActiveLanes(block, arch);
  if (a.space != Space::Global && a.space != Space::Shared) return out;
  const bool computable = a.pattern.kind == PatternKind::Affine || a.pattern.kind == PatternKind::Uniform ||
                          a.pattern.kind == PatternKind::Enumerated;
  if (!computable) {
    // Data-dependent: anywhere between a broadcast and one sector (bank slot) per lane, and
    // never more than the object the address lies in holds, when its size is known: its
    // sectors (one more for a start off a sector boundary), or for 4-byte words and narrower
    // the most of its words one bank holds (a shared atomic serialised per lane on one word
    // excepted: its lanes on one word each take a wavefront).
    const double lanes = static_cast<double>(out.activeLanesPerWarp);
    if (a.space == Space::Global) {
      const double perLane = static_cast<double>(ceilDiv(a.bytesPerLane, arch.sectorBytes));
      double most = lanes * perLane;
      if (a.objectBytes > 0)
        most = std::max(perLane, std::min(most, static_cast<double>(ceilDiv(a.objectBytes, arch.sectorBytes) + 1)));
      if (a.mostSectors > 0) most = std::max(perLane, std::min(most, static_cast<double>(a.mostSectors)));
      out.sectorRange = {perLane, most};
    } else {
      const double phases = static_cast<double>(ceilDiv(out.activeLanesPerWarp, arch.sharedPhaseLanes(a.bytesPerLane)));
      double most = lanes;
      if (a.objectBytes > 0 && a.bytesPerLane <= arch.bankWidthBytes && !a.sameWordSerialised)
        most = std::max(phases, std::min(most, static_cast<double>(ceilDiv(ceilDiv(a.objectBytes, arch.bankWidthBytes),
                                                                            arch.sharedBanks))));
      out.wavefrontRange = {phases, most};
    }
    return out;
  }
  if (a.space == Space::Global) {
    out.global = overResidues<GlobalFigures>(
        baseResidues(a.pattern.base, arch.sectorBytes),
        overCycle<GlobalFigures>(cycleOffsets(a.pattern.base.blockCycle, arch.sectorBytes),
                                 [&](int64_t r) { return globalForBase(a, block, arch, r); }),
        [](const GlobalFigures& f) { return f.sectorsPerRequest; });
  } else {
    out.shared = overResidues<SharedFigures>(
        baseResidues(a.pattern.base, arch.sharedWavefrontBytes()),
        overCycle<SharedFigures>(cycleOffsets(a.pattern.base.blockCycle, arch.sharedWavefrontBytes()),
                                 [&](int64_t r) { return sharedForBase(a, block, arch, r); }),
        [](const SharedFigures& f) { return f.wavefronts; });
  }
  return out;
}

}  // namespace coalesce::model
