#include "coalesce/verify/format_number.h"

#include <cmath>
#include <fmt/format.h>

namespace coalesce::verify {

std::string formatNumber(double value, NumberStyle style) {
  if (style == NumberStyle::Shortest) return fmt::format("{:g}", value);
  if (std::fabs(value - std::round(value)) < 1e-9)
    return fmt::format("{}", static_cast<long long>(std::llround(value)));
  return fmt::format("{:.3f}", value);
}

}  // namespace coalesce::verify
