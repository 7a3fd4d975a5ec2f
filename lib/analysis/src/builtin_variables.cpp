#include "builtin_variables.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

namespace coalesce::analysis {

using namespace clang;

namespace {

const char* const kBuiltinTypes[] = {"__cuda_builtin_threadIdx_t", "__cuda_builtin_blockIdx_t",
                                     "__cuda_builtin_blockDim_t", "__cuda_builtin_gridDim_t"};
const char* const kBuiltinNames[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
const Op kBuiltinOps[] = {Op::ThreadIdx, Op::BlockIdx, Op::BlockDim, Op::GridDim};

}  // namespace

std::optional<std::pair<Op, int64_t>> builtinVariable(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  const Expr* base = nullptr;
  StringRef member;
  if (const auto* pseudo = dyn_cast<PseudoObjectExpr>(e)) {
    if (const auto* prop = dyn_cast<MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens())) {
      base = prop->getBaseExpr();
      member = prop->getPropertyDecl()->getName();
    }
  } else if (const auto* m = dyn_cast<MemberExpr>(e)) {
    base = m->getBase();
    member = m->getMemberDecl()->getName();
  }
  if (!base || member.size() != 1 || member[0] < 'x' || member[0] > 'z') return std::nullopt;
  base = base->IgnoreParenImpCasts();
  if (const auto* ov = dyn_cast<OpaqueValueExpr>(base); ov && ov->getSourceExpr()) base = ov->getSourceExpr()->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<DeclRefExpr>(base);
  if (!ref) return std::nullopt;
  const auto* var = dyn_cast<VarDecl>(ref->getDecl());
  if (!var) return std::nullopt;
  const CXXRecordDecl* rec = var->getType()->getAsCXXRecordDecl();
  for (int i = 0; i < 4; ++i) {
    const bool typeMatch = rec && rec->getName() == kBuiltinTypes[i];
    if (typeMatch || var->getName() == kBuiltinNames[i]) return std::make_pair(kBuiltinOps[i], int64_t{member[0] - 'x'});
  }
  return std::nullopt;
}

std::optional<Op> builtinVariableType(const CXXRecordDecl* record) {
  if (!record) return std::nullopt;
  for (int i = 0; i < 4; ++i)
    if (record->getName() == kBuiltinTypes[i]) return kBuiltinOps[i];
  return std::nullopt;
}

}  // namespace coalesce::analysis
