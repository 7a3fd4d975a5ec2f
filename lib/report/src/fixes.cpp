#include "coalesce/report/fixes.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

namespace coalesce::report {

namespace {

bool overlaps(const TextEdit& a, const TextEdit& b) {
  // Two insertions at one place overlap: their order would be a guess.
  if (a.offset == b.offset) return true;
  return a.offset < b.offset + b.length && b.offset < a.offset + a.length;
}

// A YAML double-quoted scalar: every string clang-apply-replacements reads back exactly.
std::string yamlQuoted(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02X}", c);
        else out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// clang-tidy writes absolute paths, and clang-apply-replacements opens them from wherever it runs.
std::string absolutePath(const std::string& path) {
  if (path.empty()) return path;
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

std::string_view levelName(Severity s) {
  switch (s) {
    case Severity::Note: return "Remark";
    case Severity::Warning: return "Warning";
    case Severity::Error: return "Error";
  }
  return "Warning";
}

}  // namespace

EditedText applyEdits(std::string_view text, const std::vector<TextEdit>& edits) {
  EditedText out;
  for (const TextEdit& e : edits) {
    if (std::find(out.applied.begin(), out.applied.end(), e) != out.applied.end()) continue;  // the same edit twice
    const bool clash = e.offset + e.length > text.size() ||
                       std::any_of(out.applied.begin(), out.applied.end(), [&](const TextEdit& a) { return overlaps(a, e); });
    (clash ? out.conflicts : out.applied).push_back(e);
  }
  std::sort(out.applied.begin(), out.applied.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.offset < b.offset; });
  size_t at = 0;
  for (const TextEdit& e : out.applied) {
    out.text.append(text.substr(at, e.offset - at));
    out.text += e.replacement;
    at = e.offset + e.length;
  }
  out.text.append(text.substr(std::min(at, text.size())));
  return out;
}

SourceLocation locationOfOffset(std::string_view text, size_t offset) {
  SourceLocation loc;
  loc.line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') {
      ++loc.line;
      lineStart = i + 1;
    }
  loc.column = static_cast<unsigned>(offset - lineStart + 1);
  return loc;
}

size_t offsetOfLocation(std::string_view text, unsigned line, unsigned column) {
  size_t at = 0;
  for (unsigned l = 1; l < line; ++l) {
    const size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) return std::string_view::npos;
    at = nl + 1;
  }
  const size_t offset = at + (column > 0 ? column - 1 : 0);
  return offset <= text.size() ? offset : std::string_view::npos;
}

SourceLocation mapThroughEdits(const SourceLocation& at, std::string_view original, const std::vector<TextEdit>& applied) {
  const size_t offset = offsetOfLocation(original, at.line, at.column);
  if (offset == std::string_view::npos) return at;
  int64_t moved = static_cast<int64_t>(offset);
  int64_t shift = 0;  // what the edits before the current one added
  for (const TextEdit& e : applied) {
    if (e.offset + e.length <= offset) {  // before the position (an insertion at it included)
      shift += static_cast<int64_t>(e.replacement.size()) - static_cast<int64_t>(e.length);
    } else {
      if (e.offset < offset) moved = static_cast<int64_t>(e.offset);  // inside the replaced range: its start
      break;
    }
  }
  const EditedText edited = applyEdits(original, applied);
  SourceLocation out = locationOfOffset(edited.text, static_cast<size_t>(std::max<int64_t>(moved + shift, 0)));
  out.file = at.file;
  return out;
}

void writeFixesYaml(std::ostream& out, const std::string& mainSourceFile, const std::vector<Finding>& findings,
                    const SourceReader& readSource) {
  out << "---\n";
  out << "MainSourceFile:  " << yamlQuoted(absolutePath(mainSourceFile)) << "\n";
  std::vector<const Finding*> fixed;
  for (const Finding& f : findings)
    if (f.sourceFix && f.sourceFix->check == SourceFix::Check::Offered && !f.sourceFix->edits.empty())
      fixed.push_back(&f);
  if (fixed.empty()) {
    out << "Diagnostics:     []\n...\n";
    return;
  }
  out << "Diagnostics:\n";
  for (const Finding* f : fixed) {
    size_t offset = f->sourceFix->edits.front().offset;
    if (readSource)
      if (const std::optional<std::string> text = readSource(f->loc.file))
        if (const size_t at = offsetOfLocation(*text, f->loc.line, f->loc.column); at != std::string_view::npos) offset = at;
    out << "  - DiagnosticName:  " << yamlQuoted(f->rule) << "\n";
    out << "    DiagnosticMessage:\n";
    out << "      Message:         " << yamlQuoted(f->message) << "\n";
    out << "      FilePath:        " << yamlQuoted(absolutePath(f->loc.file)) << "\n";
    // The finding's own byte offset, as clang-tidy's; its first edit's when the file cannot be read.
    out << "      FileOffset:      " << offset << "\n";
    out << "      Replacements:\n";
    for (const TextEdit& e : f->sourceFix->edits) {
      out << "        - FilePath:        " << yamlQuoted(absolutePath(e.file)) << "\n";
      out << "          Offset:          " << e.offset << "\n";
      out << "          Length:          " << e.length << "\n";
      out << "          ReplacementText: " << yamlQuoted(e.replacement) << "\n";
    }
    out << "    Level:           " << levelName(f->severity) << "\n";
    std::error_code ec;
    out << "    BuildDirectory:  " << yamlQuoted(std::filesystem::current_path(ec).string()) << "\n";
  }
  out << "...\n";
}

}  // namespace coalesce::report
