#include "coalesce/html/source_lines.h"

#include <algorithm>

#include <fmt/format.h>

namespace coalesce::html {

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<unsigned> linesToShow(std::optional<size_t> lineCount, const std::set<unsigned>& annotated) {
  std::set<unsigned> keep;
  if (lineCount && *lineCount <= kWholeFileLines) {
    for (unsigned n = 1; n <= *lineCount; ++n) keep.insert(n);
  } else if (lineCount) {
    for (unsigned line : annotated)
      for (unsigned n = line > kContextLines ? line - kContextLines : 1;
           n <= std::min<size_t>(*lineCount, size_t{line} + kContextLines); ++n)
        keep.insert(n);
  }
  for (unsigned line : annotated)
    if (line > 0 && (!lineCount || line > *lineCount)) keep.insert(line);
  return {keep.begin(), keep.end()};
}

std::string gapRow(size_t count) {
  return fmt::format("<tr class=\"gap\"><td class=\"n\">&hellip;</td><td></td><td>{} line{} not shown</td></tr>", count,
                     count == 1 ? "" : "s");
}

}  // namespace coalesce::html
