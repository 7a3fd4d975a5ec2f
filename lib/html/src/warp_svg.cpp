#include "coalesce/html/warp_svg.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "coalesce/html/escape.h"

#include "coalesce/html/warp_layout.h"

namespace coalesce::html {

namespace {

// Geometry of the pictures, in CSS pixels: a layout choice, not a property of the hardware.
constexpr double kLeft = 52;      // room for the row labels
constexpr double kLaneStep = 18;  // one lane (or one bank) per step
constexpr double kBox = 15;       // a lane's (a bank cell's) square
constexpr double kRight = 36;  // room for the last sector's offset

// Coordinates with at most one decimal, trailing ".0" dropped: the page stays small.
std::string px(double v) {
  const double r = std::round(v * 10) / 10;
  if (r == std::floor(r)) return fmt::format("{}", static_cast<int64_t>(r));
  return fmt::format("{:.1f}", r);
}

std::string rectPath(double x, double y, double w, double h) {
  return fmt::format("M{} {}h{}v{}h-{}z", px(x), px(y), px(w), px(h), px(w));
}

std::string path(const std::string& cls, const std::string& d) {
  return d.empty() ? "" : fmt::format("<path class=\"{}\" d=\"{}\"/>", cls, d);
}

// Labels go in groups whose class sets their anchor and colour (page_assets.cpp: "m" centred,
// "i" centred white inside a cell), so each <text> carries its position only.
std::string text(double x, double y, const std::string& body) {
  return fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", px(x), px(y), body);
}

std::string group(const char* cls, const std::string& content) {
  return content.empty() ? "" : fmt::format("<g class=\"{}\">{}</g>", cls, content);
}

// Lane numbers over every fourth lane (and the last), so the row reads without crowding.
bool labelled(size_t lane, size_t lanes) { return lane % 4 == 0 || lane + 1 == lanes; }

WarpPicture globalSvg(const GlobalWarpLayout& l, const model::Arch& arch) {
  const size_t lanes = l.lanes.size();
  const double laneArea = static_cast<double>(arch.warpSize) * kLaneStep;
  const double width = kLeft + laneArea + kRight;
  const double laneTop = 16, sectorTop = 86, sectorH = 20, height = 132;
  std::string centred, active, inactive;
  for (size_t k = 0; k < lanes; ++k) {
    const double x = kLeft + static_cast<double>(k) * kLaneStep;
    (l.lanes[k] ? active : inactive) += rectPath(x, laneTop, kBox, kBox);
    if (labelled(k, lanes)) centred += text(x + kBox / 2, laneTop - 4, std::to_string(k));
  }
  const std::string rowNames = text(2, laneTop + 12, "lanes") + text(2, sectorTop + 14, "sectors");

  // Sectors side by side, narrower when there are many; a wider gap where the addresses jump.
  const size_t n = l.sectors.size();
  constexpr double kTouching = 2, kJump = 5;
  double gaps = 0;
  for (size_t i = 1; i < n; ++i) gaps += l.sectors[i].index == l.sectors[i - 1].index + 1 ? kTouching : kJump;
  const double sectorW = n ? std::min(96.0, (laneArea - gaps) / static_cast<double>(n)) : 0;
  const size_t cells = l.sectors.empty() ? 1 : l.sectors.front().used.size();
  const double cellW = sectorW / static_cast<double>(cells);
  std::string wasted, used, frames, links;
  std::vector<double> sectorX(n);
  double x = kLeft;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) x += l.sectors[i].index == l.sectors[i - 1].index + 1 ? kTouching : kJump;
    sectorX[i] = x;
    const auto& s = l.sectors[i];
    wasted += rectPath(x, sectorTop, sectorW, sectorH);
    for (size_t c = 0; c < s.used.size();) {  // runs of used cells as one rectangle each
      if (!s.used[c]) {
        ++c;
        continue;
      }
      size_t e = c;
      while (e < s.used.size() && s.used[e]) ++e;
      used += rectPath(x + static_cast<double>(c) * cellW, sectorTop, static_cast<double>(e - c) * cellW, sectorH);
      c = e;
    }
    frames += rectPath(x, sectorTop, sectorW, sectorH);
    if (n <= 16 || i == 0 || i + 1 == n)
      centred += text(x + sectorW / 2, sectorTop + sectorH + 12, fmt::format("+{}", s.index * arch.sectorBytes));
    x += sectorW;
  }
  // Each active lane to the cell of its first byte.
  for (size_t k = 0; k < lanes; ++k) {
    if (!l.lanes[k] || !l.sectorOfLane[k]) continue;
    const int64_t rel = *l.sectorOfLane[k];
    const auto it = std::find_if(l.sectors.begin(), l.sectors.end(), [&](const auto& s) { return s.index == rel; });
    if (it == l.sectors.end()) continue;
    const size_t i = static_cast<size_t>(it - l.sectors.begin());
    const int64_t within = floorDiv(*l.lanes[k], arch.sectorBytes) * arch.sectorBytes;
    const double cell = static_cast<double>((*l.lanes[k] - within) / l.cellBytes);
    links += fmt::format("M{} {}L{} {}", px(kLeft + static_cast<double>(k) * kLaneStep + kBox / 2), px(laneTop + kBox),
                         px(sectorX[i] + (cell + 0.5) * cellW), px(sectorTop));
  }
  const int64_t moved = l.counts.sectors * arch.sectorBytes;
  WarpPicture out;
  out.summary = fmt::format("{} sector{} (ideal {}); {} of the {} bytes moved are used", l.counts.sectors,
                            l.counts.sectors == 1 ? "" : "s", l.counts.idealSectors, l.counts.uniqueBytes, moved);
  out.content = path("li", inactive) + path("la", active) + path("lw", wasted) + path("lu", used) +
                path("sf", frames) + path("ln", links) + rowNames + group("m", centred);
  out.width = width;
  out.height = height;
  return out;
}

WarpPicture sharedSvg(const SharedWarpLayout& l, const model::Arch& arch) {
  const double gridW = static_cast<double>(arch.sharedBanks) * kLaneStep;
  const double width = kLeft + gridW + kRight;
  constexpr double kRowH = 17, kPhaseHead = 30, kPhaseGap = 10;
  std::string first, extra, grid, labels, centred, cells;
  double y = 0;
  for (const auto& phase : l.phases) {
    const size_t rows = std::max<size_t>(phase.wavefronts, 1);
    labels += text(2, y + 11, fmt::format("phase {} (lanes {}-{}): {} wavefront{}", phase.firstLane / l.phaseLanes + 1,
                                        phase.firstLane, phase.endLane - 1, phase.wavefronts,
                                        phase.wavefronts == 1 ? "" : "s"));
    const double top = y + kPhaseHead;
    for (int b = 0; b < arch.sharedBanks; b += 4)
      centred += text(kLeft + b * kLaneStep + kBox / 2, top - 4, std::to_string(b));
    grid += rectPath(kLeft - 1, top - 1, gridW, static_cast<double>(rows) * kRowH);
    // Wavefronts named on the first row, every fourth and the last, like the lanes.
    for (size_t r = 0; r < phase.wavefronts; ++r)
      if (r == 0 || (r + 1) % 4 == 0 || r + 1 == phase.wavefronts)
        labels += text(2, top + static_cast<double>(r) * kRowH + 11, fmt::format("wf {}", r + 1));
    for (const auto& [bank, words] : phase.wordsOfBank)
      for (size_t r = 0; r < words.size(); ++r) {
        const double cx = kLeft + static_cast<double>(bank) * kLaneStep, cy = top + static_cast<double>(r) * kRowH;
        (r == 0 ? first : extra) += rectPath(cx, cy, kBox, kBox - 1);
        const std::vector<int>& readers = words[r];
        cells += text(cx + kBox / 2, cy + 10.5, fmt::format("{}{}", readers.front(), readers.size() > 1 ? "*" : ""));
      }
    y = top + static_cast<double>(rows) * kRowH + kPhaseGap;
  }
  WarpPicture out;
  out.summary = fmt::format("{} wavefront{} (ideal {}), phases of {} lanes", l.counts.wavefronts,
                            l.counts.wavefronts == 1 ? "" : "s", l.counts.idealWavefronts, l.phaseLanes);
  out.content = path("bg", grid) + path("b1", first) + path("bx", extra) + labels + group("m", centred) +
                group("i", cells);
  out.width = width;
  out.height = y;
  return out;
}

// The paths' colours, in the order of the rows (page_assets.cpp: c0..c5).
constexpr int kPathColours = 6;

}  // namespace

std::optional<WarpPicture> branchPicture(const LaneSplit& split, BranchKind kind) {
  if (split.warp < 0 || split.lanes.empty() || split.values.empty()) return std::nullopt;
  // Rows: a switch's values in increasing order; for a condition, true first, then false.
  std::vector<int> rows(split.values.size());
  for (size_t r = 0; r < rows.size(); ++r)
    rows[r] = kind == BranchKind::Switch ? static_cast<int>(r) : static_cast<int>(rows.size() - 1 - r);
  const size_t lanes = split.lanes.size();
  constexpr double kTop = 16, kRowH = 22;
  const double width = kLeft + static_cast<double>(lanes) * kLaneStep + kRight;
  std::string centred, rowNames, frames;
  std::vector<std::string> filled(kPathColours);
  for (size_t k = 0; k < lanes; ++k)
    if (labelled(k, lanes))
      centred += text(kLeft + static_cast<double>(k) * kLaneStep + kBox / 2, kTop - 4, std::to_string(k));
  std::vector<std::string> counts;
  for (size_t r = 0; r < rows.size(); ++r) {
    const double y = kTop + static_cast<double>(r) * kRowH;
    const std::string& value = split.values[static_cast<size_t>(rows[r])];
    const std::string name = kind == BranchKind::Switch ? "= " + value : value == "0" ? "false" : "true";
    rowNames += text(2, y + 12, html::escape(name));
    size_t n = 0;
    for (size_t k = 0; k < lanes; ++k) {
      const double x = kLeft + static_cast<double>(k) * kLaneStep;
      if (split.lanes[k] == rows[r]) {
        filled[r % kPathColours] += rectPath(x, y, kBox, kBox);
        ++n;
      } else {
        frames += rectPath(x, y, kBox, kBox);
      }
    }
    counts.push_back(fmt::format("{} lane{} {}", n, n == 1 ? "" : "s", name));
  }
  const size_t idle = static_cast<size_t>(std::count(split.lanes.begin(), split.lanes.end(), -1));
  std::string content = path("lo", frames);
  for (int c = 0; c < kPathColours; ++c) content += path(fmt::format("c{}", c), filled[static_cast<size_t>(c)]);
  WarpPicture out;
  out.summary = rows.size() == 1 ? "the whole warp runs one path: "
                                  : fmt::format("{} paths run one after the other: ", rows.size());
  for (size_t i = 0; i < counts.size(); ++i) out.summary += (i ? ", " : "") + counts[i];
  if (idle) out.summary += fmt::format("; {} lane{} not reaching the branch", idle, idle == 1 ? "" : "s");
  out.content = content + rowNames + group("m", centred);
  out.width = width;
  out.height = kTop + static_cast<double>(rows.size()) * kRowH + 4;
  return out;
}

std::optional<WarpPicture> reachPicture(const std::vector<std::string>& reachByWarp) {
  if (reachByWarp.empty()) return std::nullopt;
  const size_t lanes = reachByWarp.front().size();
  constexpr double kTop = 16, kRowH = 20;
  std::string centred, rowNames, reach, none, unknown;
  for (size_t k = 0; k < lanes; ++k)
    if (labelled(k, lanes))
      centred += text(kLeft + static_cast<double>(k) * kLaneStep + kBox / 2, kTop - 4, std::to_string(k));
  size_t rows = 0, threads = 0, reaching = 0, unknowns = 0, splitWarps = 0;
  for (size_t w = 0; w < reachByWarp.size();) {
    size_t end = w + 1;  // identical warps share a row: a block of 1024 threads stays short
    while (end < reachByWarp.size() && reachByWarp[end] == reachByWarp[w]) ++end;
    const std::string& row = reachByWarp[w];
    const double y = kTop + static_cast<double>(rows) * kRowH;
    rowNames += text(2, y + 12, end - w == 1 ? fmt::format("w {}", w) : fmt::format("w {}-{}", w, end - 1));
    for (size_t k = 0; k < row.size(); ++k) {
      const double x = kLeft + static_cast<double>(k) * kLaneStep;
      if (row[k] == '1') reach += rectPath(x, y, kBox, kBox);
      else if (row[k] == '0') none += rectPath(x, y, kBox, kBox);
      else if (row[k] == '?') unknown += rectPath(x, y, kBox, kBox);
    }
    const auto n = [&](char c) { return static_cast<size_t>(std::count(row.begin(), row.end(), c)); };
    const size_t copies = end - w;
    threads += copies * (row.size() - n('-'));
    reaching += copies * n('1');
    unknowns += copies * n('?');
    if (n('1') && (n('0') || n('?'))) splitWarps += copies;
    ++rows;
    w = end;
  }
  WarpPicture out;
  out.summary = fmt::format("{} of the block's {} threads reach the barrier, {} do not", reaching, threads,
                            threads - reaching - unknowns);
  if (unknowns) out.summary += fmt::format(", {} unknown", unknowns);
  out.summary += fmt::format("; {} of {} warps have lanes on both sides", splitWarps, reachByWarp.size());
  out.content = path("lo", none) + path("c0", reach) + path("c4", unknown) + rowNames + group("m", centred);
  out.width = kLeft + static_cast<double>(lanes) * kLaneStep + kRight;
  out.height = kTop + static_cast<double>(rows) * kRowH + 4;
  return out;
}

std::optional<WarpPicture> blockPathsPicture(const std::vector<std::string>& byWarp,
                                             const std::vector<std::string>& values, BranchKind kind) {
  if (byWarp.empty() || values.empty()) return std::nullopt;
  const size_t lanes = byWarp.front().size();
  constexpr double kTop = 16, kRowH = 20;
  // A path's colour: the row it has in branchPicture (a condition's true side first).
  const auto colourOf = [&](size_t value) {
    return kind == BranchKind::Switch ? value % kPathColours : values.size() - 1 - value;
  };
  const auto nameOf = [&](size_t value) {
    return kind == BranchKind::Switch ? "= " + values[value] : values[value] == "0" ? std::string("false") : "true";
  };
  std::string centred, rowNames, unknown;
  std::vector<std::string> filled(kPathColours);
  for (size_t k = 0; k < lanes; ++k)
    if (labelled(k, lanes))
      centred += text(kLeft + static_cast<double>(k) * kLaneStep + kBox / 2, kTop - 4, std::to_string(k));
  std::vector<size_t> perPath(values.size(), 0);
  size_t rows = 0, unknowns = 0, splitWarps = 0;
  for (size_t w = 0; w < byWarp.size();) {
    size_t end = w + 1;  // identical warps share a row, as in reachPicture
    while (end < byWarp.size() && byWarp[end] == byWarp[w]) ++end;
    const std::string& row = byWarp[w];
    const size_t copies = end - w;
    const double y = kTop + static_cast<double>(rows) * kRowH;
    rowNames += text(2, y + 12, copies == 1 ? fmt::format("w {}", w) : fmt::format("w {}-{}", w, end - 1));
    char first = 0;
    bool split = false;
    for (size_t k = 0; k < row.size(); ++k) {
      const double x = kLeft + static_cast<double>(k) * kLaneStep;
      const char lane = row[k];
      if (lane == '?') {
        unknown += rectPath(x, y, kBox, kBox);
        unknowns += copies;
      } else if (lane >= 'a' && static_cast<size_t>(lane - 'a') < values.size()) {
        const auto value = static_cast<size_t>(lane - 'a');
        filled[colourOf(value)] += rectPath(x, y, kBox, kBox);
        perPath[value] += copies;
        if (!first) first = lane;
        else if (lane != first) split = true;
      }
    }
    if (split) splitWarps += copies;
    ++rows;
    w = end;
  }
  WarpPicture out;
  std::vector<std::string> counts;
  for (size_t v = values.size(); v-- > 0;) {
    const size_t value = kind == BranchKind::Switch ? values.size() - 1 - v : v;  // true first; cases in order
    counts.push_back(fmt::format("{} thread{} {}", perPath[value], perPath[value] == 1 ? "" : "s",
                                 nameOf(value)));
  }
  for (size_t i = 0; i < counts.size(); ++i) out.summary += (i ? ", " : "") + counts[i];
  if (unknowns) out.summary += fmt::format(", {} unknown", unknowns);
  out.summary += fmt::format("; {} of {} warps run more than one path", splitWarps, byWarp.size());
  std::string content = path("c4", unknown);
  for (int c = 0; c < kPathColours; ++c) content += path(fmt::format("c{}", c), filled[static_cast<size_t>(c)]);
  out.content = content + rowNames + group("m", centred);
  out.width = kLeft + static_cast<double>(lanes) * kLaneStep + kRight;
  out.height = kTop + static_cast<double>(rows) * kRowH + 4;
  return out;
}

std::string PictureSymbols::svg(const WarpPicture& picture) {
  auto [it, inserted] = ids_.try_emplace(picture.content, ids_.size());
  if (inserted) order_.push_back(&it->first);
  return fmt::format("<svg class=\"w\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
                     "aria-label=\"{2}\"><use href=\"#p{3}\"/></svg>",
                     px(picture.width), px(picture.height), html::escape(picture.summary), it->second);
}

std::string PictureSymbols::symbols() const {
  if (order_.empty()) return "";
  std::string out = "<svg class=\"sym\" aria-hidden=\"true\">";
  for (size_t i = 0; i < order_.size(); ++i) out += fmt::format("<symbol id=\"p{}\">{}</symbol>", i, *order_[i]);
  return out + "</svg>\n";
}

std::optional<WarpPicture> warpPicture(const model::Access& access, const model::Dim3& block,
                                       const model::Arch& arch, int64_t warp) {
  if (access.space == model::Space::Global) {
    if (auto l = globalWarpLayout(access, block, arch, warp)) return globalSvg(*l, arch);
  } else if (access.space == model::Space::Shared) {
    if (auto l = sharedWarpLayout(access, block, arch, warp)) return sharedSvg(*l, arch);
  }
  return std::nullopt;
}

}  // namespace coalesce::html
