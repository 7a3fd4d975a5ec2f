#include "cost.h"
#include "finding_site.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "access_cause.h"
#include "format.h"

namespace coalesce::report::detail {

namespace {

// Global sectors and shared wavefronts one launch of a kernel moves, over its accesses, and
// the time they take together, in shared-memory wavefronts (Arch::sectorCostInWavefronts).
struct KernelTraffic {
  double sectors = 0;
  double wavefronts = 0;
  double time(const model::Arch& arch) const { return sectors * arch.sectorCostInWavefronts + wavefronts; }
  // The same with gathers and data-dependent shared accesses at the most their ranges allow:
  // what the arithmetic floor must outlast before it makes a finding a note (setTimeShare).
  double sectorsAtMost = 0;
  double wavefrontsAtMost = 0;
  double timeAtMost(const model::Arch& arch) const {
    return sectorsAtMost * arch.sectorCostInWavefronts + wavefrontsAtMost;
  }
  // Some access counted over the assumed grid (AccessSite::gridAssumed), not the launch's own
  // or one under the program's defaults.
  bool gridAssumed = false;
};

// What a gather costs at least: its active lanes' bytes in consecutive sectors.
double idealOfGather(const AccessSite& a, const model::Arch& arch) { return coalescedSectors(a, arch); }

bool isGather(const AccessSite& a) {
  return a.access.pattern.kind == model::PatternKind::Indirect && a.figures.sectorRange.has_value();
}

// The kernel each access belongs to, as an index into analysis.kernels: a kernel's accesses
// follow each other in the kernels' order (KernelRecord::accesses counts them). Two
// translation units may define kernels of the same name, so the name alone is not enough.

// Excess sectors (global) or wavefronts (shared) per warp request the finding is about.
std::optional<double> excessPerRequest(const AccessSite& a, const model::Arch& arch) {
  if (a.figures.global) {
    const model::GlobalFigures& g = a.figures.global->aligned;
    if (a.group.id >= 0 && a.group.memberSectors > 0)
      return std::max(0.0, a.group.sectorsPerRequest - a.group.idealSectors) * (g.sectorsPerRequest / a.group.memberSectors);
    return std::max(0.0, g.sectorsPerRequest - g.idealSectors);
  }
  // A gather of one record, reported once for its members (scattered_indirect_access.cpp): what
  // the group wastes at worst.
  if (isGather(a) && a.group.gather) return std::max(0.0, a.group.sectorsPerRequest - a.group.idealSectors);
  if (isGather(a)) return std::max(0.0, a.figures.sectorRange->second - idealOfGather(a, arch));
  if (a.figures.shared) {
    const model::SharedFigures& s = a.figures.shared->aligned;
    return std::max(0.0, s.wavefronts - s.idealWavefronts);
  }
  return std::nullopt;
}

// One run of the program, per translation unit: the memory time of every kernel the unit
// launches, each weighed by how often the host code launches it (KernelRecord::launchesPerRun).
struct ProgramTime {
  std::map<std::string, double> time;
  std::map<std::string, int> kernels;  // kernels launched, with traffic
  std::map<std::string, int> sizedKernels;  // of those, the ones whose grid is not the assumed one
};

ProgramTime programTime(const AnalysisResult& analysis, const std::map<size_t, KernelTraffic>& traffic,
                        const model::Arch& arch) {
  ProgramTime out;
  for (size_t k = 0; k < analysis.kernels.size(); ++k) {
    const KernelRecord& kernel = analysis.kernels[k];
    const auto moved = traffic.find(k);
    if (kernel.unit.empty() || kernel.launchesPerRun <= 0 || moved == traffic.end()) continue;
    const double t = moved->second.time(arch) * kernel.launchesPerRun;
    if (t <= 0) continue;
    out.time[kernel.unit] += t;
    ++out.kernels[kernel.unit];
    if (!moved->second.gridAssumed) ++out.sizedKernels[kernel.unit];
  }
  return out;
}

// The finding's waste per run in seconds where every count it rests on is the program's own
// (Finding::shownWasteSeconds): `levelTime` is what it wastes per launch, in wavefronts.
void setShownWaste(Finding& f, double levelTime, const AccessSite& a, size_t kernelIndex, const AnalysisResult& analysis,
                   const model::Arch& arch) {
  if (!a.requestsShown || kernelIndex >= analysis.kernels.size()) return;
  const KernelRecord& kernel = analysis.kernels[kernelIndex];
  if (!kernel.launchesShown || kernel.launchesPerRun <= 0) return;
  f.shownWasteSeconds = arch.secondsOf(levelTime * kernel.launchesPerRun);
  f.shownWasteBasis = kernel.name + ": " + kernel.launchesBasis;
}

// Whether the unit shows the kernel never runs: launch sites it has, each in code the host's
// values make dead (lib/analysis/src/kernel_analyzer.cpp, setNeverLaunched: no launch, with
// the sentence saying why; a kernel the unit launches nowhere has no sentence).
bool neverLaunched(const KernelRecord& kernel) { return kernel.launchesPerRun <= 0 && !kernel.launchesBasis.empty(); }

// How often one run of the program launches the kernel: 1 where no unit launches it, 0 where
// its unit shows it never runs.
double launchesOf(size_t kernelIndex, const AnalysisResult& analysis) {
  if (kernelIndex >= analysis.kernels.size()) return 1;
  if (neverLaunched(analysis.kernels[kernelIndex])) return 0;
  const double n = analysis.kernels[kernelIndex].launchesPerRun;
  return n > 0 ? n : 1;
}

// The finding's share of its program's memory time: `levelTime` (what it wastes per launch,
// in wavefronts) times its kernel's launches per run, against the unit's total. Only where the
// unit launches the kernel and at least one other: alone, the share is the kernel's.
void setProgramShare(Finding& f, double levelTime, size_t kernelIndex, const AnalysisResult& analysis,
                     const ProgramTime& program, bool gridAssumed) {
  if (kernelIndex >= analysis.kernels.size()) return;
  const KernelRecord& kernel = analysis.kernels[kernelIndex];
  // A kernel its unit never launches (`if (sortDir) k<1U><<<>>>(); else k<0U><<<>>>();`, every
  // caller passing 1): none of the program's time. Merged with the instantiations that run,
  // the place takes theirs (merge_findings.cpp); alone, it is a note.
  if (!kernel.unit.empty() && neverLaunched(kernel)) {
    f.programShare = 0.0;
    f.programBasis = fmt::format("{} never launches {}: {}", kernel.unit, kernel.name, kernel.launchesBasis);
    return;
  }
  if (kernel.unit.empty() || kernel.launchesPerRun <= 0) return;
  // A cost over the assumed grid (AccessSite::gridAssumed) weighs the kernel by a guess of its
  // size; beside kernels whose sizes the code or its defaults give, no share is claimed. TIGRE's
  // update_u, one thread per voxel of an image whose size its host reads from an array, was
  // 262,144 threads beside a grid-stride loop over two sizes taken at 4096: "under 0.1 % of the
  // program" for the kernel that does the work (blind panel 32 judged its places worth fixing).
  // Where every kernel of the unit is on the assumed grid, their launch counts still compare
  // (a one-off transpose beside a kernel the host loops over: findings/blocks_that_run.cu).
  if (const auto sized = program.sizedKernels.find(kernel.unit); gridAssumed && sized != program.sizedKernels.end() &&
                                                                 sized->second > 0)
    return;
  const auto total = program.time.find(kernel.unit);
  const auto kernels = program.kernels.find(kernel.unit);
  if (total == program.time.end() || total->second <= 0 || kernels->second < 2) return;
  f.programShare = levelTime * kernel.launchesPerRun / total->second;
  f.programBasis = fmt::format("{} launches {} kernels with memory traffic, each weighed by its launches per run; "
                               "{} is launched {} {} per run ({})",
                               kernel.unit, kernels->second, kernel.name, number(kernel.launchesPerRun),
                               kernel.launchesPerRun == 1 ? "time" : "times", kernel.launchesBasis);
}

// The finding's share of its kernel's time where that time has the kernel's arithmetic as a
// floor: T = max(A, M) before a fix, max(A, M - W) after it (A the arithmetic, a lower bound
// of it; M the memory time; W the waste, all in wavefronts), so a fix gains nothing the
// arithmetic still covers. Without arithmetic it is W / M, the memory share. On the H200 the
// max of the two was within 1.5 % of the measured time of a kernel reading a per-thread state
// around integer rounds, and above it in single precision (bench/compute_bound/README.md).
// The arithmetic and the memory time are both lower bounds where gathers count at their least:
// the floor makes a finding a note (timeBasis set) only when it outlasts the memory time at its
// most, `memoryAtMost`, less the waste.
void setTimeShare(Finding& f, double waste, double memoryTime, double memoryAtMost, size_t kernelIndex,
                  const AnalysisResult& analysis, const model::Arch& arch) {
  if (kernelIndex >= analysis.kernels.size() || memoryTime <= 0) return;
  const KernelRecord& kernel = analysis.kernels[kernelIndex];
  const double floor = kernel.arithmeticCyclesPerWarp * kernel.warpsPerLaunch;
  const double saved = std::min(waste, memoryTime);
  const double before = std::max(floor, memoryTime);
  const double after = std::max(floor, memoryTime - saved);
  f.timeShare = (before - after) / before;
  if (floor <= std::max(memoryTime, memoryAtMost) - saved) return;
  f.timeBasis = fmt::format(
      "the kernel's arithmetic ({}; {} warps per launch) takes at least {} per launch, against {} of memory time "
      "of which this access wastes {}",
      kernel.arithmeticBasis, number(kernel.warpsPerLaunch), microseconds(arch.secondsOf(floor)),
      microseconds(arch.secondsOf(memoryTime)), microseconds(arch.secondsOf(saved)));
}

}  // namespace

std::vector<size_t> kernelOfAccesses(const AnalysisResult& analysis) {
  std::vector<size_t> out(analysis.accesses.size(), SIZE_MAX);
  size_t next = 0;
  for (size_t k = 0; k < analysis.kernels.size(); ++k)
    for (int i = 0; i < analysis.kernels[k].accesses && next < out.size(); ++i) out[next++] = k;
  // Any access the walk did not place (records assembled by hand): by name.
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] != SIZE_MAX && analysis.kernels[out[i]].name == analysis.accesses[i].kernel) continue;
    out[i] = SIZE_MAX;
    for (size_t k = 0; k < analysis.kernels.size(); ++k)
      if (analysis.kernels[k].name == analysis.accesses[i].kernel) out[i] = k;
  }
  return out;
}

std::string byteSize(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1000;
    ++u;
  }
  return fmt::format("{} {}", u == 0 ? number(bytes) : fmt::format("{:.3g}", bytes), units[u]);
}

std::vector<const KernelRecord*> kernelsCovered(const Finding& f, const AnalysisResult& analysis,
                                                const std::vector<size_t>& kernelOf) {
  const auto named = [&](const std::string& name) {
    return name == f.kernel || std::find(f.instantiations.begin(), f.instantiations.end(), name) != f.instantiations.end();
  };
  const AccessSite* site = accessSiteOf(f, analysis);
  const size_t index = site ? static_cast<size_t>(site - analysis.accesses.data()) : SIZE_MAX;
  const KernelRecord* own = index < kernelOf.size() && kernelOf[index] < analysis.kernels.size()
                                ? &analysis.kernels[kernelOf[index]]
                                : nullptr;
  std::vector<const KernelRecord*> out;
  for (const KernelRecord& k : analysis.kernels)
    if (named(k.name) && (!own || (k.loc.file == own->loc.file && k.loc.line == own->loc.line))) out.push_back(&k);
  return out;
}

void addCosts(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch) {
  const std::vector<size_t> kernelOf = kernelOfAccesses(analysis);
  std::map<size_t, KernelTraffic> traffic;
  for (size_t i = 0; i < analysis.accesses.size(); ++i) {
    const AccessSite& a = analysis.accesses[i];
    KernelTraffic& t = traffic[kernelOf[i]];
    // A gather counts at its least (its ideal), so that it never shrinks another finding's share;
    // so does an address the analysis could not follow (`data[psRand % dataSize]`, a hash of
    // the thread index: pattern Unknown, the same range of sectors as a gather). Until session
    // 13 it counted nothing, and a kernel of such loads weighed only its shared accesses
    // (simpleAttributes' one-off `atomicExch(&hit, 0)` was 19 % of a kernel whose every loop
    // pass reads and writes global memory twice).
    // Per request, at least and at most (a gather's range; other accesses have one figure).
    double sectors = 0, sectorsAtMost = 0, wavefronts = 0, wavefrontsAtMost = 0;
    if (a.figures.global) {
      sectors = sectorsAtMost = a.figures.global->aligned.sectorsPerRequest;
    } else if (a.figures.sectorRange) {
      sectors = idealOfGather(a, arch);
      sectorsAtMost = a.figures.sectorRange->second;
      // The members of a gather of one record share their records' sectors: each its part.
      if (a.group.gather && a.group.memberSectors > 0)
        sectorsAtMost *= a.group.sectorsPerRequest / a.group.memberSectors;
    } else if (a.access.space == model::Space::Texture) {
      // A texture fetch at its least too: its active lanes' bytes in consecutive sectors. The
      // texture cache moves sectors of 32 bytes as L1 does; where its layout spreads a warp's
      // texels further, the kernel's time is larger still, and the other findings' shares smaller.
      sectors = sectorsAtMost = coalescedSectors(a, arch);
    }
    if (a.figures.shared) {
      wavefronts = wavefrontsAtMost = a.figures.shared->aligned.wavefronts;
    } else if (a.figures.wavefrontRange) {
      // A data-dependent shared access (histogram bins, atomics on loaded indices) at its least,
      // for the same reason.
      wavefronts = a.figures.wavefrontRange->first;
      wavefrontsAtMost = a.figures.wavefrontRange->second;
    }
    t.gridAssumed = t.gridAssumed || a.gridAssumed;
    t.sectors += sectors * a.launchRequests;
    t.sectorsAtMost += sectorsAtMost * a.launchRequests;
    t.wavefronts += wavefronts * a.launchRequests;
    t.wavefrontsAtMost += wavefrontsAtMost * a.launchRequests;
  }
  const ProgramTime program = programTime(analysis, traffic, arch);
  for (Finding& f : findings) {
    if (!f.access || *f.access < 0 || static_cast<size_t>(*f.access) >= analysis.accesses.size()) continue;
    const size_t i = static_cast<size_t>(*f.access);
    const AccessSite& a = analysis.accesses[i];
    if (f.costSectors) {
      // A rule that prices its finding itself (shared-tiling-opportunity: the traffic a tile
      // saves, not sectors the access wastes): its share of the kernel's traffic only.
      const KernelTraffic& t = traffic[kernelOf[i]];
      f.costUnitBytes = arch.sectorBytes;
      f.costShare = t.sectors > 0 ? *f.costSectors / t.sectors : 0.0;
      f.costBasis = a.requestsBasis;
      f.costTimePerRun = *f.costSectors * arch.sectorCostInWavefronts * launchesOf(kernelOf[i], analysis);
      setShownWaste(f, *f.costSectors * arch.sectorCostInWavefronts, a, kernelOf[i], analysis, arch);
      continue;
    }
    const std::optional<double> excess = excessPerRequest(a, arch);
    if (!excess || a.launchRequests <= 0) continue;
    const double cost = *excess * a.launchRequests;
    // The share is of the kernel's memory time, both spaces together: a 2-way conflict in a
    // kernel bound by its global traffic is a small part of what it waits for.
    const double time = traffic[kernelOf[i]].time(arch);
    if (a.figures.shared) {
      f.costWavefronts = cost;
      f.costUnitBytes = arch.sharedWavefrontBytes();
      f.costShare = time > 0 ? cost / time : 0.0;
      setTimeShare(f, cost, time, traffic[kernelOf[i]].timeAtMost(arch), kernelOf[i], analysis, arch);
      f.costTimePerRun = cost * launchesOf(kernelOf[i], analysis);
      setProgramShare(f, cost, kernelOf[i], analysis, program, a.gridAssumed);
      setShownWaste(f, cost, a, kernelOf[i], analysis, arch);
    } else {
      f.costSectors = cost;
      f.costUnitBytes = arch.sectorBytes;
      f.costTimePerRun = cost * arch.sectorCostInWavefronts * launchesOf(kernelOf[i], analysis);
      // A member of a wasting group: the fix (SoA, a wide load) is the group's, so its level
      // follows what the whole group wastes; its cost, for ranking, is its part of that.
      const double levelCost = a.group.id >= 0 && a.figures.global
                                   ? std::max(0.0, a.group.sectorsPerRequest - a.group.idealSectors) * a.launchRequests
                                   : cost;
      f.costShare = time > 0 ? levelCost * arch.sectorCostInWavefronts / time : 0.0;
      setTimeShare(f, levelCost * arch.sectorCostInWavefronts, time, traffic[kernelOf[i]].timeAtMost(arch),
                   kernelOf[i], analysis, arch);
      setProgramShare(f, levelCost * arch.sectorCostInWavefronts, kernelOf[i], analysis, program, a.gridAssumed);
      setShownWaste(f, levelCost * arch.sectorCostInWavefronts, a, kernelOf[i], analysis, arch);
    }
    f.costBasis = a.requestsBasis;
  }
}

void addCostNotes(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch) {
  for (Finding& f : findings) {
    const AccessSite* found = accessSiteOf(f, analysis);
    if (!found) continue;
    const AccessSite& a = *found;
    if (a.group.id >= 0 && !a.group.gather) {  // a gather's finding is the group's own
      const std::vector<const AccessSite*> members = groupMembers(a, &analysis);
      // Loads and stores of one record updated in place share a group (access_groups.cpp).
      const bool mixed = std::any_of(members.begin(), members.end(),
                                     [&](const AccessSite* m) { return m->access.kind != a.access.kind; });
      const std::string others = mixed && a.group.members > 2 ? std::string("accesses (loads and stores)")
                                 : mixed ? std::string(toString(a.access.kind == model::AccessKind::Load
                                                                    ? model::AccessKind::Store
                                                                    : model::AccessKind::Load))
                                         : std::string(toString(a.access.kind)) + (a.group.members > 2 ? "s" : "");
      f.notes.push_back(fmt::format(
          "served together with {} other {} of the same thread in the same iteration: {} sectors per request "
          "where {} would carry their bytes (eta = {}), so the group wastes traffic",
          a.group.members - 1, others, number(a.group.sectorsPerRequest), number(a.group.idealSectors),
          percent(a.group.efficiency)));
    }
    if (!f.hasCost()) continue;
    const bool gather = isGather(a);
    const std::string what = f.costSectors ? fmt::format("{} excess sectors ({})", number(*f.costSectors),
                                                        byteSize(*f.costSectors * arch.sectorBytes))
                                           : fmt::format("{} excess wavefronts", number(*f.costWavefronts));
    // A place merged over several kernels (instantiations, callers of one helper) costs what
    // they cost together; the basis sentence is the worst kernel's, and says so.
    const std::string summed =
        f.instantiations.size() > 1
            ? fmt::format(" of each of its {} kernels, added together", f.instantiations.size())
            : std::string();
    const std::string basis = f.instantiations.size() > 1 ? "in '" + f.kernel + "': " + f.costBasis : f.costBasis;
    // The kernel's memory time counts every gather at its least (addCosts); in the case the
    // sentence names, this gather's worst, the kernel's time holds its waste too, so the share is
    // of that time, never above 100 % ("116.7 % of the kernel's memory time" before session 38).
    const double share = gather ? *f.costShare / (1.0 + *f.costShare) : *f.costShare;
    f.notes.push_back(fmt::format("cost: {} per launch{}{}, {} of the kernel's memory time; {}", what, summed,
                                  gather ? " when every lane hits its own sector" : "", percent(share), basis));
  }
}

}  // namespace coalesce::report::detail
