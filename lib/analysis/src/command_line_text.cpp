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

}  // namespace coalesce::analysis::cmdline
