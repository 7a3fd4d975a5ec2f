#include "condition_tokens.h"

#include <array>
#include <cctype>

namespace coalesce::report::detail {

namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool builtin(const std::string& name) {
  static const std::array<std::string_view, 8> names{"threadIdx", "blockIdx", "blockDim", "gridDim",
                                                     "warpSize",  "x",        "y",        "z"};
  for (std::string_view n : names)
    if (name == n) return true;
  return false;
}

}  // namespace

std::vector<std::string> tokenize(std::string_view text) {
  static const std::array<std::string_view, 14> pairs{"<=", ">=", "==", "!=", "&&", "||", "<<",
                                                      ">>", "%=", "->", "::", "++", "--", "+="};
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    if (identStart(c) || std::isdigit(static_cast<unsigned char>(c))) {
      while (j < text.size() && identChar(text[j])) ++j;
    } else {
      for (std::string_view p : pairs)
        if (text.substr(i, 2) == p) j = i + 2;
    }
    out.emplace_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

std::set<std::string> variablesOf(const std::vector<std::string>& tokens) {
  std::set<std::string> out;
  for (const std::string& t : tokens)
    if (identStart(t.front()) && !builtin(t)) out.insert(t);
  return out;
}

std::optional<std::vector<std::string>> modulusDivisor(const std::vector<std::string>& tokens) {
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i] != "%") continue;
    std::vector<std::string> divisor;
    size_t j = i + 1;
    if (tokens[j] == "(") {
      int depth = 0;
      for (; j < tokens.size(); ++j) {
        depth += tokens[j] == "(" ? 1 : tokens[j] == ")" ? -1 : 0;
        divisor.push_back(tokens[j]);
        if (depth == 0) break;
      }
    } else {
      divisor.push_back(tokens[j]);
      // A member chain: s.stride, p->n.
      while (j + 2 < tokens.size() && (tokens[j + 1] == "." || tokens[j + 1] == "->")) {
        divisor.push_back(tokens[j + 1]);
        divisor.push_back(tokens[j + 2]);
        j += 2;
      }
    }
    return divisor;
  }
  return std::nullopt;
}

}  // namespace coalesce::report::detail
