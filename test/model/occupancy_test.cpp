// Theoretical occupancy against cases worked by hand with the CUDA Occupancy Calculator's
// rules (docs/occupancy.md has the arithmetic of each).
#include <catch2/catch.hpp>

#include "coalesce/model/occupancy.h"

using namespace coalesce::model;

namespace {

Occupancy on(int sm, int64_t threads, int64_t staticShared, std::optional<int64_t> dynamicShared = 0,
             std::optional<int> registers = std::nullopt) {
  return computeOccupancy({threads, staticShared, dynamicShared, registers}, *archForSm(sm));
}

}  // namespace

TEST_CASE("occupancy: the architecture table holds the Programming Guide's limits") {
  CHECK(archForSm(90)->maxWarpsPerSm == 64);
  CHECK(archForSm(90)->sharedBytesPerSm == 228 * 1024);
  CHECK(archForSm(90)->maxSharedBytesPerBlock == 227 * 1024);
  CHECK(archForSm(80)->sharedBytesPerSm == 164 * 1024);
  CHECK(archForSm(86)->maxWarpsPerSm == 48);
  CHECK(archForSm(86)->maxBlocksPerSm == 16);
  CHECK(archForSm(89)->maxBlocksPerSm == 24);
  CHECK(archForSm(75)->maxWarpsPerSm == 32);
  CHECK(archForSm(70)->reservedSharedBytesPerBlock == 0);
  CHECK(archForSm(90)->reservedSharedBytesPerBlock == 1024);
}

TEST_CASE("occupancy: 256 threads and no shared memory fill an sm_90 SM, warps limiting") {
  const Occupancy o = on(90, 256, 0);
  CHECK(o.warpsPerBlock == 8);
  CHECK(o.blocksLimitWarps == 8);
  CHECK(o.blocksLimitBlocks == 32);
  CHECK(o.sharedBytesPerBlock == 1024);  // the reserved kilobyte alone
  CHECK(o.blocksLimitSharedMemory == 228);
  CHECK_FALSE(o.blocksLimitRegisters);
  CHECK(o.activeBlocks == 8);
  CHECK(o.occupancy == 1.0);
  CHECK(o.limitedBy == OccupancyLimiter::Warps);
  CHECK(o.invalid.empty());
}

TEST_CASE("occupancy: one-warp blocks are capped by the block slots") {
  const Occupancy o = on(90, 32, 0);
  CHECK(o.activeBlocks == 32);
  CHECK(o.activeWarps == 32);
  CHECK(o.occupancy == 0.5);
  CHECK(o.limitedBy == OccupancyLimiter::Blocks);
  // sm_86 has 16 block slots and 48 warps: a third.
  const Occupancy ga = on(86, 32, 0);
  CHECK(ga.activeBlocks == 16);
  CHECK(ga.occupancy == Approx(16.0 / 48));
}

TEST_CASE("occupancy: 48 KB of static shared memory per 128-thread block leaves 4 blocks") {
  // (49152 + 1024 reserved) = 50176 bytes, a multiple of 128; 233472 / 50176 = 4.65.
  const Occupancy o = on(90, 128, 48 * 1024);
  CHECK(o.sharedBytesPerBlock == 50176);
  CHECK(o.blocksLimitSharedMemory == 4);
  CHECK(o.activeWarps == 16);
  CHECK(o.occupancy == 0.25);
  CHECK(o.limitedBy == OccupancyLimiter::SharedMemory);
}

TEST_CASE("occupancy: dynamic shared memory adds to the static part and rounds to 128 bytes") {
  // 12 KB static + 100 bytes dynamic + 1 KB reserved = 13412 -> 13440; 233472 / 13440 = 17.
  const Occupancy o = on(90, 32, 12 * 1024, 100);
  CHECK(o.sharedBytesPerBlock == 13440);
  CHECK(o.blocksLimitSharedMemory == 17);
  CHECK(o.activeBlocks == 17);
  CHECK(o.limitedBy == OccupancyLimiter::SharedMemory);
  // Unknown dynamic memory counts as none: the figure is an upper bound.
  CHECK(on(90, 32, 12 * 1024, std::nullopt).sharedBytesPerBlock == 13312);
}

TEST_CASE("occupancy: registers are allocated per warp in units of 256") {
  // 32 registers: 1024 per warp, 64 warps: 8 blocks of 256, tied with the warps (warps named).
  const Occupancy r32 = on(90, 256, 0, 0, 32);
  CHECK(*r32.blocksLimitRegisters == 8);
  CHECK(r32.limitedBy == OccupancyLimiter::Warps);
  CHECK(r32.occupancy == 1.0);
  // 64 registers: 2048 per warp, 32 warps, 4 blocks: half.
  const Occupancy r64 = on(90, 256, 0, 0, 64);
  CHECK(*r64.blocksLimitRegisters == 4);
  CHECK(r64.occupancy == 0.5);
  CHECK(r64.limitedBy == OccupancyLimiter::Registers);
  // 37 registers: 1184 -> 1280 per warp, 51 warps, 12 blocks of 4 warps: 48 warps.
  const Occupancy r37 = on(90, 128, 0, 0, 37);
  CHECK(*r37.blocksLimitRegisters == 12);
  CHECK(r37.activeWarps == 48);
  CHECK(r37.occupancy == 0.75);
  // 255 registers: 8160 -> 8192 per warp, 8 warps: one block of 256.
  const Occupancy r255 = on(90, 256, 0, 0, 255);
  CHECK(r255.activeBlocks == 1);
  CHECK(r255.occupancy == 0.125);
}

TEST_CASE("occupancy: blocks that cannot launch are said, not counted") {
  const Occupancy big = on(90, 2048, 0);
  CHECK(big.activeBlocks == 0);
  CHECK_FALSE(big.invalid.empty());
  const Occupancy shared = on(90, 128, 228 * 1024);
  CHECK(shared.activeBlocks == 0);
  CHECK(shared.limitedBy == OccupancyLimiter::SharedMemory);
  CHECK(shared.invalid.find("exceed") != std::string::npos);
  const Occupancy regs = on(90, 1024, 0, 0, 128);
  CHECK(regs.activeBlocks == 0);
  CHECK(regs.limitedBy == OccupancyLimiter::Registers);
}

TEST_CASE("occupancy: limiter names") {
  CHECK(toString(OccupancyLimiter::SharedMemory) == "shared_memory");
  CHECK(toString(OccupancyLimiter::Registers) == "registers");
}
