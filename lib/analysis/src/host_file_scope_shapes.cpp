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

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

#include <functional>

namespace coalesce::analysis {

using namespace clang;

namespace {

bool refersTo(const Expr* e, const VarDecl* var) {
  const auto* r = e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
  return r && r->getDecl() == var;
}

// The writes to `var` under `s`: `v.x = ...`-style assignments to its members, each with its
// axis (0, 1, 2; -1 for another member), and, as -1 with no assignment, what may write any
// member: the whole variable assigned (`v = dim3(8, 8);`) or its address taken.
void memberWrites(const Stmt* s, const VarDecl* var, const std::function<void(const BinaryOperator*, int)>& each) {
  if (!s) return;
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) {
    if (const auto* m = dyn_cast<MemberExpr>(b->getLHS()->IgnoreParenImpCasts()); m && refersTo(m->getBase(), var)) {
      const std::string name = m->getMemberDecl()->getNameAsString();
      each(b, name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1);
    } else if (refersTo(b->getLHS(), var)) {
      each(nullptr, -1);
    }
  }
  if (const auto* call = dyn_cast<CXXOperatorCallExpr>(s);
      call && call->getOperator() == OO_Equal && call->getNumArgs() > 0 && refersTo(call->getArg(0), var))
    each(nullptr, -1);
  if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_AddrOf && refersTo(u->getSubExpr(), var))
    each(nullptr, -1);
  // Handed to a non-const reference parameter (`setup(threadsPerBlock)` with a `dim3&`).
  if (const auto* call = dyn_cast<CallExpr>(s); call && !isa<CXXOperatorCallExpr>(s))
    if (const FunctionDecl* callee = call->getDirectCallee())
      for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
        const QualType t = callee->getParamDecl(i)->getType();
        if (refersTo(call->getArg(i), var) && t->isReferenceType() && !t->getPointeeType().isConstQualified())
          each(nullptr, -1);
      }
  for (const Stmt* c : s->children()) memberWrites(c, var, each);
}

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
  bool assigned[3] = {false, false, false}, differ[3] = {false, false, false};
  bool otherWrite = false;  // another member, the whole variable: nothing read from the function
  memberWrites(launching->getBody(), var, [&](const BinaryOperator* b, int k) {
    if (k < 0) {
      otherWrite = true;
      return;
    }
    auto v = b->getOpcode() == BO_Assign ? constantOf(b->getRHS(), env) : std::nullopt;
    differ[k] = differ[k] || !v || (assigned[k] && d[k] != v);
    assigned[k] = true;
    d[k] = differ[k] ? std::nullopt : v;
  });
  if (otherWrite || (!assigned[0] && !assigned[1] && !assigned[2])) return none;
  // The axes the function leaves alone: the initialiser's, when nothing else writes them.
  if (var->isExternallyVisible() || !var->getInit()) return d;
  const Dim3Axes initial = dim3AxesOf(var->getInit(), nullptr);
  bool writtenElsewhere[3] = {false, false, false};
  ownBodies(launching->getASTContext().getTranslationUnitDecl(), [&](const Stmt* body) {
    if (body == launching->getBody()) return;
    memberWrites(body, var, [&](const BinaryOperator*, int k) {
      for (int a = 0; a < 3; ++a)
        if (k < 0 || k == a) writtenElsewhere[a] = true;
    });
  });
  for (int k = 0; k < 3; ++k)
    if (!assigned[k] && !writtenElsewhere[k]) d[k] = initial[k];
  return d;
}

}  // namespace coalesce::analysis
