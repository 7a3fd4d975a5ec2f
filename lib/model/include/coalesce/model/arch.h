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

  // Bytes one shared-memory wavefront can deliver (banks x bank width).
  int sharedWavefrontBytes() const { return sharedBanks * bankWidthBytes; }

  // Lanes that the shared-memory pipeline serves as one phase for an access of
  // `bytesPerLane` bytes. Conflicts only count inside a phase. 32-bit and narrower
  // accesses are one phase of the whole warp; 64-bit accesses are two half-warp
  // phases (field notes, H200). For 128-bit accesses the field notes describe four
  // quarter-warp phases, but a uniform LDS.128 measured 2 wavefronts on the H200,
  // which only half-warp phases explain; see docs/model.md.
  int sharedPhaseLanes(int bytesPerLane) const;

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
