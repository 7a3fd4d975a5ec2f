// Expressions: what each kind of C++ expression evaluates to, recording the memory
// accesses inside it (loads through lvalue-to-rvalue casts, stores through assignments).
#include <clang/AST/Attr.h>

#include "builtin_variables.h"
#include "interpreter.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// The symbolic operator of a C++ binary operator, if it has one.
std::optional<Op> arithmetic(BinaryOperatorKind k) {
  switch (k) {
    case BO_Add: return Op::Add; case BO_Sub: return Op::Sub; case BO_Mul: return Op::Mul;
    case BO_Div: return Op::Div; case BO_Rem: return Op::Rem; case BO_Shl: return Op::Shl;
    case BO_Shr: return Op::Shr; case BO_And: return Op::And; case BO_Or: return Op::Or;
    case BO_Xor: return Op::Xor; case BO_LT: return Op::Lt; case BO_LE: return Op::Le;
    case BO_GT: return Op::Gt; case BO_GE: return Op::Ge; case BO_EQ: return Op::Eq;
    case BO_NE: return Op::Ne; case BO_LAnd: return Op::LAnd; case BO_LOr: return Op::LOr;
    default: return std::nullopt;
  }
}

}  // namespace

// Evaluates `e` for its value, recording every memory access inside it.
Value Interpreter::eval(const Expr* e) {
  if (!e) return intValue(leaf(Op::Varying));
  if (e->getType()->isIntegralOrEnumerationType() && !e->isValueDependent() && !e->isGLValue()) {
    Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_) && r.Val.isInt()) return intValue(constant(r.Val.getInt().getExtValue()));
  }
  if (auto b = builtinVariable(e)) {
    if (b->first == Op::ThreadIdx) events_.threadDimsUsed[b->second] = true;
    return intValue(leaf(b->first, b->second));
  }
  if (const auto* p = dyn_cast<ParenExpr>(e)) return eval(p->getSubExpr());
  if (const auto* ice = dyn_cast<ImplicitCastExpr>(e)) return cast(ice->getCastKind(), ice->getSubExpr());
  if (const auto* ce = dyn_cast<ExplicitCastExpr>(e)) return cast(ce->getCastKind(), ce->getSubExpr());
  if (const auto* lit = dyn_cast<IntegerLiteral>(e)) return intValue(constant(lit->getValue().getSExtValue()));
  if (const auto* ch = dyn_cast<CharacterLiteral>(e)) return intValue(constant(ch->getValue()));
  if (const auto* bl = dyn_cast<CXXBoolLiteralExpr>(e)) return intValue(constant(bl->getValue()));
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) return declRef(ref);
  if (const auto* un = dyn_cast<UnaryOperator>(e)) return unaryOp(un);
  if (const auto* bin = dyn_cast<BinaryOperator>(e)) return binaryOp(bin);
  if (const auto* cond = dyn_cast<ConditionalOperator>(e)) return conditional(cond);
  if (const auto* call = dyn_cast<CallExpr>(e)) return callExpr(call);
  if (const auto* ctor = dyn_cast<CXXConstructExpr>(e)) return construct(ctor);
  if (const auto* mte = dyn_cast<MaterializeTemporaryExpr>(e)) return eval(mte->getSubExpr());
  if (const auto* bt = dyn_cast<CXXBindTemporaryExpr>(e)) return eval(bt->getSubExpr());
  if (const auto* ewc = dyn_cast<ExprWithCleanups>(e)) return eval(ewc->getSubExpr());
  if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) {  // an lvalue used as such
    location(sub);
    return intValue(leaf(Op::Varying));
  }
  if (isa<CXXThisExpr>(e)) {
    if (!state_.frames.empty() && state_.frames.back().self) return *state_.frames.back().self;
    return intValue(leaf(Op::Varying));
  }
  if (isa<LambdaExpr>(e)) return intValue(opaque("lambda"));  // its body runs where it is called
  if (const auto* list = dyn_cast<InitListExpr>(e); list && e->getType()->isRecordType()) return initList(list);
  if (const auto* mem = dyn_cast<MemberExpr>(e)) {  // a field of a register object
    const auto* field = dyn_cast<FieldDecl>(mem->getMemberDecl());
    Value base = mem->isArrow() && isa<CXXThisExpr>(mem->getBase()->IgnoreParenImpCasts()) && !state_.frames.empty() &&
                         state_.frames.back().self
                     ? *state_.frames.back().self
                     : eval(mem->getBase());
    if (field) return fieldOf(base, field);
    return intValue(uniformValue(base) ? opaque(mem->getMemberDecl()->getNameAsString()) : leaf(Op::Varying));
  }
  return generic(e);
}

Value Interpreter::initList(const InitListExpr* list) {
  auto obj = std::make_shared<StructValue>();
  const RecordDecl* rec = list->getType()->getAsRecordDecl();
  unsigned i = 0;
  if (rec)
    for (const FieldDecl* f : rec->fields()) {
      if (i >= list->getNumInits()) break;
      obj->fields[f] = eval(list->getInit(i++));
    }
  for (; i < list->getNumInits(); ++i) eval(list->getInit(i));
  Value v;
  v.object = obj;
  return v;
}

Value Interpreter::generic(const Expr* e) {
  std::vector<ExprRef> inputs;
  for (const Stmt* child : e->children())
    if (const auto* ce = dyn_cast_or_null<Expr>(child)) {
      Value v = eval(ce);
      inputs.push_back(v.v ? v.v : (v.isPointer() ? v.off : nullptr));
    }
  return intValue(opaqueLike(inputs, "value"));
}

Value Interpreter::declRef(const DeclRefExpr* ref) {
  const ValueDecl* d = ref->getDecl();
  if (const auto* ec = dyn_cast<EnumConstantDecl>(d)) return intValue(constant(ec->getInitVal().getSExtValue()));
  const auto* var = dyn_cast<VarDecl>(d);
  if (!var) return intValue(opaque(d->getNameAsString()));
  if (var->getName() == "warpSize") return intValue(constant(arch_.warpSize));
  if (auto builtin = builtinVariableType(var->getType()->getAsCXXRecordDecl())) {
    Value b;
    b.builtin = *builtin;
    return b;
  }
  auto it = state_.env.find(var);
  if (it != state_.env.end()) return it->second;
  // An array designator decays to a pointer by an explicit cast node; here the
  // variable is used as a value: a file-scope constant or an unknown uniform.
  if (var->getType()->isArrayType()) {
    if (auto loc = location(ref)) return Value{nullptr, loc->root, loc->offset};
  }
  if (const Expr* init = var->getAnyInitializer(); init && var->getType().isConstQualified()) {
    Expr::EvalResult r;
    if (!init->isValueDependent() && init->EvaluateAsInt(r, ctx_) && r.Val.isInt())
      return intValue(constant(r.Val.getInt().getExtValue()));
  }
  return intValue(opaque(var->getNameAsString()));
}

Value Interpreter::cast(CastKind kind, const Expr* sub) {
  switch (kind) {
    case CK_LValueToRValue: {
      if (const auto* c = dyn_cast<ConditionalOperator>(sub->IgnoreParens()); c && c->isGLValue()) {
        // c ? a[i] : b[i]: each side loads under its own condition.
        ExprRef cond = asInt(eval(c->getCond()));
        pushGuard(cond, text(c->getCond()->getSourceRange()));
        Value a = readLvalue(c->getTrueExpr());
        popGuard();
        pushGuard(unary(Op::Not, cond), "!(" + text(c->getCond()->getSourceRange()) + ")");
        Value b = readLvalue(c->getFalseExpr());
        popGuard();
        return merge(cond, a, b);
      }
      if (auto loc = location(sub)) {
        record(model::AccessKind::Load, *loc, sub);
        return loaded(*loc);
      }
      return eval(sub);
    }
    case CK_ArrayToPointerDecay: {
      if (auto loc = location(sub)) return Value{nullptr, loc->root, loc->offset};
      Value v = eval(sub);
      return v;
    }
    case CK_FloatingToIntegral: case CK_IntegralToFloating: case CK_FloatingCast: {
      Value v = eval(sub);
      return intValue(opaqueLike({v.v}, "value"));
    }
    case CK_PointerToBoolean: {
      // `if (out)`: a test of a pointer every thread holds alike is uniform, though unknown.
      Value v = eval(sub);
      return intValue(v.isPointer() ? pointerAsInt(v, sub) : opaqueLike({v.v}, text(sub->getSourceRange())));
    }
    default: {
      Value v = eval(sub);
      // Pointer casts (reinterpret_cast<float4*>) keep the address; the width of a later
      // access comes from its own type.
      return v;
    }
  }
}

Value Interpreter::unaryOp(const UnaryOperator* un) {
  const Expr* sub = un->getSubExpr();
  switch (un->getOpcode()) {
    case UO_AddrOf: {
      if (auto loc = location(sub)) return Value{nullptr, loc->root, loc->offset};
      return intValue(leaf(Op::Varying));
    }
    case UO_Deref: {
      // Reached only when a dereference is used as a value without an lvalue-to-rvalue
      // cast (e.g. passed by reference): the location is evaluated, nothing recorded.
      location(un);
      return intValue(leaf(Op::Varying));
    }
    case UO_PreInc: case UO_PostInc: case UO_PreDec: case UO_PostDec: {
      const bool inc = un->isIncrementOp();
      if (auto loc = location(sub)) {
        record(model::AccessKind::Load, *loc, sub);
        record(model::AccessKind::Store, *loc, sub);
        return loaded(*loc);
      }
      return updateVariable(sub, [&](const Value& old) {
        if (old.isPointer())
          return Value{nullptr, old.root,
                       binary(inc ? Op::Add : Op::Sub, old.off, constant(sizeOf(sub->getType()->getPointeeType())))};
        return intValue(binary(inc ? Op::Add : Op::Sub, asInt(old), constant(1)));
      }, un->isPrefix());
    }
    case UO_Minus: return intValue(unary(Op::Neg, asInt(eval(sub))));
    case UO_Plus: return eval(sub);
    case UO_Not: return intValue(unary(Op::BitNot, asInt(eval(sub))));
    case UO_LNot: return intValue(unary(Op::Not, asInt(eval(sub))));
    default: return generic(un);
  }
}

// Assigns to a register variable (or a field of a register record) the value `update` makes
// of its old one; returns the new value or the old one (x++ vs ++x).
Value Interpreter::updateVariable(const Expr* target, llvm::function_ref<Value(const Value&)> update, bool returnNew) {
  const auto* ref = dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!var) {
    // A field of a register object: read it, update it, store the object back.
    if (isa<MemberExpr>(target->IgnoreParenImpCasts())) {
      Value old = eval(target->IgnoreParenImpCasts());
      Value now = update(old);
      if (assignRegister(target, now)) return returnNew ? now : old;
    }
    eval(target);
    return intValue(leaf(Op::Varying));
  }
  Value old = declRef(ref);
  Value now = update(old);
  state_.env[var] = now;
  return returnNew ? now : old;
}


Value Interpreter::combine(Op op, const Value& l, const Value& r, const Expr* lhs, const Expr* rhs) {
  // Pointer arithmetic: p + i moves by i elements; an address held in an integer
  // (`(uintptr_t)p + 4 * threadIdx.x`, cast back to a pointer later) moves by i bytes.
  auto elementBytes = [&](const Expr* side) -> int64_t {
    const QualType t = side->getType();
    return t->isPointerType() ? sizeOf(t->getPointeeType()) : 1;
  };
  if (l.isPointer() && !r.isPointer() && (op == Op::Add || op == Op::Sub)) {
    const int64_t elem = elementBytes(lhs);
    return Value{nullptr, l.root, binary(op, l.off, binary(Op::Mul, asInt(r), constant(elem)))};
  }
  if (r.isPointer() && !l.isPointer() && op == Op::Add) {
    const int64_t elem = elementBytes(rhs);
    return Value{nullptr, r.root, binary(Op::Add, r.off, binary(Op::Mul, asInt(l), constant(elem)))};
  }
  // `NULL == out`: a pointer compared with an integer (the null constant) is uniform when every
  // thread holds the same pointer (a kernel parameter passed on to a helper); a barrier under
  // it is not in divergent code.
  const bool comparison = op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
  if (comparison && l.isPointer() != r.isPointer())
    return intValue(binary(op, l.isPointer() ? pointerAsInt(l, lhs) : asInt(l), r.isPointer() ? pointerAsInt(r, rhs) : asInt(r)));
  if (l.isPointer() && r.isPointer()) {
    if (op == Op::Sub && l.root == r.root) {
      const int64_t elem = std::max<int64_t>(1, elementBytes(lhs));
      return intValue(binary(Op::Div, binary(Op::Sub, l.off, r.off), constant(elem)));
    }
    return intValue(opaqueLike({l.off, r.off}, "pointer comparison"));
  }
  const bool floating = lhs->getType()->isFloatingType() || rhs->getType()->isFloatingType();
  if (floating) return intValue(opaqueLike({asInt(l), asInt(r)}, "value"));
  return intValue(binary(op, asInt(l), asInt(r)));
}

Value Interpreter::binaryOp(const BinaryOperator* bin) {
  const BinaryOperatorKind k = bin->getOpcode();
  const Expr* lhs = bin->getLHS();
  const Expr* rhs = bin->getRHS();
  if (k == BO_Assign) {
    Value r = eval(rhs);
    if (auto loc = location(lhs)) {
      record(model::AccessKind::Store, *loc, lhs);
      stored(*loc, r);
      return r;
    }
    return updateVariable(lhs, [&](const Value&) { return r; }, true);
  }
  if (bin->isCompoundAssignmentOp()) {
    const auto op = arithmetic(BinaryOperator::getOpForCompoundAssignment(k));
    Value r = eval(rhs);
    if (auto loc = location(lhs)) {
      record(model::AccessKind::Load, *loc, lhs);
      record(model::AccessKind::Store, *loc, lhs);
      stored(*loc, r);
      return loaded(*loc);
    }
    return updateVariable(lhs, [&](const Value& old) {
      if (!op) return intValue(leaf(Op::Varying));
      return combine(*op, old, r, lhs, rhs);
    }, true);
  }
  if (k == BO_Comma) {
    eval(lhs);
    return eval(rhs);
  }
  if (k == BO_LAnd || k == BO_LOr) {
    Value l = eval(lhs);
    // The right side runs only where the left side lets it.
    pushGuard(k == BO_LAnd ? asInt(l) : unary(Op::Not, asInt(l)), text(lhs->getSourceRange()));
    Value r = eval(rhs);
    popGuard();
    return intValue(binary(*arithmetic(k), asInt(l), asInt(r)));
  }
  Value l = eval(lhs);
  Value r = eval(rhs);
  if (auto op = arithmetic(k)) return combine(*op, l, r, lhs, rhs);
  return intValue(opaqueLike({asInt(l), asInt(r)}, "value"));
}

Value Interpreter::conditional(const ConditionalOperator* c) {
  ExprRef cond = asInt(eval(c->getCond()));
  // A ?: with side effects is a branch; a pure one compiles to a select.
  if (c->getTrueExpr()->HasSideEffects(ctx_) || c->getFalseExpr()->HasSideEffects(ctx_))
    recordBranch(BranchKind::Conditional, cond, c->getCond(), c);
  pushGuard(cond, text(c->getCond()->getSourceRange()));
  Value a = eval(c->getTrueExpr());
  popGuard();
  pushGuard(unary(Op::Not, cond), "!(" + text(c->getCond()->getSourceRange()) + ")");
  Value b = eval(c->getFalseExpr());
  popGuard();
  return merge(cond, a, b);
}

}  // namespace coalesce::analysis
