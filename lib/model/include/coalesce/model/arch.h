// Architecture parameters of the memory system, one record per GPU generation.
// Every hardware number the model uses lives here, so none is a literal elsewhere.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce::model {

struct Arch {
  int sm = 90;                 // compute capability as major*10 + minor
  int warpSize = 32;           // lanes per warp
  int sectorBytes = 32;        // L1/L2 sector: the unit of a global transaction
  int cacheLineBytes = 128;    // four sectors
  int sharedBanks = 32;        // shared-memory banks
  int bankWidthBytes = 4;      // bytes per bank per cycle
  int pointerAlignment = 256;  // cudaMalloc's guaranteed alignment, in bytes
  int maxThreadsPerBlock = 1024;  // the largest block a launch may ask for
  // Lane data one shared-memory wavefront can return when the phases of a wide access
  // each read a single address (measured on the H200: a uniform LDS.64 is 1 wavefront,
  // a uniform LDS.128 is 2).
  int sharedBroadcastWavefrontBytes = 256;
  // What moving one 32-byte global sector costs next to one shared-memory wavefront, in an
  // SM's cycles: a wavefront is one cycle of the SM's shared-memory pipeline (128 B per
  // cycle); a sector at the H200's DRAM bandwidth (4.8 TB/s over 132 SMs at 1.98 GHz, 18.4 B
  // per SM per cycle) takes 32 / 18.4 = 1.74. It weighs waste in the two spaces into one
  // share of a kernel's memory time (lib/report/src/cost.cpp).
  double sectorCostInWavefronts = 1.74;
  // The whole device, to turn that unit (one SM's cycle, summed over SMs) into seconds: the
  // H200's 132 SMs at 1.98 GHz. Other architectures keep these, as they keep the weight above:
  // they serve one floor (below), not a prediction of time.
  int smCount = 132;
  double smClockHz = 1.98e9;
  // What launching one more kernel costs however little it does: empty kernels launched back
  // to back on the H200 (bench/launch_cost_h200.sh, bench/launch_cost/h200/). A finding that
  // wastes less than this per run of the program costs less than the launch of a kernel that
  // fixes nothing: the default of the report's MinWastePerRun (docs/findings.md, "Levels").
  double launchSeconds = 4.6e-6;
  double secondsOf(double wavefronts) const { return wavefronts / (smCount * smClockHz); }
  // What one SM's arithmetic issues per cycle, in lanes, by kind: the floor a kernel's
  // arithmetic puts under its time, in the same unit (lib/analysis/src/arithmetic_estimate.h,
  // lib/report/src/cost.cpp). The CUDA C++ Programming Guide's "Throughput of Native Arithmetic
  // Instructions", compute capability 9.0: 32-bit floating add/multiply/FMA 128, 64-bit 64,
  // 32-bit integer add/logic/shift/compare 64, reciprocal/square root/exp2/log2/sine 16, warp
  // shuffle 32 (the same from compute capability 5.0 on; session 32). No
  // older architecture issues more of any kind (sm_70 and sm_80: 64 single, sm_75/86/89: 2
  // double), so the floor these give stays a floor there.
  int fp32LanesPerCycle = 128;
  int fp64LanesPerCycle = 64;
  int int32LanesPerCycle = 64;
  int specialLanesPerCycle = 16;
  int shuffleLanesPerCycle = 32;

  // Occupancy limits of one SM (occupancy.h). Sources: the CUDA C++ Programming Guide's
  // table "Technical Specifications per Compute Capability" (warps, blocks, registers,
  // shared memory per SM and per block) and the CUDA Occupancy Calculator's per-architecture
  // table (allocation units and granularities, the shared memory the runtime reserves per
  // block: 1 KB from sm_80 on). Defaults are sm_90's (H100/H200); knownArchs() sets the rest.
  int maxWarpsPerSm = 64;
  int maxBlocksPerSm = 32;
  int registersPerSm = 65536;          // 32-bit registers in the register file
  int maxRegistersPerBlock = 65536;
  int maxRegistersPerThread = 255;
  int registerAllocationUnit = 256;    // registers are allocated per warp, in units of 256
  int sharedBytesPerSm = 233472;       // 228 KB: the largest shared-memory carveout
  int maxSharedBytesPerBlock = 232448; // 227 KB (opt-in above 48 KB)
  int maxStaticSharedBytesPerBlock = 49152;  // 48 KB of static __shared__ (sm_70 to sm_90): beyond it a kernel does not compile
  int reservedSharedBytesPerBlock = 1024;  // the runtime's own shared memory per block
  int sharedAllocationUnit = 128;      // a block's shared memory is rounded up to this

  // Bytes one shared-memory wavefront can deliver (banks x bank width).
  int sharedWavefrontBytes() const { return sharedBanks * bankWidthBytes; }

  // Lanes that the shared-memory pipeline serves as one phase for an access of
  // `bytesPerLane` bytes: one wavefront's worth of lane data (banks x width). Conflicts
  // only count inside a phase: the whole warp up to 32 bits, half-warps for 64-bit and
  // quarter-warps for 128-bit accesses (calibrated on the H200, docs/model.md).
  int sharedPhaseLanes(int bytesPerLane) const;
  // How many consecutive single-address phases share one wavefront.
  int sharedBroadcastPhases(int bytesPerLane) const;

  std::string name() const;  // "sm_90"
};

// The architectures the model describes (sm_70 to sm_90). Their memory-system
// parameters are identical; the table exists so a future generation changes one place.
const std::vector<Arch>& knownArchs();
std::optional<Arch> archForSm(int sm);
// Accepts "sm_90", "sm_90a", "compute_90", "90".
std::optional<Arch> parseArch(std::string_view text);
const Arch& defaultArch();  // sm_90

}  // namespace coalesce::model
