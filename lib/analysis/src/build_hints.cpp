#include "build_hints.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <set>
#include <string_view>

#include "command_line_text.h"

namespace coalesce::analysis {

// Names the errors say are undeclared (`use of undeclared identifier 'BLOCK_SIZE'`, `unknown
// type name 'dfloat'`), in order, once each: real code often leaves them to the build's -D flags.
std::vector<std::string> undeclaredNames(const std::vector<TranslationUnitOptions::ErrorSpot>& errors) {
  std::vector<std::string> names;
  for (const auto& e : errors)
    for (const char* prefix : {"use of undeclared identifier '", "unknown type name '"})
      if (e.message.rfind(prefix, 0) == 0) {
        const size_t from = std::strlen(prefix);
        const size_t to = e.message.find('\'', from);
        const std::string name = e.message.substr(from, to == std::string::npos ? std::string::npos : to - from);
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      }
  return names;
}

// "; if the build defines 'dfloat' and 'BLOCK_SIZE', pass them after -- (coalesce-lint FILE -- -DBLOCK_SIZE=...)"
std::string buildDefinesHint(const std::vector<std::string>& names) {
  if (names.empty()) return {};
  std::string list;
  const size_t shown = std::min<size_t>(names.size(), 3);
  for (size_t i = 0; i < shown; ++i)
    list += (i == 0 ? "" : i + 1 == shown ? " and " : ", ") + ("'" + names[i] + "'");
  if (names.size() > shown) list += " (and " + std::to_string(names.size() - shown) + " more)";
  return "; if the build defines " + list + ", pass " + (names.size() > 1 ? "them" : "it") +
         " after -- (coalesce-lint FILE -- -D" + names.back() + "=...)";
}

namespace {

namespace fs = std::filesystem;

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `text` holds `word` with no identifier character on either side.
bool holdsWord(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool before = at > 0 && isWordChar(text[at - 1]);
    const bool after = at + word.size() < text.size() && isWordChar(text[at + word.size()]);
    if (!before && !after) return true;
  }
  return false;
}

std::string trimmed(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// The macro of `#ifdef M`, `#if defined(M)` or `#if defined M` (nothing else in the
// condition); empty for any other conditional.
std::string soleDefinedMacro(const std::string& directive, const std::string& rest) {
  if (directive == "ifdef") {
    const std::string m = trimmed(rest);
    return m.substr(0, m.find_first_of(" \t/"));
  }
  if (directive != "if") return {};
  std::string c = trimmed(rest.substr(0, rest.find("//")));
  if (c.rfind("defined", 0) != 0) return {};
  c = trimmed(c.substr(7));
  if (!c.empty() && c.front() == '(' && c.back() == ')') c = trimmed(c.substr(1, c.size() - 2));
  for (char ch : c)
    if (!isWordChar(ch)) return {};
  return c;
}

struct SkippableInclude {
  std::string header;
  bool angled = false;
  unsigned line = 0;
  std::string macro;
};

// The #include directives of `text` whose innermost enclosing conditional is `#ifdef M` (its
// first arm): line-based, as command_line.cpp's includeDirectives reads directives.
std::vector<SkippableInclude> includesUnderIfdef(const std::string& text) {
  std::vector<SkippableInclude> out;
  std::vector<std::string> open;  // the macro of each open conditional ("" when not one `defined`)
  size_t pos = 0;
  unsigned line = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    ++line;
    std::string_view l(text.data() + pos, end - pos);
    pos = end + 1;
    const size_t hash = l.find_first_not_of(" \t");
    if (hash == std::string_view::npos || l[hash] != '#') continue;
    size_t i = l.find_first_not_of(" \t", hash + 1);
    if (i == std::string_view::npos) continue;
    size_t j = i;
    while (j < l.size() && isWordChar(l[j])) ++j;
    const std::string directive(l.substr(i, j - i));
    const std::string rest(l.substr(j));
    if (directive == "if" || directive == "ifdef" || directive == "ifndef") {
      open.push_back(soleDefinedMacro(directive, rest));
    } else if (directive == "elif" || directive == "else" || directive == "elifdef" || directive == "elifndef") {
      if (!open.empty()) open.back().clear();
    } else if (directive == "endif") {
      if (!open.empty()) open.pop_back();
    } else if (directive == "include" && !open.empty() && !open.back().empty()) {
      if (auto name = cmdline::includedName(rest)) out.push_back({name->first, name->second, line, open.back()});
    }
  }
  return out;
}

}  // namespace

std::optional<GuardedInclude> guardedIncludeOf(const std::vector<std::string>& names,
                                               const std::vector<std::string>& filesRead,
                                               const std::vector<std::string>& includeDirs) {
  if (names.empty()) return std::nullopt;
  constexpr std::uintmax_t kMaxBytes = 4u << 20;
  const auto normal = [](const fs::path& p) {
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(p, ec);
    return (ec ? p : c).lexically_normal().string();
  };
  std::set<std::string> read;
  for (const std::string& f : filesRead) read.insert(normal(f));
  for (const std::string& file : filesRead) {
    // The project's own files: a system or toolkit header's optional includes (libstdc++'s
    // `#ifdef _GLIBCXX_PARALLEL`) are not what a project's build flag chooses.
    if (file.rfind("/usr/", 0) == 0 || file.find("/include/c++/") != std::string::npos ||
        file.find("/__coalesce_builtin__/") != std::string::npos)
      continue;
    std::error_code ec;
    if (fs::file_size(file, ec) > kMaxBytes || ec) continue;
    const auto text = cmdline::readText(file);
    if (!text || text->find("include") == std::string::npos) continue;
    for (const SkippableInclude& inc : includesUnderIfdef(*text)) {
      std::vector<fs::path> candidates;
      if (!inc.angled) candidates.push_back(fs::path(file).parent_path() / inc.header);
      for (const std::string& d : includeDirs) candidates.push_back(fs::path(d) / inc.header);
      for (const fs::path& c : candidates) {
        std::error_code cec;
        if (!fs::is_regular_file(c, cec) || fs::file_size(c, cec) > kMaxBytes) continue;
        if (read.count(normal(c))) break;  // the parse took that include: not what failed
        const auto header = cmdline::readText(c.string());
        if (!header) break;
        for (const std::string& name : names)
          if (holdsWord(*header, name))
            return GuardedInclude{name, inc.angled ? "<" + inc.header + ">" : "\"" + inc.header + "\"", file,
                                  inc.line, inc.macro};
        break;
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> headerSearchDirs(const std::vector<std::string>& arguments, const std::string& directory) {
  std::vector<std::string> dirs = cmdline::folderOptions(arguments, directory, {"-isystem", "-iquote", "-idirafter", "-I"});
  for (const std::string& a : arguments)
    if (cmdline::startsWith(a, "--cuda-path=")) dirs.push_back(cmdline::absoluteIn(directory, a.substr(12)) + "/include");
  return dirs;
}

std::string undeclaredNamesHint(const std::vector<std::string>& names, const std::vector<std::string>& filesRead,
                                const std::vector<std::string>& includeDirs) {
  const auto guarded = guardedIncludeOf(names, filesRead, includeDirs);
  if (!guarded) return buildDefinesHint(names);
  return "; '" + guarded->name + "' is declared in " + guarded->header + ", which " +
         fs::path(guarded->includer).filename().string() + ":" + std::to_string(guarded->line) +
         " includes only when `" + guarded->macro + "` is defined: if the build defines it, pass it after -- " +
         "(coalesce-lint FILE -- -D" + guarded->macro + ")";
}

}  // namespace coalesce::analysis
