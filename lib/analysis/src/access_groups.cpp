// Accesses served together (access_groups.h): the candidates, the groups, their figures.
#include "access_groups.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>

#include "coalesce/model/global_model.h"
#include "lane_evaluator.h"

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
int64_t multiSectorRuns(const std::vector<model::ByteRange>& ranges, const model::Arch& arch) {
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const model::ByteRange& r : ranges)
    spans.push_back({sectorOf(r.address, arch), sectorOf(r.address + r.bytes - 1, arch)});
  std::sort(spans.begin(), spans.end());
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

// The members (indices into `seen`) split into families whose guards all extend one member's
// guards, the anchor, taken from the least guarded on. A guarded member touches its lanes'
// sectors in the same warp as the anchor's unguarded accesses, so L1 (loads) or L2 (stores)
// serves what they share; the group's figures count each member with its own active lanes
// (evaluateGroup), so the extra guard never lends a member lanes it does not run. The arms of
// one branch both extend the guards before the branch and join one family: under a
// warp-uniform condition a warp runs one arm, and its figures are the anchor's with that arm.
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
      if (!taken[b] && extendsGuards(seen[order[b]].raw.guardTexts, anchor)) {
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

std::optional<GroupFigures> evaluateGroup(const std::vector<const RawAccess*>& members, const LaunchContext& launch,
                                          const SymbolTable& symbols, const model::Arch& arch,
                                          const std::map<int, int64_t>& values) {
  if (members.size() < 2) return std::nullopt;
  // One access whose address mentions every member's symbols, so that the iterations listed
  // are those of every loop any member depends on.
  RawAccess all = *members.front();
  for (size_t m = 1; m < members.size(); ++m) all.offset = binary(Op::Add, all.offset, members[m]->offset);
  std::array<int64_t, 3> inside{};
  for (int d = 0; d < 3; ++d) inside[static_cast<size_t>(d)] = launch.grid && dimOf(*launch.grid, d) <= 1 ? 0 : 1;
  Evaluator evAll(all, launch, symbols, arch);
  evAll.liveValues = values;
  std::vector<std::unique_ptr<Evaluator>> evs;
  for (const RawAccess* m : members) {
    evs.push_back(std::make_unique<Evaluator>(*m, launch, symbols, arch));
    evs.back()->liveValues = values;
    for (int d = 0; d < 3; ++d) evs.back()->blockIdx[d] = inside[static_cast<size_t>(d)];
  }
  for (int d = 0; d < 3; ++d) evAll.blockIdx[d] = inside[static_cast<size_t>(d)];
  const Dim3 block = launch.block.dim;
  const int64_t warps = model::warpCount(block, arch);
  // One view per member: the warp requests in which it runs. A member under more guards
  // (a halo column's few lanes in one warp) is judged by the requests it takes part in, not
  // diluted by the requests where the others run alone; the group's figures are the worst
  // view. Members under the same guards run in the same requests, and their views agree.
  std::vector<GroupFigures> views(members.size());
  std::vector<model::ByteRange> ranges, own;
  std::vector<bool> active(members.size());
  for (const auto& combo : iterationCombos(all, symbols, evAll.launchBindings(), evAll.assumptions)) {
    std::vector<model::LanePattern> patterns;
    for (auto& ev : evs) {
      patterns.push_back(ev->patternFor(combo).pattern);
      const model::PatternKind k = patterns.back().kind;
      if (k == model::PatternKind::Indirect || k == model::PatternKind::Unknown) return std::nullopt;
    }
    for (int64_t w = 0; w < warps; ++w) {
      ranges.clear();
      int64_t memberSectors = 0;
      for (size_t m = 0; m < members.size(); ++m) {
        own.clear();
        for (const auto& lane : model::warpLaneOffsets(patterns[m], block, w, arch))
          if (lane) own.push_back({patterns[m].base.constant + *lane, members[m]->bytes});
        active[m] = !own.empty();
        memberSectors += model::countSectorsOfRanges(own, arch).sectors;
        ranges.insert(ranges.end(), own.begin(), own.end());
      }
      if (ranges.empty()) continue;
      const model::WarpSectors together = model::countSectorsOfRanges(ranges, arch);
      const int64_t runs = multiSectorRuns(ranges, arch);
      for (size_t m = 0; m < members.size(); ++m) {
        if (!active[m]) continue;
        views[m].sectorsPerRequest += static_cast<double>(together.sectors);
        views[m].idealSectors += static_cast<double>(together.idealSectors);
        views[m].memberSectors += static_cast<double>(memberSectors);
        views[m].sectorRuns += static_cast<double>(runs);
        ++views[m].requests;
      }
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

void groupAccesses(const std::vector<SeenAccess>& seen, const std::vector<LaunchContext>& contexts,
                   const SymbolTable& symbols, const model::Arch& arch, const GuardCache& cache,
                   std::vector<AccessSite>& sites, size_t first) {
  // Candidates by what must be the same: base object and loops. Loads and stores together: a
  // thread that loads some bytes of a record and stores others (an update in place) moves
  // each sector once each way, whichever bytes it reads and which it writes; only the bytes
  // it neither reads nor writes are waste (docs/findings.md, "Groups").
  using Key = std::tuple<std::string, int, std::vector<int>>;
  std::map<Key, std::vector<size_t>> buckets;
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
        for (const LaunchContext& c : contexts) {
          std::set<std::map<int, int64_t>> choices;
          choices.insert(std::map<int, int64_t>{});  // the defaults
          for (size_t i : cluster) {
            std::vector<const SymExpr*> guards;
            for (const auto& g : seen[i].raw.guards) guards.push_back(g.get());
            const auto live = cache.liveValues.find(GuardCache::Key{guards, &c});
            if (live != cache.liveValues.end() && !live->second.empty()) choices.insert(live->second);
          }
          for (const auto& values : choices) {
            auto g = evaluateGroup(raws, c, symbols, arch, values);
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
}

}  // namespace coalesce::analysis
