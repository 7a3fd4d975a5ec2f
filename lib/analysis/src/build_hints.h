// Hints for files that fail on names their build defines: real code leaves BLOCK_SIZE,
// WARP_SIZE or a `dfloat` typedef to -D flags, and the error alone does not say which flag.
#pragma once

#include <string>
#include <vector>

#include "kernel_analyzer.h"

namespace coalesce::analysis {

// Names the errors say are undeclared (`use of undeclared identifier 'BLOCK_SIZE'`, `unknown
// type name 'dfloat'`), in order, once each.
std::vector<std::string> undeclaredNames(const std::vector<TranslationUnitOptions::ErrorSpot>& errors);

// "; if the build defines 'dfloat' and 'BLOCK_SIZE', pass them after -- (coalesce-lint FILE --
// -DBLOCK_SIZE=...)", or nothing when `names` is empty.
std::string buildDefinesHint(const std::vector<std::string>& names);

}  // namespace coalesce::analysis
