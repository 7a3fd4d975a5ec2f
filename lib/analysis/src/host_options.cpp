// The defaults of a program's run-time options, for a finding's cost only (docs/findings.md,
// "Cost", the program's sizes): a local the host code initialises with a constant and changes
// only where a command-line option is given keeps that constant in a run without the option.
// The CUDA samples' histogram: `uint byteCount = 64 * 1048576;` in main.cpp, multiplied only
// under `if (checkCmdLineFlag(argc, argv, "sizemult"))`; Rodinia kmeans: `int nloops = 1;` set
// only in `case 'l':` of a `switch` over `getopt(argc, argv, ...)`. Without it such a size
// took the default every unknown size takes (kAssumedRuntimeValue), and a loop over it around
// a launch counted as a loop whose count the code does not show.
#include <clang/AST/ExprCXX.h>

#include <algorithm>
#include <functional>

#include "host_values.h"
#include "host_writes.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// `char** argv` (`char* argv[]`, `const char**`): the command line.
bool isArgumentVector(const ParmVarDecl* p) {
  const QualType t = p->getType().getCanonicalType();
  if (!t->isPointerType()) return false;
  const QualType inner = t->getPointeeType();
  return inner->isPointerType() && inner->getPointeeType()->isCharType();
}

// argv, or the integer parameter (argc) of a function that takes one.
bool isCommandLineParameter(const ParmVarDecl* p) {
  if (isArgumentVector(p)) return true;
  const auto* fn = dyn_cast<FunctionDecl>(p->getDeclContext());
  return fn && p->getType()->isIntegerType() && std::any_of(fn->param_begin(), fn->param_end(), isArgumentVector);
}

}  // namespace

// host_writes.h. A non-const reference argument: Rodinia huffman's `initParams(..., num_blocks,
// ...)` sets the grid of the launch that follows.
bool writesVariable(const Stmt* s, const VarDecl* var) {
  const auto hits = [&](const Expr* e) {
    const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return r && r->getDecl() == var;
  };
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) return true;
  if (const auto* u = dyn_cast<UnaryOperator>(s))
    if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) return true;
  // A class's assignment operator (`block = 128;` on a dim3, FasterTransformer's gpt_kernels.cu
  // before each launch of find_context_dups): its left side is the first argument.
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(s); op && op->getNumArgs() > 0 && hits(op->getArg(0)) &&
      (op->isAssignmentOp() || op->getOperator() == OO_PlusPlus || op->getOperator() == OO_MinusMinus))
    return true;
  if (const auto* call = dyn_cast<CallExpr>(s); call && !isa<CXXOperatorCallExpr>(call))
    if (const FunctionDecl* callee = call->getDirectCallee())
      for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
        const QualType t = callee->getParamDecl(i)->getType();
        if (t->isLValueReferenceType() && !t->getPointeeType().isConstQualified() && hits(call->getArg(i))) return true;
      }
  return false;
}

bool writesAnywhere(const Stmt* s, const VarDecl* var) {
  if (!s) return false;
  if (writesVariable(s, var)) return true;
  for (const Stmt* child : s->children())
    if (writesAnywhere(child, var)) return true;
  return false;
}

// Whether `s` reads the command line: argc or argv, or a local of `fn` given a value that
// does (`opt = getopt(argc, argv, "i:t:m:n:l:bro")`, followed two locals deep).
bool HostValues::readsCommandLine(const Stmt* s, const FunctionDecl* fn, int depth) {
  if (!s || depth > 2) return false;
  if (const auto* r = dyn_cast<DeclRefExpr>(s)) {
    if (const auto* p = dyn_cast<ParmVarDecl>(r->getDecl())) return isCommandLineParameter(p);
    const auto* v = dyn_cast<VarDecl>(r->getDecl());
    if (!v || !v->isLocalVarDecl() || v->getDeclContext() != fn || !fn->getBody()) return false;
    if (v->getInit() && readsCommandLine(v->getInit(), fn, depth + 1)) return true;
    bool found = false;
    std::function<void(const Stmt*)> scan = [&](const Stmt* st) {
      if (!st || found) return;
      if (const auto* b = dyn_cast<BinaryOperator>(st); b && b->getOpcode() == BO_Assign)
        if (const auto* lhs = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()); lhs && lhs->getDecl() == v)
          found = readsCommandLine(b->getRHS(), fn, depth + 1);
      for (const Stmt* c : st->children()) scan(c);
    };
    scan(fn->getBody());
    return found;
  }
  return std::any_of(s->child_begin(), s->child_end(), [&](const Stmt* c) { return readsCommandLine(c, fn, depth); });
}

std::optional<int64_t> HostValues::optionDefault(const VarDecl* var) {
  if (!var) return std::nullopt;
  if (auto known = optionDefaults_.find(var); known != optionDefaults_.end()) return known->second;
  std::optional<int64_t>& out = optionDefaults_[var];
  const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
  if (!fn || !fn->getBody() || !var->isLocalVarDecl() || !var->getInit() || !var->getType()->isIntegerType())
    return out;
  // The initialiser as the figures would read it, not under the cost's size defaults.
  SizeDefaults* const mode = defaults_;
  defaults_ = nullptr;
  std::optional<int64_t> initial = constantOf(var->getInit());
  defaults_ = mode;
  // `int n = argc > 1 ? atoi(argv[1]) : 4096;`: its default, changed or not afterwards.
  const bool conditional = !initial && (initial = conditionalOptionDefault(var->getInit(), fn));
  if (!initial || (!conditional && !isReassigned(var))) return out;  // a local never changed is a plain constant
  // Every write sits in the arm of an `if` or the body of a `switch` whose condition reads the
  // command line.
  const auto underOption = [&](const Stmt* write) {
    const Stmt* child = write;
    for (;;) {
      const Stmt* parent = parents_.parentOf(child, fn);
      if (!parent) return false;
      if (const auto* i = dyn_cast<IfStmt>(parent); i && (child == i->getThen() || child == i->getElse()) &&
                                                    readsCommandLine(i->getCond(), fn, 0))
        return true;
      if (const auto* sw = dyn_cast<SwitchStmt>(parent); sw && child == sw->getBody() && readsCommandLine(sw->getCond(), fn, 0))
        return true;
      child = parent;
    }
  };
  bool all = true;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || !all) return;
    if (writesVariable(s, var) && !underOption(s)) all = false;
    for (const Stmt* c : s->children()) scan(c);
  };
  scan(fn->getBody());
  if (all) out = initial;
  return out;
}

std::optional<int64_t> HostValues::conditionalOptionDefault(const Expr* e, const FunctionDecl* fn) {
  const auto* c = e ? dyn_cast<ConditionalOperator>(e->IgnoreParenImpCasts()) : nullptr;
  if (!c || !fn || !fn->getBody() || !readsCommandLine(c->getCond(), fn, 0)) return std::nullopt;
  // The arms as the figures would read them, not under the cost's size defaults.
  SizeDefaults* const mode = defaults_;
  defaults_ = nullptr;
  const std::optional<int64_t> yes = constantOf(c->getTrueExpr()), no = constantOf(c->getFalseExpr());
  defaults_ = mode;
  if (yes && !no && readsCommandLine(c->getFalseExpr(), fn, 0)) return yes;
  if (no && !yes && readsCommandLine(c->getTrueExpr(), fn, 0)) return no;
  return std::nullopt;
}

bool HostValues::onlyAddressTaken(const VarDecl* var) {
  if (auto known = onlyAddressTaken_.find(var); known != onlyAddressTaken_.end()) return known->second;
  const auto* fn = var ? dyn_cast<FunctionDecl>(var->getDeclContext()) : nullptr;
  if (!fn || !fn->getBody() || !var->isLocalVarDecl()) return onlyAddressTaken_[var] = false;
  bool taken = false, other = false;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || other) return;
    if (writesVariable(s, var)) {
      const auto* u = dyn_cast<UnaryOperator>(s);
      if (u && u->getOpcode() == UO_AddrOf) taken = true;
      else other = true;
    }
    for (const Stmt* child : s->children()) scan(child);
  };
  scan(fn->getBody());
  return onlyAddressTaken_[var] = taken && !other;
}

}  // namespace coalesce::analysis
