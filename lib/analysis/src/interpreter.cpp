// The interpreter's entry points and its values: binding a kernel's parameters, opaque
// and lane-varying values, memory roots of variables, fields of register records, and the
// merge of two values under a condition (interpreter.h lists the other files).
#include "interpreter.h"

#include <clang/AST/Attr.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>

#include "source_text.h"

namespace coalesce::analysis {

using namespace clang;

// Binds the kernel's parameters; returns, per parameter index, its symbol (integers).
std::map<unsigned, int> Interpreter::bindKernelParams(const FunctionDecl* fn) {
  std::map<unsigned, int> ids;
  for (unsigned i = 0; i < fn->getNumParams(); ++i) {
    const ParmVarDecl* p = fn->getParamDecl(i);
    QualType t = p->getType();
    if (t->isPointerType()) {
      auto r = std::make_shared<Root>();
      r->name = p->getName().str();
      r->param = static_cast<int>(i);
      r->space = model::Space::Global;
      r->alignment = arch_.pointerAlignment;
      state_.env[p] = Value{nullptr, r, constant(0)};
    } else if (t->isIntegralOrEnumerationType()) {
      SymbolInfo info;
      info.name = p->getName().str();
      info.kind = SymbolInfo::Kind::Param;
      const int id = symbols_.add(info);
      ids[i] = id;
      state_.env[p] = Value{symbol(id), nullptr, nullptr};
    } else if (t->isRecordType()) {
      auto obj = std::make_shared<StructValue>();
      obj->name = p->getName().str();
      obj->lazyParam = true;
      Value v;
      v.object = obj;
      state_.env[p] = v;
    } else {
      state_.env[p] = Value{opaque(p->getName().str()), nullptr, nullptr};
    }
  }
  return ids;
}

void Interpreter::run(const FunctionDecl* fn) {
  state_.stack.push_back(fn);
  walk(fn->getBody());
  state_.stack.pop_back();
  markSkippersThatExit();
  // Stores nvcc drops (overwritten by the same thread before anything may read them,
  // register_forwarding.h) make no instruction: they leave the events before anything
  // (records, fixes) numbers them.
  std::erase_if(events_.accesses, [](const SeenAccess& s) { return s.dead; });
  // The walk's state (its variables, the values kept in registers) is not read after it, and
  // the events' lists grew by doubling: both let go of before the records are built beside
  // them (65,536 loads: about 25 MiB of list capacity; docs/analysis-speed.md, "Memory").
  state_ = InterpreterState();
  events_.accesses.shrink_to_fit();
  events_.branches.shrink_to_fit();
  events_.barriers.shrink_to_fit();
}

// ---- values ---------------------------------------------------------------------
ExprRef Interpreter::opaque(const std::string& name) {
  SymbolInfo info;
  info.name = name;
  return symbol(symbols_.add(info));
}
ExprRef Interpreter::opaqueLike(const std::vector<ExprRef>& inputs, const std::string& name) {
  for (const auto& in : inputs)
    if (!in || dependsOnThread(in)) return leaf(Op::Varying);
  return opaque(name);
}
Value Interpreter::intValue(ExprRef e) { return Value{std::move(e), nullptr, nullptr}; }
// A pointer every thread of the block holds alike: not loaded per lane (or loaded from a
// uniform address), not chosen per lane between allocations, at a uniform offset.
bool Interpreter::uniformPointer(const Value& v) {
  if (!v.isPointer() || !v.off || dependsOnThread(v.off) || v.root->separateAllocations) return false;
  return !v.root->indirect || (v.root->loadAddress && !dependsOnThread(v.root->loadAddress));
}
// A pointer compared or tested as an integer (`if (out)`, `NULL == out`): an unknown named by
// its source text, uniform when every thread holds the same pointer, so that `--assume out=0`
// and the search for a context in which a guarded access runs (record_builder.cpp) can take
// either side; else lane-varying.
ExprRef Interpreter::pointerAsInt(const Value& v, const Expr* e) {
  return uniformPointer(v) ? opaque(text(e->IgnoreParenImpCasts()->getSourceRange())) : leaf(Op::Varying);
}
// A value used as an integer; a pointer used as one is not followed.
ExprRef Interpreter::asInt(const Value& v) { return v.v ? v.v : leaf(Op::Varying); }

// Source text on one line (source_text.h): a condition or loop header written over several
// lines is quoted in messages and named by `--assume`.
std::string Interpreter::text(SourceRange r) {
  CharSourceRange range = CharSourceRange::getTokenRange(sm_.getExpansionRange(r).getAsRange());
  return oneLine(Lexer::getSourceText(range, sm_, ctx_.getLangOpts()));
}

int64_t Interpreter::sizeOf(QualType t) {
  if (t.isNull() || t->isIncompleteType() || t->isDependentType() || t->isVoidType()) return 1;
  return ctx_.getTypeSizeInChars(t).getQuantity();
}
int64_t Interpreter::alignOf(QualType t) {
  if (t.isNull() || t->isIncompleteType() || t->isDependentType() || t->isVoidType()) return 1;
  return ctx_.getTypeAlignInChars(t).getQuantity();
}

RootRef Interpreter::rootForVar(const VarDecl* var) {
  auto it = state_.roots.find(var);
  if (it != state_.roots.end()) return it->second;
  auto r = std::make_shared<Root>();
  r->name = var->getName().str();
  r->var = var;
  if (ctx_.getAsConstantArrayType(var->getType())) r->bytes = sizeOf(var->getType());
  if (var->hasAttr<CUDASharedAttr>()) {
    r->space = model::Space::Shared;
    r->alignment = arch_.sharedWavefrontBytes();
  } else if (var->hasAttr<CUDAConstantAttr>()) {
    r->space = model::Space::Constant;
    r->alignment = arch_.pointerAlignment;
  } else if (var->hasAttr<CUDADeviceAttr>() && var->hasGlobalStorage()) {
    r->space = model::Space::Global;
    r->alignment = std::max<int64_t>(alignOf(var->getType()), 16);
  } else {
    r->space = model::Space::Local;
    r->alignment = alignOf(var->getType());
  }
  state_.roots[var] = r;
  return r;
}

ExprRef Interpreter::conjunction(size_t fromDepth) const {
  ExprRef c = constant(1);
  for (size_t i = fromDepth; i < state_.guards.size(); ++i) c = binary(Op::LAnd, c, state_.guards[i]);
  return c;
}

bool Interpreter::uniformValue(const Value& v) const {
  if (v.builtin) return *v.builtin != Op::ThreadIdx;
  if (v.isPointer()) return !v.root->indirect && (!v.off || isUniform(v.off));
  if (v.object) {
    for (const auto& [f, fv] : v.object->fields)
      if (!uniformValue(fv)) return false;
    return true;
  }
  return !v.v || isUniform(v.v);
}

// A field of a register record (or of a built-in variable used whole).
Value Interpreter::fieldOf(const Value& base, const FieldDecl* field) {
  if (base.builtin) {
    const std::string n = field->getNameAsString();
    if (n.size() == 1 && n[0] >= 'x' && n[0] <= 'z') return intValue(leaf(*base.builtin, n[0] - 'x'));
  }
  if (base.object) {
    auto it = base.object->fields.find(field);
    if (it != base.object->fields.end()) return it->second;
    if (base.object->lazyParam) {
      auto& cached = state_.lazyFields[{base.object.get(), field}];
      if (cached.v || cached.root || cached.object) return cached;
      const std::string name = base.object->name + "." + field->getNameAsString();
      QualType t = field->getType();
      if (t->isPointerType()) {
        auto r = std::make_shared<Root>();
        r->name = name;
        r->space = model::Space::Global;
        r->alignment = arch_.pointerAlignment;
        cached = Value{nullptr, r, constant(0)};
      } else if (t->isRecordType()) {
        auto obj = std::make_shared<StructValue>();
        obj->name = name;
        obj->lazyParam = true;
        cached = Value{};
        cached.object = obj;
      } else {
        cached = intValue(opaque(name));
      }
      return cached;
    }
  }
  return intValue(uniformValue(base) ? opaque(field->getNameAsString()) : leaf(Op::Varying));
}

// Stores `v` into the register record (or variable) an lvalue designates; false when
// the lvalue is not a register variable or a field path from one.
bool Interpreter::assignRegister(const Expr* target, const Value& v) {
  target = target->IgnoreParenImpCasts();
  if (const auto* ref = dyn_cast<DeclRefExpr>(target)) {
    const auto* var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var) return false;
    state_.env[var] = v;
    return true;
  }
  if (isa<CXXThisExpr>(target)) {
    if (state_.frames.empty() || !state_.frames.back().self) return false;
    state_.frames.back().self = v;
    return true;
  }
  const auto* mem = dyn_cast<MemberExpr>(target);
  if (!mem) return false;
  const auto* field = dyn_cast<FieldDecl>(mem->getMemberDecl());
  if (!field) return false;
  const Expr* baseExpr = mem->getBase()->IgnoreParenImpCasts();
  Value base;
  if (mem->isArrow() && isa<CXXThisExpr>(baseExpr)) {
    if (state_.frames.empty() || !state_.frames.back().self || state_.frames.back().self->isPointer()) return false;
    base = *state_.frames.back().self;
  } else if (mem->isArrow()) {
    // `c->current = ...` in a helper given the address of a record in registers
    // (interpreter_calls.cpp, registerRecordAddress): the parameter holds the record itself.
    base = eval(baseExpr);
    if (!base.object) return false;
  } else {
    base = eval(baseExpr);
  }
  if (base.isPointer() || base.builtin) return false;
  auto copy = std::make_shared<StructValue>(base.object ? *base.object : StructValue{});
  // Materialise lazily created fields so they survive the copy.
  if (base.object)
    for (const auto& [key, val] : state_.lazyFields)
      if (key.first == base.object.get() && !copy->fields.count(key.second)) copy->fields[key.second] = val;
  copy->fields[field] = v;
  Value updated;
  updated.object = copy;
  return assignRegister(mem->isArrow() ? baseExpr : mem->getBase(), updated);
}

// `cond ? a : b` per lane. Two pointers into different allocations make a root of their
// own (see kFarApartBytes in analysis_policy.h).
Value Interpreter::merge(const ExprRef& cond, const Value& a, const Value& b) {
  if (a.isPointer() || b.isPointer()) {
    if (a.isPointer() && b.isPointer() && a.root == b.root) return Value{nullptr, a.root, select(cond, a.off, b.off)};
    if (a.isPointer() && b.isPointer()) {
      auto r = std::make_shared<Root>(*a.root);
      // Each allocation named once: BitCrack's secp256k1 helpers pass the same arrays down both
      // arms of every branch, and "a or b" met "b or a" at each merge; a name made of the two
      // names doubled each time, until one file took 24 GB.
      r->alternatives.clear();
      for (const Root* side : {a.root.get(), b.root.get()})
        for (const std::string& one : side->alternatives.empty() ? std::vector<std::string>{side->name} : side->alternatives)
          if (std::find(r->alternatives.begin(), r->alternatives.end(), one) == r->alternatives.end())
            r->alternatives.push_back(one);
      r->name.clear();
      for (size_t i = 0; i < r->alternatives.size(); ++i) r->name += (i ? " or " : "") + r->alternatives[i];
      r->param = -1;
      r->alignment = std::min(a.root->alignment, b.root->alignment);
      r->bytes = a.root->bytes > 0 && b.root->bytes > 0 ? std::max(a.root->bytes, b.root->bytes) : 0;
      r->indirect = r->indirect || b.root->indirect;
      // Two allocations chosen per lane: placed far apart (separate cudaMalloc
      // buffers), so each side's sectors count on their own.
      const bool separate = a.root->space == b.root->space && a.root->space == model::Space::Global &&
                            !r->indirect && a.root->alignment >= 256 && b.root->alignment >= 256;
      if (!separate && dependsOnThread(cond)) r->indirect = true;
      r->separateAllocations = separate && dependsOnThread(cond);
      return Value{nullptr, r, select(cond, a.off, binary(Op::Add, b.off, constant(separate ? kFarApartBytes : 0)))};
    }
    return a.isPointer() ? a : b;
  }
  return intValue(select(cond, asInt(a), asInt(b)));
}

}  // namespace coalesce::analysis
