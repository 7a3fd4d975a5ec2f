#include "fix_apply.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "coalesce/report/fixes.h"

namespace coalesce::cli {

using report::SourceFix;

FixApplyOutcome applyFixesInPlace(const std::vector<report::Finding>& findings) {
  FixApplyOutcome out;
  std::map<std::string, std::vector<TextEdit>> byFile;  // in findings' order: the first of two overlapping wins
  for (const report::Finding& f : findings)
    if (f.sourceFix && f.sourceFix->check == SourceFix::Check::Offered)
      for (const TextEdit& e : f.sourceFix->edits) byFile[e.file].push_back(e);
  const report::SourceReader read = report::diskSourceReader();
  for (const auto& [file, edits] : byFile) {
    const std::optional<std::string> text = read(file);
    if (!text) {
      out.errors.push_back(fmt::format("{}: cannot read the file to fix it", file));
      continue;
    }
    const report::EditedText edited = report::applyEdits(*text, edits);
    out.conflicts += edited.conflicts.size();
    if (edited.applied.empty()) continue;
    std::ofstream file_(file, std::ios::binary | std::ios::in | std::ios::out);  // in place: not created, kept as it is if not writable
    if (!file_) {
      out.errors.push_back(fmt::format("{}: cannot write the fixes: {}", file, std::strerror(errno)));
      continue;
    }
    file_.close();
    std::ofstream write(file, std::ios::binary | std::ios::trunc);
    if (!(write << edited.text) || !(write.flush())) {
      out.errors.push_back(fmt::format("{}: writing the fixes failed: {}", file, std::strerror(errno)));
      continue;
    }
    out.edits += edited.applied.size();
    ++out.files;
  }
  return out;
}

std::string exportFixes(const std::string& path, const std::string& mainSourceFile,
                        const std::vector<report::Finding>& findings) {
  std::ostringstream yaml;
  report::writeFixesYaml(yaml, mainSourceFile, findings, report::diskSourceReader());
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return fmt::format("{}: cannot write the fixes: {}", path, std::strerror(errno));
  if (!(file << yaml.str()) || !file.flush()) return fmt::format("{}: writing the fixes failed", path);
  return {};
}

}  // namespace coalesce::cli
