// From what the interpreter saw in one kernel (KernelEvents) to the plain records every
// later stage reads (coalesce/records): each access, branch and barrier evaluated per lane
// under every launch context and kept for the worst one, the kernel's pointer parameters,
// and source locations and line texts resolved here, so that nothing downstream needs
// Clang's SourceManager.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <optional>
#include <string>
#include <vector>

#include "interpreter_state.h"
#include "kernel_analyzer.h"

namespace coalesce::analysis {

// The kernel's record before analysis: its name (with template arguments) and location.
KernelRecord kernelRecord(const clang::FunctionDecl* fn, const clang::ASTContext& ctx);

// Why the kernel cannot be analysed on this AST, if it cannot: a Clang error inside its
// body, or a record whose declaration has errors (its layout, hence strides, made up).
std::optional<std::string> kernelFailure(const clang::FunctionDecl* fn, const TranslationUnitOptions& options,
                                         const clang::SourceManager& sm);

// How badly an access fares (sectors over ideal, or the conflict degree): of a kernel's
// launches, each access keeps the one where this is largest.
double accessSeverity(const model::AccessFigures& f);

// Appends the kernel's access, branch, barrier and pointer-parameter records to `out`,
// counting its accesses in `kernel`.
void buildKernelRecords(const clang::FunctionDecl* fn, const KernelEvents& events,
                        const std::vector<LaunchContext>& contexts, const SymbolTable& symbols,
                        const model::Arch& arch, const clang::SourceManager& sm, KernelRecord& kernel,
                        TranslationUnitResult& out);

}  // namespace coalesce::analysis
