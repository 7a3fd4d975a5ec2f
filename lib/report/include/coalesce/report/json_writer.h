// JSON output, schema "coalesce-lint/1" (docs/json-schema.md). A figure that cannot be
// known is null, never a guess.
#pragma once

#include <ostream>
#include <string_view>

#include "coalesce/report/report.h"

namespace coalesce::report {

inline constexpr std::string_view kJsonSchemaVersion = "coalesce-lint/1";

void writeJson(std::ostream& out, const Report& report);

}  // namespace coalesce::report
