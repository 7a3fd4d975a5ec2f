// The host code of the rest of a program (docs/block-shapes.md, "Launches from another
// file"): the files beside the one analysed (.c, .cc, .cpp, .cxx, .cu in its folder), each
// parsed once more, host code only read, into ProgramFacts (program_facts.h).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Basic/FileManager.h>

#include <string>
#include <vector>

#include "program_facts.h"

namespace coalesce::analysis {

// The facts of the program the file of `arguments` (a device pass's command line, the file
// last) belongs to: its own AST `ctx` and its siblings', parsed through `files` (so that the
// result cache sees them read). Parse errors in a sibling cost only what they hide.
ProgramFacts programFactsFor(clang::ASTContext& ctx, const std::vector<std::string>& arguments,
                             const std::string& directory, clang::FileManager* files);

// The sibling files read, in order (at most kMaxSiblingFiles, none larger than kMaxSiblingBytes).
std::vector<std::string> siblingFiles(const std::string& file);

}  // namespace coalesce::analysis
