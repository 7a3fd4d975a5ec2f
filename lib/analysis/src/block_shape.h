// Block-shape inference: the contexts (block, grid, constant arguments, pointer offsets) a
// kernel's accesses are evaluated under. One per distinct launch the host code shows
// (launch_collector.h); else a fallback: __launch_bounds__, a `coalesce-lint: block=`
// comment, --block-dim, or an assumed shape, said in the figures.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <map>
#include <vector>

#include "kernel_analyzer.h"
#include "lane_function.h"
#include "launch_collector.h"

namespace coalesce::analysis {

// The fallback when no launch fixes the block. `threadDimsUsed`: threadIdx.x/y/z appear in
// the kernel (a kernel indexed by threadIdx.y runs on 2D blocks).
LaunchContext fallbackContext(const clang::FunctionDecl* fn, const TranslationUnitOptions& options,
                              const clang::ASTContext& ctx, const bool threadDimsUsed[3]);

// One context per launch of the kernel (launches whose block is computed at run time count
// only when no launch gives one), else the fallback. `paramSymbols`: the symbol of each
// integer parameter, by index, which a launch's constant arguments fix. Launches recorded by
// `verify` for `mangledName` (--launch-info) come first and replace all of these.
std::vector<LaunchContext> kernelContexts(const clang::FunctionDecl* fn, const std::string& mangledName,
                                          const std::vector<Launch>* launches,
                                          const std::map<unsigned, int>& paramSymbols,
                                          const TranslationUnitOptions& options, const clang::ASTContext& ctx,
                                          const bool threadDimsUsed[3]);

}  // namespace coalesce::analysis
