// The CUDA built-in variables (threadIdx, blockIdx, blockDim, gridDim): one recogniser for
// the shapes they take in the AST, used everywhere (docs/architecture.md, "Traps").
#pragma once

#include <clang/AST/Expr.h>

#include <cstdint>
#include <optional>
#include <utility>

#include "symbolic.h"

namespace coalesce::analysis {

// threadIdx.x & co: a PseudoObjectExpr over an MSPropertyRefExpr in Clang's CUDA headers, or
// a plain member of a variable with that name in simpler header sets. The leaf's op and the
// dimension (0, 1, 2 for x, y, z).
std::optional<std::pair<Op, int64_t>> builtinVariable(const clang::Expr* e);

// The built-in a variable of this record type is (`uint3 t = threadIdx` uses it whole).
std::optional<Op> builtinVariableType(const clang::CXXRecordDecl* record);

}  // namespace coalesce::analysis
