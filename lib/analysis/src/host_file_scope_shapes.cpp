// Block and grid shapes held in a file-scope dim3 that each launching function sets member by
// member before its launch (Tartan's HIT: `static dim3 threadsPerBlock;` at file scope, then
// `threadsPerBlock.x = THREADSPERBLOCK_IN; threadsPerBlock.y = THREADSPERBLOCK_IN;` in every
// wrapper before its `<<<blocksPerGrid, threadsPerBlock>>>`). A local dim3 is read through its
// initialiser and assignments (host_values.cpp, dim3AxesOf); a global one could be written by
// any function, so only the launching function's own assignments are read, and an axis it
// leaves alone keeps the initialiser's value only when nothing else in the unit writes it and
// the variable is the unit's alone (internal linkage). Blind panel 27 judged the guess these
// launches got (32x8) false; the block is 16x16.
#include "host_values.h"
#include "host_writes.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

#include <array>
#include <functional>

namespace coalesce::analysis {

using namespace clang;

namespace {

// The bodies of the functions the unit itself defines (not those read from a PCH: a variable
// of internal linkage is written only by them), into namespaces and classes.
void ownBodies(const DeclContext* dc, const std::function<void(const Stmt*)>& each) {
  for (const Decl* d : dc->noload_decls()) {
    if (const auto* fn = dyn_cast<FunctionDecl>(d); fn && fn->doesThisDeclarationHaveABody()) each(fn->getBody());
    if (const auto* t = dyn_cast<FunctionTemplateDecl>(d); t && t->getTemplatedDecl()->doesThisDeclarationHaveABody())
      each(t->getTemplatedDecl()->getBody());
    if (const auto* inner = dyn_cast<DeclContext>(d); inner && (isa<NamespaceDecl>(d) || isa<CXXRecordDecl>(d) ||
                                                                isa<LinkageSpecDecl>(d)))
      ownBodies(inner, each);
  }
}

}  // namespace

Dim3Axes HostValues::fileScopeDim3(const Expr* e, const FunctionDecl* launching, const HostEnv* env) {
  const Dim3Axes none{};
  if (!e || !launching || !launching->getBody()) return none;
  e = e->IgnoreParenImpCasts();
  if (const auto* copy = dyn_cast<CXXConstructExpr>(e); copy && copy->getNumArgs() == 1 &&
                                                        copy->getConstructor()->isCopyOrMoveConstructor())
    e = copy->getArg(0)->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!var || var->isLocalVarDecl() || isa<ParmVarDecl>(var) || !var->hasGlobalStorage() ||
      var->getType().isConstQualified() || !var->getType()->isRecordType())
    return none;
  Dim3Axes d = none;
  // Another member or the whole variable written there: nothing read from the function.
  const AxisWrites own = applyMemberAssignments(launching, var, d, env);
  if (own.otherMember || own.whole || (!own.assigned[0] && !own.assigned[1] && !own.assigned[2])) return none;
  // The axes the function leaves alone: the initialiser's, when nothing else writes them.
  if (var->isExternallyVisible() || !var->getInit()) return d;
  auto [writers, fresh] = fileScopeWriters_.try_emplace(var);
  if (fresh)
    ownBodies(launching->getASTContext().getTranslationUnitDecl(), [&](const Stmt* body) {
      std::array<bool, 3> axes{};
      dim3Writes(body, var, [&](const BinaryOperator* b, int k) {
        for (int a = 0; a < 3; ++a) axes[a] = axes[a] || !b || k < 0 || k == a;
      });
      if (axes[0] || axes[1] || axes[2]) writers->second.emplace_back(body, axes);
    });
  bool writtenElsewhere[3] = {false, false, false};
  for (const auto& [body, axes] : writers->second)
    if (body != launching->getBody())
      for (int a = 0; a < 3; ++a) writtenElsewhere[a] = writtenElsewhere[a] || axes[a];
  const Dim3Axes initial = dim3AxesOf(var->getInit(), nullptr);
  for (int k = 0; k < 3; ++k)
    if (!own.assigned[k] && !writtenElsewhere[k]) d[k] = initial[k];
  return d;
}

}  // namespace coalesce::analysis
