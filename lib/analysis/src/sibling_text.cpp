// SiblingTexts (sibling_text.h): a folder's source files and what their texts define.
#include "sibling_text.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

#include "analysis_policy.h"

namespace coalesce::analysis {

namespace fs = std::filesystem;

namespace {

bool isSource(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".c" || ext == ".cc" || ext == ".cpp" || ext == ".cxx" || ext == ".cu";
}

std::string readText(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool identifierByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The next place at or after `from` where `name` stands as a whole identifier, or npos.
size_t nextIdentifier(const std::string& text, const std::string& name, size_t from) {
  for (size_t at = text.find(name, from); at != std::string::npos; at = text.find(name, at + 1))
    if (!(at > 0 && identifierByte(text[at - 1])) &&
        !(at + name.size() < text.size() && identifierByte(text[at + name.size()])))
      return at;
  return std::string::npos;
}

// The `)` that closes the `(` at `open` (nested ones balanced), or text.size() if none does.
size_t closingParen(const std::string& text, size_t open) {
  int depth = 0;
  size_t close = open;
  for (; close < text.size(); ++close) {
    if (text[close] == '(') ++depth;
    if (text[close] == ')' && --depth == 0) break;
  }
  return close;
}

}  // namespace

// The names of a text's `#include "name"` lines (not `<name>`), as written.
std::vector<std::string> quotedIncludes(const std::string& text) {
  static const std::regex include(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)")re");
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find("include") != std::string::npos) {
      std::smatch m;
      if (std::regex_search(line, m, include)) out.push_back(m[1].str());
    }
  return out;
}

// Whether a file's text defines `main` (`int main(int argc, char** argv)`, `int main(void) {`,
// a K&R `main(argc, argv)`): read as text, so that a folder of programs costs no parse.
bool textDefinesMain(const std::string& text) {
  // `main(...)` then `{` or the line's end (a prototype or a call has `;` after its `)`), or
  // a parameter list that goes on on the next line.
  static const std::regex mainDefinition(R"((^|[\s*])main\s*\(([^)]*\)\s*(\{.*)?|[^;)]*)$)");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find("main") != std::string::npos && std::regex_search(line, mainDefinition)) return true;
  return false;
}

// Whether `text` defines a function called `name`, read as text: `name (` preceded on its line
// by a return type (words, `*`, `&`, `::`, `<...>`; not a statement keyword, an assignment or
// an argument list) and whose parameter list is followed by `{` before any `;`. A call, a
// prototype and `return name(...)` are not definitions.
bool textDefinesFunction(const std::string& text, const std::string& name) {
  for (size_t at = nextIdentifier(text, name, 0); at != std::string::npos; at = nextIdentifier(text, name, at + 1)) {
    size_t open = at + name.size();
    while (open < text.size() && (text[open] == ' ' || text[open] == '\t')) ++open;
    if (open >= text.size() || text[open] != '(') continue;
    const size_t lineStart = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    std::string before = text.substr(lineStart, at - lineStart);
    while (!before.empty() && std::isspace(static_cast<unsigned char>(before.back()))) before.pop_back();
    if (before.empty() || before.find_first_of("=(,;.{}\"#") != std::string::npos || before.find("->") != std::string::npos)
      continue;
    const char last = before.back();
    if (!identifierByte(last) && last != '*' && last != '&' && last != '>' && last != ':') continue;
    size_t first = before.find_first_not_of(" \t");
    const std::string firstWord = before.substr(first, before.find_first_of(" \t*&", first) - first);
    static const std::set<std::string> kStatements{"return", "else", "case", "do", "throw", "new", "delete", "co_return", "goto"};
    if (kStatements.count(firstWord)) continue;
    const size_t close = closingParen(text, open);
    const size_t next = text.find_first_of("{;", close);
    if (close < text.size() && next != std::string::npos && text[next] == '{') return true;
  }
  return false;
}

// Whether `text` names `name` followed by `(` (a call, or a prototype: what a file that calls a
// function declares) without defining it.
bool textCallsFunction(const std::string& text, const std::string& name) {
  for (size_t at = nextIdentifier(text, name, 0); at != std::string::npos; at = nextIdentifier(text, name, at + 1)) {
    size_t open = at + name.size();
    while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
    if (open < text.size() && text[open] == '(') return !textDefinesFunction(text, name);
  }
  return false;
}

// Whether `text` launches a kernel called `name`, read as text: `name <<<` or `name<T, 4> <<<`
// (a template's arguments, balanced, then the launch's chevrons).
bool textLaunchesKernel(const std::string& text, const std::string& name) {
  for (size_t at = nextIdentifier(text, name, 0); at != std::string::npos; at = nextIdentifier(text, name, at + 1)) {
    size_t i = at + name.size();
    auto skipSpaces = [&] {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    };
    skipSpaces();
    if (text.compare(i, 3, "<<<") == 0) return true;
    if (i >= text.size() || text[i] != '<') continue;
    int depth = 0;
    for (; i < text.size() && i - at < 512; ++i) {
      if (text[i] == '<') ++depth;
      if (text[i] == '>' && --depth == 0) break;
      if (text[i] == ';' || text[i] == '{') break;
    }
    if (depth != 0 || i >= text.size()) continue;
    ++i;
    skipSpaces();
    if (text.compare(i, 3, "<<<") == 0) return true;
  }
  return false;
}

// The kernels `text` defines, read as text: the name before the `(` that follows each
// `__global__`, templates' too (the parse's SiblingCheck::linked leaves those out).
std::vector<std::string> textKernelNames(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = text.find("__global__"); at != std::string::npos; at = text.find("__global__", at + 1)) {
    for (size_t from = at + 10;;) {
      const size_t open = text.find_first_of("(;{", from);
      if (open == std::string::npos || text[open] != '(') break;
      size_t end = open;
      while (end > at && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
      size_t begin = end;
      while (begin > at && identifierByte(text[begin - 1])) --begin;
      const std::string name = text.substr(begin, end - begin);
      // `__launch_bounds__(256)`, `__attribute__((...))`: the name comes after its parentheses.
      if (name.rfind("__", 0) == 0 || name == "alignas") {
        from = closingParen(text, open) + 1;
        continue;
      }
      if (!name.empty() && begin >= at + 10) out.push_back(name);
      break;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const std::vector<SiblingTexts::Entry>& SiblingTexts::sourcesIn(const std::string& folder) {
  auto [it, fresh] = folders_.try_emplace(folder);
  if (fresh) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      std::error_code e2;
      if (!e.is_regular_file(e2) || !isSource(e.path())) continue;
      struct stat st {};
      if (::stat(e.path().c_str(), &st) != 0 || static_cast<uintmax_t>(st.st_size) > kMaxSiblingBytes) continue;
      it->second.push_back({e.path().string(), static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)});
    }
    std::sort(it->second.begin(), it->second.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
  }
  return it->second;
}

std::vector<std::string> SiblingTexts::siblingsOf(const std::string& file) {
  std::error_code ec;
  const fs::path self = fs::absolute(file, ec);
  struct stat own {};
  const bool known = ::stat(self.c_str(), &own) == 0;
  std::vector<std::string> out;
  for (const Entry& e : sourcesIn(self.parent_path().string())) {
    if (known && e.device == static_cast<uint64_t>(own.st_dev) && e.inode == static_cast<uint64_t>(own.st_ino)) continue;
    out.push_back(e.path);
    if (out.size() == kMaxSiblingFiles) break;
  }
  return out;
}

const std::string& SiblingTexts::textOf(const std::string& path) {
  auto [it, fresh] = texts_.try_emplace(path);
  if (fresh) it->second = readText(path);
  return it->second;
}

bool SiblingTexts::definesMain(const std::string& path) {
  auto [it, fresh] = mains_.try_emplace(path, false);
  if (fresh) it->second = textDefinesMain(texts_.count(path) ? texts_[path] : readText(path));
  return it->second;
}

const std::vector<std::string>& SiblingTexts::kernelNamesOf(const std::string& path) {
  auto [it, fresh] = kernelNames_.try_emplace(path);
  if (fresh) it->second = textKernelNames(textOf(path));
  return it->second;
}

bool SiblingTexts::launchesAnyOf(const std::string& path, const std::vector<std::string>& names) {
  const std::string& text = textOf(path);
  if (text.find("<<<") == std::string::npos) return false;
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return textLaunchesKernel(text, n); });
}

bool SiblingTexts::definesAnyOf(const std::string& path, const std::vector<std::string>& names) {
  if (names.empty()) return false;
  const std::string& text = textOf(path);
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return textDefinesFunction(text, n); });
}

bool SiblingTexts::callsAnyOf(const std::string& path, const std::vector<std::string>& names) {
  if (names.empty()) return false;
  const std::string& text = textOf(path);
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return textCallsFunction(text, n); });
}

namespace {
// The file a quoted `#include "name"` of `from` reads first: the one beside `from`.
std::string includedPath(const std::string& from, const std::string& name) {
  return (fs::path(from).parent_path() / name).lexically_normal().string();
}
}  // namespace

size_t SiblingTexts::likelyCudaSiblingParses(const std::string& file) {
  SiblingCheck check;
  check.file = file;
  check.fileDefinesMain = definesMain(file);
  // The analysis asks for its program's other files when one of its kernels is launched, or
  // its launch's values set, outside it: a file with a `main` of its own mostly launches its
  // kernels itself (the facts are asked for lazily, analyze.cpp), and one with no kernel, in
  // it or in what it includes, never asks (Rodinia's heartwall/setdevice.cu, dwt2d/dwt.cu).
  if (check.fileDefinesMain) return 0;
  // What the parse will read of the folder: the file's quoted includes and theirs, in turn
  // (myocyte's main.cu includes work.cu, which includes the kernels' files), as far as
  // kMaxSiblingFiles texts: an estimate need not read a project's whole header graph.
  std::vector<std::string> todo = {fs::path(file).lexically_normal().string()};
  std::set<std::string> seen(todo.begin(), todo.end());
  bool kernels = false;
  for (size_t read = 0; !todo.empty() && read < kMaxSiblingFiles; ++read) {
    const std::string at = todo.back();
    todo.pop_back();
    kernels = kernels || textOf(at).find("__global__") != std::string::npos;
    for (const std::string& name : quotedIncludes(textOf(at))) {
      const std::string target = includedPath(at, name);
      if (!seen.insert(target).second) continue;
      check.included.push_back(target);
      std::error_code ec;
      if (fs::is_regular_file(target, ec)) todo.push_back(target);
    }
  }
  if (!kernels) return 0;
  // The parse's list of the functions the file links, which leaves out a sibling defining one
  // of them (another version): the kernels its text defines stand in for it.
  check.linked = kernelNamesOf(fs::path(file).lexically_normal().string());
  choose(check);
  return static_cast<size_t>(std::count_if(check.read.begin(), check.read.end(), [](const std::string& s) {
    return fs::path(s).extension() == ".cu";
  }));
}

void SiblingTexts::choose(SiblingCheck& check) {
  // The folder is one program only when one `main` is defined in it (this file or a sibling);
  // a folder of examples, each with its own main, or a library's folder with none is not: its
  // functions of one name belong to different programs, so no sibling is read.
  const std::vector<std::string> siblings = siblingsOf(check.file);
  size_t mains = check.fileDefinesMain ? 1 : 0;
  for (const std::string& s : siblings) mains += definesMain(s) ? 1 : 0;
  check.oneProgram = mains == 1;
  check.read.clear();
  // A library's folder (no `main`): its files are linked into one library, so a sibling that
  // launches one of this file's own kernels by name launches this kernel (cuSZp's
  // cuSZp_entry_1D_f32.cu launches what cuSZp_kernels_1D_f32.cu defines, through a header that
  // declares them). Only those siblings are read: the launches give the kernel its block,
  // grid and arguments, where before it was judged on a guessed block. A sibling defining
  // one of the file's functions is another version of it, as below.
  // The file's kernels: those it links, and its templates' (an explicit instance is no
  // top-level definition of the parse's list), from its text.
  std::vector<std::string> kernels;
  if (mains == 0) {
    kernels = kernelNamesOf(fs::path(check.file).lexically_normal().string());
    kernels.insert(kernels.end(), check.linked.begin(), check.linked.end());
  }
  const bool library = mains == 0 && !kernels.empty();
  if (!check.oneProgram && !library) return;
  // A sibling that defines a function this file defines is another version of it that the
  // build links instead (gardenia's bfs/ keeps a dozen `BFSSolver`s beside one main.cc): it
  // is not part of this program, and parsing it would only cost time.
  // A sibling the file includes (Rodinia's myocyte: main.cu includes work.cu, which includes
  // kernel.cu and seven more) is in the file's own summary already: parsing it again would cost
  // a parse per sibling and add nothing.
  const auto included = [&](const std::string& s) {
    const std::string normal = fs::path(s).lexically_normal().string();
    return std::find(check.included.begin(), check.included.end(), normal) != check.included.end();
  };
  for (const std::string& s : siblings)
    if (!included(s) && !definesAnyOf(s, check.linked) && (!library || launchesAnyOf(s, kernels)))
      check.read.push_back(s);
  // A library's folder none of whose files launches the file's kernels: the file launches them
  // itself, from host functions the program's driver calls, often one folder up (tsne-cuda's
  // src/kernels/nbodyfft.cu: its `NbodyFFT2D(..., n_terms, ...)` is called from
  // src/fit_tsne.cu with `int n_terms = 4`). The parent folder's files that launch one of the
  // kernels or call one of the file's linked functions are read, so the sizes the kernels
  // take from those parameters are the driver's, not the default every unknown size takes.
  if (library && check.read.empty()) {
    const fs::path folder = fs::path(check.file).lexically_normal().parent_path();
    // The file's host functions: its linked definitions but the kernels its text defines.
    const std::vector<std::string>& own = kernelNamesOf(fs::path(check.file).lexically_normal().string());
    std::vector<std::string> functions;
    for (const std::string& f : check.linked)
      if (std::find(own.begin(), own.end(), f) == own.end()) functions.push_back(f);
    if (folder.has_parent_path() && folder.parent_path() != folder)
      for (const Entry& e : sourcesIn(folder.parent_path().string())) {
        if (check.read.size() == kMaxSiblingFiles) break;
        if (!definesAnyOf(e.path, check.linked) && (launchesAnyOf(e.path, kernels) || callsAnyOf(e.path, functions)))
          check.read.push_back(e.path);
      }
  }
  // Likewise a sibling another one of them includes (myocyte's work.cu includes kernel_ecc.cu
  // and six more: analysing kernel.cu alone parsed main.cu, work.cu and each of those): that
  // one's parse reads it, in the context it is written for (kernel_ecc.cu alone does not even
  // know its `fp` type). Only what a sibling that no other includes reaches is left out, so
  // files that include each other and nothing else stay.
  const std::set<std::string> chosen(check.read.begin(), check.read.end());
  std::map<std::string, std::vector<std::string>> includes;
  std::set<std::string> includedByOther;
  for (const std::string& s : check.read)
    for (const std::string& name : quotedIncludes(textOf(s))) {
      const std::string target = includedPath(s, name);
      if (target != s && chosen.count(target)) {
        includes[s].push_back(target);
        includedByOther.insert(target);
      }
    }
  std::set<std::string> reached;
  std::vector<std::string> todo;
  for (const std::string& s : check.read)
    if (!includedByOther.count(s))
      for (const std::string& t : includes[s]) todo.push_back(t);
  while (!todo.empty()) {
    const std::string t = std::move(todo.back());
    todo.pop_back();
    if (!reached.insert(t).second) continue;
    for (const std::string& u : includes[t]) todo.push_back(u);
  }
  check.read.erase(std::remove_if(check.read.begin(), check.read.end(), [&](const std::string& s) { return reached.count(s) > 0; }),
                   check.read.end());
}

bool SiblingTexts::holds(const SiblingCheck& check) {
  if (!check.asked) return true;
  SiblingCheck now = check;
  choose(now);
  return now.oneProgram == check.oneProgram && now.read == check.read;
}

}  // namespace coalesce::analysis
