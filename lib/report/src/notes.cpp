#include "notes.h"

#include <fmt/format.h>

#include "coalesce/model/traffic.h"
#include "format.h"

namespace coalesce::report::detail {

namespace {

std::string blockNote(const BlockShape& block) {
  std::string from(toString(block.source));
  if (!block.detail.empty()) from += ": " + block.detail;
  return fmt::format("figures assume block {} ({})", dims(block.dim), from);
}

}  // namespace

std::vector<std::string> assumptionNotes(const AccessSite& site, const model::Arch& arch) {
  std::vector<std::string> notes{blockNote(site.block)};
  notes.insert(notes.end(), site.assumptions.begin(), site.assumptions.end());
  const auto& g = site.figures.global;
  if (g && !g->alignmentKnown && g->best.sectorsPerRequest != g->worst.sectorsPerRequest)
    notes.push_back(fmt::format(
        "the base alignment is not known: these figures assume a multiple of {} bytes; other offsets give "
        "{} to {} sectors per request",
        arch.sectorBytes, number(g->best.sectorsPerRequest), number(g->worst.sectorsPerRequest)));
  const auto& s = site.figures.shared;
  if (s && !s->alignmentKnown && s->best.wavefronts != s->worst.wavefronts)
    notes.push_back(fmt::format(
        "the base alignment is not known: these figures assume a multiple of {} bytes; other offsets give "
        "{} to {} wavefronts per request",
        arch.sharedWavefrontBytes(), number(s->best.wavefronts), number(s->worst.wavefronts)));
  return notes;
}

std::string globalMessage(const AccessSite& site, const model::GlobalFigures& f, std::string_view cause) {
  return fmt::format("{} uses {} sectors per request (ideal {}): eta = {}; {}", accessPhrase(site),
                     number(f.sectorsPerRequest), number(f.idealSectors), percent(f.efficiency), cause);
}

std::string sharedMessage(const AccessSite& site, const model::SharedFigures& f, std::string_view cause) {
  return fmt::format("{} needs {} wavefronts per request (ideal {}): {}-way bank conflict; {}", accessPhrase(site),
                     number(f.wavefronts), number(f.idealWavefronts), number(f.conflictDegree), cause);
}

std::string trafficNote(const model::GlobalFigures& f, const model::Arch& arch) {
  const model::Traffic t = model::globalTraffic(f, 1.0, arch);
  return fmt::format("traffic: Q_real = Q_useful / eta = {} B / {} = {} B per warp request, {}x what the warp uses",
                     number(t.usefulBytes), percent(f.efficiency), number(t.transferredBytes), number(t.ratio()));
}

std::string sharedCostNote(const model::SharedFigures& f) {
  return fmt::format("time: {} wavefronts per request instead of {}: the access takes {}x the shared-memory time",
                     number(f.wavefronts), number(f.idealWavefronts), number(f.conflictDegree));
}

std::string sectorGain(const model::GlobalFigures& from, const model::GlobalFigures& to) {
  const double ratio = to.sectorsPerRequest > 0 ? from.sectorsPerRequest / to.sectorsPerRequest : 1.0;
  return fmt::format("{} -> {} ({}x less traffic)", number(from.sectorsPerRequest),
                     perRequest(to.sectorsPerRequest, "sector"), number(ratio));
}

std::string checkedFix(const std::string& advice, const model::GlobalFigures& from, const model::GlobalFigures& to) {
  // A re-evaluation with no request left (its guards idle every lane) checked nothing.
  if (to.sectorsPerRequest > 0 && to.sectorsPerRequest < from.sectorsPerRequest - 1e-9) return "fix: " + advice + ": " + sectorGain(from, to);
  return fmt::format("no fix checked: {} would keep {} sectors per request", advice, number(from.sectorsPerRequest));
}

std::string checkedFix(const std::string& advice, const model::SharedFigures& from, const model::SharedFigures& to) {
  if (to.wavefronts > 0 && to.wavefronts < from.wavefronts - 1e-9) return "fix: " + advice + ": " + wavefrontGain(from, to);
  return fmt::format("no fix checked: {} would keep {} wavefronts per request (see --explain for the lanes "
                     "that share a bank)",
                     advice, number(from.wavefronts));
}

std::string wavefrontGain(const model::SharedFigures& from, const model::SharedFigures& to) {
  const double ratio = to.wavefronts > 0 ? from.wavefronts / to.wavefronts : 1.0;
  return fmt::format("{} -> {} ({}x faster)", number(from.wavefronts), perRequest(to.wavefronts, "wavefront"),
                     number(ratio));
}

}  // namespace coalesce::report::detail
