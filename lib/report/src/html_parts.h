// The pieces of the HTML page (html_writer.cpp assembles them): what they share, and one
// function per part.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "coalesce/html/warp_svg.h"
#include "coalesce/model/arch.h"
#include "coalesce/report/finding_cost.h"
#include "coalesce/report/html_writer.h"

namespace coalesce::report::detail {

struct HtmlContext {
  const Report& report;
  const AnalysisResult& analysis;
  const model::Arch& arch;
  const HtmlOptions& options;
  bool openPictures = true;
  std::vector<FindingCost> costs;       // per finding, in report.findings order
  std::map<std::string, size_t> viewOf;  // path -> number of its source view (anchor "s<N>")
  html::PictureSymbols* pictures = nullptr;   // every warp picture of the page, each drawn once
};

// Anchors are numbers the writer makes up, never text from a source or a path.
std::string findingAnchor(size_t finding);  // "f12"
std::string viewAnchor(size_t view);        // "s3"

// "3.5" or "" for a finding without a figure; the index and the boxes say it the same way.
std::string costText(const FindingCost& cost);
// The colour class (lib/html page.h, wasteOf) of an access: by sectors / ideal or the
// conflict degree; "wu" for a range (loaded indices), "wn" when it runs nowhere, "" when the
// access has no figure to colour (constant, local memory).
std::string_view wasteClass(const AccessSite& site);
// The finding's access, when it is about one.
const AccessSite* accessOf(const HtmlContext& ctx, const Finding& finding);

std::string summarySection(const HtmlContext& ctx);
std::string findingsIndex(const HtmlContext& ctx);
std::string filesTable(const HtmlContext& ctx);
// One file's source view with its accesses and findings; `path` as the records give it.
std::string sourceView(const HtmlContext& ctx, const std::string& path, size_t view);
// One finding as shown inline: message, notes, warp pictures as written and after the fix.
std::string findingBox(const HtmlContext& ctx, size_t finding);

}  // namespace coalesce::report::detail
