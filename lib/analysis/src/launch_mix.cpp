#include "launch_mix.h"

#include <algorithm>

namespace coalesce::analysis {

namespace {

model::GlobalFigures mixOf(const std::vector<std::pair<const model::GlobalFigures*, double>>& parts) {
  model::GlobalFigures m = *parts.front().first;
  double w = 0, sectors = 0, ideal = 0;
  for (const auto& [f, weight] : parts) {
    w += weight;
    sectors += weight * f->sectorsPerRequest;
    ideal += weight * f->idealSectors;
    m.minSectors = std::min(m.minSectors, f->minSectors);
    m.maxSectors = std::max(m.maxSectors, f->maxSectors);
    m.broadcast = m.broadcast && f->broadcast;
  }
  m.sectorsPerRequest = sectors / w;
  m.idealSectors = ideal / w;
  m.efficiency = sectors > 0 ? ideal / sectors : 1;
  return m;
}

model::SharedFigures mixOf(const std::vector<std::pair<const model::SharedFigures*, double>>& parts) {
  model::SharedFigures m = *parts.front().first;
  double w = 0, wavefronts = 0, ideal = 0;
  for (const auto& [f, weight] : parts) {
    w += weight;
    wavefronts += weight * f->wavefronts;
    ideal += weight * f->idealWavefronts;
    m.maxWavefronts = std::max(m.maxWavefronts, f->maxWavefronts);
    m.maxWaysInPhase = std::max(m.maxWaysInPhase, f->maxWaysInPhase);
  }
  m.wavefronts = wavefronts / w;
  m.idealWavefronts = ideal / w;
  m.conflictDegree = ideal > 0 ? wavefronts / ideal : 1;
  return m;
}

// The mix of one space's figures (`member`: AccessFigures::global or ::shared), each
// alignment case apart; unset when no weighted part has them.
template <class Figures>
std::optional<model::AlignmentCases<Figures>> mixSpace(
    const std::vector<WeightedFigures>& all,
    std::optional<model::AlignmentCases<Figures>> model::AccessFigures::*member) {
  std::vector<std::pair<const model::AlignmentCases<Figures>*, double>> parts;
  for (const WeightedFigures& w : all)
    if (w.weight > 0 && (w.figures.*member)) parts.emplace_back(&*(w.figures.*member), w.weight);
  if (parts.empty()) return std::nullopt;
  model::AlignmentCases<Figures> out = *parts.front().first;
  for (Figures model::AlignmentCases<Figures>::*alignment :
       {&model::AlignmentCases<Figures>::aligned, &model::AlignmentCases<Figures>::best,
        &model::AlignmentCases<Figures>::worst}) {
    std::vector<std::pair<const Figures*, double>> cases;
    for (const auto& [c, weight] : parts) cases.emplace_back(&(c->*alignment), weight);
    out.*alignment = mixOf(cases);
  }
  for (const auto& [c, weight] : parts) out.alignmentKnown = out.alignmentKnown && c->alignmentKnown;
  return out;
}

}  // namespace

model::AccessFigures mixedFigures(const std::vector<WeightedFigures>& all) {
  const auto weighted = std::find_if(all.begin(), all.end(), [](const WeightedFigures& w) { return w.weight > 0; });
  if (weighted == all.end()) return all.front().figures;
  model::AccessFigures out = weighted->figures;
  if (out.global) out.global = mixSpace(all, &model::AccessFigures::global);
  if (out.shared) out.shared = mixSpace(all, &model::AccessFigures::shared);
  return out;
}

}  // namespace coalesce::analysis
