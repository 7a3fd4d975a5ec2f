#include "command_line_text.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

namespace coalesce::analysis::cmdline {

namespace fs = std::filesystem;

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string absoluteIn(const std::string& directory, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(directory) / path).lexically_normal().string();
}

std::optional<std::string> readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> splitList(const std::string& value) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(value);
  while (std::getline(in, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

std::vector<std::string> tokenize(const std::string& text) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char*, 32> words;
  llvm::cl::TokenizeGNUCommandLine(text, saver, words);
  return {words.begin(), words.end()};
}

std::optional<std::pair<std::string, bool>> includedName(std::string_view rest) {
  const size_t open = rest.find_first_not_of(" \t");
  if (open == std::string_view::npos || (rest[open] != '"' && rest[open] != '<')) return std::nullopt;
  const char close = rest[open] == '"' ? '"' : '>';
  const size_t stop = rest.find(close, open + 1);
  if (stop == std::string_view::npos || stop == open + 1) return std::nullopt;
  return std::make_pair(std::string(rest.substr(open + 1, stop - open - 1)), close == '>');
}

std::vector<std::string> folderOptions(const std::vector<std::string>& arguments, const std::string& directory,
                                       const std::vector<std::string_view>& options) {
  std::vector<std::string> dirs;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    for (const std::string_view opt : options) {
      if (!startsWith(a, opt)) continue;
      if (a.size() > opt.size()) dirs.push_back(absoluteIn(directory, a.substr(opt.size())));
      else if (i + 1 < arguments.size()) dirs.push_back(absoluteIn(directory, arguments[++i]));
      break;
    }
  }
  return dirs;
}

}  // namespace coalesce::analysis::cmdline
