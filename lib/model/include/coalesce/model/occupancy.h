// Theoretical occupancy of one SM: how many blocks of a kernel can be resident at once, and
// which resource stops a further one, by the rules of the CUDA Occupancy Calculator (and
// of Nsight Compute's launch__occupancy_limit_* metrics). Every hardware number comes from
// model::Arch (arch.h); docs/occupancy.md works the examples.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "coalesce/model/arch.h"

namespace coalesce::model {

struct OccupancyInput {
  int64_t threadsPerBlock = 0;
  int64_t staticSharedBytes = 0;                 // __shared__ arrays of fixed size
  std::optional<int64_t> dynamicSharedBytes = 0;  // the launch's third <<<>>> argument; nullopt: unknown
  std::optional<int> registersPerThread;         // from ptxas; nullopt: unknown
};

// What caps the resident blocks, in the order Nsight Compute lists its limits.
enum class OccupancyLimiter { Warps, Blocks, SharedMemory, Registers, None };
std::string_view toString(OccupancyLimiter l);  // "warps", "blocks", "shared_memory", "registers", "none"

struct Occupancy {
  int64_t warpsPerBlock = 0;
  // Blocks per SM each resource allows (Nsight Compute: launch__occupancy_limit_warps,
  // _blocks, _shared_mem, _registers). Registers: nullopt when the count is unknown.
  int64_t blocksLimitWarps = 0;
  int64_t blocksLimitBlocks = 0;
  int64_t blocksLimitSharedMemory = 0;
  std::optional<int64_t> blocksLimitRegisters;
  int64_t sharedBytesPerBlock = 0;  // as allocated: with the reserved part, rounded to the unit
  int64_t activeBlocks = 0;         // the smallest limit: resident blocks per SM
  int64_t activeWarps = 0;
  double occupancy = 0;             // activeWarps / maxWarpsPerSm, 0..1
  OccupancyLimiter limitedBy = OccupancyLimiter::None;
  // Why no block fits, when activeBlocks is 0 (a block larger than the architecture's, more
  // shared memory than a block may have); empty otherwise.
  std::string invalid;
};

// Occupancy of `in` on `arch`. With the dynamic shared memory unknown, it is taken as 0 (the
// figure is then an upper bound); with the registers unknown, they are not a limit (the same).
Occupancy computeOccupancy(const OccupancyInput& in, const Arch& arch);

}  // namespace coalesce::model
