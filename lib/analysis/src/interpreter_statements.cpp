// Statements: blocks (with the guards an early return, break or continue leaves on what
// follows), declarations, returns from inlined calls, if (both sides walked, the variables
// merged under the condition) and switch. Loops are in loop_summary.cpp.
#include <clang/AST/Attr.h>

#include <algorithm>

#include "interpreter.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// How a statement always ends: falls through, or the kind of jump it ends with.
enum class Leave { FallsThrough, Returns, Breaks, Continues };
Leave leaves(const Stmt* s) {
  if (!s) return Leave::FallsThrough;
  if (isa<ReturnStmt>(s)) return Leave::Returns;
  // `__trap()`, `__builtin_trap()`, `abort()` (each noreturn), inline `trap;`: the thread
  // stops there, so what follows runs only where the branch was not taken (llm.c's
  // `if (C % (32 * x128::size) != 0) __trap();` before its barriers).
  if (const auto* e = dyn_cast<Expr>(s))
    if (const auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit()))
      if (const FunctionDecl* callee = call->getDirectCallee();
          callee && (callee->isNoReturn() || callee->getName() == "__trap"))  // CUDA's __trap is a plain asm wrapper
        return Leave::Returns;
  if (const auto* gcc = dyn_cast<GCCAsmStmt>(s))
    if (gcc->getAsmString() && gcc->getAsmString()->getString().contains("trap;")) return Leave::Returns;
  if (isa<BreakStmt>(s)) return Leave::Breaks;
  if (isa<ContinueStmt>(s)) return Leave::Continues;
  if (const auto* c = dyn_cast<CompoundStmt>(s)) return c->body_empty() ? Leave::FallsThrough : leaves(c->body_back());
  return Leave::FallsThrough;
}

bool testsPerThreadData(const ExprRef& g) { return g && (containsOp(g, Op::LaneLoad) || containsOp(g, Op::Varying)); }

bool same(const Value& a, const Value& b) { return a.v == b.v && a.root == b.root && a.off == b.off; }

}  // namespace

void Interpreter::pushGuard(ExprRef g, std::string what, bool loop, bool exits) {
  // A loop's body runs while its bound holds, however the bound is loaded; an if on a value
  // loaded per lane (or one not followed) runs its body for lanes nobody can name statically.
  state_.guardTestsData.push_back(!loop && testsPerThreadData(g));
  state_.guardExits.push_back(exits);
  state_.guards.push_back(std::move(g));
  state_.guardTexts.push_back(std::move(what));
  InterpreterState::GuardSpan span{++state_.clock, 0, state_.loops};
  if (loop && !span.loops.empty()) span.loops.pop_back();  // its own loop, which a thread failing it leaves
  state_.guardIds.push_back(static_cast<int>(state_.guardSpans.size()));
  state_.guardSpans.push_back(std::move(span));
}
void Interpreter::popGuard() {
  state_.guardSpans[static_cast<size_t>(state_.guardIds.back())].popped = ++state_.clock;
  state_.guardIds.pop_back();
  state_.guards.pop_back();
  state_.guardTexts.pop_back();
  state_.guardTestsData.pop_back();
  state_.guardExits.pop_back();
}

void Interpreter::walk(const Stmt* s) {
  if (!s) return;
  if (const auto* c = dyn_cast<CompoundStmt>(s)) return compound(c);
  if (const auto* d = dyn_cast<DeclStmt>(s)) {
    for (const Decl* decl : d->decls())
      if (const auto* var = dyn_cast<VarDecl>(decl)) declare(var);
    return;
  }
  if (const auto* r = dyn_cast<ReturnStmt>(s)) return returnStmt(r);
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) return;  // handled by the enclosing block
  if (const auto* iff = dyn_cast<IfStmt>(s)) {
    ifStmt(iff);
    return;
  }
  if (const auto* f = dyn_cast<ForStmt>(s)) return loop(f->getInit(), f->getCond(), f->getInc(), f->getBody(), s);
  if (const auto* w = dyn_cast<WhileStmt>(s)) return loop(nullptr, w->getCond(), nullptr, w->getBody(), s);
  if (const auto* dw = dyn_cast<DoStmt>(s)) return loop(nullptr, dw->getCond(), nullptr, dw->getBody(), s, true);
  if (const auto* sw = dyn_cast<SwitchStmt>(s)) return switchStmt(sw);
  if (const auto* gcc = dyn_cast<GCCAsmStmt>(s)) return asmStatement(gcc);
  if (const auto* e = dyn_cast<Expr>(s)) {
    eval(e);
    return;
  }
  for (const Stmt* child : s->children()) walk(child);
}

void Interpreter::compound(const CompoundStmt* c) {
  size_t pushed = 0;
  for (const Stmt* child : c->body()) {
    const auto* iff = dyn_cast<IfStmt>(child);
    const ExprRef ifCondition = iff ? ifStmt(iff) : nullptr;
    if (!iff) walk(child);
    // A return in a loop (loop_summary.cpp): from the kernel itself, the thread has exited.
    for (auto& [g, what] : state_.pendingGuards) {
      pushGuard(unary(Op::Not, g), "!(" + what + ")", false, state_.frames.empty());
      ++pushed;
    }
    state_.pendingGuards.clear();
    // `if (i >= n) return;` (or continue, or break): what follows in this block runs
    // only where the condition was false; a break or a return also ends the loop.
    if (iff && !iff->getElse()) {
      const Leave how = leaves(iff->getThen());
      if (how != Leave::FallsThrough) {
        // A return from the kernel itself (no inlined call's frame): the threads taking it exit.
        pushGuard(unary(Op::Not, ifCondition), "!(" + text(iff->getCond()->getSourceRange()) + ")", false,
                  how == Leave::Returns && state_.frames.empty());
        ++pushed;
        // A return in an inlined call leaves only the loops opened inside that call.
        if ((how == Leave::Breaks || how == Leave::Returns) && state_.loopExits.size() > loopsBeforeCall())
          state_.loopExits.back().push_back({ifCondition, how == Leave::Returns});
      }
    }
  }
  for (; pushed; --pushed) popGuard();
}

void Interpreter::markLeavingAccesses(size_t from, const Stmt* arm) {
  const Leave how = leaves(arm);
  if ((how != Leave::Returns && how != Leave::Breaks) || state_.loops.empty() || from >= events_.accesses.size()) return;
  std::vector<int> left;
  if (how == Leave::Breaks) {
    // A break in a switch opened inside the innermost loop leaves the switch only.
    if (!state_.switchLoopDepths.empty() && state_.switchLoopDepths.back() >= state_.loops.size()) return;
    left.push_back(state_.loops.back());
  } else {
    // A return in an inlined call leaves the loops opened inside the call.
    const size_t depth = std::min(loopsBeforeCall(), state_.loops.size());
    left.assign(state_.loops.begin() + static_cast<std::ptrdiff_t>(depth), state_.loops.end());
  }
  // The arm's accesses sit in every loop open now (their `loops` begin with state_.loops).
  for (size_t i = from; i < events_.accesses.size(); ++i) {
    std::vector<int>& leaves = events_.accesses[i].leavesLoops;
    for (int loop : left)
      if (std::find(leaves.begin(), leaves.end(), loop) == leaves.end()) leaves.push_back(loop);
  }
}

// A return from an inlined call: its value, under the guards taken since the call.
void Interpreter::returnStmt(const ReturnStmt* r) {
  if (state_.frames.empty()) {
    if (r->getRetValue()) eval(r->getRetValue());
    return;
  }
  Value v = intValue(constant(0));
  if (const Expr* e = r->getRetValue()) {
    if (state_.frames.back().returnsReference) {
      if (auto loc = location(e->IgnoreParenImpCasts())) v = Value{nullptr, loc->root, loc->offset};
      else v = eval(e);
    } else {
      v = eval(e);
    }
  }
  state_.frames.back().returns.push_back({conjunction(state_.frames.back().guardDepth), v});
}

void Interpreter::switchStmt(const SwitchStmt* sw) {
  ExprRef cond = asInt(eval(sw->getCond()));
  // Lanes split when they disagree on the value: compare it with lane 0's, as a
  // condition that differs exactly when the values do.
  recordBranch(BranchKind::Switch, cond, sw->getCond(), sw);
  pushGuard(dependsOnThread(cond) ? leaf(Op::Varying) : constant(1), "switch (" + text(sw->getCond()->getSourceRange()) + ")");
  state_.guardTestsData.back() = testsPerThreadData(cond);  // the case taken is the value's, not the stand-in's
  state_.switchLoopDepths.push_back(state_.loops.size());
  walk(sw->getBody());
  state_.switchLoopDepths.pop_back();
  popGuard();
}

// Inline PTX: what it computes is not followed, but its operands are. Inputs are read
// (memory operands recorded as loads); each output gets an unknown value, the same in every
// lane only when every input is and the text reads no special register (`%%laneid`,
// `%%clock`: lane- or time-varying). A local array written through outputs ("=r"(key[k]))
// holds per-thread data from then on (ccminer's neoscrypt derives its shared-memory index
// from such a key: docs/precision.md, panel 18). A "memory" clobber ends what the compiler
// may keep in registers.
void Interpreter::asmStatement(const GCCAsmStmt* a) {
  std::vector<ExprRef> inputs;
  for (unsigned i = 0; i < a->getNumInputs(); ++i) inputs.push_back(asInt(eval(a->getInputExpr(i))));
  for (unsigned i = 0; i < a->getNumOutputs(); ++i)
    if (a->isOutputPlusConstraint(i)) inputs.push_back(asInt(eval(a->getOutputExpr(i))));
  const bool readsSpecialRegister = a->getAsmString() && a->getAsmString()->getString().contains("%%");
  const ExprRef result = readsSpecialRegister ? leaf(Op::Varying) : opaqueLike(inputs, "inline asm output");
  for (unsigned i = 0; i < a->getNumOutputs(); ++i) {
    const Expr* out = a->getOutputExpr(i);
    if (auto loc = location(out)) {
      record(model::AccessKind::Store, *loc, out);
      stored(*loc, intValue(result));
      continue;
    }
    if (!assignRegister(out, intValue(result))) eval(out);
  }
  for (unsigned i = 0; i < a->getNumClobbers(); ++i)
    if (a->getClobber(i) == "memory") memoryMayChange();
  if (asmHoldsBarrier(a)) noteBarrierSighting();
}

void Interpreter::declare(const VarDecl* var) {
  if (var->hasAttr<CUDASharedAttr>() || var->isStaticLocal()) return;  // memory, found by location()
  if (var->getType()->isArrayType()) {
    if (const Expr* init = var->getInit()) eval(init);
    return;
  }
  const Expr* init = var->getInit();
  if (!init) {
    state_.env[var] = intValue(leaf(Op::Varying));
    return;
  }
  if (var->getType()->isReferenceType()) {
    if (auto loc = location(init->IgnoreParenImpCasts())) {
      state_.env[var] = Value{nullptr, loc->root, loc->offset};
      return;
    }
  }
  if (auto object = registerRecordAddress(init, var->getType())) {  // const Params* q = &p;
    state_.env[var] = *object;
    return;
  }
  state_.env[var] = eval(init);
}

void Interpreter::mergeEnvs(const ExprRef& cond, Env thenEnv, const Env& elseEnv) {
  Env merged = std::move(thenEnv);
  for (auto& [var, value] : merged) {
    auto it = elseEnv.find(var);
    if (it == elseEnv.end()) continue;
    if (!same(value, it->second)) value = merge(cond, value, it->second);
  }
  for (const auto& [var, value] : elseEnv)
    if (!merged.count(var)) merged[var] = value;
  state_.env = std::move(merged);
}

ExprRef Interpreter::ifStmt(const IfStmt* iff) {
  if (iff->getInit()) walk(iff->getInit());
  if (const VarDecl* cv = iff->getConditionVariable()) declare(cv);
  ExprRef cond = asInt(eval(iff->getCond()));
  recordBranch(BranchKind::If, cond, iff->getCond(), iff);
  const std::string condText = text(iff->getCond()->getSourceRange());
  // Each arm's variables as the other found them: one copy of the map before the arms, the
  // rest moved (a kernel of many nested ifs, LonestarGPU's pta, copied it four times per `if`).
  Env before = state_.env;
  pushGuard(cond, condText);
  const size_t thenFrom = events_.accesses.size();
  walk(iff->getThen());
  markLeavingAccesses(thenFrom, iff->getThen());
  popGuard();
  Env thenEnv = std::move(state_.env);
  state_.env = std::move(before);
  if (iff->getElse()) {
    pushGuard(unary(Op::Not, cond), "!(" + condText + ")");
    const size_t elseFrom = events_.accesses.size();
    walk(iff->getElse());
    markLeavingAccesses(elseFrom, iff->getElse());
    popGuard();
  }
  mergeEnvs(cond, std::move(thenEnv), state_.env);
  return cond;
}

}  // namespace coalesce::analysis
