#include "format.h"

#include <cmath>

#include <fmt/format.h>

#include "coalesce/model/access.h"

namespace coalesce::report::detail {

std::string number(double value) {
  std::string s = fmt::format("{:.2f}", value);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string kilobytes(int64_t bytes) { return number(static_cast<double>(bytes) / 1024) + " KB"; }

std::string percent(double ratio) {
  std::string s = fmt::format("{:.1f}", ratio * 100.0);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  // A share that rounds to nothing is still there: "wastes 0% of" would read as no waste.
  if (s == "0" && ratio > 0) return "under 0.1%";
  return s + "%";
}

std::string microseconds(double seconds) {
  const double us = seconds * 1e6;
  // Two significant digits, never an exponent a reader must decode ("550 us", not "5.5e+02 us").
  const auto digits = [](double v) { return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.2g}", v); };
  if (us >= 1000) return digits(us / 1000) + " ms";
  return digits(us) + " us";
}

std::string units(double value, std::string_view unit) {
  return fmt::format("{} {}{}", number(value), unit, number(value) == "1" ? "" : "s");
}

std::string perRequest(double value, std::string_view unit) { return units(value, unit) + " per request"; }

std::string dims(const model::Dim3& d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); }

std::string accessPhrase(const AccessSite& site) {
  const std::string kind(model::toString(site.access.kind));
  if (!site.expression.empty()) return fmt::format("{} of '{}'", kind, site.expression);
  if (!site.elementType.empty()) return fmt::format("{} of a {}", kind, site.elementType);
  return kind;
}

std::string gatheredRecordRange(const AccessGroup& group, std::string_view separator) {
  return fmt::format("with the {} other accesses of the same record through the same index{}{} to {} sectors per "
                     "request together (ideal {})",
                     group.members - 1, separator, number(group.sectorsAtLeast), number(group.sectorsPerRequest),
                     number(group.idealSectors));
}

}  // namespace coalesce::report::detail
