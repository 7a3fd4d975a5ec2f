// The value a host local holds where it is read, when its function assigns it whole after its
// declaration. FasterTransformer's gpt_kernels.cu declares `dim3 block{512};`, then launches
// find_context_dups<128> after `block = 128;` in one arm of an `if` and <256> after `block =
// 256;` in the other. Read as "a local initialised once" the block was 512, and a loop stepping
// by the template's 128 split the block's threads at its barrier: a false error. Read as "a
// local assigned again, unknown", the launch lost a block the code states.
//
// The walk goes up from the read, statement by statement, to the function's body. In each
// block of statements around the read, the statements before it are searched backwards for a
// write: a plain `var = X;` there is what reaches the read (every path to the read runs it
// last); any other write (in a branch, a loop, a call taking a reference) leaves the value
// unknown. A loop around the read that writes the local anywhere (a later iteration could
// bring that value) leaves it unknown too, as does a `case` label crossed before the write is
// found (a path entering at the label skips the write). A read in another local's initialiser
// is read where that declaration stands. The declaration reached with no write
// after it: the initialiser reaches the read. One branch is read through: an `if` on `L != R`
// (or `==`) whose two arms each assign L or R, equal on the path where they differ
// (agreedUnderEquality).
#include "host_values.h"
#include "host_writes.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

#include <vector>

namespace coalesce::analysis {

using namespace clang;

namespace {

// X of a statement that is `var = X;` and nothing else; null otherwise.
const Expr* wholeAssignment(const Stmt* s, const VarDecl* var) {
  if (const auto* cleanups = dyn_cast<ExprWithCleanups>(s)) s = cleanups->getSubExpr();
  const auto hits = [&](const Expr* e) {
    const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return r && r->getDecl() == var;
  };
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign && hits(b->getLHS()))
    return b->getRHS();
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(s);
      op && op->getOperator() == OO_Equal && op->getNumArgs() == 2 && hits(op->getArg(0)))
    return op->getArg(1);
  return nullptr;
}

// The one statement of an `if` arm: the statement itself, or a block of exactly one.
const Stmt* onlyStatement(const Stmt* arm) {
  if (const auto* block = dyn_cast_or_null<CompoundStmt>(arm)) return block->size() == 1 ? block->body_front() : nullptr;
  return arm;
}

// The value `var` holds after `if (L != R) var = R; else var = L;`, whose arms assign values
// equal under the condition that takes the else arm (NPB-GPU's LU sets its blocks so:
// `if (THREADS != prop.warpSize) t = prop.warpSize; else t = THREADS;`, the warp size either
// way): X of the then arm for `!=`, Y of the else arm for `==` (`if (L == R) var = L; else var
// = R;`), each arm assigning L or R. Null for any other `if`.
const Expr* agreedUnderEquality(const Stmt* s, const VarDecl* var) {
  const auto* branch = dyn_cast<IfStmt>(s);
  if (!branch || branch->getInit() || branch->getConditionVariable() || !branch->getElse() ||
      writesAnywhere(branch->getCond(), var))
    return nullptr;
  const auto* test = dyn_cast<BinaryOperator>(branch->getCond()->IgnoreParenImpCasts());
  if (!test || (test->getOpcode() != BO_NE && test->getOpcode() != BO_EQ)) return nullptr;
  const Stmt* thenArm = onlyStatement(branch->getThen());
  const Stmt* elseArm = onlyStatement(branch->getElse());
  const Expr* x = thenArm ? wholeAssignment(thenArm, var) : nullptr;
  const Expr* y = elseArm ? wholeAssignment(elseArm, var) : nullptr;
  if (!x || !y) return nullptr;
  const auto side = [&](const Expr* e) {
    return Expr::isSameComparisonOperand(e, test->getLHS()) || Expr::isSameComparisonOperand(e, test->getRHS());
  };
  if (!side(x) || !side(y)) return nullptr;
  return test->getOpcode() == BO_NE ? x : y;
}

bool isLoop(const Stmt* s) {
  return isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
}

bool declares(const Stmt* s, const VarDecl* var) {
  const auto* decl = dyn_cast<DeclStmt>(s);
  if (!decl) return false;
  for (const Decl* d : decl->decls())
    if (d == var) return true;
  return false;
}

bool isLabel(const Stmt* s) { return isa<SwitchCase>(s) || isa<LabelStmt>(s); }

const Stmt* labelled(const Stmt* s) {
  for (;;) {
    if (const auto* c = dyn_cast<SwitchCase>(s)) s = c->getSubStmt();
    else if (const auto* l = dyn_cast<LabelStmt>(s)) s = l->getSubStmt();
    else return s;
  }
}

}  // namespace

const Expr* HostValues::reachingValue(const VarDecl* var, const Expr* use) {
  const auto* fn = dyn_cast_or_null<FunctionDecl>(var->getDeclContext());
  if (!fn || !fn->getBody() || !var->isLocalVarDecl() || isa<ParmVarDecl>(var)) return nullptr;
  const Stmt* at = use;
  for (;;) {
    const Stmt* parent = parents_.parentOf(at, fn);
    if (!parent) {
      // A read in a local's initialiser (TIGRE's `int divU; divU = 9; dim3 block(divU, ...)`
      // in a loop's body): the walk goes on from that declaration, which reads the value
      // where it stands; the local's own declaration there gives its initialiser.
      const DeclStmt* declaration = parents_.declarationAround(at, fn);
      if (!declaration) return nullptr;  // a lambda's body, a statement outside the body
      if (declares(declaration, var)) return var->getInit();
      at = declaration;
      continue;
    }
    if (const auto* block = dyn_cast<CompoundStmt>(parent)) {
      std::vector<const Stmt*> before;
      for (const Stmt* s : block->body()) {
        if (s == at) break;
        before.push_back(s);
      }
      bool crossedLabel = isLabel(at);
      for (auto it = before.rbegin(); it != before.rend(); ++it) {
        const Stmt* s = labelled(*it);
        if (declares(s, var)) return crossedLabel ? nullptr : var->getInit();
        if (writesAnywhere(s, var)) {
          if (crossedLabel) return nullptr;
          if (const Expr* agreed = agreedUnderEquality(s, var)) return agreed;
          return wholeAssignment(s, var);
        }
        crossedLabel = crossedLabel || isLabel(*it);
      }
    } else if (isLoop(parent)) {
      if (writesAnywhere(parent, var)) return nullptr;
    } else if (const auto* branch = dyn_cast<IfStmt>(parent)) {
      // The other arm does not run on the way to the read; the condition does.
      if (writesAnywhere(branch->getInit(), var) || writesAnywhere(branch->getCond(), var)) return nullptr;
    } else if (const auto* sw = dyn_cast<SwitchStmt>(parent)) {
      if (writesAnywhere(sw->getInit(), var) || writesAnywhere(sw->getCond(), var)) return nullptr;
    } else {
      for (const Stmt* child : parent->children())
        if (child != at && writesAnywhere(child, var)) return nullptr;
    }
    at = parent;
  }
}

}  // namespace coalesce::analysis
