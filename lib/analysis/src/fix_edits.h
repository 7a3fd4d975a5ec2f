// The source edits the fix-its propose (docs/fixes.md), computed here from Clang's source
// locations so that the report layer, which never sees Clang, gets them as plain records
// (TextEdit, ArrayPadding in coalesce/records/records.h). Whether an edit is offered is
// decided later, by analysing the edited file again (tools/coalesce-lint/fix_check.cpp).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include "coalesce/records/records.h"
#include "interpreter_state.h"
#include "kernel_analyzer.h"

namespace coalesce::analysis {

// The padding of the __shared__ array `var` by one element in its last dimension: the edit
// of its declaration, or why none is safe. `array` is empty when `var` is not a __shared__
// variable.
ArrayPadding sharedArrayPadding(const clang::VarDecl* var, clang::ASTContext& ctx, const model::Arch& arch);

// "__restrict__ " inserted before the name of a pointer parameter; an empty edit when the
// parameter has no name, is written inside a macro or in another file than the one analysed,
// or was declared as an array (`float a[]`, where the qualifier would not apply to a pointer).
TextEdit restrictEdit(const clang::ParmVarDecl* param, const clang::SourceManager& sm);

// Sets AccessSite::padding on the kernel's shared accesses (events.accesses[i] is
// out.accesses[firstAccess + i]) and PointerParam::restrictEdit on its pointer parameters
// (out.pointerParams from firstParam, in the order of the kernel's parameters).
void attachFixEdits(const clang::FunctionDecl* kernel, const KernelEvents& events, clang::ASTContext& ctx,
                    const model::Arch& arch, TranslationUnitResult& out, size_t firstAccess, size_t firstParam);

}  // namespace coalesce::analysis
