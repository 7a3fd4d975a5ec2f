#include "coalesce/model/arch.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>

namespace coalesce::model {

int Arch::sharedPhaseLanes(int bytesPerLane) const {
  if (bytesPerLane <= bankWidthBytes) return warpSize;
  const int lanes = sharedWavefrontBytes() / bytesPerLane;
  return std::clamp(lanes, 1, warpSize);
}

int Arch::sharedBroadcastPhases(int bytesPerLane) const {
  const int phaseLanes = sharedPhaseLanes(bytesPerLane);
  const int lanes = sharedBroadcastWavefrontBytes / std::max(1, bytesPerLane);
  return std::max(1, std::min(lanes, warpSize) / phaseLanes);
}

std::string Arch::name() const { return "sm_" + std::to_string(sm); }

const std::vector<Arch>& knownArchs() {
  // Volta to Hopper share the 32-byte sector, 32 banks of 4 bytes and 32-lane warps.
  static const std::vector<Arch> table = [] {
    std::vector<Arch> archs;
    // Occupancy limits differ (Programming Guide, "Technical Specifications per Compute
    // Capability"; Occupancy Calculator for the allocation units and reserved memory).
    struct Limits {
      int sm, maxWarps, maxBlocks, sharedPerSm, sharedPerBlock, reserved, sharedUnit;
    };
    constexpr int kKb = 1024;
    for (const Limits& l : {Limits{70, 64, 32, 96 * kKb, 96 * kKb, 0, 256},
                            Limits{72, 64, 32, 96 * kKb, 96 * kKb, 0, 256},
                            Limits{75, 32, 16, 64 * kKb, 64 * kKb, 0, 256},
                            Limits{80, 64, 32, 164 * kKb, 163 * kKb, kKb, 128},
                            Limits{86, 48, 16, 100 * kKb, 99 * kKb, kKb, 128},
                            Limits{87, 48, 16, 164 * kKb, 163 * kKb, kKb, 128},
                            Limits{89, 48, 24, 100 * kKb, 99 * kKb, kKb, 128},
                            Limits{90, 64, 32, 228 * kKb, 227 * kKb, kKb, 128}}) {
      Arch a;
      a.sm = l.sm;
      a.maxWarpsPerSm = l.maxWarps;
      a.maxBlocksPerSm = l.maxBlocks;
      a.sharedBytesPerSm = l.sharedPerSm;
      a.maxSharedBytesPerBlock = l.sharedPerBlock;
      a.reservedSharedBytesPerBlock = l.reserved;
      a.sharedAllocationUnit = l.sharedUnit;
      archs.push_back(a);
    }
    return archs;
  }();
  return table;
}

std::optional<Arch> archForSm(int sm) {
  for (const Arch& a : knownArchs())
    if (a.sm == sm) return a;
  return std::nullopt;
}

std::optional<Arch> parseArch(std::string_view text) {
  for (std::string_view prefix : {"sm_", "compute_"})
    if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
  if (!text.empty() && (text.back() == 'a' || text.back() == 'f')) text.remove_suffix(1);
  int sm = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), sm);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return archForSm(sm);
}

const Arch& defaultArch() {
  static const Arch sm90 = *archForSm(90);
  return sm90;
}

}  // namespace coalesce::model
