// "Did you mean": the closest known name to a misspelt one (clang-tidy's option checks).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace coalesce::report::detail {

// "; did you mean 'MinEfficiency'?" when a candidate is close enough, else "".
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace coalesce::report::detail
