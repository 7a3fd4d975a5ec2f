// Diff-aware gating: the unified-diff reader (changed_lines.h).
#include "coalesce/report/changed_lines.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>

namespace coalesce::report {

namespace fs = std::filesystem;

std::string canonicalFilePath(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(fs::path(path), ec).lexically_normal();
  if (ec) return fs::path(path).lexically_normal().string();
  const fs::path canonical = fs::weakly_canonical(absolute, ec);
  return (ec ? absolute : canonical).string();
}

void ChangedLines::add(const std::string& absolutePath, unsigned first, unsigned last) {
  if (last >= first) add(absolutePath, std::vector<std::pair<unsigned, unsigned>>{{first, last}});
}

void ChangedLines::add(const std::string& absolutePath, std::vector<std::pair<unsigned, unsigned>> more) {
  std::erase_if(more, [](const auto& r) { return r.second < r.first; });
  if (more.empty()) return;
  auto& ranges = ranges_[canonicalFilePath(absolutePath)];
  ranges.insert(ranges.end(), more.begin(), more.end());
  // Kept sorted and merged, so contains() is one binary search.
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<unsigned, unsigned>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second + 1ull)
      merged.back().second = std::max(merged.back().second, r.second);
    else
      merged.push_back(r);
  }
  ranges = std::move(merged);
}

bool ChangedLines::contains(const std::string& path, unsigned line) const {
  auto it = ranges_.find(canonicalFilePath(path));
  if (it == ranges_.end()) return false;
  const auto& ranges = it->second;
  auto r = std::upper_bound(ranges.begin(), ranges.end(), std::make_pair(line, ~0u));
  return r != ranges.begin() && std::prev(r)->second >= line;
}

std::vector<std::string> ChangedLines::files() const {
  std::vector<std::string> out;
  for (const auto& [path, ranges] : ranges_) out.push_back(path);
  return out;
}

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// git writes a name with unusual characters as a C string: "b/a\tb.cu".
std::string unquote(std::string_view name) {
  if (name.size() < 2 || name.front() != '"' || name.back() != '"') return std::string(name);
  std::string out;
  for (size_t i = 1; i + 1 < name.size(); ++i) {
    char c = name[i];
    if (c != '\\' || i + 2 >= name.size()) {
      out += c;
      continue;
    }
    c = name[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'r': out += '\r'; break;
      case 'v': out += '\v'; break;
      default:
        if (c >= '0' && c <= '7' && i + 2 < name.size()) {  // \ooo: a byte of a UTF-8 name
          out += static_cast<char>((c - '0') * 64 + (name[i + 1] - '0') * 8 + (name[i + 2] - '0'));
          i += 2;
        } else {
          out += c;
        }
    }
  }
  return out;
}

// The name on a "--- " or "+++ " line.
std::string nameOf(std::string_view line) {
  std::string_view rest = line.substr(4);
  if (!rest.empty() && rest.front() != '"') rest = rest.substr(0, rest.find('\t'));  // diff -u: "name\tdate"
  while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ')) rest.remove_suffix(1);
  return unquote(rest);
}

// "-l,s" or "+l" (s defaults to 1).
std::optional<std::pair<unsigned, unsigned>> range(std::string_view text, char sign) {
  if (text.empty() || text.front() != sign) return std::nullopt;
  text.remove_prefix(1);
  unsigned start = 0, count = 1;
  const size_t comma = text.find(',');
  const std::string_view a = text.substr(0, comma);
  if (std::from_chars(a.data(), a.data() + a.size(), start).ec != std::errc{} || a.empty()) return std::nullopt;
  if (comma != std::string_view::npos) {
    const std::string_view b = text.substr(comma + 1);
    auto [end, ec] = std::from_chars(b.data(), b.data() + b.size(), count);
    if (ec != std::errc{} || end != b.data() + b.size()) return std::nullopt;
  }
  return std::make_pair(start, count);
}

}  // namespace

Result<ChangedLines> parseUnifiedDiff(std::string_view diff, const std::string& root, const std::string& source) {
  // Per file, the runs of added lines in the order met; added to the result once at the end.
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> added;
  std::string oldName, file;  // file: the new side's absolute path; empty for /dev/null
  unsigned lineNo = 0;        // of the diff, for errors
  unsigned newLine = 0, oldLeft = 0, newLeft = 0;
  auto error = [&](const std::string& why) {
    return ReportError{source + ":" + std::to_string(lineNo) + ": not a unified diff: " + why};
  };
  size_t pos = 0;
  while (pos < diff.size()) {
    size_t end = diff.find('\n', pos);
    if (end == std::string_view::npos) end = diff.size();
    std::string_view line = diff.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    if (oldLeft || newLeft) {  // inside a hunk
      const char c = line.empty() ? ' ' : line.front();  // some tools strip a blank context line's space
      if (c == '\\') continue;  // "\ No newline at end of file"
      if (c == '+' && newLeft) {
        if (!file.empty()) {
          auto& runs = added[file];
          if (!runs.empty() && runs.back().second + 1ull == newLine)
            runs.back().second = newLine;
          else
            runs.emplace_back(newLine, newLine);
        }
        ++newLine;
        --newLeft;
      } else if (c == '-' && oldLeft) {
        --oldLeft;
      } else if (c == ' ' && oldLeft && newLeft) {
        ++newLine;
        --oldLeft;
        --newLeft;
      } else {
        return error("the hunk ends before the lines its header counts");
      }
      continue;
    }
    if (startsWith(line, "--- ")) {
      oldName = nameOf(line);
    } else if (startsWith(line, "+++ ")) {
      std::string name = nameOf(line);
      const bool gitPrefixes = startsWith(oldName, "a/") || oldName == "/dev/null";
      if (gitPrefixes && startsWith(name, "b/")) name = name.substr(2);
      if (name == "/dev/null") {
        file.clear();  // a deleted file has no new lines
      } else {
        const fs::path p(name);
        file = (p.is_absolute() ? p : fs::path(root) / p).lexically_normal().string();
      }
    } else if (startsWith(line, "@@ ")) {
      // "@@ -l,s +l,s @@ optional section heading"
      const size_t close = line.find(" @@", 3);
      if (close == std::string_view::npos) return error("a hunk header without its closing @@");
      const std::string_view ranges = line.substr(3, close - 3);
      const size_t space = ranges.find(' ');
      if (space == std::string_view::npos) return error("a hunk header without two ranges");
      const auto o = range(ranges.substr(0, space), '-');
      const auto n = range(ranges.substr(space + 1), '+');
      if (!o || !n) return error("a hunk header whose ranges are not numbers");
      oldLeft = o->second;
      newLeft = n->second;
      newLine = n->first;
    }
    // Anything else between files is git's or diff's own text ("diff --git", "index ...",
    // "new file mode", "Binary files ... differ"): nothing to read.
  }
  if (oldLeft || newLeft) {
    ++lineNo;
    return error("the diff ends inside a hunk");
  }
  ChangedLines out;
  for (auto& [path, runs] : added) out.add(path, std::move(runs));
  return out;
}

}  // namespace coalesce::report
