#include "coalesce/model/arch.h"

#include <algorithm>
#include <charconv>

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
    for (int sm : {70, 72, 75, 80, 86, 87, 89, 90}) {
      Arch a;
      a.sm = sm;
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
