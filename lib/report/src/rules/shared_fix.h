// The fix hint both shared-memory rules give: pad the row when a coefficient is a whole
// row of the array, otherwise reindex; the gain is computed by the model either way.
#pragma once

#include <optional>
#include <string>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

struct SharedFix {
  std::string note;                  // "fix: pad each row ...: 32 -> 1 wavefronts per request ..."
  std::optional<FixedAccess> fixed;  // the access the note's figures are for, when it does better
  // The declaration's edit that pads the array (docs/fixes.md), when the padding does better
  // and the analysis found the array; withheld from the start when it cannot be edited safely.
  std::optional<SourceFix> source;
};
SharedFix sharedFix(const AccessSite& site, const model::Arch& arch);
// "consecutive threads are 128 bytes (32 banks) apart" for affine lanes, else "".
std::string sharedStrideText(const AccessSite& site, const model::Arch& arch);

}  // namespace coalesce::report::detail
