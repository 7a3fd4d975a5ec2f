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

namespace coalesce::analysis {

// The files a parse read through a FileManager, as the result cache lists them (analyze.cpp).
using FilesRead = std::function<std::vector<std::string>(const clang::FileManager&)>;

// The facts of the program the file of `arguments` (a device pass's command line, the file
// last) belongs to: its own AST `ctx` and its siblings'. Parse errors in a sibling cost only
// what they hide. Without `shared`, each sibling is parsed here through `files` (so that the
// result cache sees them read); with the run's shared summaries (sibling_summaries.h), a
// sibling another worker has parsed is read from them, and the files each sibling's parse
// read (`filesRead` of its own FileManager) are added to `inputs`. `skipHostBodies`: the
// bodies of the system headers' host functions are not parsed (the summary reads none).
ProgramFacts programFactsFor(clang::ASTContext& ctx, const std::vector<std::string>& arguments,
                             const std::string& directory, clang::FileManager* files,
                             const SiblingSummaries* shared = nullptr, const FilesRead& filesRead = {},
                             std::vector<std::string>* inputs = nullptr, bool skipHostBodies = false);

// The sibling files read, in order (at most kMaxSiblingFiles, none larger than kMaxSiblingBytes).
std::vector<std::string> siblingFiles(const std::string& file);

}  // namespace coalesce::analysis
