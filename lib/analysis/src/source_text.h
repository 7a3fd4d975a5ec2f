// Source text as messages quote it and `--assume` names it: on one line, each run of white
// space (line breaks and indentation included) one space (interpreter.cpp, host_sizes.cpp).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace coalesce::analysis {

inline std::string oneLine(std::string_view text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace coalesce::analysis
