#include "merge_findings.h"
#include "finding_site.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace coalesce::report {

namespace {

// What "worse" means for a finding: the figure its rule gates on, oriented so that larger
// is worse; findings without one compare equal.
double badness(const Finding& f) {
  if (f.efficiency) return 1.0 - *f.efficiency;
  if (f.conflictDegree) return *f.conflictDegree;
  if (f.divergentShare) return *f.divergentShare;
  return 0;
}

std::string figureOf(const Finding& f) {
  if (f.efficiency) return fmt::format("eta = {:.1f}%", *f.efficiency * 100);
  if (f.conflictDegree) return fmt::format("{:.3g}-way conflict", *f.conflictDegree);
  if (f.divergentShare) return fmt::format("{:.1f}% of warp requests split", *f.divergentShare * 100);
  return {};
}

void addOnce(std::vector<std::string>& list, const std::string& item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The site a finding reports: its key (kernel, file, line, column), the block it was judged
// in, and the access when it is one; nothing for a finding of no site.
using SiteKey = std::tuple<std::string, std::string, unsigned, unsigned>;
template <class Site>
SiteKey keyOf(const Site& s) {
  return {s.kernel, s.loc.file, s.loc.line, s.loc.column};
}
struct Site {
  SiteKey key;
  const BlockShape* block = nullptr;
  const AccessSite* access = nullptr;
};
std::optional<Site> siteOf(const Finding& f, const AnalysisResult& analysis) {
  const auto in = [](const std::optional<int>& i, size_t size) { return i && *i >= 0 && static_cast<size_t>(*i) < size; };
  if (in(f.access, analysis.accesses.size())) {
    const AccessSite& a = analysis.accesses[static_cast<size_t>(*f.access)];
    return Site{keyOf(a), &a.block, &a};
  }
  if (in(f.branch, analysis.branches.size())) {
    const BranchSite& b = analysis.branches[static_cast<size_t>(*f.branch)];
    return Site{keyOf(b), &b.block};
  }
  if (in(f.barrier, analysis.barriers.size())) {
    const BarrierSite& b = analysis.barriers[static_cast<size_t>(*f.barrier)];
    return Site{keyOf(b), &b.block};
  }
  return std::nullopt;
}

// The sites of the run some kernel reached on a block it did not guess: a launch, an option, a
// comment, its own indexing (BlockSource other than Assumed).
std::set<SiteKey> sitesOnKnownBlocks(const AnalysisResult& analysis) {
  std::set<SiteKey> out;
  for (const AccessSite& a : analysis.accesses)
    if (a.block.source != BlockSource::Assumed) out.insert(keyOf(a));
  for (const BranchSite& b : analysis.branches)
    if (b.block.source != BlockSource::Assumed) out.insert(keyOf(b));
  for (const BarrierSite& b : analysis.barriers)
    if (b.block.source != BlockSource::Assumed) out.insert(keyOf(b));
  return out;
}

}  // namespace

std::vector<Finding> mergeByPlace(std::vector<Finding> findings, const AnalysisResult& analysis) {
  // A kernel judged on a guessed block in one translation unit and on a known one in another
  // (a kernel file that the program's main file #includes, also compiled, or swept, on its own:
  // Pannotia's fw/kernel.cu, guessed 32x8 alone and launched 16x16 from Floyd-Warshall.cu) has
  // its figures from the known block: the guessed instance of the same site gives way, whether
  // or not the known one made a finding there (blind panel 27 judged the guessed figures false).
  const std::set<SiteKey> known = sitesOnKnownBlocks(analysis);
  const std::vector<size_t> kernelOf = detail::kernelOfAccesses(analysis);
  if (!known.empty())
    std::erase_if(findings, [&](const Finding& f) {
      const auto site = siteOf(f, analysis);
      return site && site->block->source == BlockSource::Assumed && known.count(site->key) > 0;
    });
  for (Finding& f : findings)
    if (const auto site = siteOf(f, analysis)) {
      f.kernel = std::get<0>(site->key);
      if (site->access && !site->access->field.empty()) f.fields = {site->access->field};
    }
  // Group by place and rule, keeping the order of first appearance within a group.
  std::map<std::tuple<std::string, std::string, unsigned, unsigned>, std::vector<Finding>> groups;
  std::vector<std::tuple<std::string, std::string, unsigned, unsigned>> order;
  for (Finding& f : findings) {
    auto key = std::make_tuple(f.rule, f.loc.file, f.loc.line, f.loc.column);
    auto [it, inserted] = groups.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.push_back(std::move(f));
  }
  std::vector<Finding> out;
  out.reserve(order.size());
  for (const auto& key : order) {
    std::vector<Finding>& group = groups[key];
    // The worst first; among equals, the first seen. A barrier's findings have no figure: the
    // worst is the one its rule ranks higher (an error where a kernel's threads skip it and reach
    // another barrier, before a note where they exit: CloverLeaf's `Reduce`, called last in
    // PdV's kernel and twice in calc_dt's).
    const auto level = [](const Finding& f) { return f.severityCap ? std::min(f.severity, *f.severityCap) : f.severity; };
    std::stable_sort(group.begin(), group.end(), [&](const Finding& a, const Finding& b) {
      if (badness(a) != badness(b)) return badness(a) > badness(b);
      return a.barrier && b.barrier && level(a) > level(b);
    });
    Finding merged = group.front();
    std::vector<std::string> kernels, fields;
    for (const Finding& f : group) {
      addOnce(kernels, f.kernel);
      for (const std::string& field : f.fields) addOnce(fields, field);
    }
    if (kernels.size() > 1) merged.instantiations = kernels;
    // Every instance is executed: the place costs what they cost together, its share the
    // largest any kernel gives it.
    // The program share only when every kernel the place covers has one, from a translation
    // unit that launches it (an instantiation launched nowhere here could be the program's hot
    // one; the same kernel seen again in a unit that only includes its file says nothing): the
    // largest; or, where every such kernel's share is of one unit's kernels, their sum (below).
    std::set<std::string> withShare;
    for (const Finding& f : group)
      if (f.programShare) withShare.insert(f.kernel);
    const bool programShareKnown = withShare.size() == kernels.size();
    merged.programShare.reset();
    merged.programBasis.clear();
    std::map<std::string, double> shareOfKernel;  // each kernel's largest
    std::set<std::string> units;
    for (const Finding& f : group) {
      if (!programShareKnown || !f.programShare) continue;
      double& own = shareOfKernel[f.kernel];
      own = std::max(own, *f.programShare);
      const size_t k = f.access && *f.access >= 0 && static_cast<size_t>(*f.access) < kernelOf.size()
                           ? kernelOf[static_cast<size_t>(*f.access)]
                           : SIZE_MAX;
      units.insert(k < analysis.kernels.size() ? analysis.kernels[k].unit : std::string());
      if (!merged.programShare || *f.programShare > *merged.programShare) {
        merged.programShare = f.programShare;
        merged.programBasis = f.programBasis;
      }
    }
    // The instances of one place that one unit launches (a template's instantiations, a tile
    // size per case of a `switch`) share the unit's memory time as their denominator, and the
    // place costs what they cost together: its share is their sum. Taking the largest split
    // the place's waste by its instances (bitsandbytes' gemm_4bit_sm80.cu launches ten
    // instantiations of one GEMM, each once; its 4-way conflict, half of each kernel's memory
    // time, was 1.9 % of the file's: blind panel 29, worth fixing). Per kernel, the largest of
    // its findings here (fields of one record copied together are one kernel's waste, counted
    // once per field by each).
    if (shareOfKernel.size() > 1 && units.size() == 1 && !units.begin()->empty()) {
      double sum = 0;
      for (const auto& [name, share] : shareOfKernel) sum += share;
      merged.programShare = std::min(1.0, sum);
      merged.programBasis = fmt::format("the {} kernels it covers together, each launched by {}; {}",
                                        shareOfKernel.size(), *units.begin(), merged.programBasis);
    }
    // A kernel seen in several translation units (a header's kernel that each of its includers
    // compiles: relion's helper.cuh) is one kernel, which runs as often as the program launches
    // it: its instances are not added up. Its cost is one unit's: one that counts it on a grid
    // the program shows (a launch) where some unit does, else the largest. Within that unit its
    // findings here (fields of one record copied together) add up, as their costs are parts.
    const auto unitOf = [&](const Finding& f) {
      const size_t k = f.access && *f.access >= 0 && static_cast<size_t>(*f.access) < kernelOf.size()
                           ? kernelOf[static_cast<size_t>(*f.access)]
                           : SIZE_MAX;
      return k < analysis.kernels.size() ? analysis.kernels[k].unit : std::string();
    };
    const auto gridAssumed = [&](const Finding& f) {
      const auto site = siteOf(f, analysis);
      return site && site->access && site->access->gridAssumed;
    };
    struct UnitCost {
      double cost = 0;           // its findings here, added up
      bool gridAssumed = true;   // every one counted on the assumed grid
    };
    std::map<std::pair<std::string, std::string>, UnitCost> byUnit;  // (kernel, unit)
    for (const Finding& f : group) {
      UnitCost& u = byUnit[{f.kernel, unitOf(f)}];
      u.cost += f.costTimePerRun.value_or(0);
      u.gridAssumed = u.gridAssumed && gridAssumed(f);
    }
    // kernel -> the unit its cost is taken from; ties go to the unit met first
    std::map<std::string, std::string> costUnit;
    for (const Finding& f : group) {
      const std::string unit = unitOf(f);
      auto [it, inserted] = costUnit.try_emplace(f.kernel, unit);
      const UnitCost &own = byUnit[{f.kernel, unit}], &kept = byUnit[{f.kernel, it->second}];
      if (std::pair(!own.gridAssumed, own.cost) > std::pair(!kept.gridAssumed, kept.cost)) it->second = unit;
    }
    const auto counted = [&](const Finding& f) { return costUnit[f.kernel] == unitOf(f); };
    const Finding* base = &group.front();
    if (!counted(merged)) {
      // The figures stay the worst instance's; the cost is that of the unit counted.
      base = &*std::find_if(group.begin(), group.end(),
                            [&](const Finding& f) { return f.kernel == merged.kernel && counted(f); });
      const Finding& other = *base;
      merged.shownWasteSeconds = other.shownWasteSeconds;
      merged.costSectors = other.costSectors;
      merged.costWavefronts = other.costWavefronts;
      merged.costTimePerRun = other.costTimePerRun;
      merged.costShare = other.costShare;
      merged.costBasis = other.costBasis;
    }
    for (const Finding& f : group) {
      if (&f == base || !counted(f)) continue;
      // Known per run only when every member's is (a sum over fields of one record counts the
      // group's waste once per field: more, never less, than it is).
      if (f.shownWasteSeconds && merged.shownWasteSeconds) *merged.shownWasteSeconds += *f.shownWasteSeconds;
      else merged.shownWasteSeconds.reset();
      if (f.costSectors) merged.costSectors = merged.costSectors.value_or(0) + *f.costSectors;
      if (f.costWavefronts) merged.costWavefronts = merged.costWavefronts.value_or(0) + *f.costWavefronts;
      if (f.costTimePerRun) merged.costTimePerRun = merged.costTimePerRun.value_or(0) + *f.costTimePerRun;
      if (f.costShare) merged.costShare = std::max(merged.costShare.value_or(0), *f.costShare);
      // A kernel with no arithmetic floor shortens by its whole share of the memory time.
      if (f.timeShare || merged.timeShare) {
        const double own = f.timeShare.value_or(f.costShare.value_or(0));
        const double kept = merged.timeShare.value_or(group.front().costShare.value_or(0));
        if (own > kept) merged.timeBasis = f.timeShare ? f.timeBasis : std::string();
        merged.timeShare = std::max(own, kept);
      }
    }
    merged.fields = fields;
    if (group.size() > 1) {
      std::vector<std::string> parts;
      if (kernels.size() > 1)
        parts.push_back(fmt::format("{} kernels (instantiations or callers of one helper): {}", kernels.size(),
                                    joined(kernels)));
      if (fields.size() > 1) parts.push_back(fmt::format("fields {} of one record, copied together", joined(fields)));
      std::string note = "one finding for " + (parts.empty() ? fmt::format("{} instances of this place", group.size())
                                                             : joined(parts));
      const Finding& typical = group[group.size() / 2];
      if (badness(typical) != badness(merged) && !figureOf(typical).empty())
        note += fmt::format("; figures of the worst ({}), typical {}", merged.kernel, figureOf(typical));
      merged.notes.push_back(note);
    }
    out.push_back(std::move(merged));
  }
  std::stable_sort(out.begin(), out.end(), findingBefore);
  return out;
}

}  // namespace coalesce::report
