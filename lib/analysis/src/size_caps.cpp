#include "size_caps.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace coalesce::analysis {

using namespace clang;

namespace {

bool refersTo(const Expr* e, const ValueDecl* var) {
  const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return r && r->getDecl() == var;
}

// `min(a, b)` by any namespace (std::min, ::min, CUDA's host min).
const CallExpr* minCall(const Expr* e) {
  const auto* call = dyn_cast<CallExpr>(e);
  const FunctionDecl* fn = call ? call->getDirectCallee() : nullptr;
  if (!fn || call->getNumArgs() != 2 || !fn->getDeclName().isIdentifier() || fn->getName() != "min") return nullptr;
  return call;
}

}  // namespace

std::string SizeCaps::where(SourceLocation loc) const {
  const SourceManager& sm = ctx_.getSourceManager();
  const PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid()) return "?";
  std::string file = p.getFilename();
  if (const size_t slash = file.find_last_of('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(p.getLine());
}

std::string SizeCaps::text(const Expr* e) const {
  const SourceManager& sm = ctx_.getSourceManager();
  const CharSourceRange range = CharSourceRange::getTokenRange(sm.getExpansionRange(e->getSourceRange()).getAsRange());
  return Lexer::getSourceText(range, sm, ctx_.getLangOpts()).str();
}

std::optional<bool> SizeCaps::holdsForLargeInput(const Expr* condition, const HostEnv* env) {
  condition = condition->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(condition); u && u->getOpcode() == UO_LNot) {
    auto v = holdsForLargeInput(u->getSubExpr(), env);
    return v ? std::optional<bool>(!*v) : std::nullopt;
  }
  const auto* b = dyn_cast<BinaryOperator>(condition);
  if (!b) return std::nullopt;
  if (b->getOpcode() == BO_LAnd || b->getOpcode() == BO_LOr) {
    const auto side = [&](const Expr* e) -> std::optional<bool> {
      if (auto c = values_.constantOf(e, env)) return *c != 0;
      return holdsForLargeInput(e, env);
    };
    auto l = side(b->getLHS()), r = side(b->getRHS());
    if (!l || !r) return std::nullopt;
    return b->getOpcode() == BO_LAnd ? (*l && *r) : (*l || *r);
  }
  if (!b->isRelationalOp()) return std::nullopt;  // <, <=, >, >=: == and != say nothing of a large input
  const auto lhs = values_.constantOf(b->getLHS(), env), rhs = values_.constantOf(b->getRHS(), env);
  if (lhs.has_value() == rhs.has_value()) return std::nullopt;  // one side the input, the other constant
  const bool inputLeft = rhs.has_value();  // the input is infinite: `n > C` holds
  switch (b->getOpcode()) {
    case BO_GT:
    case BO_GE: return inputLeft;
    case BO_LT:
    case BO_LE: return !inputLeft;
    default: return std::nullopt;
  }
}

std::optional<int64_t> SizeCaps::capOf(const Expr* e, const HostEnv* env, std::string& why, int depth) {
  if (!e || e->isValueDependent() || depth > kMaxDepth) return std::nullopt;
  if (auto v = values_.constantOf(e, env)) return v;
  e = e->IgnoreParenImpCasts();
  // `n < 1024 ? n : 1024`: the arm a large n takes.
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
    const auto holds = holdsForLargeInput(c->getCond(), env);
    if (!holds) return std::nullopt;
    std::string inner;
    const auto v = capOf(*holds ? c->getTrueExpr() : c->getFalseExpr(), env, inner, depth + 1);
    if (v) why = "`" + text(e) + "` is " + std::to_string(*v) + " (" + where(e->getBeginLoc()) + ")";
    return v;
  }
  // min(n, 256): the constant side (or the smaller cap) when the other is a large input.
  if (const CallExpr* m = minCall(e)) {
    std::string a, b;
    const auto x = capOf(m->getArg(0), env, a, depth + 1), y = capOf(m->getArg(1), env, b, depth + 1);
    if (!x && !y) return std::nullopt;
    const int64_t v = x && y ? std::min(*x, *y) : x ? *x : *y;
    why = "`" + text(e) + "` is " + std::to_string(v) + " (" + where(e->getBeginLoc()) + ")";
    return v;
  }
  if (const auto* arg = argumentOf(e, env); arg && !values_.isReassigned(cast<DeclRefExpr>(e)->getDecl()))
    return capOf(arg->expr, arg->env, why, depth + 1);
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && var->isLocalVarDecl() && !isa<ParmVarDecl>(var))
      return cappedLocal(var, env, why, depth + 1);
  return std::nullopt;
}

// A local given several values, each under the ifs around it: those whose ifs a large input
// takes run, in the order written, and the last of them must give a constant (or a cap). At
// least one `if` must be read so: a local with no such guard is not capped, just unknown.
// Bumps, compound assignments, its address taken, or a value given inside a loop (whose order
// the code does not fix) leave it unknown.
std::optional<int64_t> SizeCaps::cappedLocal(const VarDecl* var, const HostEnv* env, std::string& why, int depth) {
  const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
  if (!fn || !fn->getBody()) return std::nullopt;
  struct Value {
    const Expr* expr;
    std::vector<std::pair<const Expr*, bool>> guards;  // condition, branch (then: true)
  };
  std::vector<Value> values;
  if (var->getInit()) values.push_back({var->getInit(), {}});
  bool plain = true;
  std::vector<std::pair<const Expr*, bool>> guards;
  int loops = 0;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || !plain) return;
    if (const auto* i = dyn_cast<IfStmt>(s)) {
      scan(i->getCond());
      guards.push_back({i->getCond(), true});
      scan(i->getThen());
      guards.back().second = false;
      scan(i->getElse());
      guards.pop_back();
      return;
    }
    const bool loop = isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
    loops += loop;
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && refersTo(b->getLHS(), var)) {
      if (b->getOpcode() != BO_Assign || loops > 0) plain = false;
      else values.push_back({b->getRHS(), guards});
    }
    if (const auto* u = dyn_cast<UnaryOperator>(s))
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && refersTo(u->getSubExpr(), var)) plain = false;
    for (const Stmt* c : s->children()) scan(c);
    loops -= loop;
  };
  scan(fn->getBody());
  if (!plain || values.empty()) return std::nullopt;
  const Value* last = nullptr;
  for (const Value& v : values) {
    bool runs = true;
    for (const auto& g : v.guards) {
      const auto holds = holdsForLargeInput(g.first, env);
      if (!holds) return std::nullopt;  // a guard that says nothing of a large input
      runs = runs && *holds == g.second;
    }
    if (runs) last = &v;
  }
  if (!last) return std::nullopt;
  std::string inner;
  const auto value = capOf(last->expr, env, inner, depth + 1);
  if (!value) return std::nullopt;
  // A cap, not any value under any `if`: the `if` compares the input with the value itself
  // (`if (n > 512) threads = 512`, `if (n < 512) threads = n` after `threads = 512`), and
  // another value is the input's (`int b; if (n > 4) b = 96;` is not a cap).
  const std::pair<const Expr*, bool>* decisive = nullptr;
  bool inputValue = false;
  for (const Value& v : values) {
    if (!values_.constantOf(v.expr, env)) inputValue = true;
    for (const auto& g : v.guards)
      if (const auto* b = dyn_cast<BinaryOperator>(g.first->IgnoreParenImpCasts()); b && b->isRelationalOp() && !decisive) {
        const auto l = values_.constantOf(b->getLHS(), env), r = values_.constantOf(b->getRHS(), env);
        if ((l && *l == *value) || (r && *r == *value)) decisive = &g;
      }
  }
  if (decisive && !inputValue) return std::nullopt;
  if (!decisive && inner.empty()) return std::nullopt;  // neither an `if` nor its value is a cap
  if (decisive)
    why = "`" + var->getNameAsString() + "` is " + std::to_string(*value) + " for a large input, by `" +
          text(decisive->first) + "` (" + where(decisive->first->getBeginLoc()) + ")";
  else
    why = "`" + var->getNameAsString() + "` = " + inner;
  return value;
}

CappedAxes SizeCaps::cappedAxesOf(const Expr* block, const HostEnv* env) {
  CappedAxes out;
  std::string why;
  const auto axis = [&](const Expr* a) -> std::optional<int64_t> {
    if (isa<CXXDefaultArgExpr>(a)) return 1;
    std::string w;
    auto v = capOf(a, env, w, 0);
    if (v && !w.empty()) {
      out.capped = true;
      why += (why.empty() ? "" : "; ") + w;
    }
    return v;
  };
  const Expr* e = block;
  for (int depth = 0; e && depth < kMaxDepth; ++depth) {
    e = e->IgnoreParenImpCasts();
    if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto* t = dyn_cast<CXXBindTemporaryExpr>(e)) e = t->getSubExpr();
    else if (const auto* f = dyn_cast<CXXFunctionalCastExpr>(e)) e = f->getSubExpr();
    else if (const auto* c = dyn_cast<CXXConstructExpr>(e); c && c->getNumArgs() == 1 && c->getArg(0)->getType()->isRecordType())
      e = c->getArg(0);
    else if (const auto* r = dyn_cast<DeclRefExpr>(e); r && r->getType()->isRecordType()) {
      // A dim3 local initialised once, its members never assigned.
      const auto* var = dyn_cast<VarDecl>(r->getDecl());
      if (!var || isa<ParmVarDecl>(var) || !var->getInit() || values_.isReassigned(var)) return out;
      const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
      bool members = !fn || !fn->getBody();
      std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
        if (!s || members) return;
        if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
          if (const auto* me = dyn_cast<MemberExpr>(b->getLHS()->IgnoreParenImpCasts()); me && refersTo(me->getBase(), var))
            members = true;
        for (const Stmt* child : s->children()) scan(child);
      };
      if (fn) scan(fn->getBody());
      if (members) return out;
      e = var->getInit();
    } else break;
  }
  if (!e) return out;
  if (const auto* c = dyn_cast<CXXConstructExpr>(e)) {
    for (unsigned i = 0; i < 3; ++i) out.axes[i] = i < c->getNumArgs() ? axis(c->getArg(i)) : std::optional<int64_t>(1);
  } else if (const auto* l = dyn_cast<InitListExpr>(e)) {
    for (unsigned i = 0; i < 3; ++i) out.axes[i] = i < l->getNumInits() ? axis(l->getInit(i)) : std::optional<int64_t>(1);
  } else if (e->getType()->isIntegerType()) {
    out.axes = {axis(e), int64_t{1}, int64_t{1}};
  }
  out.why = why;
  return out;
}

}  // namespace coalesce::analysis
