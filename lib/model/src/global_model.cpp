#include "coalesce/model/global_model.h"

#include <algorithm>
#include <vector>

#include "math_util.h"

namespace coalesce::model {

using detail::ceilDiv;
using detail::floorDiv;

WarpSectors countSectors(std::span<const int64_t> laneAddresses, int bytesPerLane, const Arch& arch) {
  WarpSectors w;
  w.activeLanes = static_cast<int64_t>(laneAddresses.size());
  if (laneAddresses.empty()) return w;
  std::vector<int64_t> starts(laneAddresses.begin(), laneAddresses.end());
  std::sort(starts.begin(), starts.end());
  // Walk the lanes' byte ranges in address order, merging overlaps; count each
  // sector once (ranges are sorted, so a sector repeats only with its neighbour).
  int64_t lastSector = INT64_MIN;
  int64_t coveredEnd = INT64_MIN;
  for (int64_t a : starts) {
    const int64_t end = a + bytesPerLane;  // exclusive
    const int64_t first = floorDiv(a, arch.sectorBytes);
    const int64_t last = floorDiv(end - 1, arch.sectorBytes);
    w.sectors += last - std::max(first - 1, lastSector);
    lastSector = std::max(lastSector, last);
    w.uniqueBytes += std::max<int64_t>(0, end - std::max(a, coveredEnd));
    coveredEnd = std::max(coveredEnd, end);
  }
  w.idealSectors = ceilDiv(w.uniqueBytes, arch.sectorBytes);
  return w;
}

WarpSectors countSectorsOfRanges(std::span<const ByteRange> ranges, const Arch& arch) {
  std::vector<ByteRange> sorted(ranges.begin(), ranges.end());
  std::sort(sorted.begin(), sorted.end());
  return countSectorsOfSortedRanges(sorted, arch);
}

WarpSectors countSectorsOfSortedRanges(std::span<const ByteRange> sorted, const Arch& arch) {
  WarpSectors w;
  w.activeLanes = static_cast<int64_t>(sorted.size());
  // As countSectors: ranges in address order, overlaps merged, each sector counted once.
  int64_t lastSector = INT64_MIN;
  int64_t coveredEnd = INT64_MIN;
  for (const ByteRange& r : sorted) {
    if (r.bytes <= 0) continue;
    const int64_t end = r.address + r.bytes;
    const int64_t first = floorDiv(r.address, arch.sectorBytes);
    const int64_t last = floorDiv(end - 1, arch.sectorBytes);
    if (last > lastSector) w.sectors += last - std::max(first - 1, lastSector);
    lastSector = std::max(lastSector, last);
    w.uniqueBytes += std::max<int64_t>(0, end - std::max(r.address, coveredEnd));
    coveredEnd = std::max(coveredEnd, end);
  }
  w.idealSectors = ceilDiv(w.uniqueBytes, arch.sectorBytes);
  return w;
}

WarpSectors sectorsOfStridedRun(int64_t start, int64_t stride, int64_t lanes, int bytesPerLane, const Arch& arch) {
  WarpSectors w;
  w.activeLanes = lanes;
  if (lanes <= 0) return w;
  if (stride < 0) {  // the same set of addresses, walked upwards
    start += (lanes - 1) * stride;
    stride = -stride;
  }
  const int64_t S = arch.sectorBytes;
  const int64_t B = bytesPerLane;
  if (stride == 0) lanes = 1;
  if (stride <= B) {
    // Lanes overlap or touch: one contiguous byte interval.
    const int64_t end = start + (lanes - 1) * stride + B;
    w.sectors = floorDiv(end - 1, S) - floorDiv(start, S) + 1;
    w.uniqueBytes = end - start;
  } else {
    // Disjoint lanes. Each spans floor((r+B-1)/S)+1 sectors where r is its offset in
    // its first sector; a lane shares its first sector with the previous lane exactly
    // when stride < S and it starts in the sector where the previous one ended.
    // Offsets r_k = (start + k*stride) mod S are periodic with period S/gcd(stride,S),
    // so sum per period and multiply.
    const int64_t period = S / std::gcd(stride % S == 0 ? S : stride % S, S);
    auto laneSectors = [&](int64_t k) {
      const int64_t a = start + k * stride;
      const int64_t first = floorDiv(a, S), last = floorDiv(a + B - 1, S);
      int64_t n = last - first + 1;
      if (k > 0) {
        const int64_t prevLast = floorDiv(a - stride + B - 1, S);
        if (prevLast >= first) n -= prevLast - first + 1;
      }
      return n;
    };
    // Lane 0 is special (no predecessor); lanes 1.. repeat with the period.
    w.sectors = laneSectors(0);
    const int64_t rest = lanes - 1;
    const int64_t fullPeriods = rest / period, tail = rest % period;
    int64_t perPeriod = 0;
    for (int64_t k = 1; k <= period; ++k) perPeriod += laneSectors(k);
    int64_t tailSum = 0;
    for (int64_t k = 1; k <= tail; ++k) tailSum += laneSectors(k);
    w.sectors += fullPeriods * perPeriod + tailSum;
    w.uniqueBytes = lanes * B;
  }
  w.idealSectors = ceilDiv(w.uniqueBytes, S);
  return w;
}

double efficiency(const WarpSectors& w) {
  return w.sectors == 0 ? 1.0 : static_cast<double>(w.idealSectors) / static_cast<double>(w.sectors);
}

}  // namespace coalesce::model
