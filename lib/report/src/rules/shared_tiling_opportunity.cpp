#include "shared_tiling_opportunity.h"

#include <fmt/format.h>

#include <algorithm>

#include "../format.h"
#include "access_finding.h"
#include "coalesce/model/occupancy.h"

namespace coalesce::report {

using namespace detail;

namespace {

// A shared store on the load's own line (`tile[ty][tx] = A[...]`): the kernel already
// stages what this load reads.
bool stagedInShared(const AccessSite& site, const AnalysisResult* analysis) {
  if (!analysis) return false;
  return std::any_of(analysis->accesses.begin(), analysis->accesses.end(), [&](const AccessSite& other) {
    return other.kernel == site.kernel && other.loc.file == site.loc.file && other.loc.line == site.loc.line &&
           other.access.space == model::Space::Shared && other.access.kind != model::AccessKind::Load;
  });
}

const KernelRecord* kernelOf(const AccessSite& site, const AnalysisResult* analysis) {
  if (!analysis) return nullptr;
  for (const KernelRecord& k : analysis->kernels)
    if (k.name == site.kernel && k.loc.file == site.loc.file) return &k;
  return nullptr;
}

// What a tile of `tileBytes` more static shared memory would leave of the kernel's
// occupancy, said when it lowers it.
std::string occupancyAfterTile(const KernelRecord* kernel, int64_t tileBytes, const model::Arch& arch) {
  if (!kernel || kernel->occupancy.threadsPerBlock <= 0) return "";
  const KernelOccupancy& o = kernel->occupancy;
  model::OccupancyInput in;
  in.threadsPerBlock = o.threadsPerBlock;
  in.staticSharedBytes = o.staticSharedBytes + tileBytes;
  in.dynamicSharedBytes = o.dynamicSharedBytes < 0 ? std::optional<int64_t>() : o.dynamicSharedBytes;
  const model::Occupancy after = model::computeOccupancy(in, arch);
  if (after.occupancy >= o.occupancy) return "";
  return fmt::format(" (it lowers the theoretical occupancy from {} to {}: shared memory then allows {} blocks per SM)",
                     percent(o.occupancy), percent(after.occupancy), after.blocksLimitSharedMemory);
}

}  // namespace

RuleDescription SharedTilingOpportunity::description() const {
  return {"Global load re-read by several warps of a block: a shared-memory tile would load it once",
          "A global load inside a loop whose bytes several warps of the same block read in the same iteration "
          "(the columns of a naive matrix multiply, a convolution window, n-body's inner loop over all bodies) "
          "fetches them once per warp from L1 or L2. Loading them once per block into shared memory and reading "
          "them there saves that traffic. The reuse factor is the bytes the block's warps request over the "
          "distinct bytes of the block. Quiet when the load already feeds a shared store, and when the reuse "
          "is only between lanes of one warp (a broadcast). A hint, off by default.",
          "Stage the shared bytes in a __shared__ tile: each thread loads one element of the tile (a coalesced "
          "load), __syncthreads(), the loop reads the tile, __syncthreads() before the next tile is loaded."};
}

std::optional<Finding> SharedTilingOpportunity::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  const BlockReuse& r = site.blockReuse;
  if (site.access.space != model::Space::Global || site.access.kind != model::AccessKind::Load) return std::nullopt;
  if (!site.executed || site.loops.empty() || !r.known || r.distinctBytes <= 0) return std::nullopt;
  const double reuse = r.reuse();
  if (reuse <= 1.0 || stagedInShared(site, ctx.analysis)) return std::nullopt;

  const model::Dim3& block = site.block.dim;
  const double warps = static_cast<double>(model::warpCount(block, ctx.arch));
  Finding out = accessFinding(
      *this, site, ctx.arch,
      fmt::format("global {} inside a loop: the {} warps of a {} block request {} bytes per iteration for {} distinct "
                  "bytes (reuse {}x); a shared-memory tile would load them once per block",
                  accessPhrase(site), number(warps), dims(block), number(r.requestedBytes), number(r.distinctBytes),
                  number(reuse)));
  const double savedShare = r.warpSectors > 0 ? 1.0 - r.blockSectors / r.warpSectors : 0.0;
  out.notes.push_back(fmt::format(
      "traffic: per block and iteration the warps fetch {} sectors where the block needs {}; a tile saves {} of "
      "this load's global sectors (the rest of the reuse may already hit in L1)",
      number(r.warpSectors), number(r.blockSectors), percent(savedShare)));
  const int64_t depth = std::max<int64_t>(1, block.x);
  const int64_t tileBytes = static_cast<int64_t>(r.distinctBytes) * depth;
  out.notes.push_back(fmt::format(
      "fix: stage the block's {} bytes per iteration in a __shared__ tile; a tile of {} iterations (blockDim.x) "
      "takes {} of shared memory per block{}",
      number(r.distinctBytes), depth, kilobytes(tileBytes),
      occupancyAfterTile(kernelOf(site, ctx.analysis), tileBytes, ctx.arch)));
  if (site.figures.global && site.launchRequests > 0)
    out.costSectors = site.figures.global->aligned.sectorsPerRequest * site.launchRequests * savedShare;
  out.reuse = reuse;
  return out;
}

}  // namespace coalesce::report
