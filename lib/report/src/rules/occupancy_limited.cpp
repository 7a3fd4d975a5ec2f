#include "occupancy_limited.h"

#include <fmt/format.h>

#include "../format.h"

namespace coalesce::report {

using namespace detail;

RuleDescription OccupancyLimited::description() const {
  return {"Block shape or shared memory caps the kernel's theoretical occupancy",
          "An SM keeps a limited number of warps, blocks and bytes of shared memory. When a block is small (the SM "
          "runs out of block slots before warp slots) or takes much shared memory, few warps are resident and "
          "the SM has little to switch to while loads are in flight. The figure is the CUDA Occupancy "
          "Calculator's, from the launch's block and the kernel's static and dynamic shared memory; registers "
          "are not counted unless known. A hint, off by default.",
          "Use blocks of at least (maximum warps / maximum blocks) warps, and keep each block's shared memory "
          "below the SM's shared memory divided by the blocks wanted."};
}

std::optional<Finding> OccupancyLimited::checkKernel(const KernelRecord& kernel, const RuleContext& ctx) const {
  const KernelOccupancy& o = kernel.occupancy;
  if (kernel.status != Status::Analysed || o.threadsPerBlock <= 0 || o.activeBlocks <= 0 || o.occupancy >= 1.0)
    return std::nullopt;
  // Registers are the compiler's; the rule is about what the source fixes.
  if (o.limitedBy != "blocks" && o.limitedBy != "shared_memory" && o.limitedBy != "warps") return std::nullopt;
  const model::Arch& arch = ctx.arch;
  Finding f;
  f.rule = id();
  f.severity = defaultSeverity();
  f.loc = kernel.loc;
  f.kernel = kernel.name;
  std::string cause, fix;
  if (o.limitedBy == "shared_memory") {
    const int64_t perBlock = o.staticSharedBytes + std::max<int64_t>(0, o.dynamicSharedBytes);
    cause = fmt::format("shared memory: each block takes {} bytes ({} static{}, {} reserved by the runtime), {} "
                        "blocks fit in the SM's {}",
                        perBlock + arch.reservedSharedBytesPerBlock, o.staticSharedBytes,
                        o.dynamicSharedBytes > 0 ? fmt::format(", {} dynamic", o.dynamicSharedBytes) : std::string(),
                        arch.reservedSharedBytesPerBlock, o.blocksLimitSharedMemory, kilobytes(arch.sharedBytesPerSm));
    const int64_t next = o.activeBlocks + 1;
    const int64_t room = arch.sharedBytesPerSm / next / arch.sharedAllocationUnit * arch.sharedAllocationUnit -
                         arch.reservedSharedBytesPerBlock;
    fix = fmt::format("fix: at most {} bytes of shared memory per block let {} blocks ({} warps) reside", room, next,
                      next * (o.activeWarps / o.activeBlocks));
  } else if (o.limitedBy == "blocks") {
    cause = fmt::format("block shape: blocks of {} threads, and an SM holds at most {} blocks", o.threadsPerBlock,
                        arch.maxBlocksPerSm);
    const int64_t warpsNeeded = (arch.maxWarpsPerSm + arch.maxBlocksPerSm - 1) / arch.maxBlocksPerSm;
    fix = fmt::format("fix: blocks of at least {} threads fill the SM's {} warps", warpsNeeded * arch.warpSize,
                      arch.maxWarpsPerSm);
  } else {
    cause = fmt::format("warps: blocks of {} threads, {} whole blocks fit in the SM's {} warps", o.threadsPerBlock,
                        o.blocksLimitWarps, arch.maxWarpsPerSm);
    fix = "fix: a block whose warp count divides the SM's maximum";
  }
  f.message = fmt::format("kernel '{}' keeps {} of {} warps resident per SM on {} ({} theoretical occupancy), capped "
                          "by {}",
                          kernel.name, o.activeWarps, arch.maxWarpsPerSm, arch.name(), percent(o.occupancy), cause);
  for (const std::string& n : o.notes) f.notes.push_back(n);
  f.notes.push_back(std::move(fix));
  f.occupancy = o.occupancy;
  return f;
}

}  // namespace coalesce::report
