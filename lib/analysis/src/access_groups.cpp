// Accesses served together (access_groups.h): the candidates, the groups, their figures.
#include "access_groups.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "coalesce/model/global_model.h"
#include "lane_evaluator.h"
#include "periodic_figures.h"

namespace coalesce::analysis {

using namespace lanes;  // the per-lane evaluator (lane_evaluator.h)

namespace {

// The sectors a warp's lanes touch in the access's first listed iteration, as [first, last]
// (the first warp with an active lane); nothing for patterns with no lane offsets.
std::optional<std::pair<int64_t, int64_t>> sectorSpan(const AccessSite& site, const model::Arch& arch) {
  const model::LanePattern& p = site.access.pattern;
  if (p.kind != model::PatternKind::Affine && p.kind != model::PatternKind::Enumerated) return std::nullopt;
  const int64_t warps = model::warpCount(site.block.dim, arch);
  for (int64_t w = 0; w < warps; ++w) {
    std::optional<std::pair<int64_t, int64_t>> span;
    for (const auto& lane : model::warpLaneOffsets(p, site.block.dim, w, arch)) {
      if (!lane) continue;
      const int64_t a = p.base.constant + *lane;
      const int64_t first = a >= 0 ? a / arch.sectorBytes : -((-a + arch.sectorBytes - 1) / arch.sectorBytes);
      const int64_t end = a + site.access.bytesPerLane - 1;
      const int64_t last = end >= 0 ? end / arch.sectorBytes : -((-end + arch.sectorBytes - 1) / arch.sectorBytes);
      if (!span) span = std::make_pair(first, last);
      span->first = std::min(span->first, first);
      span->second = std::max(span->second, last);
    }
    if (span) return span;
  }
  return std::nullopt;
}

int64_t sectorOf(int64_t address, const model::Arch& arch) {
  return address >= 0 ? address / arch.sectorBytes : -((-address + arch.sectorBytes - 1) / arch.sectorBytes);
}

// The runs of 2 or more contiguous sectors that byte ranges touch: each may start off a sector
// boundary and pay one sector for it (the rows of a stencil's taps, each a run of its own).
int64_t runsOfSpans(const std::vector<std::pair<int64_t, int64_t>>& spans);

int64_t multiSectorRuns(const std::vector<model::ByteRange>& ranges, const model::Arch& arch) {
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const model::ByteRange& r : ranges)
    spans.push_back({sectorOf(r.address, arch), sectorOf(r.address + r.bytes - 1, arch)});
  std::sort(spans.begin(), spans.end());
  return runsOfSpans(spans);
}

// The same for ranges of positive width already in ByteRange's order: their spans are then in
// order of first sector, and spans of one first sector join one run whatever their order
// (each reaches its own first sector), so the runs are multiSectorRuns'.
int64_t multiSectorRunsOfSorted(const std::vector<model::ByteRange>& sorted, const model::Arch& arch) {
  thread_local std::vector<std::pair<int64_t, int64_t>> spans;
  spans.clear();
  for (const model::ByteRange& r : sorted)
    spans.push_back({sectorOf(r.address, arch), sectorOf(r.address + r.bytes - 1, arch)});
  return runsOfSpans(spans);
}

// Spans in order of their first sector: each maximal chain of overlapping or adjacent spans
// is one run, counted when it covers 2 sectors or more.
int64_t runsOfSpans(const std::vector<std::pair<int64_t, int64_t>>& spans) {
  int64_t runs = 0;
  for (size_t k = 0; k < spans.size();) {
    const int64_t first = spans[k].first;
    int64_t last = spans[k].second;
    for (++k; k < spans.size() && spans[k].first <= last + 1; ++k) last = std::max(last, spans[k].second);
    if (last > first) ++runs;
  }
  return runs;
}

bool extendsGuards(const std::vector<std::string>& guards, const std::vector<std::string>& anchor) {
  return guards.size() >= anchor.size() && std::equal(anchor.begin(), anchor.end(), guards.begin());
}

// A bound check of a thread's index: a comparison of a thread-dependent value with a uniform
// one (`idx + 2 < N`, `n > i`). Its uniform side, and whether the thread's side is the
// smaller one (an upper bound), or nothing.
struct BoundCheck {
  ExprRef bound;
  bool upper = false;
};
std::optional<BoundCheck> boundCheck(const ExprRef& g) {
  if (g->op != Op::Lt && g->op != Op::Le && g->op != Op::Gt && g->op != Op::Ge) return std::nullopt;
  const ExprRef& l = g->args[0];
  const ExprRef& r = g->args[1];
  const bool less = g->op == Op::Lt || g->op == Op::Le;
  if (dependsOnThread(l) && isUniform(r)) return BoundCheck{r, less};
  if (isUniform(l) && dependsOnThread(r)) return BoundCheck{l, !less};
  return std::nullopt;
}

// Members under the same guards but the last, each of which checks its own index against the
// same bound: the unrolled tail of a vectorised element-wise kernel (`if (idx + 0 < N) c[idx
// + 0] = ...; if (idx + 2 < N) c[idx + 2] = ...`). Those checks drop lanes only at the
// array's end: elsewhere the members run in the same warps and fill each other's sectors, as
// the members of one guard do (LeetCUDA's f16x8 kernels, four stores of 16 sectors each
// whose union is the ideal 4: blind panel 26, session 29).
// The last guard may check several indices at once, one bound each, joined by `&&`: a 2D
// image's taps (`if (y + 0 < h && x + 1 < w) res += map[(y + 0) * w + (x + 1)]`, BundleFusion's
// downsampling; blind panel 33 judged the taps apart false: the same thread's next tap reads the
// bytes its neighbour skips).
std::optional<std::vector<BoundCheck>> boundChecks(const ExprRef& g) {
  if (g->op == Op::LAnd) {
    auto left = boundChecks(g->args[0]), right = boundChecks(g->args[1]);
    if (!left || !right) return std::nullopt;
    left->insert(left->end(), right->begin(), right->end());
    return left;
  }
  if (const std::optional<BoundCheck> one = boundCheck(g)) return std::vector<BoundCheck>{*one};
  return std::nullopt;
}

bool boundSiblings(const RawAccess& a, const RawAccess& b) {
  const size_t n = a.guards.size();
  if (n == 0 || b.guards.size() != n || a.guardTexts.size() != n || b.guardTexts.size() != n) return false;
  if (!std::equal(a.guardTexts.begin(), a.guardTexts.end() - 1, b.guardTexts.begin())) return false;
  const auto x = boundChecks(a.guards.back()), y = boundChecks(b.guards.back());
  if (!x || !y || x->size() != y->size()) return false;
  for (size_t i = 0; i < x->size(); ++i)
    if ((*x)[i].upper != (*y)[i].upper || !sameStructure((*x)[i].bound, (*y)[i].bound)) return false;
  return true;
}

// The members (indices into `seen`) split into families whose guards all extend one member's
// guards, the anchor, taken from the least guarded on. A guarded member touches its lanes'
// sectors in the same warp as the anchor's unguarded accesses, so L1 (loads) or L2 (stores)
// serves what they share; the group's figures count each member with its own active lanes
// (evaluateGroup), so the extra guard never lends a member lanes it does not run. The arms of
// one branch both extend the guards before the branch and join one family: under a
// warp-uniform condition a warp runs one arm, and its figures are the anchor's with that arm.
// So do members whose last guards check each its own index against one bound (boundSiblings).
// Members under unrelated guards (neither a prefix of the other, no common anchor among
// them) stay apart.
std::vector<std::vector<size_t>> guardFamilies(const std::vector<size_t>& members, const std::vector<SeenAccess>& seen) {
  std::vector<size_t> order = members;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return seen[a].raw.guardTexts.size() < seen[b].raw.guardTexts.size();
  });
  std::vector<bool> taken(order.size(), false);
  std::vector<std::vector<size_t>> out;
  for (size_t a = 0; a < order.size(); ++a) {
    if (taken[a]) continue;
    const std::vector<std::string>& anchor = seen[order[a]].raw.guardTexts;
    std::vector<size_t> family;
    for (size_t b = a; b < order.size(); ++b)
      if (!taken[b] && (extendsGuards(seen[order[b]].raw.guardTexts, anchor) ||
                        boundSiblings(seen[order[a]].raw, seen[order[b]].raw))) {
        taken[b] = true;
        family.push_back(order[b]);
      }
    std::sort(family.begin(), family.end());  // kernel order
    if (family.size() > 1) out.push_back(std::move(family));
  }
  return out;
}

// The members whose sectors in a warp overlap or touch, transitively: the connected parts of
// an interval graph, found by one sweep over the spans sorted by their first sector (a
// pairwise test was quadratic in a bucket's members). Each part in kernel order, 2 or more.
std::vector<std::vector<size_t>> touchingParts(const std::vector<size_t>& members, const std::vector<AccessSite>& sites,
                                               size_t first, const model::Arch& arch) {
  std::vector<std::optional<std::pair<int64_t, int64_t>>> spans;
  for (size_t m : members) spans.push_back(sectorSpan(sites[first + m], arch));
  std::vector<size_t> byStart;
  for (size_t a = 0; a < members.size(); ++a)
    if (spans[a]) byStart.push_back(a);
  std::stable_sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) { return spans[a]->first < spans[b]->first; });
  std::vector<size_t> part(members.size(), 0);
  size_t parts = 0;
  int64_t reach = 0;  // the last sector of the part being swept
  for (size_t k = 0; k < byStart.size(); ++k) {
    const auto& span = *spans[byStart[k]];
    if (k == 0 || span.first > reach + 1) {
      ++parts;
      reach = span.second;
    } else {
      reach = std::max(reach, span.second);
    }
    part[byStart[k]] = parts;
  }
  std::map<size_t, std::vector<size_t>> byPart;
  for (size_t a = 0; a < members.size(); ++a)
    if (spans[a]) byPart[part[a]].push_back(members[a]);
  std::vector<std::vector<size_t>> out;
  for (auto& [p, cluster] : byPart)
    if (cluster.size() > 1) out.push_back(std::move(cluster));
  return out;
}

}  // namespace

std::vector<MemberWarpSums> groupWarpSums(const std::vector<model::LanePattern>& patterns,
                                          const std::vector<int>& bytes, const model::Dim3& block,
                                          const model::Arch& arch) {
  std::vector<MemberWarpSums> sums(patterns.size());
  // Ranges of positive width sort by address as their sector spans do, so that one sort serves
  // the union's sectors and its runs (multiSectorRuns sorts the spans again for any width).
  const bool widths = std::all_of(bytes.begin(), bytes.end(), [](int b) { return b > 0; });
  const int64_t warps = model::warpCount(block, arch);
  std::vector<model::ByteRange> ranges, own;
  std::vector<bool> active(patterns.size());
  for (int64_t w = 0; w < warps; ++w) {
    ranges.clear();
    int64_t memberSectors = 0;
    for (size_t m = 0; m < patterns.size(); ++m) {
      own.clear();
      for (const auto& lane : model::warpLaneOffsets(patterns[m], block, w, arch))
        if (lane) own.push_back({patterns[m].base.constant + *lane, bytes[m]});
      active[m] = !own.empty();
      std::sort(own.begin(), own.end());
      memberSectors += model::countSectorsOfSortedRanges(own, arch).sectors;
      ranges.insert(ranges.end(), own.begin(), own.end());
    }
    if (ranges.empty()) continue;
    std::sort(ranges.begin(), ranges.end());
    const model::WarpSectors together = model::countSectorsOfSortedRanges(ranges, arch);
    const int64_t runs = widths ? multiSectorRunsOfSorted(ranges, arch) : multiSectorRuns(ranges, arch);
    for (size_t m = 0; m < patterns.size(); ++m) {
      if (!active[m]) continue;
      sums[m].sectors += together.sectors;
      sums[m].idealSectors += together.idealSectors;
      sums[m].memberSectors += memberSectors;
      sums[m].sectorRuns += runs;
      ++sums[m].requests;
    }
  }
  return sums;
}

namespace {

// The members' patterns of one listed iteration, moved together by a whole number of sectors
// so that the first member's base lies in [0, sectorBytes): the sectors, their union and
// runs only count sectors and bytes relative to one another, so iterations whose addresses
// differ by whole sectors (a loop stepping rows) share one key (groupWarpSums is tested
// against the unmoved patterns: test/analysis/lanes/group_sums_test.cpp). Unmoved if moving
// could overflow.
void moveToFirstSector(std::vector<model::LanePattern>& patterns, const model::Arch& arch) {
  if (patterns.empty()) return;
  const int64_t c = patterns.front().base.constant;
  const int64_t shift = (c >= 0 ? c / arch.sectorBytes : -((-(c + 1)) / arch.sectorBytes) - 1) * arch.sectorBytes;
  for (const model::LanePattern& p : patterns) {
    int64_t moved = 0;
    if (__builtin_sub_overflow(p.base.constant, shift, &moved)) return;
  }
  for (model::LanePattern& p : patterns) p.base.constant -= shift;
}

size_t hashOfPatterns(const std::vector<model::LanePattern>& patterns) {
  size_t h = patterns.size();
  for (const model::LanePattern& p : patterns) h = hashOfPattern(p, h);
  return h;
}

}  // namespace

std::optional<GroupFigures> evaluateGroup(const std::vector<const RawAccess*>& members, const LaunchContext& launch,
                                          const SymbolTable& symbols, const model::Arch& arch,
                                          const std::map<int, int64_t>& values, GuardCache* cache,
                                          bool firstBlock) {
  if (members.size() < 2) return std::nullopt;
  // One access whose address mentions every member's symbols, so that the iterations listed
  // are those of every loop any member depends on.
  RawAccess all = *members.front();
  for (size_t m = 1; m < members.size(); ++m) all.offset = binary(Op::Add, all.offset, members[m]->offset);
  std::array<int64_t, 3> inside{};
  for (int d = 0; d < 3; ++d)
    inside[static_cast<size_t>(d)] = firstBlock || (launch.grid && dimOf(*launch.grid, d) <= 1) ? 0 : 1;
  Evaluator evAll(all, launch, symbols, arch);
  evAll.liveValues = values;
  std::vector<std::unique_ptr<Evaluator>> evs;
  std::vector<std::shared_ptr<lanes::SharedGuards>> held;  // the members' shared guards, held while they run
  std::vector<int> bytes;
  evs.reserve(members.size());
  for (const RawAccess* m : members) {
    evs.push_back(std::make_unique<Evaluator>(*m, launch, symbols, arch));
    evs.back()->liveValues = values;
    for (int d = 0; d < 3; ++d) evs.back()->blockIdx[d] = inside[static_cast<size_t>(d)];
    // Members under the same guards (the fields of one record, read in one branch) substitute
    // and combine them once per iteration, with the accesses' own runs of this block.
    if (auto shared = lanes::sharedGuards(*m, launch, symbols, arch, inside, values, cache)) {
      evs.back()->guardSource = shared->ev.get();
      held.push_back(std::move(shared));
    }
    bytes.push_back(m->bytes);
  }
  for (int d = 0; d < 3; ++d) evAll.blockIdx[d] = inside[static_cast<size_t>(d)];
  const Dim3 block = launch.block.dim;
  // One view per member: the warp requests in which it runs. A member under more guards
  // (a halo column's few lanes in one warp) is judged by the requests it takes part in, not
  // diluted by the requests where the others run alone; the group's figures are the worst
  // view. Members under the same guards run in the same requests, and their views agree.
  // The sums are of whole numbers, exact in a double as in an integer, so summing an
  // iteration's warps first (and reusing them) gives the per-warp sums' values.
  std::vector<GroupFigures> views(members.size());
  std::unordered_multimap<size_t, size_t> seen;  // hash of moved patterns -> index in `done`
  std::vector<std::pair<std::vector<model::LanePattern>, std::vector<MemberWarpSums>>> done;
  std::vector<model::LanePattern> patterns;
  for (const auto& combo : iterationCombos(all, symbols, evAll.launchBindings(), evAll.assumptions)) {
    patterns.clear();
    for (auto& ev : evs) {
      const Evaluator::Pattern p = ev->patternFor(combo);
      patterns.push_back(p.pattern);
      // Where this block stands: a member whose lane parts were evaluated whole holds the block
      // index's bytes in its lanes, one split into terms leaves them to base.blockCycle
      // (address_split.cpp), and the two would land a block apart (Kintinuous' `ptr(ys)[xs]` and
      // `ptr(ys)[xs + 1]` on a `size_t step`: 16 sectors where 8 hold both; blind panel 34).
      patterns.back().base.constant += p.blockBytes;
      const model::PatternKind kind = patterns.back().kind;
      if (kind == model::PatternKind::Indirect || kind == model::PatternKind::Unknown) return std::nullopt;
    }
    moveToFirstSector(patterns, arch);
    const size_t h = hashOfPatterns(patterns);
    const std::vector<MemberWarpSums>* sums = nullptr;
    for (auto [it, end] = seen.equal_range(h); it != end && !sums; ++it)
      if (done[it->second].first == patterns) sums = &done[it->second].second;
    if (!sums) {
      seen.emplace(h, done.size());
      done.emplace_back(patterns, groupWarpSums(patterns, bytes, block, arch));
      sums = &done.back().second;
    }
    for (size_t m = 0; m < members.size(); ++m) {
      const MemberWarpSums& s = (*sums)[m];
      views[m].sectorsPerRequest += static_cast<double>(s.sectors);
      views[m].idealSectors += static_cast<double>(s.idealSectors);
      views[m].memberSectors += static_cast<double>(s.memberSectors);
      views[m].sectorRuns += static_cast<double>(s.sectorRuns);
      views[m].requests += s.requests;
    }
  }
  std::optional<GroupFigures> out;
  int ran = 0;
  for (GroupFigures& v : views) {
    if (v.requests == 0) continue;
    ++ran;
    const double n = static_cast<double>(v.requests);
    v.sectorsPerRequest /= n;
    v.idealSectors /= n;
    v.memberSectors /= n;
    v.sectorRuns /= n;
    if (!out || v.sectorsPerRequest * out->idealSectors > out->sectorsPerRequest * v.idealSectors) out = v;
  }
  if (out) out->activeMembers = ran;
  return out;
}

namespace {

// What one lane's members touch when their record starts `residue` bytes into a sector: each
// member at its distance from the first (`ranges`: offset from the least, and bytes).
model::WarpSectors recordAt(std::vector<model::ByteRange> ranges, int64_t residue, const model::Arch& arch) {
  for (model::ByteRange& r : ranges) r.address += residue;
  return model::countSectorsOfRanges(ranges, arch);
}

// The gather groups of one family: members whose addresses differ by a constant only (the
// same loaded index, `b = boxes + idx[t] * 4; b[0] ... b[3]`), so that each thread reads
// bytes of one record. Their lanes' sectors are not known, but each lane's are the same
// record's: the group's worst case is every lane's record in sectors of its own, its least
// every lane on one record, its ideal the lanes' distinct bytes in consecutive sectors.
void groupGatherFamily(const std::vector<size_t>& family, const std::vector<SeenAccess>& seen,
                       const model::Arch& arch, std::vector<AccessSite>& sites, size_t first) {
  std::vector<std::pair<ExprRef, int64_t>> split;  // each member's rest and constant
  for (size_t i : family) split.push_back(splitConstant(seen[i].raw.offset));
  std::vector<bool> taken(family.size(), false);
  for (size_t a = 0; a < family.size(); ++a) {
    if (taken[a] || !split[a].first) continue;
    std::vector<size_t> cluster;
    for (size_t b = a; b < family.size(); ++b) {
      if (taken[b] || !split[b].first || split[b].first->hash != split[a].first->hash ||
          !sameStructure(split[b].first, split[a].first))
        continue;
      const RawAccess& ra = seen[family[a]].raw;
      const RawAccess& rb = seen[family[b]].raw;
      if (ra.rootIndirect != rb.rootIndirect ||
          (ra.rootIndirect && !(ra.rootLoadAddress && rb.rootLoadAddress &&
                                sameStructure(ra.rootLoadAddress, rb.rootLoadAddress))))
        continue;
      taken[b] = true;
      cluster.push_back(b);
    }
    if (cluster.size() < 2) continue;
    int64_t least = split[cluster.front()].second;
    for (size_t k : cluster) least = std::min(least, split[k].second);
    std::vector<model::ByteRange> ranges;
    int64_t bytesAligned = 0;
    for (size_t k : cluster) {
      const int bytes = seen[family[k]].raw.bytes;
      ranges.push_back({split[k].second - least, bytes});
      bytesAligned = std::gcd(bytesAligned, static_cast<int64_t>(bytes));
    }
    const int64_t used = recordAt(ranges, 0, arch).uniqueBytes;  // the bytes a lane uses
    // Where a record may start within a sector: the rest is a multiple of its known divisor (of
    // the root's alignment too); a rest of unknown divisor may start at any multiple of the
    // members' common width, which C++ aligns each element to.
    const RawAccess& anchor = seen[family[cluster.front()]].raw;
    const int64_t divisor = knownDivisor(split[cluster.front()].first, [](const ExprRef&) { return int64_t{1}; });
    int64_t step = std::gcd(anchor.rootAlignment, divisor == 0 ? anchor.rootAlignment : divisor);
    step = std::max<int64_t>(std::gcd(step, arch.sectorBytes), std::gcd(bytesAligned, arch.sectorBytes));
    int64_t most = 0, fewest = std::numeric_limits<int64_t>::max();
    for (int64_t r = 0; r < arch.sectorBytes; r += step) {
      const int64_t residue = ((least + r) % arch.sectorBytes + arch.sectorBytes) % arch.sectorBytes;
      const int64_t n = recordAt(ranges, residue, arch).sectors;
      most = std::max(most, n);
      fewest = std::min(fewest, n);
    }
    double lanes = 0, memberSectors = 0;
    for (size_t k : cluster) {
      const AccessSite& site = sites[first + family[k]];
      lanes = std::max(lanes, static_cast<double>(site.figures.activeLanesPerWarp));
      memberSectors += site.figures.sectorRange->second;
    }
    double worst = lanes * static_cast<double>(most);
    if (anchor.rootBytes > 0)  // never more than the object holds (model::analyzeAccess caps a member so)
      worst = std::max(static_cast<double>(most),
                       std::min(worst, static_cast<double>((anchor.rootBytes + arch.sectorBytes - 1) / arch.sectorBytes + 1)));
    AccessGroup group;
    group.id = static_cast<int>(first + family[cluster.front()]);
    group.members = static_cast<int>(cluster.size());
    group.gather = true;
    group.sectorsPerRequest = worst;
    group.sectorsAtLeast = static_cast<double>(fewest);
    group.idealSectors = std::min(worst, std::ceil(lanes * static_cast<double>(used) / arch.sectorBytes));
    group.efficiency = worst > 0 ? group.idealSectors / worst : 1.0;
    group.memberSectors = memberSectors;
    for (size_t k : cluster) sites[first + family[k]].group = group;
  }
}

// The gathers of one kernel that read one record per thread (groupGatherFamily), among loads
// and stores through loaded indices of the same base, in the same loops and guard families.
void groupGathers(const std::vector<SeenAccess>& seen, const model::Arch& arch, std::vector<AccessSite>& sites,
                  size_t first) {
  using Key = std::tuple<std::string, int, std::vector<int>>;
  std::map<Key, std::vector<size_t>> buckets;
  for (size_t i = 0; i < seen.size(); ++i) {
    const SeenAccess& s = seen[i];
    const AccessSite& site = sites[first + i];
    if (s.raw.space != model::Space::Global || s.raw.kind == model::AccessKind::Atomic || s.raw.rootName.empty() ||
        !site.executed || site.access.pattern.kind != model::PatternKind::Indirect || !site.figures.sectorRange ||
        site.indirectRowGather || site.group.id >= 0)
      continue;
    buckets[Key{s.raw.rootName, s.raw.rootParam, s.loops}].push_back(i);
  }
  for (const auto& [key, candidates] : buckets) {
    if (candidates.size() < 2) continue;
    for (const std::vector<size_t>& family : guardFamilies(candidates, seen))
      groupGatherFamily(family, seen, arch, sites, first);
  }
}

}  // namespace

void groupAccesses(const std::vector<SeenAccess>& seen, const std::vector<LaunchContext>& contexts,
                   const SymbolTable& symbols, const model::Arch& arch, GuardCache& cache,
                   std::vector<AccessSite>& sites, size_t first) {
  // Candidates by what must be the same: base object and loops. Loads and stores together: a
  // thread that loads some bytes of a record and stores others (an update in place) moves
  // each sector once each way, whichever bytes it reads and which it writes; only the bytes
  // it neither reads nor writes are waste (docs/findings.md, "Groups").
  using Key = std::tuple<std::string, int, std::vector<int>>;
  std::map<Key, std::vector<size_t>> buckets;
  const std::vector<bool> repeated = repeatsAnEarlier(contexts);
  for (size_t i = 0; i < seen.size(); ++i) {
    const SeenAccess& s = seen[i];
    const AccessSite& site = sites[first + i];
    if (s.raw.space != model::Space::Global || s.raw.kind == model::AccessKind::Atomic || s.raw.rootIndirect ||
        s.raw.rootName.empty() || !site.executed || !site.figures.global)
      continue;
    buckets[Key{s.raw.rootName, s.raw.rootParam, s.loops}].push_back(i);
  }
  for (const auto& [key, candidates] : buckets) {
    if (candidates.size() < 2) continue;
    for (const std::vector<size_t>& family : guardFamilies(candidates, seen))
      for (const std::vector<size_t>& cluster : touchingParts(family, sites, first, arch)) {
        std::vector<const RawAccess*> raws;
        for (size_t i : cluster) raws.push_back(&seen[i].raw);
        // The launch, and the scalar values, whose union is worst, as each access keeps its
        // worst launch. The values: the defaults, and those under which a member the
        // defaults idle runs (the other arm of a branch on a parameter); a choice under
        // which one member alone runs says nothing of the group (its own figures do).
        std::optional<GroupFigures> worst;
        for (size_t ci = 0; ci < contexts.size(); ++ci) {
          if (repeated[ci]) continue;  // the same union: not worse (lane_function.h)
          const LaunchContext& c = contexts[ci];
          std::set<std::map<int, int64_t>> choices;
          choices.insert(std::map<int, int64_t>{});  // the defaults
          for (size_t i : cluster) {
            std::vector<const SymExpr*> guards;
            for (const auto& g : seen[i].raw.guards) guards.push_back(g.get());
            const auto live = cache.liveValues.find(GuardCache::Key{guards, &c});
            if (live != cache.liveValues.end() && !live->second.empty()) choices.insert(live->second);
          }
          for (const auto& values : choices) {
            auto g = evaluateGroup(raws, c, symbols, arch, values, &cache);
            // Members that run only in edge blocks (a border branch, `!(0 < x && x < nx - 1 &&
            // ...)`, idle in the block that stands for the grid): judged together in block 0,
            // where their own figures were found too. NiftyReg's border Jacobian stores, four
            // per thread filling its 16 bytes, were each "16 sectors where 4" (blind panel 34).
            if (!g || g->activeMembers < 2) g = evaluateGroup(raws, c, symbols, arch, values, &cache, true);
            if (!g || g->activeMembers < 2) continue;
            if (!worst || g->sectorsPerRequest * worst->idealSectors > worst->sectorsPerRequest * g->idealSectors)
              worst = g;
          }
        }
        if (!worst) continue;
        AccessGroup group;
        group.id = static_cast<int>(first + cluster.front());  // the result-wide id: analyze.cpp
        group.members = static_cast<int>(cluster.size());
        group.sectorsPerRequest = worst->sectorsPerRequest;
        group.idealSectors = worst->idealSectors;
        group.efficiency = worst->sectorsPerRequest > 0 ? worst->idealSectors / worst->sectorsPerRequest : 1.0;
        group.memberSectors = worst->memberSectors;
        group.sectorRuns = worst->sectorRuns;
        for (size_t i : cluster) sites[first + i].group = group;
      }
  }
  groupGathers(seen, arch, sites, first);
}

}  // namespace coalesce::analysis
