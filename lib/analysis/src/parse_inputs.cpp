// What a parse skips and what it read (parse_inputs.h): shared by the analysis's own parse
// (analyze.cpp), the preamble's build (preamble_cache.cpp) and the sibling files' parses
// (sibling_files.cpp).
#include "parse_inputs.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallVector.h>

#include <set>

#include "coalesce/analysis/builtin_files.h"
#include "command_line_text.h"

namespace coalesce::analysis {

// Speed (docs/architecture.md): most of a file's parse is the bodies of the host functions of the
// system headers (the C++ library, the CUDA runtime's host API), which the analysis never
// reads: it reports no kernel of a system header, inlines only device code, and finds
// launches in the user's own files. Their bodies are skipped (as clangd skips bodies in
// its preamble); a template whose body is skipped instantiates without one. Kept: every
// body outside system headers, every __device__ / __global__ one (a kernel may inline it),
// and what Sema will not skip (constexpr, deduced return types: Sema::canSkipFunctionBody).
bool isSystemHeaderFunction(const clang::Decl* d) {
  if (!d->getAsFunction()) return false;  // also the pattern of a function template
  const clang::SourceManager& sm = d->getASTContext().getSourceManager();
  return sm.isInSystemHeader(sm.getExpansionLoc(d->getLocation()));
}

bool isHostOnlySystemHeaderFunction(const clang::Decl* d) {
  if (!isSystemHeaderFunction(d)) return false;
  const clang::FunctionDecl* fn = d->getAsFunction();
  return !fn->hasAttr<clang::CUDADeviceAttr>() && !fn->hasAttr<clang::CUDAGlobalAttr>();
}

// The files a parse read from disk, absolute (result cache, result_cache.h):
// every file the FileManager opened or found, but the built-in ones served from memory
// (the tool's identity covers them) and the run's precompiled header (its own inputs are
// added by the HeaderCache).
std::vector<std::string> filesReadBy(const clang::FileManager& files, const std::string& directory,
                                     const std::string& ownPch) {
  llvm::SmallVector<clang::OptionalFileEntryRef, 256> entries;
  files.GetUniqueIDMapping(entries);
  std::set<std::string> paths;
  for (const clang::OptionalFileEntryRef& e : entries) {
    if (!e) continue;
    // Absolute, not normalised: "x/../" is not "" when x is a symbolic link (the driver
    // finds GCC's headers as /../lib/gcc/<triple>/12/../../../../include, through /lib).
    std::string path = cmdline::absoluteIn(directory, e->getName().str());
    if (llvm::StringRef(path).starts_with(kBuiltinRoot) || path == ownPch || isWrapperForwarder(path)) continue;
    paths.insert(std::move(path));
  }
  return {paths.begin(), paths.end()};
}

}  // namespace coalesce::analysis
