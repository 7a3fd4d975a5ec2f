#include "host_values.h"
#include "host_writes.h"

#include "host_summary.h"
#include "coalesce/model/arch.h"

#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace coalesce::analysis {

using namespace clang;

const HostEnv::Arg* argumentOf(const Expr* e, const HostEnv* env) {
  if (!env) return nullptr;
  const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* parm = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
  auto it = parm ? env->params.find(parm) : env->params.end();
  return it == env->params.end() ? nullptr : &it->second;
}

// `min`/`max` by any namespace (std::min, ::min, CUDA's host min): their name and two arguments.
static const CallExpr* minMaxCall(const Expr* e, bool& isMin) {
  const auto* call = dyn_cast<CallExpr>(e);
  const FunctionDecl* fn = call ? call->getDirectCallee() : nullptr;
  if (!fn || call->getNumArgs() != 2 || !fn->getDeclName().isIdentifier()) return nullptr;
  const StringRef name = fn->getName();
  if (name != "min" && name != "max") return nullptr;
  isMin = name == "min";
  return call;
}

std::pair<const ValueDecl*, int> HostValues::referencedAxis(const Expr* e) {
  const auto* m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
  if (!m || !m->getMemberDecl()->getDeclName().isIdentifier()) return {nullptr, -1};
  const auto* ref = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
  if (!ref || !isa<VarDecl>(ref->getDecl())) return {nullptr, -1};
  const StringRef name = m->getMemberDecl()->getName();
  const int axis = name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
  return axis < 0 ? std::pair<const ValueDecl*, int>{nullptr, -1} : std::pair<const ValueDecl*, int>{ref->getDecl(), axis};
}

std::optional<int64_t> HostValues::constantOf(const Expr* e, const HostEnv* env, int depth) {
  if (!e || e->isValueDependent() || depth > kMaxDepth) return std::nullopt;
  // What the code around the launch fixes (`case 512:` of `switch (threads)`) comes first.
  if (env && !env->facts.empty())
    if (const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (auto f = env->facts.find(ref->getDecl()); f != env->facts.end()) {
        if (defaults_) defaults_->factsRead.push_back(ref->getDecl());
        return f->second;
      }
  if (env && !env->axisFacts.empty())
    if (auto f = env->axisFacts.find(referencedAxis(e)); f != env->axisFacts.end()) return f->second;
  Expr::EvalResult r;
  if (e->getType()->isIntegralOrEnumerationType() && e->EvaluateAsInt(r, ctx_) && r.Val.isInt())
    return r.Val.getInt().getExtValue();
  e = e->IgnoreParenImpCasts();
  // gridWithDefaults: `(int)n`, `ceil(n / 256.0)` (host_sizes.cpp).
  if (defaults_ && (isa<ExplicitCastExpr>(e) || e->getType()->isRealFloatingType())) {
    const Expr* value = isa<ExplicitCastExpr>(e) ? cast<ExplicitCastExpr>(e)->getSubExpr() : e;
    if (value->getType()->isIntegralOrEnumerationType()) return constantOf(value, env, depth + 1);
    const auto real = realOf(value, env, depth + 1);
    if (!real || !(std::abs(*real) < 9e15)) return std::nullopt;
    return static_cast<int64_t>(*real);
  }
  if (const auto* arg = argumentOf(e, env); arg && !isReassigned(cast<DeclRefExpr>(e)->getDecl()))
    return constantOf(arg->expr, arg->env, depth + 1);
  // A parameter this file gives no argument for: the one value its calls elsewhere in the
  // program give it (backprop's wrappers, called from facetrain.c).
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (const auto* parm = dyn_cast<ParmVarDecl>(ref->getDecl()); parm && !argumentOf(e, env) && !isReassigned(parm)) {
      if (auto v = programParameterValue(parm)) return v;
      if (defaults_)
        if (auto v = programParameterDefault(parm)) return v;
    }
  // A local initialised with a constant and never assigned again.
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && var->isLocalVarDecl() && var->getInit()) {
      if (!isReassigned(var)) {
        // `int n = atoi(argv[1]);`: the default, named after the local.
        if (defaults_ && parsesInput(var->getInit())) return defaultedLeaf(e);
        return constantOf(var->getInit(), env, depth + 1);
      }
      // Assigned again: the value on every path to this read (`threads = 128;` before it, or
      // the initialiser when the writes come after).
      if (const Expr* value = reachingValue(var, ref)) {
        if (value == var->getInit() && defaults_ && parsesInput(value)) return defaultedLeaf(e);
        if (auto v = constantOf(value, env, depth + 1)) return v;
      }
      // `uint byteCount = 64 * 1048576;` changed only under a command-line option.
      if (defaults_)
        if (auto v = optionDefault(var)) {
          const std::string taken = "`" + var->getNameAsString() + "` " + std::to_string(*v);
          if (std::find(defaults_->options.begin(), defaults_->options.end(), taken) == defaults_->options.end())
            defaults_->options.push_back(taken);
          return v;
        }
    }
  // The counter of a host loop whose body holds the launch or the wrapper's call (mergeSort's
  // `for (uint stride = SHARED_SIZE_LIMIT; stride < N; stride <<= 1) generateSampleRanks(...,
  // stride, ...)`): the value of its first iteration, the launch the loop makes first. Not for
  // the cost's grids, which take a counter at the middle of its loop (host_sizes.cpp).
  if (const auto* ref = dyn_cast<DeclRefExpr>(e); ref && !defaults_)
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
        var && var->isLocalVarDecl() && var->getInit() && countsLoopAround(var, ref))
      return constantOf(var->getInit(), env, depth + 1);
  // A local declared without a value and given one once, unconditionally (Rodinia's gaussian:
  // `int block_size, grid_size; ... block_size = MAXBLOCKSIZE;`).
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && var->isLocalVarDecl() && !var->getInit()) {
      if (const Expr* value = onlyAssignment(var)) return constantOf(value, env, depth + 1);
      // Given one by a statement every path to the read runs last (reaching_assignment.cpp).
      if (const Expr* value = reachingValue(var, ref))
        if (auto v = constantOf(value, env, depth + 1)) return v;
      // `blocks_x = workload / threads.x; if (workload % threads.x != 0) blocks_x = blocks_x + 1;`
      if (defaults_)
        if (auto v = assignedUnderDefaults(var, ref, env, depth)) return v;
    }
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
  // min(n, 256), std::max(threads, 32).
  bool isMin = false;
  if (const CallExpr* mm = minMaxCall(e, isMin)) {
    auto a = constantOf(mm->getArg(0), env, depth + 1);
    auto b = a ? constantOf(mm->getArg(1), env, depth + 1) : std::nullopt;
    if (b) return isMin ? std::min(*a, *b) : std::max(*a, *b);
    return std::nullopt;
  }
  if (const auto* m = dyn_cast<MemberExpr>(e)) {
    auto v = memberConstant(m, env, depth + 1);
    if (v || !defaults_) return v;
    // `block.x` of a `dim3 block(TILE_DIM, BLOCK_ROWS)` (a grid written over its block).
    // Each dim3 once per question: `grid.x = n / threads.x; threads.x = n / grid.x;`
    // (Rodinia hybridsort) would follow one another for ever.
    if (const auto axis = referencedAxis(m); axis.first && m->getBase()->getType()->isRecordType()) {
      auto& followed = defaults_->axesFollowed;
      if (std::find(followed.begin(), followed.end(), axis.first) != followed.end()) {
        defaults_->unfollowable = true;
        return std::nullopt;
      }
      followed.push_back(axis.first);
      const auto a = dim3AxesOf(m->getBase(), env, depth + 1)[static_cast<size_t>(axis.second)];
      followed.pop_back();
      if (a) return a;
    }
    return defaults_->unfollowable ? std::nullopt : defaultedLeaf(m);
  }
  if (const auto* call = dyn_cast<CallExpr>(e)) {
    auto v = returnedConstant(call, env, depth + 1);
    return v || !defaults_ ? v : defaultedLeaf(call);
  }
  return defaults_ ? defaultedLeaf(e) : std::nullopt;
}

// A call of a function of this translation unit whose body is one `return e;` (the samples'
// `iDivUp(a, b)`, `divUp`, `alignUp`): `e` with the function's parameters read as the call's
// arguments, in the caller's environment. shfl_scan's `int blockSize = iDivUp(w, 16)`.
std::optional<int64_t> HostValues::returnedConstant(const CallExpr* call, const HostEnv* env, int depth) {
  const FunctionDecl* callee = call->getDirectCallee();
  const FunctionDecl* def = nullptr;
  if (!callee || isa<CXXMethodDecl>(callee) || !callee->hasBody(def) || !def) return std::nullopt;
  if (def->isVariadic() || def->getNumParams() != call->getNumArgs() || !def->getReturnType()->isIntegerType())
    return std::nullopt;
  const auto* body = dyn_cast_or_null<CompoundStmt>(def->getBody());
  const auto* ret = body && body->size() == 1 ? dyn_cast<ReturnStmt>(body->body_front()) : nullptr;
  if (!ret || !ret->getRetValue()) return std::nullopt;
  HostEnv& bound = callEnvs_.emplace_back();
  for (unsigned i = 0; i < def->getNumParams(); ++i) bound.params[def->getParamDecl(i)] = {call->getArg(i), env};
  if (env) bound.via = env->via;
  return constantOf(ret->getRetValue(), &bound, depth + 1);
}

// `cfg.threads` of a struct whose member has a constant initialiser, in the class
// (`int threads = 128;`) or in the variable's braces (`Config cfg{128, 4}`), when nothing
// assigns the variable or that member; `prop.maxThreadsPerBlock` of a cudaDeviceProp, which
// is 1024 on every GPU CUDA 12 supports (`min(prop.maxThreadsPerBlock, 256)` in Rodinia), and
// its `warpSize`.
std::optional<int64_t> HostValues::memberConstant(const MemberExpr* m, const HostEnv* env, int depth) {
  const auto* field = dyn_cast<FieldDecl>(m->getMemberDecl());
  if (!field || !field->getType()->isIntegerType()) return std::nullopt;
  const RecordDecl* record = field->getParent();
  if (record && record->getName() == "cudaDeviceProp" && field->getName() == "maxThreadsPerBlock") return 1024;
  // `prop.warpSize`: the arch table's, the same on every GPU (NPB-GPU sizes its blocks by it).
  if (record && record->getName() == "cudaDeviceProp" && field->getName() == "warpSize") return model::Arch{}.warpSize;
  const auto* ref = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  // A member of a record this function does not hold (through a pointer or a parameter, or
  // a global's): the one value the program ever writes to it (backprop's `net->hidden_n`,
  // set to 16 in facetrain.c's `bpnn_create(layer_size, 16, 1)`).
  // Under the cost's defaults (defaults_), an option's default counts (cudahandbook's sgemmSetup).
  const auto written = [&]() -> std::optional<int64_t> {
    const ProgramFacts* facts = programFacts();
    if (!facts) return std::nullopt;
    if (defaults_)
      if (auto d = facts->memberDefault(recordName(record), field->getNameAsString(), defaults_->options)) return d;
    return facts->memberValue(recordName(record), field->getNameAsString());
  };
  if (!var || m->isArrow() || isa<ParmVarDecl>(var)) return written();
  // A global is followed only when const: its assignments could be anywhere.
  if (!var->isLocalVarDecl() && !var->getType().isConstQualified()) return written();
  // A local the functions it is handed to by address fill (`setup(&pb, argc, argv)`).
  const auto* construct = dyn_cast_or_null<CXXConstructExpr>(var->getInit());
  const bool uninitialised = !var->getInit() || (construct && construct->getNumArgs() == 0 &&
                                                 construct->getConstructor()->isTrivial());
  // isReassigned (kept per variable) first: a local never written needs neither walk.
  if (var->isLocalVarDecl() && uninitialised && isReassigned(var) && onlyAddressTaken(var) && !memberAssigned(var, field))
    return written();
  if (var->isLocalVarDecl() && (isReassigned(var) || memberAssigned(var, field))) return std::nullopt;
  const Expr* init = var->getInit() ? var->getInit()->IgnoreImplicit() : nullptr;
  if (const auto* list = dyn_cast_or_null<InitListExpr>(init)) {
    if (list->isSemanticForm() && field->getFieldIndex() < list->getNumInits()) {
      const Expr* value = list->getInit(field->getFieldIndex());
      if (const auto* def = dyn_cast<CXXDefaultInitExpr>(value)) value = def->getExpr();
      if (isa<ImplicitValueInitExpr>(value)) return 0;
      return constantOf(value, env, depth + 1);
    }
    return std::nullopt;
  }
  // No initialiser or a default constructor: the member's own initialiser.
  const auto* ctor = dyn_cast_or_null<CXXConstructExpr>(init);
  if ((!init || (ctor && ctor->getNumArgs() == 0 && ctor->getConstructor()->isDefaultConstructor() &&
                 !ctor->getConstructor()->isUserProvided())) &&
      field->hasInClassInitializer() && field->getInClassInitializer())
    return constantOf(field->getInClassInitializer(), nullptr, depth + 1);
  return std::nullopt;
}

// Whether `var.field` is assigned, bumped or has its address taken in var's function.
bool HostValues::memberAssigned(const VarDecl* var, const FieldDecl* field) {
  const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
  if (!fn || !fn->getBody()) return true;
  bool found = false;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || found) return;
    auto hits = [&](const Expr* e) {
      const auto* m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
      const auto* r = m ? dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts()) : nullptr;
      return r && r->getDecl() == var && m->getMemberDecl() == field;
    };
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) found = true;
    if (const auto* u = dyn_cast<UnaryOperator>(s))
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) found = true;
    for (const Stmt* c : s->children()) scan(c);
  };
  scan(fn->getBody());
  return found;
}

std::vector<const FunctionDecl*> HostValues::kernelsOf(const Expr* callee, const HostEnv* env, int depth) {
  std::vector<const FunctionDecl*> out;
  if (depth == 0) pointersFollowed_.clear();
  if (!callee || depth > kMaxDepth || callee->isValueDependent()) return out;
  const Expr* e = callee->IgnoreParenCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
    return kernelsOf(u->getSubExpr(), env, depth + 1);
  // `kernels[k]`, a table of kernels indexed at run time: every kernel its initialiser lists
  // (launch_alternatives.cpp makes them alternatives of one launch).
  if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) {
    const auto* table = dyn_cast<DeclRefExpr>(sub->getBase()->IgnoreParenImpCasts());
    const auto* var = table ? dyn_cast<VarDecl>(table->getDecl()) : nullptr;
    const auto* init = var && var->getType()->isArrayType() ? dyn_cast_or_null<InitListExpr>(var->getInit()) : nullptr;
    if (!init || (!var->isLocalVarDecl() && !var->getType().isConstQualified())) return out;
    for (const Expr* entry : init->inits())
      for (const FunctionDecl* k : kernelsOf(entry, env, depth + 1))
        if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    return out;
  }
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  if (!ref) return out;
  if (const auto* fn = dyn_cast<FunctionDecl>(ref->getDecl())) {
    if (fn->hasAttr<CUDAGlobalAttr>()) out.push_back(fn);
    return out;
  }
  if (const auto* arg = argumentOf(e, env); arg && !isReassigned(ref->getDecl()))
    return kernelsOf(arg->expr, arg->env, depth + 1);
  const auto* var = dyn_cast<VarDecl>(ref->getDecl());
  if (!var || isa<ParmVarDecl>(var)) return out;
  // A function pointer variable: every kernel its initialiser and assignments give it.
  std::vector<const Expr*> values;
  if (var->getInit()) values.push_back(var->getInit());
  if (var->isLocalVarDecl()) {
    const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
    std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
      if (!s) return;
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign)
        if (const auto* r = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()); r && r->getDecl() == var)
          values.push_back(b->getRHS());
      for (const Stmt* c : s->children()) scan(c);
    };
    if (fn && fn->getBody()) scan(fn->getBody());
  } else if (!var->getType().isConstQualified()) {
    return out;  // a global pointer could be set anywhere
  }
  // Pointers given to each other (`a = b; b = a;`) are followed once per question: what a
  // pointer met again holds is already in the answer (the union over every path).
  if (std::find(pointersFollowed_.begin(), pointersFollowed_.end(), var) != pointersFollowed_.end()) return out;
  pointersFollowed_.push_back(var);
  for (const Expr* v : values)
    for (const FunctionDecl* k : kernelsOf(v, env, depth + 1))
      if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  return out;
}

// Bytes a pointer argument lies past the start of its allocation, as far as the host code
// shows it: `buf + 3`, `&buf[3]`, `reinterpret_cast<const float4*>(a) + 1`, a local
// initialised so, or a wrapper's parameter given so at its call site. 0 when nothing is
// added to a pointer the code knows no more of (a cudaMalloc'd one: the stated assumption).
int64_t HostValues::pointerByteOffset(const Expr* e, const HostEnv* env, int depth) {
  if (!e || depth > kMaxDepth || e->isValueDependent()) return 0;
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
  // A pointer member: the bytes every pointer the program writes to it lies past its
  // allocation (eigenvalues' `input.g_b = input.g_b_raw + 1` in main.cu).
  if (const auto* m = dyn_cast<MemberExpr>(e))
    if (const auto* field = dyn_cast<FieldDecl>(m->getMemberDecl()); field && field->getType()->isPointerType())
      if (const ProgramFacts* facts = programFacts())
        return facts->memberPointerBytes(recordName(field->getParent()), field->getNameAsString()).value_or(0);
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    if (const auto* arg = argumentOf(e, env); arg && !isReassigned(ref->getDecl()))
      return pointerByteOffset(arg->expr, arg->env, depth + 1);
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
        var && !isa<ParmVarDecl>(var) && var->isLocalVarDecl() && var->getInit() && !isReassigned(var))
      return pointerByteOffset(var->getInit(), env, depth + 1);
    // Ping-pong buffers (`float* src = in + pad, *dst = out + pad; ... tmp = dst; dst = src;
    // src = tmp;`, FDTD3d's time steps): a local only ever given, by plain `=`, values that
    // all lie the same bytes past their allocations lies that far at every launch.
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && !isa<ParmVarDecl>(var) && var->isLocalVarDecl())
      if (auto offset = commonOffsetOfValues(var, env, depth)) return *offset;
  }
  return 0;
}

// The values a local is given (its initialiser and every plain `=` to it), or nullopt when
// it is also bumped, compound-assigned or has its address taken (`cudaMalloc(&p)`).
std::optional<std::vector<const Expr*>> HostValues::plainValues(const VarDecl* var) {
  const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
  if (!fn || !fn->getBody()) return std::nullopt;
  std::vector<const Expr*> values;
  if (var->getInit()) values.push_back(var->getInit());
  bool plain = true;
  const auto hits = [&](const Expr* e) {
    const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return r && r->getDecl() == var;
  };
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || !plain) return;
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) {
      if (b->getOpcode() == BO_Assign) values.push_back(b->getRHS());
      else plain = false;
    }
    if (const auto* u = dyn_cast<UnaryOperator>(s))
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) plain = false;
    for (const Stmt* c : s->children()) scan(c);
  };
  scan(fn->getBody());
  if (!plain || values.empty()) return std::nullopt;
  return values;
}

// The bytes past its allocation every value of a reassigned local pointer shares, following
// the locals it is given in turn (each once: `tmp = dst; dst = src; src = tmp;` closes a
// cycle); nullopt when they differ or one is not known.
std::optional<int64_t> HostValues::commonOffsetOfValues(const VarDecl* var, const HostEnv* env, int depth) {
  const bool outermost = offsetsFollowed_.empty();
  if (std::find(offsetsFollowed_.begin(), offsetsFollowed_.end(), var) != offsetsFollowed_.end()) return std::nullopt;
  offsetsFollowed_.push_back(var);
  std::optional<int64_t> common;
  bool agree = true;
  if (auto values = plainValues(var)) {
    for (const Expr* v : *values) {
      // Through locals given one value (`float* tmp = dst;`) to the local they copy.
      const VarDecl* other = nullptr;
      for (int hops = 0; hops < kMaxDepth; ++hops) {
        const auto* r = dyn_cast<DeclRefExpr>(v->IgnoreParenImpCasts());
        other = r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
        if (!other || isa<ParmVarDecl>(other) || !other->isLocalVarDecl() || !other->getInit() || isReassigned(other))
          break;
        v = other->getInit();
      }
      // A local met again adds nothing: its values are already being followed.
      if (other && std::find(offsetsFollowed_.begin(), offsetsFollowed_.end(), other) != offsetsFollowed_.end())
        continue;
      std::optional<int64_t> offset;
      if (other && other->isLocalVarDecl() && !isa<ParmVarDecl>(other) && isReassigned(other))
        offset = commonOffsetOfValues(other, env, depth + 1);
      else
        offset = pointerByteOffset(v, env, depth + 1);
      if (!offset || (common && *common != *offset)) {
        agree = false;
        break;
      }
      common = offset;
    }
  } else {
    agree = false;
  }
  if (outermost) offsetsFollowed_.clear();
  return agree ? common : std::nullopt;
}

// The values the variables a host loop steps have when it ends: `for (; log2N > 11; log2N -= 2,
// N >>= 2, M <<= 2)` (fastWalshTransform's fwtBatchGPU, which then launches with N / 4
// threads). Every variable its increment steps (`v op= e`, `++v`), nothing else in the function
// writes it, starts from its value at the loop's entry (a wrapper parameter's argument, a
// local's initialiser, read with the parameters' entry values) and is stepped while the
// condition holds, at most kMaxHostLoopSteps times. Empty when any of it is not known.
std::map<const ValueDecl*, int64_t> HostValues::valuesAfterLoop(const ForStmt* loop, const FunctionDecl* fn,
                                                               const HostEnv* env) {
  std::map<const ValueDecl*, int64_t> none;
  if (!loop || !fn || !fn->getBody() || loop->getInit() || loop->getConditionVariable() || !loop->getCond() ||
      !loop->getInc())
    return none;
  struct Step {
    const VarDecl* var;
    const Expr* step;  // the increment expression itself
  };
  std::vector<Step> steps;
  std::function<bool(const Expr*)> collect = [&](const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Comma)
      return collect(b->getLHS()) && collect(b->getRHS());
    const Expr* target = nullptr;
    if (const auto* c = dyn_cast<CompoundAssignOperator>(e)) target = c->getLHS();
    else if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) target = u->getSubExpr();
    const auto* ref = target ? dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()) : nullptr;
    const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !var->getType()->isIntegerType() || var->getDeclContext() != fn) return false;
    steps.push_back({var, e});
    return true;
  };
  if (!collect(loop->getInc()) || steps.empty()) return none;
  // Nothing but the increment writes them.
  for (const Step& st : steps) {
    int writes = 0, inIncrement = 0;
    std::function<void(const Stmt*, bool)> scan = [&](const Stmt* s, bool inc) {
      if (!s) return;
      const auto hits = [&](const Expr* e) {
        const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
        return r && r->getDecl() == st.var;
      };
      const bool isInc = inc || s == loop->getInc();
      bool write = false;
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) write = true;
      if (const auto* u = dyn_cast<UnaryOperator>(s))
        if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) write = true;
      if (write) ++(isInc ? inIncrement : writes);
      for (const Stmt* c : s->children()) scan(c, isInc);
    };
    scan(fn->getBody(), false);
    if (writes != 0 || inIncrement != 1) return none;
  }
  // A local set from them before the loop and read after it holds their entry values, which
  // the facts below would replace: not followed then.
  {
    const SourceManager& sm = ctx_.getSourceManager();
    const auto refersToStepped = [&](const Stmt* root) {
      bool found = false;
      std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
        if (!s || found) return;
        if (const auto* r = dyn_cast<DeclRefExpr>(s))
          for (const Step& st : steps) found = found || r->getDecl() == st.var;
        for (const Stmt* c : s->children()) scan(c);
      };
      scan(root);
      return found;
    };
    std::vector<const VarDecl*> early;
    std::function<void(const Stmt*)> findEarly = [&](const Stmt* s) {
      if (!s) return;
      if (const auto* d = dyn_cast<DeclStmt>(s))
        for (const Decl* decl : d->decls())
          if (const auto* v = dyn_cast<VarDecl>(decl); v && v->getInit() &&
              sm.isBeforeInTranslationUnit(v->getLocation(), loop->getBeginLoc()) && refersToStepped(v->getInit()) &&
              std::none_of(steps.begin(), steps.end(), [&](const Step& st) { return st.var == v; }))
            early.push_back(v);
      for (const Stmt* c : s->children()) findEarly(c);
    };
    findEarly(fn->getBody());
    bool readAfter = false;
    std::function<void(const Stmt*)> findReads = [&](const Stmt* s) {
      if (!s || readAfter) return;
      if (const auto* r = dyn_cast<DeclRefExpr>(s))
        if (std::find(early.begin(), early.end(), r->getDecl()) != early.end() &&
            sm.isBeforeInTranslationUnit(loop->getEndLoc(), r->getLocation()))
          readAfter = true;
      for (const Stmt* c : s->children()) findReads(c);
    };
    if (!early.empty()) findReads(fn->getBody());
    if (readAfter) return none;
  }
  // Entry values: parameters first, then locals' initialisers read under them.
  HostEnv state;
  if (env) {
    state.params = env->params;
    state.facts = env->facts;
    state.via = env->via;
  }
  for (int pass = 0; pass < 2; ++pass)
    for (const Step& st : steps) {
      const bool param = isa<ParmVarDecl>(st.var);
      if (param != (pass == 0)) continue;
      std::optional<int64_t> v;
      if (param) {
        if (env)
          if (auto it = env->params.find(cast<ParmVarDecl>(st.var)); it != env->params.end())
            v = constantOf(it->second.expr, it->second.env);
      } else if (st.var->getInit()) {
        v = constantOf(st.var->getInit(), &state);
      }
      if (!v) return none;
      state.facts[st.var] = *v;
    }
  for (int n = 0;; ++n) {
    auto go = constantOf(loop->getCond(), &state);
    if (!go) return none;
    if (!*go) break;
    if (n == kMaxHostLoopSteps) return none;
    std::map<const ValueDecl*, int64_t> next = state.facts;
    for (const Step& st : steps) {
      const int64_t now = state.facts.at(st.var);
      std::optional<int64_t> v;
      if (const auto* u = dyn_cast<UnaryOperator>(st.step)) {
        v = now + (u->isIncrementOp() ? 1 : -1);
      } else {
        const auto* c = cast<CompoundAssignOperator>(st.step);
        auto rhs = constantOf(c->getRHS(), &state);
        if (!rhs) return none;
        switch (c->getOpcode()) {
          case BO_AddAssign: v = now + *rhs; break;
          case BO_SubAssign: v = now - *rhs; break;
          case BO_MulAssign: v = now * *rhs; break;
          case BO_DivAssign: if (*rhs) v = now / *rhs; break;
          case BO_ShlAssign: if (*rhs >= 0 && *rhs < 63) v = now << *rhs; break;
          case BO_ShrAssign: if (*rhs >= 0 && *rhs < 63) v = now >> *rhs; break;
          default: break;
        }
      }
      if (!v) return none;
      next[st.var] = *v;
    }
    state.facts = std::move(next);
  }
  std::map<const ValueDecl*, int64_t> out;
  for (const Step& st : steps) out[st.var] = state.facts.at(st.var);
  return out;
}

// Whether the variable is assigned, bumped or has its address taken anywhere in its
// function (one walk of the body per variable: launch resolution asks again and again).
const Expr* HostValues::onlyAssignment(const VarDecl* var) {
  if (auto known = onlyAssignment_.find(var); known != onlyAssignment_.end()) return known->second;
  const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
  const auto* body = fn ? dyn_cast_or_null<CompoundStmt>(fn->getBody()) : nullptr;
  if (!body) return onlyAssignment_[var] = nullptr;
  const auto hits = [&](const Expr* e) {
    const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return r && r->getDecl() == var;
  };
  int writes = 0;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s) return;
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) ++writes;
    if (const auto* u = dyn_cast<UnaryOperator>(s))
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) writes += 2;
    for (const Stmt* c : s->children()) scan(c);
  };
  scan(body);
  const Expr* value = nullptr;
  if (writes == 1)
    for (const Stmt* s : body->body()) {  // only a statement of the body itself: it always runs
      const auto* e = dyn_cast<Expr>(s);
      const auto* b = e ? dyn_cast<BinaryOperator>(e->IgnoreImplicit()) : nullptr;
      if (b && b->getOpcode() == BO_Assign && hits(b->getLHS())) value = b->getRHS();
    }
  return onlyAssignment_[var] = value;
}

std::optional<int64_t> HostValues::programParameterValue(const ParmVarDecl* parm) {
  const ProgramFacts* facts = programFacts();
  const auto* fn = facts ? dyn_cast<FunctionDecl>(parm->getDeclContext()) : nullptr;
  if (!fn || !fn->getDeclName().isIdentifier() || !parm->getType()->isIntegralOrEnumerationType()) return std::nullopt;
  return facts->parameterValue(fn->getNameAsString(), static_cast<int>(parm->getFunctionScopeIndex()));
}

std::optional<int64_t> HostValues::programParameterDefault(const ParmVarDecl* parm) {
  const ProgramFacts* facts = programFacts();
  const auto* fn = facts ? dyn_cast<FunctionDecl>(parm->getDeclContext()) : nullptr;
  if (!defaults_ || !fn || !fn->getDeclName().isIdentifier() || !parm->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  return facts->parameterDefault(fn->getNameAsString(), static_cast<int>(parm->getFunctionScopeIndex()),
                                 defaults_->options);
}

// Whether `var` is declared in the init of a `for` whose body holds `use` and writes it
// nowhere (the loop's increment steps it).
bool HostValues::countsLoopAround(const VarDecl* var, const Expr* use) {
  const ForStmt* loop = parents_.loopDeclaring(var);
  if (!loop || !loop->getBody() || !loop->getBody()->getSourceRange().fullyContains(use->getSourceRange()))
    return false;
  bool written = false;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || written) return;
    const auto hits = [&](const Expr* x) {
      const auto* r = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
      return r && r->getDecl() == var;
    };
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) written = true;
    if (const auto* u = dyn_cast<UnaryOperator>(s))
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) written = true;
    for (const Stmt* c : s->children()) scan(c);
  };
  scan(loop->getBody());
  return !written;
}

bool HostValues::isReassigned(const ValueDecl* decl) {
  if (auto known = reassigned_.find(decl); known != reassigned_.end()) return known->second;
  const auto* var = dyn_cast<VarDecl>(decl);
  // A const global is never written after its initialiser (TeaLeaf's file-scope
  // `const static dim3 block_shape(LOCAL_X, LOCAL_Y);`, the block of every launch).
  if (var && !isa<ParmVarDecl>(var) && !var->isLocalVarDecl() && var->getType().isConstQualified() &&
      !var->getType()->isReferenceType())
    return reassigned_[decl] = false;
  const auto* fn = var ? dyn_cast<FunctionDecl>(var->getDeclContext()) : nullptr;
  if (!fn || !fn->getBody()) return reassigned_[decl] = true;
  return reassigned_[decl] = writesAnywhere(fn->getBody(), var);
}

}  // namespace coalesce::analysis
