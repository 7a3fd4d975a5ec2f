// The AST walker: an abstract interpreter over each kernel's body that keeps, for every
// variable, a symbolic value in terms of threadIdx, the block and the parameters, and
// turns each memory access into a RawAccess, then into figures per launch.
#include "kernel_analyzer.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <set>

#include "lane_function.h"
#include "symbolic.h"

namespace coalesce::analysis {

namespace {

using namespace clang;
using clang::Expr;  // not the symbolic Expr of symbolic.h

struct Root {
  std::string name;
  int param = -1;  // the kernel's pointer parameter it is, or -1
  model::Space space = model::Space::Global;
  int64_t alignment = 256;
  bool indirect = false;  // the pointer was loaded per lane
  ExprRef loadAddress;    // indirect: where it was loaded from (warp-uniform under some launches)
  bool separateAllocations = false;  // "a or b" chosen per lane
};
// Offset that stands for "another allocation": 256-byte aligned and far from the first.
constexpr int64_t kFarApart = int64_t{1} << 40;
using RootRef = std::shared_ptr<const Root>;

struct StructValue;
using ObjectRef = std::shared_ptr<const StructValue>;

// A symbolic value: an integer expression, a pointer (root + byte offset), a CUDA
// built-in variable used whole (uint3 t = threadIdx), or a record held in registers.
struct Value {
  Value() = default;
  Value(ExprRef value, RootRef r, ExprRef offset) : v(std::move(value)), root(std::move(r)), off(std::move(offset)) {}
  ExprRef v;
  RootRef root;
  ExprRef off;
  std::optional<Op> builtin;
  ObjectRef object;
  bool isPointer() const { return root != nullptr; }
};

// A record in registers: the values of its fields. A kernel parameter of record type is
// "lazy": its fields become roots and symbols the first time they are read.
struct StructValue {
  std::map<const FieldDecl*, Value> fields;
  std::string name;
  bool lazyParam = false;
};

struct MemLoc {
  MemLoc(RootRef r, ExprRef o, QualType t, std::string f = {})
      : root(std::move(r)), offset(std::move(o)), type(t), field(std::move(f)) {}
  RootRef root;
  ExprRef offset;
  QualType type;
  std::string field;  // "Particle::x" when the location is a field of a record
};

struct SiteRecord {
  RawAccess raw;
  clang::SourceLocation loc;
  std::string expression;
  std::string lineText;
  std::string elementType;
  std::string function;
};

struct BranchRecord {
  RawAccess guards;  // only the guards are used
  ExprRef condition;
  std::string kind, conditionText, function;
  clang::SourceLocation loc;
};

struct BarrierRecord {
  RawAccess guards;
  std::string call, function;
  clang::SourceLocation loc;
};

const char* const kBuiltinTypes[] = {"__cuda_builtin_threadIdx_t", "__cuda_builtin_blockIdx_t",
                                     "__cuda_builtin_blockDim_t", "__cuda_builtin_gridDim_t"};
const char* const kBuiltinNames[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
const Op kBuiltinOps[] = {Op::ThreadIdx, Op::BlockIdx, Op::BlockDim, Op::GridDim};

// threadIdx.x & co: a PseudoObjectExpr over an MSPropertyRefExpr in Clang's CUDA
// headers, or a plain member of a variable with that name in simpler header sets.
std::optional<std::pair<Op, int64_t>> builtinVariable(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  const Expr* base = nullptr;
  StringRef member;
  if (const auto* pseudo = dyn_cast<PseudoObjectExpr>(e)) {
    if (const auto* prop = dyn_cast<MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens())) {
      base = prop->getBaseExpr();
      member = prop->getPropertyDecl()->getName();
    }
  } else if (const auto* m = dyn_cast<MemberExpr>(e)) {
    base = m->getBase();
    member = m->getMemberDecl()->getName();
  }
  if (!base || member.size() != 1 || member[0] < 'x' || member[0] > 'z') return std::nullopt;
  base = base->IgnoreParenImpCasts();
  if (const auto* ov = dyn_cast<OpaqueValueExpr>(base); ov && ov->getSourceExpr()) base = ov->getSourceExpr()->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<DeclRefExpr>(base);
  if (!ref) return std::nullopt;
  const auto* var = dyn_cast<VarDecl>(ref->getDecl());
  if (!var) return std::nullopt;
  const CXXRecordDecl* rec = var->getType()->getAsCXXRecordDecl();
  for (int i = 0; i < 4; ++i) {
    const bool typeMatch = rec && rec->getName() == kBuiltinTypes[i];
    if (typeMatch || var->getName() == kBuiltinNames[i]) return std::make_pair(kBuiltinOps[i], int64_t{member[0] - 'x'});
  }
  return std::nullopt;
}

bool isAtomicName(StringRef name) {
  return name.starts_with("atomic") || name.starts_with("__atomic") || name.starts_with("__nv_atomic");
}

class Interpreter {
 public:
  Interpreter(ASTContext& ctx, SymbolTable& symbols, std::vector<SiteRecord>& sites, const model::Arch& arch)
      : ctx_(ctx), sm_(ctx.getSourceManager()), symbols_(symbols), sites_(sites), arch_(arch) {}

  std::vector<BranchRecord> branches;
  std::vector<BarrierRecord> barriers;
  bool threadDimsUsed[3] = {false, false, false};  // threadIdx.x/y/z appear in the kernel

  // Binds the kernel's parameters; returns, per parameter index, its symbol (integers).
  std::map<unsigned, int> bindKernelParams(const FunctionDecl* fn) {
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
        env_[p] = Value{nullptr, r, constant(0)};
      } else if (t->isIntegralOrEnumerationType()) {
        SymbolInfo info;
        info.name = p->getName().str();
        info.kind = SymbolInfo::Kind::Param;
        const int id = symbols_.add(info);
        ids[i] = id;
        env_[p] = Value{symbol(id), nullptr, nullptr};
      } else if (t->isRecordType()) {
        auto obj = std::make_shared<StructValue>();
        obj->name = p->getName().str();
        obj->lazyParam = true;
        Value v;
        v.object = obj;
        env_[p] = v;
      } else {
        env_[p] = Value{opaque(p->getName().str()), nullptr, nullptr};
      }
    }
    return ids;
  }

  void run(const FunctionDecl* fn) {
    stack_.push_back(fn);
    walk(fn->getBody());
    stack_.pop_back();
  }

 private:
  ASTContext& ctx_;
  SourceManager& sm_;
  SymbolTable& symbols_;
  std::vector<SiteRecord>& sites_;
  const model::Arch& arch_;
  std::map<const VarDecl*, Value> env_;
  std::vector<ExprRef> guards_;
  std::vector<std::string> guardTexts_;
  std::vector<const FunctionDecl*> stack_;
  // One frame per inlined call: the guards in force at entry and each return seen, with
  // the condition under which it is taken.
  struct Frame {
    size_t guardDepth = 0;
    std::vector<std::pair<ExprRef, Value>> returns;
    std::optional<Value> self;  // `this`: a pointer to memory, or a register object
    bool returnsReference = false;
  };
  std::vector<Frame> frames_;
  std::map<std::pair<const StructValue*, const FieldDecl*>, Value> lazyFields_;
  // Conditions under which the innermost loop is left (break, return), added to its
  // condition once the body has been walked.
  std::vector<std::vector<std::pair<ExprRef, bool>>> loopExits_;  // (condition, is a return)
  // `if (c) return;` inside a loop with c the same in every iteration: what follows the
  // loop runs only where c was false. Consumed by the enclosing block.
  std::vector<std::pair<ExprRef, std::string>> pendingGuards_;
  bool recording_ = true;
  int loopDepth_ = 0;

  // ---- values ---------------------------------------------------------------------
  ExprRef opaque(const std::string& name) {
    SymbolInfo info;
    info.name = name;
    return symbol(symbols_.add(info));
  }
  ExprRef opaqueLike(const std::vector<ExprRef>& inputs, const std::string& name) {
    for (const auto& in : inputs)
      if (!in || dependsOnThread(in)) return leaf(Op::Varying);
    return opaque(name);
  }
  Value intValue(ExprRef e) { return Value{std::move(e), nullptr, nullptr}; }
  ExprRef asInt(const Value& v) {
    if (v.v) return v.v;
    if (v.isPointer()) return leaf(Op::Varying);  // pointer used as an integer
    return leaf(Op::Varying);
  }

  std::string text(SourceRange r) {
    CharSourceRange range = CharSourceRange::getTokenRange(sm_.getExpansionRange(r).getAsRange());
    return Lexer::getSourceText(range, sm_, ctx_.getLangOpts()).str();
  }

  int64_t sizeOf(QualType t) {
    if (t->isIncompleteType() || t->isDependentType() || t->isVoidType()) return 1;
    return ctx_.getTypeSizeInChars(t).getQuantity();
  }
  int64_t alignOf(QualType t) {
    if (t->isIncompleteType() || t->isDependentType() || t->isVoidType()) return 1;
    return ctx_.getTypeAlignInChars(t).getQuantity();
  }

  RootRef rootForVar(const VarDecl* var) {
    auto it = roots_.find(var);
    if (it != roots_.end()) return it->second;
    auto r = std::make_shared<Root>();
    r->name = var->getName().str();
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
    roots_[var] = r;
    return r;
  }
  std::map<const VarDecl*, RootRef> roots_;

  ExprRef conjunction(size_t fromDepth) const {
    ExprRef c = constant(1);
    for (size_t i = fromDepth; i < guards_.size(); ++i) c = binary(Op::LAnd, c, guards_[i]);
    return c;
  }

  bool uniformValue(const Value& v) const {
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
  Value fieldOf(const Value& base, const FieldDecl* field) {
    if (base.builtin) {
      const std::string n = field->getNameAsString();
      if (n.size() == 1 && n[0] >= 'x' && n[0] <= 'z') return intValue(leaf(*base.builtin, n[0] - 'x'));
    }
    if (base.object) {
      auto it = base.object->fields.find(field);
      if (it != base.object->fields.end()) return it->second;
      if (base.object->lazyParam) {
        auto& cached = lazyFields_[{base.object.get(), field}];
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
  bool assignRegister(const Expr* target, const Value& v) {
    target = target->IgnoreParenImpCasts();
    if (const auto* ref = dyn_cast<DeclRefExpr>(target)) {
      const auto* var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var) return false;
      env_[var] = v;
      return true;
    }
    if (isa<CXXThisExpr>(target)) {
      if (frames_.empty() || !frames_.back().self) return false;
      frames_.back().self = v;
      return true;
    }
    const auto* mem = dyn_cast<MemberExpr>(target);
    if (!mem) return false;
    const auto* field = dyn_cast<FieldDecl>(mem->getMemberDecl());
    if (!field) return false;
    const Expr* baseExpr = mem->getBase()->IgnoreParenImpCasts();
    Value base;
    if (mem->isArrow()) {
      if (!isa<CXXThisExpr>(baseExpr) || frames_.empty() || !frames_.back().self || frames_.back().self->isPointer())
        return false;
      base = *frames_.back().self;
    } else {
      base = eval(baseExpr);
    }
    if (base.isPointer() || base.builtin) return false;
    auto copy = std::make_shared<StructValue>(base.object ? *base.object : StructValue{});
    // Materialise lazily created fields so they survive the copy.
    if (base.object)
      for (const auto& [key, val] : lazyFields_)
        if (key.first == base.object.get() && !copy->fields.count(key.second)) copy->fields[key.second] = val;
    copy->fields[field] = v;
    Value updated;
    updated.object = copy;
    return assignRegister(mem->isArrow() ? baseExpr : mem->getBase(), updated);
  }

  // ---- memory -----------------------------------------------------------------------
  std::optional<Value> pointerOf(const Expr* e) {
    Value v = eval(e);
    if (v.isPointer()) return v;
    return std::nullopt;
  }

  // The memory an lvalue designates; nullopt for a register variable (or unknown).
  std::optional<MemLoc> location(const Expr* e) {
    e = e->IgnoreParens();
    if (const auto* ice = dyn_cast<ImplicitCastExpr>(e))
      if (ice->getCastKind() == CK_NoOp || ice->getCastKind() == CK_LValueBitCast) return location(ice->getSubExpr());
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) {
      auto base = pointerOf(sub->getBase());
      ExprRef idx = asInt(eval(sub->getIdx()));
      if (!base) return std::nullopt;
      const int64_t elem = sizeOf(sub->getType());
      return MemLoc{base->root, binary(Op::Add, base->off, binary(Op::Mul, idx, constant(elem))), sub->getType()};
    }
    if (const auto* un = dyn_cast<UnaryOperator>(e); un && un->getOpcode() == UO_Deref) {
      auto base = pointerOf(un->getSubExpr());
      if (!base) return std::nullopt;
      return MemLoc{base->root, base->off, un->getType()};
    }
    if (const auto* mem = dyn_cast<MemberExpr>(e)) {
      if (builtinVariable(mem)) return std::nullopt;
      const auto* field = dyn_cast<FieldDecl>(mem->getMemberDecl());
      std::optional<MemLoc> base;
      if (mem->isArrow()) {
        if (isa<CXXThisExpr>(mem->getBase()->IgnoreParenImpCasts()) &&
            (frames_.empty() || !frames_.back().self || !frames_.back().self->isPointer()))
          return std::nullopt;  // a field of a register object
        if (auto p = pointerOf(mem->getBase())) base = MemLoc{p->root, p->off, mem->getBase()->getType()->getPointeeType()};
      } else {
        base = location(mem->getBase());
      }
      if (!base || !field || field->isBitField()) return std::nullopt;
      const int64_t offsetBytes = static_cast<int64_t>(ctx_.getFieldOffset(field) / 8);
      const std::string owner = field->getParent()->getNameAsString();
      return MemLoc{base->root, binary(Op::Add, base->offset, constant(offsetBytes)), mem->getType(),
                    (owner.empty() ? std::string("(anonymous)") : owner) + "::" + field->getNameAsString()};
    }
    if (const auto* call = dyn_cast<CallExpr>(e); call && call->getCallReturnType(ctx_)->isReferenceType()) {
      // An accessor returning a reference (at(r, c), operator()): the memory it names.
      Value v = callExpr(call);
      if (v.isPointer()) return MemLoc{v.root, v.off, call->getType()};
      return std::nullopt;
    }
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
      const auto* var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var) return std::nullopt;
      if (var->getType()->isReferenceType()) {
        auto it = env_.find(var);
        if (it != env_.end() && it->second.isPointer()) return MemLoc{it->second.root, it->second.off, ref->getType()};
        return std::nullopt;
      }
      const bool memoryVar = var->hasAttr<CUDASharedAttr>() || var->hasAttr<CUDAConstantAttr>() ||
                             (var->hasAttr<CUDADeviceAttr>() && var->hasGlobalStorage()) ||
                             var->getType()->isArrayType();
      if (!memoryVar) return std::nullopt;
      return MemLoc{rootForVar(var), constant(0), ref->getType()};
    }
    return std::nullopt;
  }

  Value loaded(const MemLoc& loc) {
    const bool uniform = !loc.root->indirect && isUniform(loc.offset);
    if (loc.type->isPointerType()) {
      auto r = std::make_shared<Root>();
      r->name = "a pointer loaded from '" + loc.root->name + "'";
      r->space = model::Space::Global;
      r->alignment = std::max<int64_t>(1, alignOf(loc.type->getPointeeType()));
      r->indirect = !uniform;
      if (!uniform && !loc.root->indirect) r->loadAddress = loc.offset;
      return Value{nullptr, r, constant(0)};
    }
    // A lane-varying load keeps its address: under a known block shape it may turn out
    // warp-uniform (rows[blockIdx.x * 8 + threadIdx.x / 32]), and then its value is too.
    if (uniform) return intValue(leaf(Op::UniformLoad));
    return intValue(loc.root->indirect ? leaf(Op::LaneLoad) : unary(Op::LaneLoad, loc.offset));
  }

  // ---- values the compiler keeps in registers --------------------------------------------
  // nvcc does not load again what this thread has just loaded or stored at the same address
  // (`float& r = a[i]; r += 1.0f; ... + r`, `x[i] * x[i]`), so the analysis does not count
  // such a load either. Conservatively: same root, same address expression, same guards,
  // and nothing in between that may change memory (any store, an atomic, a barrier or a
  // fence); never for volatile locations.
  struct Available {
    RootRef root;
    ExprRef offset;
    std::vector<ExprRef> guards;
    int64_t bytes;
  };
  std::vector<Available> available_;

  static bool sameExpr(const ExprRef& a, const ExprRef& b) {
    if (a == b) return true;
    if (!a || !b || a->op != b->op || a->value != b->value || a->symbolId != b->symbolId ||
        a->args.size() != b->args.size() || a->size > 256)
      return false;
    // Each of these stands for a value of its own (loaded, or not followable).
    if (a->op == Op::UniformLoad || a->op == Op::LaneLoad || a->op == Op::Varying) return false;
    for (size_t i = 0; i < a->args.size(); ++i)
      if (!sameExpr(a->args[i], b->args[i])) return false;
    return true;
  }

  bool inRegister(const MemLoc& loc, int64_t bytes) const {
    return std::any_of(available_.begin(), available_.end(), [&](const Available& v) {
      return v.root == loc.root && v.bytes == bytes && v.guards.size() == guards_.size() &&
             std::equal(v.guards.begin(), v.guards.end(), guards_.begin()) && sameExpr(v.offset, loc.offset);
    });
  }

  void record(model::AccessKind kind, const MemLoc& loc, const Expr* site) {
    if (!recording_ || stack_.empty()) return;
    clang::SourceLocation at = sm_.getExpansionLoc(site->getBeginLoc());
    if (at.isInvalid() || sm_.isInSystemHeader(at)) return;
    QualType t = loc.type.getCanonicalType().getUnqualifiedType();
    const int64_t size = sizeOf(t);
    const bool isVolatile = loc.type.isVolatileQualified();
    if (kind == model::AccessKind::Load && !isVolatile && inRegister(loc, size)) return;
    if (kind != model::AccessKind::Load) available_.clear();
    if (kind != model::AccessKind::Atomic && !isVolatile) available_.push_back({loc.root, loc.offset, guards_, size});
    // Records copied whole: the compiler moves them in pieces of their alignment.
    int64_t piece = size;
    if (t->isRecordType()) piece = std::min<int64_t>({alignOf(t), 16, size});
    if (piece <= 0) piece = size > 0 ? size : 1;
    std::string element = loc.field.empty() ? loc.type.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy())
                                            : loc.field;
    for (int64_t at0 = 0; at0 < std::max<int64_t>(size, 1); at0 += piece) {
      SiteRecord s;
      s.raw.space = loc.root->space;
      s.raw.kind = kind;
      s.raw.bytes = static_cast<int>(piece);
      s.raw.offset = binary(Op::Add, loc.offset, constant(at0));
      s.raw.rootName = loc.root->name;
      s.raw.rootParam = loc.root->param;
      s.raw.rootAlignment = loc.root->alignment;
      s.raw.rootIndirect = loc.root->indirect;
      s.raw.rootLoadAddress = loc.root->loadAddress;
      if (loc.root->separateAllocations)
        s.raw.notes.push_back("'" + loc.root->name + "' are taken to be separate allocations");
      s.raw.guards = guards_;
      s.raw.guardTexts = guardTexts_;
      s.loc = at;
      s.expression = text(site->getSourceRange());
      s.elementType = element;
      s.function = stack_.back()->getNameAsString();
      sites_.push_back(std::move(s));
    }
  }

  RawAccess currentGuards() const {
    RawAccess g;
    g.guards = guards_;
    g.guardTexts = guardTexts_;
    return g;
  }

  bool userCode(const Stmt* s) const {
    if (!recording_ || stack_.empty()) return false;
    clang::SourceLocation at = sm_.getExpansionLoc(s->getBeginLoc());
    return at.isValid() && !sm_.isInSystemHeader(at);
  }

  void recordBranch(const char* kind, const ExprRef& cond, const Expr* condExpr, const Stmt* at) {
    if (!userCode(at)) return;
    BranchRecord b{currentGuards(), cond, kind, condExpr ? text(condExpr->getSourceRange()) : std::string(),
                   stack_.back()->getNameAsString(), sm_.getExpansionLoc(at->getBeginLoc())};
    branches.push_back(std::move(b));
  }

  static bool isBarrier(const CallExpr* call) {
    const FunctionDecl* fn = call->getDirectCallee();
    if (!fn) return false;
    const std::string name = fn->getNameAsString();
    if (name == "__syncthreads" || name == "__syncthreads_count" || name == "__syncthreads_and" ||
        name == "__syncthreads_or" || name == "__barrier_sync")
      return true;
    // Cooperative groups: block.sync(), cg::sync(block), this_thread_block().sync().
    auto blockGroup = [](QualType t) {
      const CXXRecordDecl* rec = t->getAsCXXRecordDecl();
      return rec && rec->getName() == "thread_block";
    };
    if (name == "sync") {
      if (const auto* m = dyn_cast<CXXMemberCallExpr>(call)) return blockGroup(m->getImplicitObjectArgument()->getType());
      if (call->getNumArgs() == 1) return blockGroup(call->getArg(0)->getType().getNonReferenceType());
    }
    return false;
  }

  // ---- expressions ------------------------------------------------------------------
  // Evaluates `e` for its value, recording every memory access inside it.
  Value eval(const Expr* e) {
    if (!e) return intValue(leaf(Op::Varying));
    if (e->getType()->isIntegralOrEnumerationType() && !e->isValueDependent() && !e->isGLValue()) {
      Expr::EvalResult r;
      if (e->EvaluateAsInt(r, ctx_) && r.Val.isInt()) return intValue(constant(r.Val.getInt().getExtValue()));
    }
    if (auto b = builtinVariable(e)) {
      if (b->first == Op::ThreadIdx) threadDimsUsed[b->second] = true;
      return intValue(leaf(b->first, b->second));
    }
    if (const auto* p = dyn_cast<ParenExpr>(e)) return eval(p->getSubExpr());
    if (const auto* ice = dyn_cast<ImplicitCastExpr>(e)) return cast(ice->getCastKind(), ice->getSubExpr(), e);
    if (const auto* ce = dyn_cast<ExplicitCastExpr>(e)) return cast(ce->getCastKind(), ce->getSubExpr(), e);
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
      if (!frames_.empty() && frames_.back().self) return *frames_.back().self;
      return intValue(leaf(Op::Varying));
    }
    if (isa<LambdaExpr>(e)) return intValue(opaque("lambda"));  // its body runs where it is called
    if (const auto* list = dyn_cast<InitListExpr>(e); list && e->getType()->isRecordType()) return initList(list);
    if (const auto* mem = dyn_cast<MemberExpr>(e)) {  // a field of a register object
      const auto* field = dyn_cast<FieldDecl>(mem->getMemberDecl());
      Value base = mem->isArrow() && isa<CXXThisExpr>(mem->getBase()->IgnoreParenImpCasts()) && !frames_.empty() &&
                           frames_.back().self
                       ? *frames_.back().self
                       : eval(mem->getBase());
      if (field) return fieldOf(base, field);
      return intValue(uniformValue(base) ? opaque(mem->getMemberDecl()->getNameAsString()) : leaf(Op::Varying));
    }
    return generic(e);
  }

  Value initList(const InitListExpr* list) {
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

  Value generic(const Expr* e) {
    std::vector<ExprRef> inputs;
    for (const Stmt* child : e->children())
      if (const auto* ce = dyn_cast_or_null<Expr>(child)) {
        Value v = eval(ce);
        inputs.push_back(v.v ? v.v : (v.isPointer() ? v.off : nullptr));
      }
    return intValue(opaqueLike(inputs, "value"));
  }

  Value declRef(const DeclRefExpr* ref) {
    const ValueDecl* d = ref->getDecl();
    if (const auto* ec = dyn_cast<EnumConstantDecl>(d)) return intValue(constant(ec->getInitVal().getSExtValue()));
    const auto* var = dyn_cast<VarDecl>(d);
    if (!var) return intValue(opaque(d->getNameAsString()));
    if (var->getName() == "warpSize") return intValue(constant(arch_.warpSize));
    if (const CXXRecordDecl* rec = var->getType()->getAsCXXRecordDecl())
      for (int i = 0; i < 4; ++i)
        if (rec->getName() == kBuiltinTypes[i]) {
          Value b;
          b.builtin = kBuiltinOps[i];
          return b;
        }
    auto it = env_.find(var);
    if (it != env_.end()) return it->second;
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

  Value cast(CastKind kind, const Expr* sub, const Expr* whole) {
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
      default: {
        Value v = eval(sub);
        // Pointer casts (reinterpret_cast<float4*>) keep the address; the width of a later
        // access comes from its own type.
        return v;
      }
    }
  }

  Value unaryOp(const UnaryOperator* un) {
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

  template <class F>
  Value updateVariable(const Expr* target, F update, bool returnNew) {
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
    env_[var] = now;
    return returnNew ? now : old;
  }

  static std::optional<Op> arithmetic(BinaryOperatorKind k) {
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

  Value combine(Op op, const Value& l, const Value& r, const Expr* lhs, const Expr* rhs) {
    // Pointer arithmetic: p + i moves by i elements.
    if (l.isPointer() && !r.isPointer() && (op == Op::Add || op == Op::Sub)) {
      const int64_t elem = sizeOf(lhs->getType()->getPointeeType());
      return Value{nullptr, l.root, binary(op, l.off, binary(Op::Mul, asInt(r), constant(elem)))};
    }
    if (r.isPointer() && !l.isPointer() && op == Op::Add) {
      const int64_t elem = sizeOf(rhs->getType()->getPointeeType());
      return Value{nullptr, r.root, binary(Op::Add, r.off, binary(Op::Mul, asInt(l), constant(elem)))};
    }
    if (l.isPointer() && r.isPointer()) {
      if (op == Op::Sub && l.root == r.root) {
        const int64_t elem = std::max<int64_t>(1, sizeOf(lhs->getType()->getPointeeType()));
        return intValue(binary(Op::Div, binary(Op::Sub, l.off, r.off), constant(elem)));
      }
      return intValue(opaqueLike({l.off, r.off}, "pointer comparison"));
    }
    const bool floating = lhs->getType()->isFloatingType() || rhs->getType()->isFloatingType();
    if (floating) return intValue(opaqueLike({asInt(l), asInt(r)}, "value"));
    return intValue(binary(op, asInt(l), asInt(r)));
  }

  Value binaryOp(const BinaryOperator* bin) {
    const BinaryOperatorKind k = bin->getOpcode();
    const Expr* lhs = bin->getLHS();
    const Expr* rhs = bin->getRHS();
    if (k == BO_Assign) {
      Value r = eval(rhs);
      if (auto loc = location(lhs)) {
        record(model::AccessKind::Store, *loc, lhs);
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

  Value conditional(const ConditionalOperator* c) {
    ExprRef cond = asInt(eval(c->getCond()));
    // A ?: with side effects is a branch; a pure one compiles to a select.
    if (c->getTrueExpr()->HasSideEffects(ctx_) || c->getFalseExpr()->HasSideEffects(ctx_))
      recordBranch("?:", cond, c->getCond(), c);
    pushGuard(cond, text(c->getCond()->getSourceRange()));
    Value a = eval(c->getTrueExpr());
    popGuard();
    pushGuard(unary(Op::Not, cond), "!(" + text(c->getCond()->getSourceRange()) + ")");
    Value b = eval(c->getFalseExpr());
    popGuard();
    return merge(cond, a, b);
  }

  Value merge(const ExprRef& cond, const Value& a, const Value& b) {
    if (a.isPointer() || b.isPointer()) {
      if (a.isPointer() && b.isPointer() && a.root == b.root) return Value{nullptr, a.root, select(cond, a.off, b.off)};
      if (a.isPointer() && b.isPointer()) {
        auto r = std::make_shared<Root>(*a.root);
        r->name = a.root->name + " or " + b.root->name;
        r->param = -1;
        r->alignment = std::min(a.root->alignment, b.root->alignment);
        r->indirect = r->indirect || b.root->indirect;
        // Two allocations chosen per lane: placed far apart (separate cudaMalloc
        // buffers), so each side's sectors count on their own.
        const bool separate = a.root->space == b.root->space && a.root->space == model::Space::Global &&
                              !r->indirect && a.root->alignment >= 256 && b.root->alignment >= 256;
        if (!separate && dependsOnThread(cond)) r->indirect = true;
        r->separateAllocations = separate && dependsOnThread(cond);
        return Value{nullptr, r, select(cond, a.off, binary(Op::Add, b.off, constant(separate ? kFarApart : 0)))};
      }
      return a.isPointer() ? a : b;
    }
    return intValue(select(cond, asInt(a), asInt(b)));
  }

  Value construct(const CXXConstructExpr* ctor) {
    const CXXConstructorDecl* cd = ctor->getConstructor();
    // A copy of a record from memory (Particle q = p[i]; float4 v = a[i];) is a load.
    if (ctor->getNumArgs() == 1 && cd->isCopyOrMoveConstructor()) {
      const Expr* arg = ctor->getArg(0)->IgnoreParenImpCasts();
      if (const auto* mte = dyn_cast<MaterializeTemporaryExpr>(arg)) arg = mte->getSubExpr()->IgnoreParenImpCasts();
      if (auto loc = location(arg)) {
        record(model::AccessKind::Load, *loc, arg);
        return loaded(*loc);
      }
      return eval(arg);
    }
    // dim3 d = blockDim; uint3 t(threadIdx): the built-in passes through.
    if (ctor->getNumArgs() == 1) {
      Value v = eval(ctor->getArg(0));
      if (v.builtin || v.object) return v;
      if (!inlinable(cd)) return intValue(opaqueLike({asInt(v)}, "value"));
      return inlineConstructor(cd, ctor, {v});
    }
    if (inlinable(cd)) {
      std::vector<Value> args;
      for (const Expr* a : ctor->arguments()) args.push_back(eval(a));
      return inlineConstructor(cd, ctor, args);
    }
    return generic(ctor);
  }

  bool inlinable(const FunctionDecl* fn) const {
    const FunctionDecl* def = nullptr;
    return fn && fn->hasBody(def) && def && stack_.size() < 12 &&
           std::find(stack_.begin(), stack_.end(), fn->getCanonicalDecl()) == stack_.end() &&
           !sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation()));
  }

  Value inlineConstructor(const CXXConstructorDecl* cd, const CXXConstructExpr* ctor, const std::vector<Value>& args) {
    const FunctionDecl* defFn = nullptr;
    cd->hasBody(defFn);
    const auto* def = dyn_cast_or_null<CXXConstructorDecl>(defFn);
    if (!def) return intValue(leaf(Op::Varying));
    for (unsigned i = 0; i < def->getNumParams() && i < args.size(); ++i) env_[def->getParamDecl(i)] = args[i];
    Frame f;
    f.guardDepth = guards_.size();
    Value self;
    self.object = std::make_shared<StructValue>();
    f.self = self;
    frames_.push_back(f);
    stack_.push_back(cd->getCanonicalDecl());
    for (const CXXCtorInitializer* init : def->inits()) {
      if (!init->isMemberInitializer() || !init->getInit()) continue;
      Value v = eval(init->getInit());
      auto copy = std::make_shared<StructValue>(*frames_.back().self->object);
      copy->fields[init->getMember()] = v;
      frames_.back().self->object = copy;
    }
    walk(def->getBody());
    stack_.pop_back();
    Value out = *frames_.back().self;
    frames_.pop_back();
    (void)ctor;
    return out;
  }

  Value readLvalue(const Expr* e) {
    if (auto loc = location(e->IgnoreParens())) {
      record(model::AccessKind::Load, *loc, e->IgnoreParens());
      return loaded(*loc);
    }
    return eval(e);
  }

  // A record-typed operand bound by reference: a load when it designates memory.
  Value readRecord(const Expr* e) {
    const Expr* inner = e->IgnoreParenImpCasts();
    if (const auto* mte = dyn_cast<MaterializeTemporaryExpr>(inner)) inner = mte->getSubExpr()->IgnoreParenImpCasts();
    if (inner->isGLValue())
      if (auto loc = location(inner)) {
        record(model::AccessKind::Load, *loc, inner);
        return loaded(*loc);
      }
    return eval(e);
  }

  // ---- calls ------------------------------------------------------------------------
  Value callExpr(const CallExpr* call) {
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(call); op && op->getOperator() == OO_Equal && op->getNumArgs() == 2) {
      // Record assignment through the implicit operator=: a store of the whole record,
      // and a load of the right side when it is memory bound to the const reference.
      Value r = readRecord(op->getArg(1));
      if (auto loc = location(op->getArg(0))) {
        record(model::AccessKind::Store, *loc, op->getArg(0));
        return r;
      }
      return updateVariable(op->getArg(0), [&](const Value&) { return r; }, true);
    }
    const FunctionDecl* fn = call->getDirectCallee();
    const std::string name = fn ? fn->getNameAsString() : std::string();
    // Memory other threads wrote may be read after these: nothing stays in registers.
    if (isBarrier(call) || name == "__syncwarp" || name.rfind("__threadfence", 0) == 0) available_.clear();
    if (isBarrier(call) && userCode(call))
      barriers.push_back(BarrierRecord{currentGuards(), text(call->getSourceRange()), stack_.back()->getNameAsString(),
                                       sm_.getExpansionLoc(call->getBeginLoc())});
    if (fn && isAtomicName(name) && call->getNumArgs() >= 1) {
      auto ptr = pointerOf(call->getArg(0));
      std::vector<ExprRef> inputs;
      for (unsigned i = 1; i < call->getNumArgs(); ++i) inputs.push_back(asInt(eval(call->getArg(i))));
      if (ptr) {
        QualType t = call->getArg(0)->getType()->getPointeeType();
        record(model::AccessKind::Atomic, MemLoc{ptr->root, ptr->off, t}, call);
      }
      return intValue(leaf(Op::Varying));
    }
    if (fn && name.rfind("__st", 0) == 0 && name.size() >= 5 && call->getNumArgs() == 2 &&
        call->getArg(0)->getType()->isPointerType()) {
      // __stcs, __stcg, __stwt, __stwb: cache-hinted stores.
      Value v = eval(call->getArg(1));
      if (auto ptr = pointerOf(call->getArg(0)))
        record(model::AccessKind::Store, MemLoc{ptr->root, ptr->off, call->getArg(0)->getType()->getPointeeType()}, call);
      (void)v;
      return intValue(constant(0));
    }
    if (fn && name.rfind("__shfl", 0) == 0 && name.find("sync") != std::string::npos && call->getNumArgs() >= 3) {
      // __shfl_sync(mask, v, srcLane): every lane gets lane srcLane's value, so a uniform
      // source lane makes it warp-uniform; the other shuffles keep only uniform values.
      eval(call->getArg(0));
      Value v = eval(call->getArg(1));
      ExprRef lane = asInt(eval(call->getArg(2)));
      for (unsigned i = 3; i < call->getNumArgs(); ++i) eval(call->getArg(i));
      if (uniformValue(v)) return v.v ? v : intValue(opaque("shfl"));
      if (name == "__shfl_sync" && isUniform(lane)) return intValue(leaf(Op::UniformLoad));
      return intValue(leaf(Op::Varying));
    }
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call)) {
      const CXXMethodDecl* method = member->getMethodDecl();
      if (method && isa<CXXConversionDecl>(method)) return eval(member->getImplicitObjectArgument());
    }
    if (auto v = cooperativeGroups(call)) return *v;
    if (fn && name.rfind("make_", 0) == 0 && call->getType()->isRecordType()) {
      // make_int2(x, y), make_float4(...): a register record with those fields.
      auto obj = std::make_shared<StructValue>();
      unsigned i = 0;
      if (const RecordDecl* rec = call->getType()->getAsRecordDecl())
        for (const FieldDecl* f : rec->fields()) {
          if (i >= call->getNumArgs()) break;
          obj->fields[f] = eval(call->getArg(i++));
        }
      for (; i < call->getNumArgs(); ++i) eval(call->getArg(i));
      Value v;
      v.object = obj;
      return v;
    }
    if (fn && (name == "__ldg" || name.starts_with("__ldc") || name.starts_with("__ldcs") || name.starts_with("__ldlu") ||
               name.starts_with("__ldcv") || name.starts_with("__ldca")) &&
        call->getNumArgs() == 1) {
      if (auto ptr = pointerOf(call->getArg(0))) {
        MemLoc loc{ptr->root, ptr->off, call->getArg(0)->getType()->getPointeeType()};
        record(model::AccessKind::Load, loc, call);
        return loaded(loc);
      }
      return intValue(leaf(Op::Varying));
    }
    if (fn && (name == "min" || name == "max" || name == "umin" || name == "umax" || name == "__mul24" ||
               name == "__umul24") && call->getNumArgs() == 2 && call->getType()->isIntegralOrEnumerationType()) {
      ExprRef a = asInt(eval(call->getArg(0))), b = asInt(eval(call->getArg(1)));
      const Op op = (name == "min" || name == "umin") ? Op::Min : (name == "max" || name == "umax") ? Op::Max : Op::Mul;
      return intValue(binary(op, a, b));
    }
    if (inlinable(fn)) return inlineCall(fn, call);
    // Not inlined: a method or a user function with no body may read anything (thread
    // identity included), so its result is lane-varying; a header function (math,
    // conversions, make_float4) depends only on its arguments.
    bool pureOfArgs = fn && !isa<CXXMethodDecl>(fn) && sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation()));
    for (const char* reads : {"__activemask", "__lanemask", "clock", "__globaltimer", "__nanosleep", "__lane_id"})
      if (name.rfind(reads, 0) == 0) pureOfArgs = false;
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call)) eval(member->getImplicitObjectArgument());
    std::vector<ExprRef> inputs;
    for (const Expr* arg : call->arguments()) {
      Value v = eval(arg);
      inputs.push_back(uniformValue(v) ? constant(0) : leaf(Op::Varying));
    }
    if (!pureOfArgs) return intValue(leaf(Op::Varying));
    return intValue(opaqueLike(inputs, name.empty() ? "call" : name));
  }

  // Cooperative groups' thread identity, for the block and for tiles.
  std::optional<Value> cooperativeGroups(const CallExpr* call) {
    const auto* m = dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
    if (!m) return std::nullopt;
    // The group's own type: the object's (block.thread_rank() may call a static member
    // of a base class), else the method's class.
    const CXXRecordDecl* rec = m->getParent();
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call))
      if (const CXXRecordDecl* objType = member->getImplicitObjectArgument()->getType()->getAsCXXRecordDecl()) rec = objType;
    if (const auto* callee = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts()))
      if (const CXXRecordDecl* objType = callee->getBase()->getType()->getAsCXXRecordDecl()) rec = objType;
    if (!rec || !sm_.isInSystemHeader(sm_.getExpansionLoc(m->getLocation()))) return std::nullopt;
    const std::string cls = rec->getNameAsString(), name = m->getNameAsString();
    auto linear = [&] {
      ExprRef tx = leaf(Op::ThreadIdx, 0), ty = leaf(Op::ThreadIdx, 1), tz = leaf(Op::ThreadIdx, 2);
      ExprRef bx = leaf(Op::BlockDim, 0), by = leaf(Op::BlockDim, 1);
      return binary(Op::Add, tx, binary(Op::Mul, bx, binary(Op::Add, ty, binary(Op::Mul, by, tz))));
    };
    if (cls == "thread_block" && name == "thread_rank") return intValue(linear());
    if (cls == "thread_block" && (name == "size" || name == "num_threads"))
      return intValue(binary(Op::Mul, leaf(Op::BlockDim, 0), binary(Op::Mul, leaf(Op::BlockDim, 1), leaf(Op::BlockDim, 2))));
    if (cls == "thread_block" && name == "thread_index") {
      Value v;
      v.builtin = Op::ThreadIdx;
      return v;
    }
    if (cls == "thread_block" && name == "group_index") {
      Value v;
      v.builtin = Op::BlockIdx;
      return v;
    }
    if (cls.find("thread_block_tile") != std::string::npos || cls.find("tiled_partition") != std::string::npos ||
        cls == "coalesced_group") {
      // A tile's size is its template argument; thread_rank is the linear id modulo it.
      int64_t size = arch_.warpSize;
      if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(rec))
        if (spec->getTemplateArgs().size() >= 1 && spec->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
          size = spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
      if (name == "thread_rank") return intValue(binary(Op::Rem, linear(), constant(size)));
      if (name == "meta_group_rank") return intValue(binary(Op::Div, linear(), constant(size)));
      if (name == "size" || name == "num_threads") return intValue(constant(size));
    }
    return std::nullopt;
  }

  // Inlines a __device__ function, method or lambda: parameters bound to the arguments,
  // `this` to the object, reference parameters written back to the caller's variables.
  Value inlineCall(const FunctionDecl* fn, const CallExpr* call) {
    const FunctionDecl* def = nullptr;
    fn->hasBody(def);
    if (!def) def = fn;
    Frame frame;
    frame.returnsReference = def->getReturnType()->isReferenceType();
    // The object of a method call: memory (p[i].get()) or a register object (v.get()).
    const Expr* objectExpr = nullptr;
    std::vector<const Expr*> args(call->arg_begin(), call->arg_end());
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call)) {
      objectExpr = member->getImplicitObjectArgument();
    } else if (isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(fn) && !args.empty()) {
      objectExpr = args.front();
      args.erase(args.begin());
    }
    if (objectExpr) {
      const Expr* obj = objectExpr->IgnoreParenImpCasts();
      if (const auto* mte = dyn_cast<MaterializeTemporaryExpr>(obj)) obj = mte->getSubExpr()->IgnoreParenImpCasts();
      if (objectExpr->getType()->isPointerType()) {
        frame.self = eval(objectExpr);
      } else if (auto loc = location(obj)) {
        frame.self = Value{nullptr, loc->root, loc->offset};
      } else {
        frame.self = eval(obj);
      }
    }
    std::vector<Value> values;
    std::vector<const Expr*> writeBack(args.size(), nullptr);
    for (unsigned i = 0; i < args.size(); ++i) {
      const Expr* arg = args[i];
      if (i < def->getNumParams() && def->getParamDecl(i)->getType()->isReferenceType()) {
        const Expr* inner = arg->IgnoreParenImpCasts();
        if (auto loc = location(inner)) {
          values.push_back(Value{nullptr, loc->root, loc->offset});
          continue;
        }
        // A register variable passed by reference: the callee's writes come back.
        writeBack[i] = inner;
      }
      values.push_back(eval(arg));
    }
    for (unsigned i = 0; i < def->getNumParams() && i < values.size(); ++i) {
      // A reference parameter bound to memory stays a location; one bound to a register
      // is that register's value.
      env_[def->getParamDecl(i)] = values[i];
    }
    frame.guardDepth = guards_.size();
    frames_.push_back(frame);
    stack_.push_back(fn->getCanonicalDecl());
    walk(def->getBody());
    stack_.pop_back();
    Frame done = frames_.back();
    frames_.pop_back();
    for (unsigned i = 0; i < writeBack.size() && i < def->getNumParams(); ++i)
      if (writeBack[i]) {
        auto it = env_.find(def->getParamDecl(i));
        if (it != env_.end()) assignRegister(writeBack[i], it->second);
      }
    if (objectExpr && done.self && !done.self->isPointer() && !objectExpr->getType()->isPointerType())
      assignRegister(objectExpr, *done.self);
    if (done.returns.empty()) return intValue(leaf(Op::Varying));
    // The first return whose condition holds wins: fold from the last.
    Value result = done.returns.back().second;
    for (size_t i = done.returns.size() - 1; i-- > 0;) result = merge(done.returns[i].first, done.returns[i].second, result);
    return result;
  }

  // ---- statements -------------------------------------------------------------------
  void pushGuard(ExprRef g, std::string what) {
    guards_.push_back(std::move(g));
    guardTexts_.push_back(std::move(what));
  }
  void popGuard() {
    guards_.pop_back();
    guardTexts_.pop_back();
  }

  // How a statement always ends: 0 falls through, else the kind of jump it ends with.
  enum Leave { kFallsThrough, kReturns, kBreaks, kContinues };
  static Leave leaves(const Stmt* s) {
    if (!s) return kFallsThrough;
    if (isa<ReturnStmt>(s)) return kReturns;
    if (isa<BreakStmt>(s)) return kBreaks;
    if (isa<ContinueStmt>(s)) return kContinues;
    if (const auto* c = dyn_cast<CompoundStmt>(s)) return c->body_empty() ? kFallsThrough : leaves(c->body_back());
    return kFallsThrough;
  }
  static bool alwaysLeaves(const Stmt* s) { return leaves(s) == kReturns; }

  void walk(const Stmt* s) {
    if (!s) return;
    if (const auto* c = dyn_cast<CompoundStmt>(s)) {
      size_t pushed = 0;
      for (const Stmt* child : c->body()) {
        walk(child);
        for (auto& [g, what] : pendingGuards_) {
          pushGuard(unary(Op::Not, g), "!(" + what + ")");
          ++pushed;
        }
        pendingGuards_.clear();
        // `if (i >= n) return;` (or continue, or break): what follows in this block runs
        // only where the condition was false; a break or a return also ends the loop.
        if (const auto* iff = dyn_cast<IfStmt>(child); iff && !iff->getElse()) {
          const Leave how = leaves(iff->getThen());
          if (how != kFallsThrough) {
            pushGuard(unary(Op::Not, lastIfCond_), "!(" + text(iff->getCond()->getSourceRange()) + ")");
            ++pushed;
            if ((how == kBreaks || how == kReturns) && !loopExits_.empty())
              loopExits_.back().push_back({lastIfCond_, how == kReturns});
          }
        }
      }
      for (; pushed; --pushed) popGuard();
      return;
    }
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* decl : d->decls())
        if (const auto* var = dyn_cast<VarDecl>(decl)) declare(var);
      return;
    }
    if (const auto* r = dyn_cast<ReturnStmt>(s)) {
      if (frames_.empty()) {
        if (r->getRetValue()) eval(r->getRetValue());
        return;
      }
      Value v = intValue(constant(0));
      if (const Expr* e = r->getRetValue()) {
        if (frames_.back().returnsReference) {
          if (auto loc = location(e->IgnoreParenImpCasts())) v = Value{nullptr, loc->root, loc->offset};
          else v = eval(e);
        } else {
          v = eval(e);
        }
      }
      frames_.back().returns.push_back({conjunction(frames_.back().guardDepth), v});
      return;
    }
    if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) return;  // handled by the enclosing block
    if (const auto* iff = dyn_cast<IfStmt>(s)) return ifStmt(iff);
    if (const auto* f = dyn_cast<ForStmt>(s)) return loop(f->getInit(), f->getCond(), f->getInc(), f->getBody(), s);
    if (const auto* w = dyn_cast<WhileStmt>(s)) return loop(nullptr, w->getCond(), nullptr, w->getBody(), s);
    if (const auto* dw = dyn_cast<DoStmt>(s)) return loop(nullptr, dw->getCond(), nullptr, dw->getBody(), s, true);
    if (const auto* sw = dyn_cast<SwitchStmt>(s)) {
      ExprRef cond = asInt(eval(sw->getCond()));
      // Lanes split when they disagree on the value: compare it with lane 0's, as a
      // condition that differs exactly when the values do.
      recordBranch("switch", cond, sw->getCond(), sw);
      pushGuard(dependsOnThread(cond) ? leaf(Op::Varying) : constant(1), "switch (" + text(sw->getCond()->getSourceRange()) + ")");
      walk(sw->getBody());
      popGuard();
      return;
    }
    if (const auto* e = dyn_cast<Expr>(s)) {
      eval(e);
      return;
    }
    for (const Stmt* child : s->children()) walk(child);
  }

  void declare(const VarDecl* var) {
    if (var->hasAttr<CUDASharedAttr>() || var->isStaticLocal()) return;  // memory, found by location()
    if (var->getType()->isArrayType()) {
      if (const Expr* init = var->getInit()) eval(init);
      return;
    }
    const Expr* init = var->getInit();
    if (!init) {
      env_[var] = intValue(leaf(Op::Varying));
      return;
    }
    if (var->getType()->isReferenceType()) {
      if (auto loc = location(init->IgnoreParenImpCasts())) {
        env_[var] = Value{nullptr, loc->root, loc->offset};
        return;
      }
    }
    env_[var] = eval(init);
  }

  ExprRef lastIfCond_ = constant(1);

  using Env = std::map<const VarDecl*, Value>;

  static bool same(const Value& a, const Value& b) { return a.v == b.v && a.root == b.root && a.off == b.off; }

  void mergeEnvs(const ExprRef& cond, const Env& thenEnv, const Env& elseEnv) {
    Env merged = thenEnv;
    for (auto& [var, value] : merged) {
      auto it = elseEnv.find(var);
      if (it == elseEnv.end()) continue;
      if (!same(value, it->second)) value = merge(cond, value, it->second);
    }
    for (const auto& [var, value] : elseEnv)
      if (!merged.count(var)) merged[var] = value;
    env_ = std::move(merged);
  }

  void ifStmt(const IfStmt* iff) {
    if (iff->getInit()) walk(iff->getInit());
    if (const VarDecl* cv = iff->getConditionVariable()) declare(cv);
    ExprRef cond = asInt(eval(iff->getCond()));
    recordBranch("if", cond, iff->getCond(), iff);
    const std::string condText = text(iff->getCond()->getSourceRange());
    const Env before = env_;
    pushGuard(cond, condText);
    walk(iff->getThen());
    popGuard();
    Env thenEnv = env_;
    env_ = before;
    if (iff->getElse()) {
      pushGuard(unary(Op::Not, cond), "!(" + condText + ")");
      walk(iff->getElse());
      popGuard();
    }
    mergeEnvs(cond, thenEnv, env_);
    lastIfCond_ = cond;
  }

  // Variables a statement assigns to.
  static void assignedVars(const Stmt* s, std::set<const VarDecl*>& out) {
    if (!s) return;
    auto target = [&](const Expr* e) {
      if (const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
        if (const auto* var = dyn_cast<VarDecl>(ref->getDecl())) out.insert(var);
    };
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) target(b->getLHS());
    if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) target(u->getSubExpr());
    for (const Stmt* child : s->children()) assignedVars(child, out);
  }

  // Loops: variables updated by a uniform step each iteration become
  // entry + k * step, with k an iteration counter; geometric ones (s *= 2, s >>= 1)
  // become a loop symbol with its own update. Everything else assigned in the loop
  // becomes opaque. The body is walked twice: once silently to learn the updates, once
  // recording accesses. `testAfter`: a do-while, whose body runs before the test.
  void loop(const Stmt* init, const Expr* cond, const Expr* inc, const Stmt* body, const Stmt* whole,
            bool testAfter = false) {
    if (init) walk(init);
    std::set<const VarDecl*> modified;
    assignedVars(body, modified);
    if (cond) assignedVars(cond, modified);
    if (inc) assignedVars(inc, modified);
    const Env entry = env_;
    const std::string loopText = loopHeaderText(whole);

    // Pass 1: placeholders (pointers keep their root), silently.
    std::map<const VarDecl*, int> placeholder;
    for (const VarDecl* v : modified) {
      SymbolInfo info;
      info.name = v->getNameAsString();
      placeholder[v] = symbols_.add(info);
      auto it = entry.find(v);
      if (it != entry.end() && it->second.isPointer())
        env_[v] = Value{nullptr, it->second.root, symbol(placeholder[v])};
      else
        env_[v] = intValue(symbol(placeholder[v]));
    }
    const bool wasRecording = recording_;
    recording_ = false;
    ++loopDepth_;
    loopExits_.emplace_back();
    if (cond && !testAfter) eval(cond);
    walk(body);
    if (cond && testAfter) eval(cond);
    if (inc) eval(inc);
    loopExits_.pop_back();
    --loopDepth_;
    recording_ = wasRecording;
    const Env afterOne = env_;
    env_ = entry;

    SymbolInfo counterInfo;
    counterInfo.name = "iteration";
    counterInfo.kind = SymbolInfo::Kind::LoopVar;
    counterInfo.loopText = loopText;
    counterInfo.testAfter = testAfter;
    const int counter = symbols_.add(counterInfo);
    // step = after - placeholder, as a clean affine expression (the placeholder cancels).
    auto inductionStep = [&](const ExprRef& after, int ph) -> std::optional<ExprRef> {
      auto form = linearize(binary(Op::Sub, after, symbol(ph)));
      if (!form) return std::nullopt;
      for (const AffineTerm& t : form->terms)
        if (containsPlaceholder(t.leaf, placeholder)) return std::nullopt;
      ExprRef step = constant(form->constant);
      for (const AffineTerm& t : form->terms) step = binary(Op::Add, step, binary(Op::Mul, t.leaf, constant(t.coef)));
      if (!isUniform(step)) return std::nullopt;
      return step;
    };
    std::vector<int> geometricIds;
    std::map<const VarDecl*, int> geometricOf;  // geometric induction variables, by symbol
    std::map<const VarDecl*, ExprRef> steps;  // arithmetic induction variables
    for (const VarDecl* v : modified) {
      auto itEntry = entry.find(v);
      auto itAfter = afterOne.find(v);
      const int ph = placeholder[v];
      Value entryValue = itEntry != entry.end() ? itEntry->second : intValue(leaf(Op::Varying));
      if (itAfter == afterOne.end()) continue;
      const Value& after = itAfter->second;
      if (entryValue.isPointer()) {
        // p += stride: the root stays, the offset moves by a uniform step.
        if (after.isPointer() && after.root == entryValue.root && after.off)
          if (auto step = inductionStep(after.off, ph)) {
            env_[v] = Value{nullptr, entryValue.root, binary(Op::Add, entryValue.off, binary(Op::Mul, symbol(counter), *step))};
            steps[v] = *step;
            continue;
          }
        auto r = std::make_shared<Root>(*entryValue.root);
        r->indirect = true;  // moved in a way we cannot follow
        env_[v] = Value{nullptr, r, constant(0)};
        continue;
      }
      if (after.isPointer() || !after.v || entryValue.object || entryValue.builtin) {
        env_[v] = entryValue.object || entryValue.builtin ? entryValue : intValue(leaf(Op::Varying));
        continue;
      }
      const ExprRef start = asInt(entryValue);
      if (auto step = inductionStep(after.v, ph)) {
        env_[v] = intValue(binary(Op::Add, start, binary(Op::Mul, symbol(counter), *step)));
        steps[v] = *step;
        continue;
      }
      if (isGeometric(after.v, ph) && isUniform(start)) {
        SymbolInfo g;
        g.name = v->getNameAsString();
        g.kind = SymbolInfo::Kind::LoopVar;
        g.loopInit = start;
        g.loopText = loopText;
        g.testAfter = testAfter;
        const int gid = symbols_.add(g);
        symbols_[gid].loopNext = substitute(after.v, [&](const ExprRef& l) -> ExprRef {
          if (l->op == Op::Symbol && l->symbolId == ph) return symbol(gid);
          return nullptr;
        });
        env_[v] = intValue(symbol(gid));
        geometricIds.push_back(gid);
        geometricOf[v] = gid;
        continue;
      }
      env_[v] = intValue(isUniform(start) && isUniform(after.v) ? opaque(v->getNameAsString()) : leaf(Op::Varying));
    }

    // Pass 2: the condition guards the body (after the first iteration, for a do-while);
    // a break or a return in the body also ends the loop.
    ++loopDepth_;
    loopExits_.emplace_back();
    ExprRef c = constant(1);
    if (cond && !testAfter) {
      c = asInt(eval(cond));
      recordBranch("loop", c, cond, whole);
      pushGuard(c, text(cond->getSourceRange()));
    }
    walk(body);
    if (cond && testAfter) {
      c = asInt(eval(cond));
      recordBranch("loop", c, cond, whole);
    }
    if (inc) eval(inc);
    if (cond && !testAfter) popGuard();
    std::set<int> loopSymbols(geometricIds.begin(), geometricIds.end());
    loopSymbols.insert(counter);
    for (const auto& [v, id] : placeholder) loopSymbols.insert(id);
    for (const auto& [exit, isReturn] : loopExits_.back()) {
      c = binary(Op::LAnd, c, unary(Op::Not, exit));
      if (isReturn && !mentionsAny(exit, loopSymbols)) pendingGuards_.push_back({exit, "return in " + loopText});
    }
    loopExits_.pop_back();
    symbols_[counter].loopCond = c;
    for (int id : geometricIds) symbols_[id].loopCond = c;
    --loopDepth_;
    // After the loop: an induction variable ends at entry + trips * step (the trip count
    // is known per launch when the loop's bounds are); anything else is no longer followed.
    SymbolInfo tripInfo;
    tripInfo.name = "trips of " + loopText;
    tripInfo.tripOf = counter;
    const int trips = symbols_.add(tripInfo);
    for (const auto& [v, step] : steps) {
      auto e = entry.find(v);
      if (e == entry.end()) continue;
      if (e->second.isPointer())
        env_[v] = Value{nullptr, e->second.root, binary(Op::Add, e->second.off, binary(Op::Mul, symbol(trips), step))};
      else
        env_[v] = intValue(binary(Op::Add, asInt(e->second), binary(Op::Mul, symbol(trips), step)));
    }
    for (const VarDecl* v : modified) {
      if (steps.count(v)) continue;
      auto it = env_.find(v);
      if (it == env_.end()) continue;
      // A geometric one (offset *= 2) ends at its value when the loop's condition fails,
      // known per launch when the loop's bounds are (a Blelloch scan's down-sweep starts
      // from the offset its up-sweep ended with).
      if (auto g = geometricOf.find(v); g != geometricOf.end()) {
        SymbolInfo exit;
        exit.name = v->getNameAsString();
        exit.exitOf = g->second;
        exit.loopText = loopText;
        it->second = intValue(symbol(symbols_.add(exit)));
        continue;
      }
      if (it->second.isPointer()) {
        auto r = std::make_shared<Root>(*it->second.root);
        if (!isUniform(it->second.off)) r->indirect = true;
        // The final offset is not known: keep the root, with an opaque uniform offset.
        it->second = Value{nullptr, r, isUniform(it->second.off) ? opaque(v->getNameAsString()) : constant(0)};
        continue;
      }
      if (it->second.object || it->second.builtin) continue;
      it->second = intValue(it->second.v && isUniform(it->second.v) ? opaque(v->getNameAsString()) : leaf(Op::Varying));
    }
  }

  static bool mentionsAny(const ExprRef& e, const std::set<int>& ids) {
    if (e->op == Op::Symbol && ids.count(e->symbolId)) return true;
    for (const auto& a : e->args)
      if (mentionsAny(a, ids)) return true;
    return false;
  }

  static bool containsPlaceholder(const ExprRef& e, const std::map<const VarDecl*, int>& ph) {
    if (e->op == Op::Symbol)
      for (const auto& [v, id] : ph)
        if (e->symbolId == id) return true;
    for (const auto& a : e->args)
      if (containsPlaceholder(a, ph)) return true;
    return false;
  }

  static bool isGeometric(const ExprRef& after, int placeholderId) {
    if (after->args.size() != 2) return false;
    const bool onSelf = after->args[0]->op == Op::Symbol && after->args[0]->symbolId == placeholderId;
    const bool byConst = after->args[1]->op == Op::Const;
    return onSelf && byConst &&
           (after->op == Op::Mul || after->op == Op::Div || after->op == Op::Shl || after->op == Op::Shr);
  }

  std::string loopHeaderText(const Stmt* s) {
    if (const auto* f = dyn_cast<ForStmt>(s)) {
      clang::SourceLocation end = f->getRParenLoc();
      return text(SourceRange(f->getBeginLoc(), end));
    }
    if (const auto* w = dyn_cast<WhileStmt>(s)) return "while (" + text(w->getCond()->getSourceRange()) + ")";
    if (const auto* d = dyn_cast<DoStmt>(s)) return "do ... while (" + text(d->getCond()->getSourceRange()) + ")";
    return "loop";
  }
};

// ---- launches -----------------------------------------------------------------------

struct Launch {
  model::Dim3 block;
  bool blockKnown = true;  // false: the block is not a constant here; the fallback shape is used
  std::optional<model::Dim3> grid;
  std::map<unsigned, int64_t> argValues;  // parameter index -> constant argument
  std::map<unsigned, int64_t> pointerOffsets;  // pointer parameter index -> bytes past its allocation
  std::string where;                      // "file.cu:40"
};

// Host-side values of the parameters of the function a launch sits in, taken from one of
// its call sites: `void run(float* p, int threads) { k<<<g, threads>>>(p); }` called as
// run(p, 128). Arguments are read lazily, in the caller's own environment (which may come
// from its callers in turn).
struct HostEnv {
  struct Arg {
    const Expr* expr;
    const HostEnv* env;  // the caller's; null: none
  };
  std::map<const ParmVarDecl*, Arg> params;
  std::string via;  // ", called at a.cu:88" (outermost call last)
};

class TranslationUnitWalker : public RecursiveASTVisitor<TranslationUnitWalker> {
 public:
  explicit TranslationUnitWalker(ASTContext& ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  // Keeps the function being walked (and whether it is a system header's), for launches
  // and calls.
  bool TraverseDecl(Decl* d) {
    auto* fn = dyn_cast_or_null<FunctionDecl>(d);
    if (!fn) return RecursiveASTVisitor::TraverseDecl(d);
    functions_.push_back({fn, sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation()))});
    const bool ok = RecursiveASTVisitor::TraverseDecl(d);
    functions_.pop_back();
    return ok;
  }

  bool VisitFunctionDecl(FunctionDecl* fn) {
    if (fn->hasAttr<CUDAGlobalAttr>() && fn->doesThisDeclarationHaveABody() && !fn->isDependentContext() &&
        !sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation())))
      if (std::find(kernels.begin(), kernels.end(), fn) == kernels.end()) kernels.push_back(fn);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr* call) {
    if (call->getDirectCallee() && call->getConfig() && call->getConfig()->getNumArgs() >= 2)
      pendingLaunches_.push_back({call, functions_.empty() ? nullptr : functions_.back().fn});
    return true;
  }

  // Calls made from the user's code (not a system header's), by callee: where the
  // parameters of a function that launches come from.
  bool VisitCallExpr(CallExpr* call) {
    if (functions_.empty() || functions_.back().inSystemHeader || isa<CUDAKernelCallExpr>(call)) return true;
    if (const FunctionDecl* callee = call->getDirectCallee())
      callsOf_[callee->getCanonicalDecl()].push_back({call, functions_.back().fn});
    return true;
  }

  // After the walk: the block and constant arguments of every launch, as written or, when
  // they depend on the parameters of the function holding the launch, per call site of it.
  void resolveLaunches() {
    for (const auto& [call, holder] : pendingLaunches_) {
      const std::string at = locationText(call->getBeginLoc());
      std::vector<Launch> found;
      const std::vector<std::pair<const Expr*, bool>> conditions = enclosingConditions(call, holder);
      for (const HostEnv* env : environmentsOf(holder, kCallerDepth)) {
        // `if (which == 0) k<<<...>>>()` in a wrapper: a call site whose arguments make an
        // enclosing condition false does not launch here.
        const bool skipped = std::any_of(conditions.begin(), conditions.end(), [&](const auto& c) {
          auto v = constantOf(c.first, env);
          return v && (*v != 0) != c.second;
        });
        if (skipped) continue;
        auto block = dim3Of(call->getConfig()->getArg(1), env);
        Launch l;
        // A block the host computes at run time: the kernel still gets this launch's
        // arguments and pointer offsets, over the fallback block shape.
        l.blockKnown = block.has_value();
        if (block) l.block = *block;
        l.grid = dim3Of(call->getConfig()->getArg(0), env);
        for (unsigned i = 0; i < call->getNumArgs(); ++i) {
          if (auto v = constantOf(call->getArg(i), env)) l.argValues[i] = *v;
          if (call->getArg(i)->getType()->isPointerType())
            if (const int64_t off = pointerByteOffset(call->getArg(i), env); off != 0) l.pointerOffsets[i] = off;
        }
        l.where = at + (env ? env->via : "");
        const bool seen = std::any_of(found.begin(), found.end(), [&](const Launch& o) {
          return o.blockKnown == l.blockKnown && o.block == l.block && o.grid == l.grid && o.argValues == l.argValues &&
                 o.pointerOffsets == l.pointerOffsets;
        });
        if (seen) continue;  // this call site adds nothing to the launch as written
        // A call site that fixes more than the launch as written replaces it.
        if (env && !found.empty() && found.front().where == at) found.erase(found.begin());
        found.push_back(std::move(l));
      }
      if (found.empty()) continue;  // no entry: the kernel gets the fallback block
      auto& list = launches[call->getDirectCallee()->getCanonicalDecl()];
      list.insert(list.end(), found.begin(), found.end());
    }
  }

  std::vector<const FunctionDecl*> kernels;
  std::map<const FunctionDecl*, std::vector<Launch>> launches;

 private:
  ASTContext& ctx_;
  SourceManager& sm_;
  struct Walked {
    const FunctionDecl* fn;
    bool inSystemHeader;
  };
  std::vector<Walked> functions_;
  struct PendingLaunch {
    const CUDAKernelCallExpr* call;
    const FunctionDecl* holder;  // the function it sits in
  };
  std::vector<PendingLaunch> pendingLaunches_;
  struct CallSite {
    const CallExpr* call;
    const FunctionDecl* caller;
  };
  std::map<const FunctionDecl*, std::vector<CallSite>> callsOf_;
  std::deque<HostEnv> envs_;  // stable addresses: environments point at their callers'
  std::map<std::pair<const FunctionDecl*, int>, std::vector<const HostEnv*>> envsOf_;  // environmentsOf, once
  std::map<const FunctionDecl*, std::unique_ptr<ParentMap>> parentsOf_;               // per function holding launches

  // How far up the call chain parameters are followed, and how many call sites per level
  // and environments per launch at most (a launch gets one context per environment).
  static constexpr int kCallerDepth = 3;
  static constexpr size_t kMaxCallSites = 16;
  static constexpr size_t kMaxEnvironments = 32;

  std::string locationText(clang::SourceLocation loc) const {
    PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(loc));
    return p.isValid() ? std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) : std::string();
  }

  // The environments `fn`'s parameters can take: none (null) when it has no parameter or
  // no caller in the user's code, else one per call site (and per environment of that
  // caller, up to `depth` levels).
  std::vector<const HostEnv*> environmentsOf(const FunctionDecl* fn, int depth) {
    if (!fn || fn->param_empty() || depth == 0) return {nullptr};
    auto it = callsOf_.find(fn->getCanonicalDecl());
    if (it == callsOf_.end()) return {nullptr};
    // Once per function and depth: a wrapper with several launches shares its call sites.
    const auto key = std::make_pair(fn->getCanonicalDecl(), depth);
    if (auto known = envsOf_.find(key); known != envsOf_.end()) return known->second;
    std::vector<const HostEnv*> out{nullptr};  // first as written: constants need no caller
    for (size_t c = 0; c < it->second.size() && c < kMaxCallSites && out.size() < kMaxEnvironments; ++c) {
      const CallSite& site = it->second[c];
      if (site.caller == fn) continue;  // recursion: its own calls say nothing new
      for (const HostEnv* outer : environmentsOf(site.caller, depth - 1)) {
        if (out.size() >= kMaxEnvironments) break;
        HostEnv env;
        for (unsigned i = 0; i < fn->getNumParams() && i < site.call->getNumArgs(); ++i)
          env.params[fn->getParamDecl(i)] = {site.call->getArg(i), outer};
        env.via = ", called at " + locationText(site.call->getBeginLoc()) + (outer ? outer->via : "");
        envs_.push_back(std::move(env));
        out.push_back(&envs_.back());
      }
    }
    envsOf_[key] = out;
    return out;
  }

  // The `if` conditions around `call` inside `holder`, each with the value it must have
  // for the call to run (true in the then-branch, false in the else-branch).
  std::vector<std::pair<const Expr*, bool>> enclosingConditions(const Stmt* call, const FunctionDecl* holder) {
    std::vector<std::pair<const Expr*, bool>> out;
    if (!holder || !holder->getBody()) return out;
    auto& cached = parentsOf_[holder];
    if (!cached) cached = std::make_unique<ParentMap>(holder->getBody());
    const ParentMap& parents = *cached;
    for (const Stmt* child = call, *parent = parents.getParent(call); parent;
         child = parent, parent = parents.getParent(parent))
      if (const auto* ifs = dyn_cast<IfStmt>(parent)) {
        if (child == ifs->getThen()) out.push_back({ifs->getCond(), true});
        else if (child == ifs->getElse()) out.push_back({ifs->getCond(), false});
      }
    return out;
  }

  // A parameter's argument at the call site `env` stands for, if it has one.
  static const HostEnv::Arg* argumentOf(const Expr* e, const HostEnv* env) {
    if (!env) return nullptr;
    const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* parm = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
    auto it = parm ? env->params.find(parm) : env->params.end();
    return it == env->params.end() ? nullptr : &it->second;
  }

  std::optional<int64_t> constantOf(const Expr* e, const HostEnv* env = nullptr, int depth = 0) {
    if (!e || e->isValueDependent() || depth > 64) return std::nullopt;
    Expr::EvalResult r;
    if (e->getType()->isIntegralOrEnumerationType() && e->EvaluateAsInt(r, ctx_) && r.Val.isInt())
      return r.Val.getInt().getExtValue();
    e = e->IgnoreParenImpCasts();
    if (const auto* arg = argumentOf(e, env); arg && !isReassigned(cast<DeclRefExpr>(e)->getDecl()))
      return constantOf(arg->expr, arg->env, depth + 1);
    // A local initialised with a constant and never assigned again.
    if (const auto* ref = dyn_cast<DeclRefExpr>(e))
      if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && var->isLocalVarDecl() && var->getInit())
        if (!isReassigned(var)) return constantOf(var->getInit(), env, depth + 1);
    // Arithmetic over what the above resolves: (n + threads - 1) / threads.
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getType()->isIntegerType()) {
      auto l = constantOf(b->getLHS(), env, depth + 1);
      auto rr = l ? constantOf(b->getRHS(), env, depth + 1) : std::nullopt;
      if (!rr) return std::nullopt;
      switch (b->getOpcode()) {
        case BO_Add: return *l + *rr;
        case BO_Sub: return *l - *rr;
        case BO_Mul: return *l * *rr;
        case BO_Div: return *rr ? std::optional<int64_t>(*l / *rr) : std::nullopt;
        case BO_Rem: return *rr ? std::optional<int64_t>(*l % *rr) : std::nullopt;
        case BO_Shl: return *rr >= 0 && *rr < 63 ? std::optional<int64_t>(*l << *rr) : std::nullopt;
        case BO_Shr: return *rr >= 0 && *rr < 63 ? std::optional<int64_t>(*l >> *rr) : std::nullopt;
        case BO_EQ: return *l == *rr;
        case BO_NE: return *l != *rr;
        case BO_LT: return *l < *rr;
        case BO_GT: return *l > *rr;
        case BO_LE: return *l <= *rr;
        case BO_GE: return *l >= *rr;
        case BO_LAnd: return *l && *rr;
        case BO_LOr: return *l || *rr;
        default: return std::nullopt;
      }
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_LNot)
      if (auto v = constantOf(u->getSubExpr(), env, depth + 1)) return !*v;
    if (const auto* c = dyn_cast<ConditionalOperator>(e))
      if (auto cond = constantOf(c->getCond(), env, depth + 1))
        return constantOf(*cond ? c->getTrueExpr() : c->getFalseExpr(), env, depth + 1);
    return std::nullopt;
  }

  // Bytes a pointer argument lies past the start of its allocation, as far as the host code
  // shows it: `buf + 3`, `&buf[3]`, `reinterpret_cast<const float4*>(a) + 1`, a local
  // initialised so, or a wrapper's parameter given so at its call site. 0 when nothing is
  // added to a pointer the code knows no more of (a cudaMalloc'd one: the stated assumption).
  int64_t pointerByteOffset(const Expr* e, const HostEnv* env, int depth = 0) {
    if (!e || depth > 64 || e->isValueDependent()) return 0;
    e = e->IgnoreParens();
    auto elementBytes = [&](const Expr* pointer) -> std::optional<int64_t> {
      const QualType pointee = pointer->getType()->getPointeeOrArrayElementType()->getCanonicalTypeInternal();
      if (pointee.isNull() || pointee->isIncompleteType() || pointee->isDependentType()) return std::nullopt;
      return ctx_.getTypeSizeInChars(pointee).getQuantity();
    };
    if (const auto* cast = dyn_cast<CastExpr>(e)) {
      switch (cast->getCastKind()) {
        case CK_NoOp:
        case CK_BitCast:
        case CK_LValueToRValue:
        case CK_ArrayToPointerDecay:
          return pointerByteOffset(cast->getSubExpr(), env, depth + 1);
        default:
          return 0;
      }
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp() && b->getType()->isPointerType()) {
      const bool pointerLeft = b->getLHS()->getType()->isPointerType() || b->getLHS()->getType()->isArrayType();
      const Expr* pointer = pointerLeft ? b->getLHS() : b->getRHS();
      auto count = constantOf(pointerLeft ? b->getRHS() : b->getLHS(), env);
      auto bytes = elementBytes(pointer);
      if (!count || !bytes) return 0;
      return pointerByteOffset(pointer, env, depth + 1) + (b->getOpcode() == BO_Sub ? -1 : 1) * *count * *bytes;
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
      if (const auto* sub = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens())) {
        auto count = constantOf(sub->getIdx(), env);
        auto bytes = elementBytes(sub->getBase());
        if (!count || !bytes) return 0;
        return pointerByteOffset(sub->getBase(), env, depth + 1) + *count * *bytes;
      }
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
      if (const auto* arg = argumentOf(e, env); arg && !isReassigned(ref->getDecl()))
        return pointerByteOffset(arg->expr, arg->env, depth + 1);
      if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
          var && !isa<ParmVarDecl>(var) && var->isLocalVarDecl() && var->getInit() && !isReassigned(var))
        return pointerByteOffset(var->getInit(), env, depth + 1);
    }
    return 0;
  }

  // Whether the variable is assigned, bumped or has its address taken anywhere in its
  // function (one walk of the body per variable: launch resolution asks again and again).
  bool isReassigned(const ValueDecl* decl) {
    if (auto known = reassigned_.find(decl); known != reassigned_.end()) return known->second;
    const auto* var = dyn_cast<VarDecl>(decl);
    const auto* fn = var ? dyn_cast<FunctionDecl>(var->getDeclContext()) : nullptr;
    if (!fn || !fn->getBody()) return reassigned_[decl] = true;
    bool found = false;
    std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
      if (!s || found) return;
      auto hits = [&](const Expr* e) {
        const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
        return r && r->getDecl() == var;
      };
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) found = true;
      if (const auto* u = dyn_cast<UnaryOperator>(s))
        if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) found = true;
      for (const Stmt* c : s->children()) scan(c);
    };
    scan(fn->getBody());
    return reassigned_[decl] = found;
  }
  std::map<const ValueDecl*, bool> reassigned_;

  // A block argument: an integer, dim3(x, y, z), or a dim3 local built from constants
  // (or from the parameters `env` gives values to).
  std::optional<model::Dim3> dim3Of(const Expr* e, const HostEnv* env, int depth = 0) {
    if (depth > 64) return std::nullopt;
    e = e->IgnoreParenImpCasts();
    if (const auto* mte = dyn_cast<MaterializeTemporaryExpr>(e)) return dim3Of(mte->getSubExpr(), env, depth + 1);
    if (const auto* bt = dyn_cast<CXXBindTemporaryExpr>(e)) return dim3Of(bt->getSubExpr(), env, depth + 1);
    if (const auto* fc = dyn_cast<CXXFunctionalCastExpr>(e)) return dim3Of(fc->getSubExpr(), env, depth + 1);
    if (const auto* ctor = dyn_cast<CXXConstructExpr>(e)) {
      if (ctor->getConstructor()->isCopyOrMoveConstructor() && ctor->getNumArgs() == 1)
        return dim3Of(ctor->getArg(0), env, depth + 1);
      model::Dim3 d;
      int64_t* dims[3] = {&d.x, &d.y, &d.z};
      for (unsigned i = 0; i < ctor->getNumArgs() && i < 3; ++i) {
        if (isa<CXXDefaultArgExpr>(ctor->getArg(i))) continue;
        auto v = constantOf(ctor->getArg(i), env);
        if (!v) return std::nullopt;
        *dims[i] = *v;
      }
      return d;
    }
    if (const auto* list = dyn_cast<InitListExpr>(e)) {
      model::Dim3 d;
      int64_t* dims[3] = {&d.x, &d.y, &d.z};
      for (unsigned i = 0; i < list->getNumInits() && i < 3; ++i) {
        auto v = constantOf(list->getInit(i), env);
        if (!v) return std::nullopt;
        *dims[i] = *v;
      }
      return d;
    }
    if (const auto* arg = argumentOf(e, env); arg && !isReassigned(cast<DeclRefExpr>(e)->getDecl()))
      return dim3Of(arg->expr, arg->env, depth + 1);
    if (const auto* ref = dyn_cast<DeclRefExpr>(e))
      if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
          var && !isa<ParmVarDecl>(var) && var->getInit() && !isReassigned(var)) {
        std::optional<model::Dim3> d = dim3Of(var->getInit(), env, depth + 1);
        // dim3 threads; threads.x = 32; threads.y = 8;  (Rodinia writes launches so)
        if (d && !applyMemberAssignments(var, *d, env)) return std::nullopt;
        return d;
      }
    if (auto v = constantOf(e, env)) return model::Dim3{*v, 1, 1};
    return std::nullopt;
  }

  // Applies `var.x = constant` assignments in the variable's function; false when one
  // assigns something not constant (or the member is assigned more than once).
  bool applyMemberAssignments(const VarDecl* var, model::Dim3& d, const HostEnv* env) {
    const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
    if (!fn || !fn->getBody()) return true;
    bool ok = true;
    int assigned[3] = {0, 0, 0};
    std::function<void(const Stmt*)> scan = [&](const Stmt* st) {
      if (!st) return;
      if (const auto* b = dyn_cast<BinaryOperator>(st); b && b->isAssignmentOp())
        if (const auto* m = dyn_cast<MemberExpr>(b->getLHS()->IgnoreParenImpCasts()))
          if (const auto* r = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts()); r && r->getDecl() == var) {
            const std::string name = m->getMemberDecl()->getNameAsString();
            const int k = name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
            auto v = b->getOpcode() == BO_Assign ? constantOf(b->getRHS(), env) : std::nullopt;
            if (k < 0 || !v || ++assigned[k] > 1) ok = false;
            else (k == 0 ? d.x : k == 1 ? d.y : d.z) = *v;
          }
      for (const Stmt* c : st->children()) scan(c);
    };
    scan(fn->getBody());
    return ok;
  }
};

std::string kernelName(const FunctionDecl* fn, const ASTContext& ctx) {
  std::string out;
  llvm::raw_string_ostream os(out);
  fn->getNameForDiagnostic(os, ctx.getPrintingPolicy(), /*Qualified=*/true);
  return os.str();
}

coalesce::SourceLocation plainLocation(const SourceManager& sm, clang::SourceLocation loc) {
  coalesce::SourceLocation out;
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid()) return out;
  out.file = p.getFilename();
  out.line = p.getLine();
  out.column = p.getColumn();
  return out;
}

std::string lineTextAt(const SourceManager& sm, clang::SourceLocation loc) {
  loc = sm.getExpansionLoc(loc);
  bool invalid = false;
  StringRef buffer = sm.getBufferData(sm.getFileID(loc), &invalid);
  if (invalid) return {};
  const unsigned offset = sm.getFileOffset(loc);
  const size_t begin = buffer.rfind('\n', offset) == StringRef::npos ? 0 : buffer.rfind('\n', offset) + 1;
  const size_t end = buffer.find('\n', offset);
  return buffer.slice(begin, end == StringRef::npos ? buffer.size() : end).str();
}

double severityKey(const model::AccessFigures& f) {
  if (f.global) return f.global->aligned.sectorsPerRequest / std::max(1e-9, f.global->aligned.idealSectors);
  if (f.shared) return f.shared->aligned.conflictDegree;
  return 0;
}

// A source annotation in the comment lines just above the kernel:
//   // coalesce-lint: block=32x8
std::optional<model::Dim3> annotatedBlock(const FunctionDecl* fn, const ASTContext& ctx) {
  const SourceManager& sm = ctx.getSourceManager();
  clang::SourceLocation begin = sm.getExpansionLoc(fn->getBeginLoc());
  bool invalid = false;
  StringRef buffer = sm.getBufferData(sm.getFileID(begin), &invalid);
  if (invalid) return std::nullopt;
  const size_t offset = sm.getFileOffset(begin);
  // The text of up to four lines before the declaration.
  size_t from = offset;
  for (int lines = 0; lines < 5 && from > 0; ++lines) {
    const size_t nl = buffer.rfind('\n', from - 1);
    if (nl == StringRef::npos) {
      from = 0;
      break;
    }
    from = nl;
  }
  StringRef above = buffer.slice(from, offset);
  const size_t at = above.rfind("coalesce-lint: block=");
  if (at == StringRef::npos) return std::nullopt;
  StringRef spec = above.substr(at + strlen("coalesce-lint: block="));
  spec = spec.take_while([](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || ch == 'x'; });
  SmallVector<StringRef, 3> parts;
  spec.split(parts, 'x');
  model::Dim3 d;
  int64_t* dims[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < parts.size() && i < 3; ++i)
    if (parts[i].getAsInteger(10, *dims[i]) || *dims[i] <= 0) return std::nullopt;
  if (d.volume() > 1024) return std::nullopt;
  return d;
}

// The fallback block when no launch fixes it: __launch_bounds__, an annotation,
// --block-dim, or 1D.
std::vector<LaunchContext> fallbackContexts(const FunctionDecl* fn, const TranslationUnitOptions& options,
                                            const ASTContext& ctx, const bool threadDimsUsed[3]) {
  LaunchContext c;
  if (const auto* lb = fn->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult r;
    if (lb->getMaxThreads() && !lb->getMaxThreads()->isValueDependent() &&
        lb->getMaxThreads()->EvaluateAsInt(r, ctx) && r.Val.isInt()) {
      c.block.dim = {r.Val.getInt().getExtValue(), 1, 1};
      c.block.source = BlockSource::LaunchBounds;
      c.block.detail = "1D block of " + std::to_string(c.block.dim.x) + " threads from __launch_bounds__";
      c.blockKnown = true;
      return {c};
    }
  }
  if (auto annotated = annotatedBlock(fn, ctx)) {
    c.block.dim = *annotated;
    c.block.source = BlockSource::Annotation;
    c.block.detail = "block " + std::to_string(c.block.dim.x) + "x" + std::to_string(c.block.dim.y) + "x" +
                     std::to_string(c.block.dim.z) + " from the `coalesce-lint: block=` comment";
    c.blockKnown = true;
    return {c};
  }
  if (options.blockDim) {
    c.block.dim = *options.blockDim;
    c.block.source = BlockSource::Option;
    c.block.detail = "block " + std::to_string(c.block.dim.x) + "x" + std::to_string(c.block.dim.y) + "x" +
                     std::to_string(c.block.dim.z) + " from --block-dim";
    c.blockKnown = true;
    return {c};
  }
  c.blockKnown = false;
  c.block.source = BlockSource::Assumed;
  if (threadDimsUsed[1] || threadDimsUsed[2]) {
    // A kernel indexed by threadIdx.y (or z) runs on 2D (3D) blocks; 32 wide keeps each
    // warp in one row, the usual layout. Said, and overridable with --block-dim.
    c.block.dim = threadDimsUsed[2] ? model::Dim3{32, 4, 2} : model::Dim3{32, 8, 1};
    c.block.detail = "no launch found: assumes a " + std::string(threadDimsUsed[2] ? "32x4x2" : "32x8") +
                     " block, as the kernel uses threadIdx." + (threadDimsUsed[2] ? "z" : "y") +
                     " (set it with --block-dim or a `coalesce-lint: block=` comment)";
    return {c};
  }
  c.block.dim = {kAssumedBlockX, 1, 1};
  c.block.detail = "no launch found: assumes a 1D block whose blockDim.x is a multiple of 32 (figures use " +
                   std::to_string(kAssumedBlockX) + ")";
  return {c};
}

// The record `t` is, points to or holds elements of, when its declaration is invalid.
const clang::RecordDecl* invalidRecordIn(clang::QualType t) {
  for (int depth = 0; depth < 16 && !t.isNull(); ++depth) {
    if (t->isReferenceType()) t = t.getNonReferenceType();
    else if (t->isPointerType()) t = t->getPointeeType();
    else if (const clang::ArrayType* a = t->getAsArrayTypeUnsafe()) t = a->getElementType();
    else break;
  }
  const clang::RecordDecl* record = t.isNull() ? nullptr : t->getAsRecordDecl();
  if (record && record->getDefinition()) record = record->getDefinition();
  return record && record->isInvalidDecl() ? record : nullptr;
}

// "uses 'P', whose declaration has errors (a.cu:2)" for the first parameter or expression
// of the kernel whose type involves such a record, or nothing.
std::optional<std::string> firstUseOfInvalidRecord(const FunctionDecl* fn, const SourceManager& sm) {
  const clang::RecordDecl* bad = nullptr;
  for (const ParmVarDecl* p : fn->parameters())
    if (!bad) bad = invalidRecordIn(p->getType());
  std::vector<const clang::Stmt*> todo{fn->getBody()};
  while (!bad && !todo.empty()) {
    const clang::Stmt* st = todo.back();
    todo.pop_back();
    if (!st) continue;
    if (const auto* e = llvm::dyn_cast<clang::Expr>(st)) bad = invalidRecordIn(e->getType());
    for (const clang::Stmt* child : st->children()) todo.push_back(child);
  }
  if (!bad) return std::nullopt;
  const coalesce::SourceLocation at = plainLocation(sm, bad->getLocation());
  return "uses '" + bad->getNameAsString() + "', whose declaration has errors (" + at.file + ":" +
         std::to_string(at.line) + "): its layout, and so the strides, would be made up";
}

}  // namespace

TranslationUnitResult analyzeTranslationUnit(clang::ASTContext& ctx, const TranslationUnitOptions& options) {
  TranslationUnitResult result;
  const SourceManager& sm = ctx.getSourceManager();
  TranslationUnitWalker walker(ctx);
  walker.TraverseDecl(ctx.getTranslationUnitDecl());
  walker.resolveLaunches();

  for (const FunctionDecl* fn : walker.kernels) {
    KernelRecord kernel;
    kernel.name = kernelName(fn, ctx);
    kernel.loc = plainLocation(sm, fn->getLocation());
    // A Clang error inside the kernel's body: its AST cannot be trusted.
    const coalesce::SourceLocation first = plainLocation(sm, fn->getBeginLoc());
    const coalesce::SourceLocation last = plainLocation(sm, fn->getEndLoc());
    for (const auto& err : options.errors)
      if (err.file == first.file && err.line >= first.line && err.line <= last.line) {
        kernel.status = Status::Failed;
        kernel.reason = first.file + ":" + std::to_string(err.line) + ": " + err.message;
        break;
      }
    // A record whose declaration has errors (a field of an unknown type) has a layout Clang
    // made up: its strides would be wrong.
    if (kernel.status != Status::Failed)
      if (const auto bad = firstUseOfInvalidRecord(fn, sm)) {
        kernel.status = Status::Failed;
        kernel.reason = *bad;
      }
    if (kernel.status == Status::Failed) {
      result.kernels.push_back(kernel);
      continue;
    }

    SymbolTable symbols;
    std::vector<SiteRecord> sites;
    Interpreter interp(ctx, symbols, sites, options.arch);
    const std::map<unsigned, int> paramSymbols = interp.bindKernelParams(fn);
    for (const auto& [name, value] : options.assumedValues)
      for (size_t id = 0; id < symbols.size(); ++id)
        if (symbols[static_cast<int>(id)].name == name && symbols[static_cast<int>(id)].kind == SymbolInfo::Kind::Param)
          symbols[static_cast<int>(id)].value = value;
    interp.run(fn);

    // One context per distinct launch of this kernel, else the fallback.
    std::vector<LaunchContext> contexts;
    auto it = walker.launches.find(fn->getCanonicalDecl());
    if (it != walker.launches.end()) {
      // Launches whose block is computed at run time count only when no launch gives one.
      const bool anyBlockKnown =
          std::any_of(it->second.begin(), it->second.end(), [](const Launch& l) { return l.blockKnown; });
      for (const Launch& l : it->second) {
        if (anyBlockKnown && !l.blockKnown) continue;
        LaunchContext c;
        if (l.blockKnown) {
          c.block.dim = l.block;
          c.block.source = BlockSource::Launch;
          c.block.detail = "block " + std::to_string(l.block.x) + "x" + std::to_string(l.block.y) + "x" +
                           std::to_string(l.block.z) + " from the launch at " + l.where;
          c.blockKnown = true;
          c.grid = l.grid;
        } else {
          c = fallbackContexts(fn, options, ctx, interp.threadDimsUsed).front();
          const std::string why = "the launch at " + l.where + " computes its block at run time";
          const std::string none = "no launch found";
          if (c.block.detail.rfind(none, 0) == 0) c.block.detail.replace(0, none.size(), why);
          else c.block.detail += " (" + why + ")";
        }
        for (const auto& [index, value] : l.argValues)
          if (auto p = paramSymbols.find(index); p != paramSymbols.end()) {
            c.symbolValues[p->second] = value;
            c.symbolValueSources[p->second] = "the launch at " + l.where;
          }
        for (const auto& [index, bytes] : l.pointerOffsets) {
          c.pointerByteOffsets[static_cast<int>(index)] = bytes;
          c.pointerOffsetSources[static_cast<int>(index)] = "the launch at " + l.where;
        }
        contexts.push_back(std::move(c));
      }
    } else {
      contexts = fallbackContexts(fn, options, ctx, interp.threadDimsUsed);
    }
    kernel.block = contexts.front().block;

    for (const SiteRecord& s : sites) {
      AccessSite site;
      site.loc = plainLocation(sm, s.loc);
      site.kernel = kernel.name;
      site.function = s.function;
      site.expression = s.expression;
      site.lineText = lineTextAt(sm, s.loc);
      site.elementType = s.elementType;
      double worst = -1;
      for (const LaunchContext& c : contexts) {
        LaneResult lr = evaluateLanes(s.raw, c, symbols, options.arch);
        const double key = severityKey(lr.figures);
        if (key > worst) {
          worst = key;
          site.access = lr.access;
          site.figures = lr.figures;
          site.assumptions = lr.assumptions;
          site.indirectRowGather = lr.indirectRowGather;
          site.block = c.block;
        }
      }
      if (contexts.size() > 1)
        site.assumptions.push_back("the kernel has " + std::to_string(contexts.size()) +
                                   " launches; these are the worst figures, for the " + site.block.detail);
      result.accesses.push_back(std::move(site));
      ++kernel.accesses;
    }

    // Branches: the launch where most warp requests split.
    for (const BranchRecord& b : interp.branches) {
      BranchSite site;
      site.loc = plainLocation(sm, b.loc);
      site.kernel = kernel.name;
      site.function = b.function;
      site.kind = *parseBranchKind(b.kind);  // recordBranch's names are toString(BranchKind)'s
      site.condition = b.conditionText;
      site.lineText = lineTextAt(sm, b.loc);
      double worst = -1;
      for (const LaunchContext& c : contexts) {
        ConditionFigures f = evaluateCondition(b.condition, b.guards, c, symbols, options.arch, b.kind == "switch");
        const double share = f.warpRequests ? static_cast<double>(f.divergentRequests) / f.warpRequests : 0;
        if (share > worst) {
          worst = share;
          site.block = c.block;
          site.evaluated = f.evaluated;
          site.threadDependent = f.threadDependent;
          site.warpRequests = f.warpRequests;
          site.divergentRequests = f.divergentRequests;
          site.onlyPartialWarps = f.onlyPartialWarps;
          site.assumptions = f.assumptions;
        }
      }
      result.branches.push_back(std::move(site));
    }
    // Barriers: divergent under any launch is divergent.
    for (const BarrierRecord& b : interp.barriers) {
      BarrierSite site;
      site.loc = plainLocation(sm, b.loc);
      site.kernel = kernel.name;
      site.function = b.function;
      site.call = b.call;
      site.lineText = lineTextAt(sm, b.loc);
      site.block = contexts.front().block;
      for (const LaunchContext& c : contexts) {
        BarrierReach r = evaluateBarrier(b.guards, c, symbols, options.arch);
        const auto rank = [](BarrierSite::Reach k) { return k == BarrierSite::Reach::Divergent ? 2 : k == BarrierSite::Reach::Unknown ? 1 : 0; };
        const BarrierSite::Reach reach = r.kind == BarrierReach::Kind::Divergent ? BarrierSite::Reach::Divergent
                                         : r.kind == BarrierReach::Kind::Unknown ? BarrierSite::Reach::Unknown
                                                                                 : BarrierSite::Reach::Uniform;
        if (rank(reach) > rank(site.reach)) {
          site.reach = reach;
          site.condition = r.guard;
          site.block = c.block;
          site.assumptions = r.assumptions;
        }
      }
      result.barriers.push_back(std::move(site));
    }
    // Pointer parameters: restrict-qualified or not, read and written.
    for (const ParmVarDecl* p : fn->parameters()) {
      if (!p->getType()->isPointerType()) continue;
      PointerParam pp;
      pp.kernel = kernel.name;
      pp.loc = plainLocation(sm, p->getLocation());
      pp.name = p->getNameAsString();
      pp.isRestrict = p->getType().isRestrictQualified();
      for (const SiteRecord& s : sites) {
        if (s.raw.rootName != pp.name || s.raw.space != model::Space::Global) continue;
        if (s.raw.kind == model::AccessKind::Load || s.raw.kind == model::AccessKind::Atomic) pp.read = true;
        if (s.raw.kind == model::AccessKind::Store || s.raw.kind == model::AccessKind::Atomic) pp.written = true;
      }
      result.pointerParams.push_back(std::move(pp));
    }
    result.kernels.push_back(kernel);
  }
  return result;
}

}  // namespace coalesce::analysis
