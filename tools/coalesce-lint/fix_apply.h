// What --fix and --export-fixes do with the fixes that fix_check.cpp offered (docs/fixes.md):
// write them into the files in place, or as clang-apply-replacements YAML. Only these two
// options ever write into the user's tree.
#pragma once

#include <string>
#include <vector>

#include "coalesce/report/finding.h"

namespace coalesce::cli {

struct FixApplyOutcome {
  size_t edits = 0;      // edits written
  size_t files = 0;      // files changed
  size_t conflicts = 0;  // edits left out: overlapping one already applied
  std::vector<std::string> errors;  // one line each: a file that could not be read or written
};

// Applies the offered fixes of `findings` in place, all of one file at once: identical edits
// once, an edit overlapping one applied before it is a conflict (reported, left out). A file
// that cannot be written (read-only, gone) is left as it was and named in `errors`.
FixApplyOutcome applyFixesInPlace(const std::vector<report::Finding>& findings);

// Writes the offered fixes as clang-tidy's --export-fixes YAML to `path`; "" on success, else
// the reason.
std::string exportFixes(const std::string& path, const std::string& mainSourceFile,
                        const std::vector<report::Finding>& findings);

}  // namespace coalesce::cli
