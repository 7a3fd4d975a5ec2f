#include "coalesce/report/text_writer.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "coalesce/report/summary.h"

namespace coalesce::report {

namespace {

std::string position(const SourceLocation& loc) {
  if (loc.line == 0) return loc.file;
  if (loc.column == 0) return fmt::format("{}:{}", loc.file, loc.line);
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

// The caret keeps the line's tabs so that it lands under the column in any tab width.
std::string caretLine(std::string_view line, unsigned column) {
  std::string caret;
  for (unsigned i = 0; i + 1 < column && i < line.size(); ++i) caret += line[i] == '\t' ? '\t' : ' ';
  return caret + "^";
}

// Costliest first, either within each file (files in the report's order) or over the run;
// findings without a cost keep their source order after those that have one.
std::vector<const Finding*> inOrder(const std::vector<Finding>& findings, bool wholeRun) {
  std::vector<std::string> files;
  for (const Finding& f : findings)
    if (std::find(files.begin(), files.end(), f.loc.file) == files.end()) files.push_back(f.loc.file);
  auto fileIndex = [&](const Finding* f) {
    return wholeRun ? 0 : std::find(files.begin(), files.end(), f->loc.file) - files.begin();
  };
  std::vector<const Finding*> out;
  for (const Finding& f : findings) out.push_back(&f);
  std::stable_sort(out.begin(), out.end(), [&](const Finding* a, const Finding* b) {
    if (fileIndex(a) != fileIndex(b)) return fileIndex(a) < fileIndex(b);
    if (a->hasCost() != b->hasCost()) return a->hasCost();
    return a->costTimePerRun.value_or(0) > b->costTimePerRun.value_or(0);
  });
  return out;
}

}  // namespace

void writeText(std::ostream& out, const Report& report, const TextOptions& options) {
  for (const FileRecord& file : report.analysis->files) {
    if (file.status != Status::Failed) continue;
    out << fmt::format("{}: error: cannot analyse this file: {}\n", file.path, file.error);
    for (const std::string& d : file.diagnostics) out << "  note: " << d << "\n";
  }
  for (const Finding* fp : inOrder(report.findings, options.sortByCost)) {
    const Finding& f = *fp;
    out << fmt::format("{}: {}: {} [{}]\n", position(f.loc), toString(f.severity), f.message, f.rule);
    if (options.showSource && !f.lineText.empty() && f.loc.column > 0)
      out << f.lineText << "\n" << caretLine(f.lineText, f.loc.column) << "\n";
    for (const std::string& note : f.notes) out << "  note: " << note << "\n";
    // Which kernel: a merged finding's note names every kernel it covers already.
    if (!f.kernel.empty() && f.instantiations.empty()) out << "  note: in kernel '" << f.kernel << "'\n";
  }
  if (options.showSummary) out << summaryLine(report) << "\n";
}

}  // namespace coalesce::report
