// How the filter stage reads source files (for NOLINT comments and line texts).
// Injectable so tests run on text held in memory.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace coalesce::report {

// The whole text of a file, or nullopt when it cannot be read.
using SourceReader = std::function<std::optional<std::string>(const std::string& path)>;

SourceReader diskSourceReader();

// Line `line` (1-based) of `text`, without its end-of-line characters; empty past the end.
std::string_view lineOf(std::string_view text, unsigned line);
std::string_view trimmed(std::string_view text);

}  // namespace coalesce::report
