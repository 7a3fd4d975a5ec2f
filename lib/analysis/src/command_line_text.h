// Small text helpers shared by the command-line code (command_line.cpp, flag_translation.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce::analysis::cmdline {

bool startsWith(std::string_view s, std::string_view prefix);
// `path` made absolute against `directory` (a compile database entry's), unless it is already.
std::string absoluteIn(const std::string& directory, const std::string& path);
std::optional<std::string> readText(const std::string& path);
std::vector<std::string> splitList(const std::string& value);  // nvcc's comma-separated lists
std::vector<std::string> tokenize(const std::string& text);    // shell-like words, as in response files
// What follows `#include` on a directive's line (` <cufft.h>`, ` "util.h" // why`): the name and
// whether it is angled; nothing for a computed include or an empty name.
std::optional<std::pair<std::string, bool>> includedName(std::string_view rest);
// The folders `arguments` names with each of `options` (`-I DIR` or `-IDIR`), absolute against
// `directory`, in order.
std::vector<std::string> folderOptions(const std::vector<std::string>& arguments, const std::string& directory,
                                       const std::vector<std::string_view>& options);

}  // namespace coalesce::analysis::cmdline
