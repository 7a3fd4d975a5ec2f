// The host code of the rest of a program (docs/block-shapes.md, "Launches from another
// file"): the files beside the one analysed (.c, .cc, .cpp, .cxx, .cu in its folder), each
// parsed once more, host code only read, into ProgramFacts (program_facts.h).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Basic/FileManager.h>

#include <functional>
#include <string>
#include <vector>

#include "program_facts.h"
#include "sibling_summaries.h"
#include "sibling_text.h"

namespace coalesce::analysis {

// The facts of the program the file of `arguments` (a device pass's command line, the file
// last) belongs to: its own AST `ctx` and its siblings'. Parse errors in a sibling cost only
// what they hide. Which siblings are the program's is decided from their texts
// (sibling_text.h); `check` gets that choice, for the result cache to check again. Without
// summary `sources`, each sibling is parsed here through `files` (so that the result cache
// sees them read); with them (sibling_summaries.h), a sibling's summary is taken from the
// run's shared ones or those kept between runs when there, else parsed through a FileManager
// of its own, and the files each sibling's parse read (`sources.filesRead`) are added to
// `inputs`. `skipHostBodies`: the bodies of the system headers' host functions are not parsed
// (the summary reads none).
ProgramFacts programFactsFor(clang::ASTContext& ctx, const std::vector<std::string>& arguments,
                             const std::string& directory, clang::FileManager* files, const SiblingSources& sources,
                             std::vector<std::string>* inputs, bool skipHostBodies, SiblingCheck* check);

}  // namespace coalesce::analysis
