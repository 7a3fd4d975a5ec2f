#include "coalesce/model/block_reuse.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "coalesce/model/access_model.h"
#include "math_util.h"

namespace coalesce::model {

namespace {

using detail::floorDiv;
using detail::floorMod;

using Interval = std::pair<int64_t, int64_t>;  // [begin, end) in bytes

// Bytes covered by the union of the intervals (sorted in place).
int64_t coveredBytes(std::vector<Interval>& spans) {
  std::sort(spans.begin(), spans.end());
  int64_t total = 0, end = INT64_MIN;
  for (const auto& [b, e] : spans) {
    const int64_t from = std::max(b, end);
    if (e > from) total += e - from;
    end = std::max(end, e);
  }
  return total;
}

// Distinct sectors the intervals touch.
int64_t sectorsOf(const std::vector<Interval>& spans, int64_t sectorBytes) {
  std::vector<int64_t> sectors;
  for (const auto& [b, e] : spans)
    for (int64_t s = floorDiv(b, sectorBytes); s <= floorDiv(e - 1, sectorBytes); ++s) sectors.push_back(s);
  std::sort(sectors.begin(), sectors.end());
  return std::unique(sectors.begin(), sectors.end()) - sectors.begin();
}

}  // namespace

std::optional<BlockBytes> blockBytes(const Access& access, const Dim3& block, const Arch& arch) {
  const PatternKind kind = access.pattern.kind;
  if (kind != PatternKind::Affine && kind != PatternKind::Uniform && kind != PatternKind::Enumerated)
    return std::nullopt;
  const int64_t base = floorMod(access.pattern.base.constant, static_cast<int64_t>(arch.sectorBytes));
  BlockBytes out;
  std::vector<Interval> all;
  for (int64_t w = 0; w < warpCount(block, arch); ++w) {
    std::vector<Interval> warp;
    for (const auto& off : warpLaneOffsets(access.pattern, block, w, arch))
      if (off) warp.emplace_back(base + *off, base + *off + access.bytesPerLane);
    if (warp.empty()) continue;
    ++out.warps;
    out.requestedBytes += coveredBytes(warp);
    out.warpSectors += sectorsOf(warp, arch.sectorBytes);
    all.insert(all.end(), warp.begin(), warp.end());
  }
  out.distinctBytes = coveredBytes(all);
  out.blockSectors = sectorsOf(all, arch.sectorBytes);
  return out;
}

bool IterationWindow::add(const Access& access, const Dim3& block, const Arch& arch) {
  if (!known_) return false;
  const PatternKind kind = access.pattern.kind;
  if (kind != PatternKind::Affine && kind != PatternKind::Uniform && kind != PatternKind::Enumerated)
    return known_ = false;
  sectorBytes_ = arch.sectorBytes;
  const auto warps = static_cast<size_t>(warpCount(block, arch));
  if (open_.size() < warps) open_.resize(warps), openBytes_.resize(warps);
  for (size_t w = 0; w < warps; ++w) {
    std::vector<Interval> spans;
    for (const auto& off : warpLaneOffsets(access.pattern, block, static_cast<int64_t>(w), arch))
      if (off) {
        const int64_t at = access.pattern.base.constant + *off;
        spans.emplace_back(at, at + access.bytesPerLane);
      }
    if (spans.empty()) continue;
    std::vector<int64_t> sectors;
    for (const auto& [b, e] : spans)
      for (int64_t s = floorDiv(b, arch.sectorBytes); s <= floorDiv(e - 1, arch.sectorBytes); ++s) sectors.push_back(s);
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    requests_ += 1;
    // Sectors are sorted: count the line changes (a line holds cacheLineBytes / sectorBytes).
    const int64_t perLine = arch.cacheLineBytes / arch.sectorBytes;
    int64_t last = INT64_MIN;
    for (const int64_t s : sectors)
      if (const int64_t line = floorDiv(s, perLine); line != last) {
        lines_ += 1;
        last = line;
      }
    open_[w].insert(open_[w].end(), sectors.begin(), sectors.end());
    openBytes_[w].insert(openBytes_[w].end(), spans.begin(), spans.end());
  }
  if (++inWindow_ == window_) closeWindow();
  return true;
}

namespace {

int64_t distinctCount(std::vector<int64_t>& sectors) {
  std::sort(sectors.begin(), sectors.end());
  return std::unique(sectors.begin(), sectors.end()) - sectors.begin();
}

}  // namespace

void IterationWindow::closeWindow() {
  for (size_t w = 0; w < open_.size(); ++w) {
    distinctSectors_ += static_cast<double>(distinctCount(open_[w]));
    readBytes_ += static_cast<double>(coveredBytes(openBytes_[w]));
    open_[w].clear();
    openBytes_[w].clear();
  }
  inWindow_ = 0;
}

double IterationWindow::sectorsPerRequest() const {
  // The open window's sectors count as they stand.
  double distinct = distinctSectors_;
  for (std::vector<int64_t> sectors : open_) distinct += static_cast<double>(distinctCount(sectors));
  return requests_ > 0 ? distinct / requests_ : 0;
}

double IterationWindow::bytesReadShare() const {
  double distinct = distinctSectors_, read = readBytes_;
  for (size_t w = 0; w < open_.size(); ++w) {
    std::vector<int64_t> sectors = open_[w];
    std::vector<Interval> spans = openBytes_[w];
    distinct += static_cast<double>(distinctCount(sectors));
    read += static_cast<double>(coveredBytes(spans));
  }
  return distinct > 0 ? read / (distinct * static_cast<double>(sectorBytes_)) : 0;
}

}  // namespace coalesce::model
