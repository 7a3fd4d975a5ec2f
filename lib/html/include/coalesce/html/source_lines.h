// Which lines of a file a source view shows, shared by the lint report's views
// (lib/report/src/html_source_view.cpp) and the verify report's (lib/verify/src/report_html.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce::html {

// A file up to this many lines is shown whole; a longer one shows kContextLines around each
// annotated line (an access, a finding, a compared line), so that a tree of large files
// keeps a page of reasonable size (docs/html-report.md gives the figures).
inline constexpr size_t kWholeFileLines = 1500;
inline constexpr unsigned kContextLines = 20;

// The lines of `text`, without their "\n" or "\r\n".
std::vector<std::string_view> splitLines(std::string_view text);

// Line numbers to show, increasing: every line of a file of `lineCount` lines when it is
// short, else windows around the annotated lines; annotated lines the text does not reach
// (or every annotated line when there is no text: lineCount nullopt) are shown too.
std::vector<unsigned> linesToShow(std::optional<size_t> lineCount, const std::set<unsigned>& annotated);

// The row standing for `count` lines left out of a three-column source table.
std::string gapRow(size_t count);

}  // namespace coalesce::html
