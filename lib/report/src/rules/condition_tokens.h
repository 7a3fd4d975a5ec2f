// A small tokenizer for the condition texts of branch records, enough to ask structural
// questions of them (which variables a condition names, what a '%' divides by) without
// matching whole texts.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce::report::detail {

// Identifiers, numbers, and operators (the two-character ones kept whole: "%=", "<=", ...).
std::vector<std::string> tokenize(std::string_view text);

// The identifiers among `tokens`, without CUDA's built-in variables and their members
// (threadIdx, blockDim, x, ...): those are not variables of the kernel.
std::set<std::string> variablesOf(const std::vector<std::string>& tokens);

// The tokens of the right operand of the first binary '%' (a parenthesised group, or one
// name or number with its member accesses), or nullopt when there is no '%'.
std::optional<std::vector<std::string>> modulusDivisor(const std::vector<std::string>& tokens);

}  // namespace coalesce::report::detail
