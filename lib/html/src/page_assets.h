// The inline style sheet and script of every page (page_assets.cpp).
#pragma once

#include <string_view>

namespace coalesce::html::detail {

extern const std::string_view kStyle;
extern const std::string_view kScript;

}  // namespace coalesce::html::detail
