// Number and phrase formatting shared by the rules and the writers, so a figure reads
// the same in a message, a note and the --explain picture.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "coalesce/model/geometry.h"
#include "coalesce/records/records.h"

namespace coalesce::report::detail {

// Up to two decimals, trailing zeros dropped: 8, 4.5, 4.88.
std::string number(double value);
// A ratio as a percentage with at most one decimal: 50%, 16.7%; "under 0.1%" for a positive
// ratio that would round to 0.
std::string percent(double ratio);
// A time in seconds as a reader expects it: "0.88 us", "12 us", "3.4 ms" (two significant
// figures; "us" for microseconds, as the text output stays ASCII).
std::string microseconds(double seconds);
// "4 sectors", "1 sector", "0.5 sectors" (unit in the singular: "sector", "wavefront").
std::string units(double value, std::string_view unit);
// "4 sectors per request", "1 sector per request" (unit in the singular: "sector", "wavefront").
std::string perRequest(double value, std::string_view unit);
// Bytes in the units the Programming Guide gives shared memory in: "228 KB", "20 KB".
std::string kilobytes(int64_t bytes);
// "32x8x1"
std::string dims(const model::Dim3& d);
// "load of 'a[2 * i]'" (or "store of a float" when the expression is unknown).
std::string accessPhrase(const AccessSite& site);
// A field of a record gathered through a loaded index (AccessGroup::gather), as --explain and
// the HTML report give it: "with the 3 other accesses of the same record through the same
// index{separator}1 to 32 sectors per request together (ideal 16)".
std::string gatheredRecordRange(const AccessGroup& group, std::string_view separator);

}  // namespace coalesce::report::detail
