// Block and grid arguments read axis by axis (HostValues::dim3Of, dim3AxesOf): constructors,
// initialiser lists, make_uint3, wrapper parameters, and the `var.x = ...` assignments after a
// dim3 local (applyMemberAssignments). Split from host_values.cpp, which reads scalar values.
#include <clang/AST/ExprCXX.h>

#include <functional>

#include "host_values.h"
#include "host_writes.h"

namespace coalesce::analysis {

using namespace clang;

// A block or grid argument as a whole: every axis known, else nothing.
std::optional<model::Dim3> HostValues::dim3Of(const Expr* e, const HostEnv* env, int depth) {
  const Dim3Axes axes = dim3AxesOf(e, env, depth);
  if (!axes[0] || !axes[1] || !axes[2]) return std::nullopt;
  return model::Dim3{*axes[0], *axes[1], *axes[2]};
}

// A block argument axis by axis: an integer (1D: y and z are 1 even when x is computed at run
// time), dim3(x, y, z) (an argument left out is 1), make_uint3, or a dim3 local built so,
// with `var.x = ...` assignments after it. `dim3 block(1, lCols)` fixes x alone.
Dim3Axes HostValues::dim3AxesOf(const Expr* e, const HostEnv* env, int depth) {
  const Dim3Axes none{};
  // A configuration the parse could not build (a type from a header not found) holds no
  // expression where one belongs: nothing to read (PCL's kinfu without its generated config).
  if (!e || depth > kMaxDepth || e->containsErrors()) return none;
  e = e->IgnoreParenImpCasts();
  if (const auto* mte = dyn_cast<MaterializeTemporaryExpr>(e)) return dim3AxesOf(mte->getSubExpr(), env, depth + 1);
  if (const auto* bt = dyn_cast<CXXBindTemporaryExpr>(e)) return dim3AxesOf(bt->getSubExpr(), env, depth + 1);
  if (const auto* fc = dyn_cast<CXXFunctionalCastExpr>(e)) return dim3AxesOf(fc->getSubExpr(), env, depth + 1);
  // Each of the first three arguments read as a constant; those not written are 1.
  const auto fromArguments = [&](auto argument, unsigned count, bool defaultsAreOne) {
    Dim3Axes d{int64_t{1}, int64_t{1}, int64_t{1}};
    for (unsigned i = 0; i < 3; ++i) {
      if (i >= count) {
        if (!defaultsAreOne) d[i] = std::nullopt;
        continue;
      }
      const Expr* a = argument(i);
      if (!a || isa<CXXDefaultArgExpr>(a)) continue;
      d[i] = constantOf(a, env);
      // A launch of no threads or blocks on an axis fails (an invalid configuration): a value
      // of 0 or less rests on a placeholder the program replaces, not on the run's value.
      if (d[i] && *d[i] <= 0) d[i] = std::nullopt;
    }
    return d;
  };
  if (const auto* ctor = dyn_cast<CXXConstructExpr>(e)) {
    if (ctor->getConstructor()->isCopyOrMoveConstructor() && ctor->getNumArgs() == 1)
      return dim3AxesOf(ctor->getArg(0), env, depth + 1);
    // dim3(uint3): a uint3 given where a dim3 is expected (`uint3 tids = make_uint3(...)`).
    if (ctor->getNumArgs() == 1 && ctor->getArg(0)->getType()->isRecordType())
      return dim3AxesOf(ctor->getArg(0), env, depth + 1);
    return fromArguments([&](unsigned i) { return ctor->getArg(i); }, ctor->getNumArgs(), true);
  }
  if (const auto* list = dyn_cast<InitListExpr>(e))
    return fromArguments([&](unsigned i) { return list->getInit(i); }, list->getNumInits(), true);
  // make_uint3(16, 16, 1), make_int3(...).
  if (const auto* call = dyn_cast<CallExpr>(e))
    if (const FunctionDecl* fn = call->getDirectCallee();
        fn && fn->getDeclName().isIdentifier() && (fn->getName() == "make_uint3" || fn->getName() == "make_int3") &&
        call->getNumArgs() == 3)
      return fromArguments([&](unsigned i) { return call->getArg(i); }, 3, false);
  if (const auto* arg = argumentOf(e, env); arg && !isReassigned(cast<DeclRefExpr>(e)->getDecl()))
    return dim3AxesOf(arg->expr, arg->env, depth + 1);
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && !isa<ParmVarDecl>(var) && var->getInit()) {
      // Assigned again: the value on the way to this read (`block = 128;` before the launch).
      const Expr* value = isReassigned(var) ? reachingValue(var, ref) : var->getInit();
      if (!value) return none;
      Dim3Axes d = dim3AxesOf(value, env, depth + 1);
      // dim3 threads; threads.x = 32; threads.y = 8;  (Rodinia writes launches so)
      if (const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
          fn && fn->getBody() && applyMemberAssignments(fn, var, d, env).otherMember)
        d = Dim3Axes{};
      // `case 512:` of `switch (threads.x)` around the launch.
      if (env)
        for (int k = 0; k < 3; ++k)
          if (auto f = env->axisFacts.find({var, k}); f != env->axisFacts.end()) d[k] = f->second;
      return d;
    }
  // An integer: a 1D block (or grid), its extent known or not.
  if (e->getType()->isIntegerType()) return Dim3Axes{constantOf(e, env), int64_t{1}, int64_t{1}};
  return none;
}

// host_writes.h.
void dim3Writes(const Stmt* s, const VarDecl* var, const std::function<void(const BinaryOperator*, int)>& each) {
  if (!s) return;
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
    if (const auto* m = dyn_cast<MemberExpr>(b->getLHS()->IgnoreParenImpCasts()))
      if (const auto* r = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts()); r && r->getDecl() == var) {
        const std::string name = m->getMemberDecl()->getNameAsString();
        each(b, name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1);
      }
  if (writesVariable(s, var)) each(nullptr, -1);
  for (const Stmt* c : s->children()) dim3Writes(c, var, each);
}

// Applies `var.x = constant` assignments in `fn` (the variable's function, or the launch's for
// a file-scope one): an axis assigned something not constant, or several different values, is
// not known (Rodinia myocyte sets `threads.x = 32` in one arm of `if (workload == 1)` and
// `threads.x = NUMBER_THREADS`, 32 too, in the other: 32). Under the cost's size defaults, an
// assignment in an arm the defaults make dead does not count (host_sizes.cpp,
// deadUnderDefaults): that arm's grid is not the run's. A member other than x, y, z (a dim3
// passed on by reference, say) leaves nothing known: the caller's to apply.
HostValues::AxisWrites HostValues::applyMemberAssignments(const FunctionDecl* fn, const VarDecl* var, Dim3Axes& d,
                                                          const HostEnv* env) {
  AxisWrites out;
  bool differ[3] = {false, false, false};
  dim3Writes(fn->getBody(), var, [&](const BinaryOperator* b, int k) {
    if (!b) {
      out.whole = true;
    } else if (k < 0) {
      out.otherMember = true;
    } else if (!defaults_ || !deadUnderDefaults(b, fn, env)) {
      auto v = b->getOpcode() == BO_Assign ? constantOf(b->getRHS(), env) : std::nullopt;
      differ[k] = differ[k] || !v || (out.assigned[k] && d[k] != v);
      out.assigned[k] = true;
      d[k] = differ[k] ? std::nullopt : v;
    }
  });
  return out;
}

}  // namespace coalesce::analysis
