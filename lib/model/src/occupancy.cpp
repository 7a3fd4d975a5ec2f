#include "coalesce/model/occupancy.h"

#include <algorithm>
#include <cstdint>

namespace coalesce::model {

namespace {

int64_t roundUp(int64_t value, int64_t unit) { return unit <= 0 ? value : (value + unit - 1) / unit * unit; }

}  // namespace

std::string_view toString(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::Warps: return "warps";
    case OccupancyLimiter::Blocks: return "blocks";
    case OccupancyLimiter::SharedMemory: return "shared_memory";
    case OccupancyLimiter::Registers: return "registers";
    case OccupancyLimiter::None: return "none";
  }
  return "?";
}

// The Occupancy Calculator's sheet, step by step: warps per block; blocks by the warp slots,
// by the block slots, by shared memory (the block's bytes plus the runtime's reserved part,
// rounded up to the allocation unit), by registers (per warp, rounded up to the allocation
// unit); the smallest of them, and the first resource in the list that gives it.
Occupancy computeOccupancy(const OccupancyInput& in, const Arch& arch) {
  Occupancy o;
  if (in.threadsPerBlock <= 0 || in.threadsPerBlock > arch.maxThreadsPerBlock) {
    o.invalid = "a block of " + std::to_string(in.threadsPerBlock) + " threads cannot be launched on " + arch.name() +
                " (at most " + std::to_string(arch.maxThreadsPerBlock) + ")";
    return o;
  }
  o.warpsPerBlock = (in.threadsPerBlock + arch.warpSize - 1) / arch.warpSize;
  o.blocksLimitWarps = arch.maxWarpsPerSm / o.warpsPerBlock;
  o.blocksLimitBlocks = arch.maxBlocksPerSm;

  const int64_t requested = in.staticSharedBytes + in.dynamicSharedBytes.value_or(0);
  if (requested > arch.maxSharedBytesPerBlock) {
    o.invalid = std::to_string(requested) + " bytes of shared memory per block exceed " + arch.name() + "'s " +
                std::to_string(arch.maxSharedBytesPerBlock);
    o.limitedBy = OccupancyLimiter::SharedMemory;
    return o;
  }
  o.sharedBytesPerBlock = roundUp(requested + arch.reservedSharedBytesPerBlock, arch.sharedAllocationUnit);
  o.blocksLimitSharedMemory =
      o.sharedBytesPerBlock > 0 ? arch.sharedBytesPerSm / o.sharedBytesPerBlock : arch.maxBlocksPerSm;

  if (in.registersPerThread) {
    const int64_t regs = std::max(1, *in.registersPerThread);
    if (regs > arch.maxRegistersPerThread || regs * in.threadsPerBlock > arch.maxRegistersPerBlock) {
      o.invalid = std::to_string(regs) + " registers per thread are too many for a block of " +
                  std::to_string(in.threadsPerBlock) + " threads on " + arch.name();
      o.limitedBy = OccupancyLimiter::Registers;
      o.blocksLimitRegisters = 0;
      return o;
    }
    const int64_t perWarp = roundUp(regs * arch.warpSize, arch.registerAllocationUnit);
    const int64_t warps = arch.registersPerSm / perWarp;  // warps the register file holds
    o.blocksLimitRegisters = warps / o.warpsPerBlock;
  }

  struct Limit {
    OccupancyLimiter what;
    int64_t blocks;
  };
  Limit limits[] = {{OccupancyLimiter::Warps, o.blocksLimitWarps},
                    {OccupancyLimiter::Blocks, o.blocksLimitBlocks},
                    {OccupancyLimiter::SharedMemory, o.blocksLimitSharedMemory},
                    {OccupancyLimiter::Registers, o.blocksLimitRegisters.value_or(INT64_MAX)}};
  const Limit* least = &limits[0];
  for (const Limit& l : limits)
    if (l.blocks < least->blocks) least = &l;
  o.activeBlocks = least->blocks;
  o.limitedBy = least->what;
  o.activeWarps = o.activeBlocks * o.warpsPerBlock;
  o.occupancy = static_cast<double>(o.activeWarps) / arch.maxWarpsPerSm;
  if (o.activeBlocks == 0) o.invalid = "no block fits on one SM";
  return o;
}

}  // namespace coalesce::model
