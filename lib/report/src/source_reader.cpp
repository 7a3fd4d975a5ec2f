#include "coalesce/report/source_reader.h"

#include <llvm/Support/MemoryBuffer.h>

namespace coalesce::report {

SourceReader diskSourceReader() {
  return [](const std::string& path) -> std::optional<std::string> {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer) return std::nullopt;
    return (*buffer)->getBuffer().str();
  };
}

std::string_view lineOf(std::string_view text, unsigned line) {
  if (line == 0) return {};
  size_t start = 0;
  for (unsigned l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  std::string_view out = text.substr(start, end - start);
  if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
  return out;
}

std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace coalesce::report
