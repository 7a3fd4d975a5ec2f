// The fix hint both shared-memory rules give: pad the row when a coefficient is a whole
// row of the array, otherwise reindex; the gain is computed by the model either way.
#pragma once

#include <string>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"

namespace coalesce::report::detail {

std::string sharedFixNote(const AccessSite& site, const model::Arch& arch);
// "consecutive threads are 128 bytes (32 banks) apart" for affine lanes, else "".
std::string sharedStrideText(const AccessSite& site, const model::Arch& arch);

}  // namespace coalesce::report::detail
