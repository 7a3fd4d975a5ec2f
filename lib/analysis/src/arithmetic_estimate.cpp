#include "arithmetic_estimate.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "loop_comparison.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

const OperationCounts& cheaper(const OperationCounts& a, const OperationCounts& b) {
  return a.cyclesPerWarp <= b.cyclesPerWarp ? a : b;
}

// A value and whether it is a constant the compiler folds (literals, enumerators, constexpr
// variables, template arguments, and operators on them), which costs nothing at run time.
struct Counted {
  OperationCounts tally;
  bool constant = false;
};

// Machine instructions per source operator, at least: nvcc fuses up to three integer operators
// into one instruction (LOP3 takes any function of three inputs, a rotate `(x >> r) | (x << (32
// - r))` is one funnel shift, IADD3 adds three) and two floating ones (FMA); a 64-bit operator
// is two instructions, one per half, fused as well. Measured on the H200 (bench/compute_bound/:
// SASS per round of its SHA-like mixing over the C operators of the round): 0.76 for 64-bit
// integers, 0.41 for 32-bit, 0.5 to 1 for single precision. These floors are below each.
constexpr double kInstructionsPerInt64Operator = 2.0 / 3.0;
constexpr double kInstructionsPerInt32Operator = 1.0 / 3.0;
constexpr double kInstructionsPerFloatOperator = 0.5;

// Loops with more trips than this are counted as if their trips were unknown (once).
constexpr int64_t kMostTrips = int64_t{1} << 22;

// CUDA's math functions that run on the special-function unit (at least one instruction
// there), and the integer intrinsics of one instruction, by the name the source calls.
bool isSpecialFunction(std::string_view name) {
  static const char* const kPrefixes[] = {"sqrt", "rsqrt", "cbrt", "exp", "log", "sin", "cos", "tan", "pow",
                                          "erf", "atan", "asin", "acos", "hypot", "__exp", "__log", "__sin",
                                          "__cos", "__tan", "__pow", "__fsqrt", "__frsqrt", "__frcp", "__fdiv",
                                          "__dsqrt", "__drcp", "__ddiv", "rcbrt", "rhypot", "norm"};
  for (const char* p : kPrefixes)
    if (name.substr(0, std::string_view(p).size()) == p) return true;
  return false;
}
bool isOneInstructionIntrinsic(std::string_view name) {
  static const char* const kNames[] = {"__funnelshift_l", "__funnelshift_lc", "__funnelshift_r", "__funnelshift_rc",
                                       "__byte_perm", "__popc", "__popcll", "__clz", "__clzll", "__brev",
                                       "__brevll", "__ffs", "__ffsll", "__umulhi", "__mulhi", "__umul64hi",
                                       "__mul64hi", "__mul24", "__umul24", "__sad", "__usad", "min", "max",
                                       "umin", "umax", "llmin", "llmax", "ullmin", "ullmax", "fminf", "fmaxf",
                                       "fmin", "fmax", "fabsf", "fabs", "abs", "llabs", "fmaf", "fma", "__fmaf_rn",
                                       "__fma_rn", "__fadd_rn", "__fmul_rn", "__dadd_rn", "__dmul_rn"};
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

// Inline PTX: one instruction per statement of its text, directives (`.reg`), braces,
// labels and comments left out.
double ptxInstructions(const GCCAsmStmt& a) {
  const StringLiteral* text = a.getAsmString();
  if (!text) return 0;
  const std::string_view s = text->getString();
  double n = 0;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find_first_of(";\n", start);
    if (end == std::string_view::npos) end = s.size();
    std::string_view piece = s.substr(start, end - start);
    while (!piece.empty() && (piece.front() == ' ' || piece.front() == '\t' || piece.front() == '{' ||
                              piece.front() == '}' || piece.front() == '\r'))
      piece.remove_prefix(1);
    while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\t' || piece.back() == '}' || piece.back() == '\r'))
      piece.remove_suffix(1);
    const bool directive = !piece.empty() && piece.front() == '.';
    const bool comment = piece.substr(0, 2) == "//";
    const bool label = !piece.empty() && piece.back() == ':';
    if (!piece.empty() && !directive && !comment && !label) ++n;
    start = end + 1;
  }
  return n;
}

// Whether the condition holds for one thread of a few at most: `tid == 0`, `!lane`, and such
// tests joined by `&&`. Work under it is not counted: most warps never run it.
bool isEqualityTest(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    if (b->getOpcode() == BO_EQ) return true;
    if (b->getOpcode() == BO_LAnd) return isEqualityTest(b->getLHS()) || isEqualityTest(b->getRHS());
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return u->getOpcode() == UO_LNot;
  return false;
}

const VarDecl* referencedVar(const Expr* e) {
  if (const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts())) return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

// Whether `s` assigns `var` or leaves its loop early (break of this loop, return, goto): then
// the trip count the header shows is not the loop's.
bool changesTrips(const Stmt* s, const VarDecl* var, bool insideInner) {
  if (!s) return false;
  if (isa<ReturnStmt>(s) || isa<GotoStmt>(s)) return true;
  if (isa<BreakStmt>(s) && !insideInner) return true;
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && referencedVar(b->getLHS()) == var)
    return true;
  if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp() && referencedVar(u->getSubExpr()) == var)
    return true;
  const bool inner = insideInner || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<SwitchStmt>(s);
  for (const Stmt* child : s->children())
    if (changesTrips(child, var, inner)) return true;
  return false;
}

std::optional<int64_t> constantInt(const Expr* e, const ASTContext& ctx) {
  if (!e || e->isValueDependent()) return std::nullopt;
  Expr::EvalResult r;
  if (!e->EvaluateAsInt(r, ctx) || !r.Val.isInt()) return std::nullopt;
  return r.Val.getInt().getExtValue();
}

// The trips of `for (v = a; v OP b; v STEP c)` with a, b, c constants and a body that neither
// assigns v nor leaves early.
std::optional<int64_t> constantTrips(const ForStmt& loop, const ASTContext& ctx) {
  const VarDecl* var = nullptr;
  std::optional<int64_t> start;
  if (const auto* decl = dyn_cast_or_null<DeclStmt>(loop.getInit()); decl && decl->isSingleDecl()) {
    var = dyn_cast<VarDecl>(decl->getSingleDecl());
    if (var && var->getInit()) start = constantInt(var->getInit(), ctx);
  } else if (const auto* assign = dyn_cast_or_null<BinaryOperator>(loop.getInit());
             assign && assign->getOpcode() == BO_Assign) {
    var = referencedVar(assign->getLHS());
    start = constantInt(assign->getRHS(), ctx);
  }
  if (!var || !start || !var->getType()->isIntegerType()) return std::nullopt;
  const auto* cond = dyn_cast_or_null<BinaryOperator>(loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!cond || !cond->isComparisonOp()) return std::nullopt;
  BinaryOperatorKind op = cond->getOpcode();
  std::optional<int64_t> bound;
  if (referencedVar(cond->getLHS()) == var) {
    bound = constantInt(cond->getRHS(), ctx);
  } else if (referencedVar(cond->getRHS()) == var) {
    bound = constantInt(cond->getLHS(), ctx);
    op = BinaryOperator::reverseComparisonOp(op);
  }
  if (!bound) return std::nullopt;
  // The step: v++, ++v, v--, v += c, v -= c, v *= c, v <<= c, v >>= c, v /= c.
  const Expr* inc = loop.getInc() ? loop.getInc()->IgnoreParenImpCasts() : nullptr;
  if (!inc) return std::nullopt;
  std::function<int64_t(int64_t)> step;
  if (const auto* u = dyn_cast<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && referencedVar(u->getSubExpr()) == var) {
    const int64_t d = u->isIncrementOp() ? 1 : -1;
    step = [d](int64_t v) { return v + d; };
  } else if (const auto* c = dyn_cast<CompoundAssignOperator>(inc); c && referencedVar(c->getLHS()) == var) {
    const std::optional<int64_t> by = constantInt(c->getRHS(), ctx);
    if (!by) return std::nullopt;
    const int64_t k = *by;
    switch (c->getOpcode()) {
      case BO_AddAssign: step = [k](int64_t v) { return v + k; }; break;
      case BO_SubAssign: step = [k](int64_t v) { return v - k; }; break;
      case BO_MulAssign: step = [k](int64_t v) { return v * k; }; break;
      case BO_DivAssign: if (k == 0) return std::nullopt; step = [k](int64_t v) { return v / k; }; break;
      case BO_ShlAssign: if (k < 0 || k > 62) return std::nullopt; step = [k](int64_t v) { return v << k; }; break;
      case BO_ShrAssign: if (k < 0 || k > 62) return std::nullopt; step = [k](int64_t v) { return v >> k; }; break;
      default: return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (changesTrips(loop.getBody(), var, false)) return std::nullopt;
  const auto holds = [&](int64_t v) { return loopConditionHolds(op, v, *bound); };
  int64_t v = *start, trips = 0;
  while (holds(v)) {
    if (++trips > kMostTrips) return std::nullopt;
    const int64_t next = step(v);
    if (next == v) return std::nullopt;  // a step that does not move (x *= 1, 0 <<= 1)
    v = next;
  }
  return trips;
}

class Counter {
 public:
  Counter(ASTContext& ctx, const model::Arch& arch) : ctx_(ctx), arch_(arch) {}

  OperationCounts function(const FunctionDecl* fn) {
    const FunctionDecl* def = nullptr;
    if (!fn || !fn->hasBody(def) || !def) return {};
    if (auto it = memo_.find(def); it != memo_.end()) return it->second;
    if (active_.size() >= 32 || !active_.insert(def).second) return {};  // recursion: once
    const OperationCounts t = statement(def->getBody());
    active_.erase(def);
    memo_[def] = t;
    return t;
  }

  int loopsCountedOnce = 0;

 private:
  double cyclesOf(double lanesPerCycle) const { return arch_.warpSize / lanesPerCycle; }

  // `weight` operators on values of `type` (`instruction`: `weight` machine instructions, an
  // intrinsic's, not operators that may fuse).
  OperationCounts op(QualType type, double weight = 1, bool instruction = false) const {
    OperationCounts t;
    if (type.isNull()) return t;
    type = type.getCanonicalType();
    if (const auto* v = type->getAs<VectorType>()) type = v->getElementType().getCanonicalType();
    if (type->isRealFloatingType()) {
      const double instructions = weight * (instruction ? 1.0 : kInstructionsPerFloatOperator);
      if (ctx_.getTypeSize(type) > 32) {
        t.doubleOps = weight;
        t.cyclesPerWarp = instructions * cyclesOf(arch_.fp64LanesPerCycle);
      } else {
        t.floatOps = weight;
        t.cyclesPerWarp = instructions * cyclesOf(arch_.fp32LanesPerCycle);
      }
    } else if (type->isIntegerType() && !type->isBooleanType()) {
      const uint64_t bits = ctx_.getTypeSize(type);
      if (bits > 32) {
        t.int64Ops = weight;
        t.cyclesPerWarp = weight * (instruction ? 1.0 : kInstructionsPerInt64Operator) * cyclesOf(arch_.int32LanesPerCycle);
      } else if (type->isUnsignedIntegerType() || instruction) {
        t.int32Ops = weight;
        t.cyclesPerWarp = weight * (instruction ? 1.0 : kInstructionsPerInt32Operator) * cyclesOf(arch_.int32LanesPerCycle);
      }
      // Signed 32-bit operators and narrower: indices and counters, which unrolling and address
      // modes mostly fold. Not counted.
    }
    return t;
  }

  OperationCounts statement(const Stmt* s) {
    if (!s) return {};
    if (const auto* e = dyn_cast<Expr>(s)) return expr(e).tally;
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      OperationCounts t;
      for (const Decl* decl : d->decls())
        if (const auto* var = dyn_cast<VarDecl>(decl); var && var->getInit() && var->isLocalVarDecl() &&
                                                        !var->isStaticLocal() && !var->hasAttr<CUDASharedAttr>())
          t += expr(var->getInit()).tally;
      return t;
    }
    if (const auto* i = dyn_cast<IfStmt>(s)) {
      OperationCounts t = statement(i->getInit());
      if (i->getConditionVariableDeclStmt()) t += statement(i->getConditionVariableDeclStmt());
      const Counted cond = expr(i->getCond());
      t += cond.tally;
      if (cond.constant) {
        // `if constexpr`, or a condition on template arguments: the arm the compiler keeps.
        bool value = false;
        if (!i->getCond()->isValueDependent() && i->getCond()->EvaluateAsBooleanCondition(value, ctx_)) {
          t += statement(value ? i->getThen() : i->getElse());
          return t;
        }
      }
      if (i->getElse()) {
        t += cheaper(statement(i->getThen()), statement(i->getElse()));
      } else if (!isEqualityTest(i->getCond())) {
        t += statement(i->getThen());
      }
      return t;
    }
    if (const auto* f = dyn_cast<ForStmt>(s)) {
      OperationCounts t = statement(f->getInit());
      OperationCounts pass = statement(f->getBody());
      if (f->getCond()) pass += expr(f->getCond()).tally;
      if (f->getInc()) pass += expr(f->getInc()).tally;
      const std::optional<int64_t> trips = constantTrips(*f, ctx_);
      if (!trips) ++loopsCountedOnce;
      t += pass.times(trips ? static_cast<double>(*trips) : 1.0);
      return t;
    }
    if (isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) {
      ++loopsCountedOnce;
      OperationCounts t;
      for (const Stmt* child : s->children()) t += statement(child);
      return t;
    }
    if (const auto* sw = dyn_cast<SwitchStmt>(s)) return expr(sw->getCond()).tally;  // which case: unknown
    if (const auto* a = dyn_cast<GCCAsmStmt>(s)) {
      OperationCounts t;
      for (const Expr* in : a->inputs()) t += expr(in).tally;
      const double n = ptxInstructions(*a);
      t.asmInstructions += n;
      t.cyclesPerWarp += n * cyclesOf(arch_.int32LanesPerCycle);
      return t;
    }
    OperationCounts t;
    for (const Stmt* child : s->children()) t += statement(child);
    return t;
  }

  Counted expr(const Expr* e) {
    Counted out;
    if (!e) {
      out.constant = true;
      return out;
    }
    if (e->isValueDependent() || e->isTypeDependent()) return out;
    if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CharacterLiteral>(e) ||
        isa<CXXBoolLiteralExpr>(e) || isa<UnaryExprOrTypeTraitExpr>(e) || isa<SubstNonTypeTemplateParmExpr>(e) ||
        isa<CXXNullPtrLiteralExpr>(e) || isa<StringLiteral>(e)) {
      out.constant = true;
      return out;
    }
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
      const ValueDecl* d = ref->getDecl();
      if (isa<EnumConstantDecl>(d)) out.constant = true;
      if (const auto* var = dyn_cast<VarDecl>(d)) out.constant = var->isUsableInConstantExpressions(ctx_);
      return out;
    }
    if (const auto* cast = dyn_cast<CastExpr>(e)) return expr(cast->getSubExpr());
    if (const auto* paren = dyn_cast<ParenExpr>(e)) return expr(paren->getSubExpr());
    if (const auto* b = dyn_cast<BinaryOperator>(e)) return binary(*b);
    if (const auto* u = dyn_cast<UnaryOperator>(e)) {
      Counted sub = expr(u->getSubExpr());
      switch (u->getOpcode()) {
        case UO_PreInc: case UO_PostInc: case UO_PreDec: case UO_PostDec:
          sub.tally += op(u->getSubExpr()->getType());
          sub.constant = false;
          return sub;
        case UO_Minus: case UO_Not: case UO_LNot:
          if (!sub.constant) sub.tally += op(u->getSubExpr()->getType());
          return sub;
        case UO_Deref: case UO_AddrOf:
          sub.constant = false;
          return sub;
        default:
          return sub;
      }
    }
    if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
      const Counted cond = expr(c->getCond());
      out.tally = cond.tally;
      out.tally += cheaper(expr(c->getTrueExpr()).tally, expr(c->getFalseExpr()).tally);
      out.tally += op(ctx_.UnsignedIntTy, 1, true);  // the select
      return out;
    }
    if (const auto* call = dyn_cast<CallExpr>(e)) return this->call(*call);
    if (const auto* construct = dyn_cast<CXXConstructExpr>(e)) {
      for (const Expr* arg : construct->arguments()) out.tally += expr(arg).tally;
      return out;
    }
    // Subscripts, members, initialiser lists and the rest: what their parts cost.
    bool allConstant = true, any = false;
    for (const Stmt* child : e->children()) {
      const auto* sub = dyn_cast_or_null<Expr>(child);
      if (!sub) continue;
      any = true;
      const Counted c = expr(sub);
      out.tally += c.tally;
      allConstant = allConstant && c.constant;
    }
    out.constant = any && allConstant && !isa<ArraySubscriptExpr>(e) && !isa<MemberExpr>(e);
    return out;
  }

  Counted binary(const BinaryOperator& b) {
    const BinaryOperatorKind k = b.getOpcode();
    if (k == BO_LAnd || k == BO_LOr) {
      // The right side may be skipped: the left side is what every thread evaluates.
      Counted l = expr(b.getLHS());
      l.constant = false;
      return l;
    }
    const Counted l = expr(b.getLHS()), r = expr(b.getRHS());
    Counted out;
    out.tally = l.tally;
    out.tally += r.tally;
    if (k == BO_Comma) return out;
    if (k == BO_Assign) return out;
    if (b.isCompoundAssignmentOp()) {
      out.tally += op(b.getLHS()->getType(), k == BO_DivAssign || k == BO_RemAssign ? 2 : 1);
      return out;
    }
    if (l.constant && r.constant) {
      out.constant = true;
      return out;
    }
    if (b.getLHS()->getType()->isPointerType() || b.getRHS()->getType()->isPointerType()) return out;
    out.tally += op(b.getLHS()->getType(), k == BO_Div || k == BO_Rem ? 2 : 1);
    return out;
  }

  Counted call(const CallExpr& c) {
    Counted out;
    for (const Expr* arg : c.arguments()) out.tally += expr(arg).tally;
    const FunctionDecl* callee = c.getDirectCallee();
    if (!callee) return out;
    const SourceManager& sm = ctx_.getSourceManager();
    const bool system = sm.isInSystemHeader(sm.getExpansionLoc(callee->getLocation()));
    const FunctionDecl* def = nullptr;
    if (!system && callee->hasBody(def)) {
      out.tally += function(callee);
      return out;
    }
    // CUDA's own functions, counted by name whether or not their bodies were parsed (the
    // headers' bodies depend on --full-parse and the kept PCH; the estimate must not).
    const IdentifierInfo* id = callee->getIdentifier();
    if (!id) return out;
    const std::string_view name = id->getName();
    if (name.starts_with("__shfl")) {
      // __shfl_sync, _up_, _down_, _xor_ (and the old forms without _sync): one SHFL per 32
      // bits of the value exchanged, at Arch::shuffleLanesPerCycle.
      const QualType t = c.getType();
      const double instructions = !t.isNull() && !t->isVoidType() && ctx_.getTypeSize(t) > 32 ? 2 : 1;
      out.tally.shuffles += instructions;
      out.tally.cyclesPerWarp += instructions * cyclesOf(arch_.shuffleLanesPerCycle);
    } else if (isSpecialFunction(name)) {
      out.tally.specialOps += 1;
      out.tally.cyclesPerWarp += cyclesOf(arch_.specialLanesPerCycle);
    } else if (isOneInstructionIntrinsic(name) && c.getNumArgs() > 0) {
      out.tally += op(c.getType().isNull() || c.getType()->isVoidType() ? c.getArg(0)->getType() : c.getType(), 1, true);
    }
    return out;
  }

  ASTContext& ctx_;
  const model::Arch& arch_;
  std::map<const FunctionDecl*, OperationCounts> memo_;
  std::set<const FunctionDecl*> active_;
};

// 4600, "4,600": the reader's thousands.
std::string grouped(double v) {
  const auto n = static_cast<long long>(std::llround(v));
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

}  // namespace

OperationCounts& OperationCounts::operator+=(const OperationCounts& o) {
  cyclesPerWarp += o.cyclesPerWarp;
  floatOps += o.floatOps;
  doubleOps += o.doubleOps;
  int32Ops += o.int32Ops;
  int64Ops += o.int64Ops;
  specialOps += o.specialOps;
  asmInstructions += o.asmInstructions;
  shuffles += o.shuffles;
  return *this;
}

OperationCounts OperationCounts::times(double k) const {
  OperationCounts t;
  t.cyclesPerWarp = cyclesPerWarp * k;
  t.floatOps = floatOps * k;
  t.doubleOps = doubleOps * k;
  t.int32Ops = int32Ops * k;
  t.int64Ops = int64Ops * k;
  t.specialOps = specialOps * k;
  t.asmInstructions = asmInstructions * k;
  t.shuffles = shuffles * k;
  return t;
}

std::string ArithmeticEstimate::basis() const {
  const OperationCounts& o = operations;
  std::string parts;
  const auto add = [&](double n, const char* what) {
    if (n < 0.5) return;
    parts += (parts.empty() ? "" : ", ") + grouped(n) + " " + what;
  };
  add(o.int64Ops, "on 64-bit integers");
  add(o.int32Ops, "on unsigned 32-bit integers");
  add(o.floatOps, "in single precision");
  add(o.doubleOps, "in double precision");
  add(o.specialOps, "special functions");
  add(o.asmInstructions, "inline PTX instructions");
  add(o.shuffles, "warp shuffles");
  const double total =
      o.floatOps + o.doubleOps + o.int32Ops + o.int64Ops + o.specialOps + o.asmInstructions + o.shuffles;
  std::string text = "at least " + grouped(total) + " operations per thread (" + parts + "), " +
                     grouped(o.cyclesPerWarp) + " cycles of one SM per warp";
  if (loopsCountedOnce > 0)
    text += "; " + std::to_string(loopsCountedOnce) + (loopsCountedOnce == 1 ? " loop" : " loops") +
            " whose trips the source does not fix counted once";
  return text;
}

ArithmeticEstimate estimateArithmetic(const FunctionDecl* kernel, ASTContext& ctx, const model::Arch& arch) {
  Counter counter(ctx, arch);
  ArithmeticEstimate out;
  out.operations = counter.function(kernel);
  out.loopsCountedOnce = counter.loopsCountedOnce;
  return out;
}

}  // namespace coalesce::analysis
