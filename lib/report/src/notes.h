// The parts every access finding shares, in the seeds' three steps: what the figures
// assume, what the access costs (Q_real = Q_useful / eta), and the gain of a fix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "coalesce/model/access_model.h"
#include "coalesce/records/records.h"

namespace coalesce::report::detail {

// Block shape and its source, the site's own assumptions, and the best..worst range
// when the base alignment is unknown.
std::vector<std::string> assumptionNotes(const AccessSite& site, const model::Arch& arch);

// "load of 'a[2 * i]' uses 8 sectors per request (ideal 4): eta = 50%; <cause>"
std::string globalMessage(const AccessSite& site, const model::GlobalFigures& f, std::string_view cause);
// "load of 's[32 * t]' needs 32 wavefronts per request (ideal 1): 32-way bank conflict; <cause>"
std::string sharedMessage(const AccessSite& site, const model::SharedFigures& f, std::string_view cause);

// "traffic: Q_real = Q_useful / eta = 128 B / 50% = 256 B per warp request, 2x what the warp uses"
std::string trafficNote(const model::GlobalFigures& f, const model::Arch& arch);
// "cost: 32 wavefronts per request instead of 1: the access takes 32x the shared-memory time"
std::string sharedCostNote(const model::SharedFigures& f);

// "8 -> 4 sectors per request (2x less traffic)"
std::string sectorGain(const model::GlobalFigures& from, const model::GlobalFigures& to);
// "fix: <advice>: 8 -> 4 sectors per request (2x less traffic)" when the re-evaluated access
// `to` is better than `from`; otherwise the advice is not offered as a fix: "no fix checked:
// <advice> would keep 8 sectors per request". A message never promises a 1x gain.
std::string checkedFix(const std::string& advice, const model::GlobalFigures& from, const model::GlobalFigures& to);
std::string checkedFix(const std::string& advice, const model::SharedFigures& from, const model::SharedFigures& to);
// "32 -> 1 wavefronts per request (32x faster)"
std::string wavefrontGain(const model::SharedFigures& from, const model::SharedFigures& to);

}  // namespace coalesce::report::detail
