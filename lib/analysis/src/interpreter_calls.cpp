// Calls: the dispatch of a call expression (record assignment, CUDA intrinsics, inlining,
// opaque callees), and the inlining of __device__ functions, methods, lambdas and
// constructors with their arguments bound.
#include <algorithm>

#include "interpreter.h"

namespace coalesce::analysis {

using namespace clang;

Value Interpreter::callExpr(const CallExpr* call) {
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(call); op && op->getOperator() == OO_Equal && op->getNumArgs() == 2) {
    // Record assignment through the implicit operator=: a store of the whole record,
    // and a load of the right side when it is memory bound to the const reference.
    // nvcc copies the record where its value is read, so the stores carry the right
    // side's line when the statement spans lines (cudaTensorCoreGemm's
    // `*((int4*)(dst + ...) + laneId) =` / `*((int4*)(src + ...) + laneId);`: STG/STS on the
    // second line, measured on the H200).
    Value r = readRecord(op->getArg(1));
    if (auto loc = location(op->getArg(0))) {
      record(model::AccessKind::Store, *loc, op->getArg(0), op->getArg(1));
      return r;
    }
    return updateVariable(op->getArg(0), [&](const Value&) { return r; }, true);
  }
  const FunctionDecl* fn = call->getDirectCallee();
  const std::string name = fn ? fn->getNameAsString() : std::string();
  synchronisation(call, name);
  if (const auto* member = dyn_cast<CXXMemberCallExpr>(call)) {
    // A conversion operator: the user's is inlined (the CUDA samples' SharedMemory<T>
    // returns its `extern __shared__` array so); a header's passes the object through.
    const CXXMethodDecl* method = member->getMethodDecl();
    if (method && isa<CXXConversionDecl>(method) && !inlinable(method)) return eval(member->getImplicitObjectArgument());
  }
  if (auto v = cudaIntrinsic(call, fn, name)) return *v;
  if (inlinable(fn)) return inlineCall(fn, call);
  return opaqueCall(call, fn, name);
}

// Not inlined: a method or a user function with no body may read anything (thread identity
// included), so its result is lane-varying; a header function (math, conversions) depends
// only on its arguments, and so does a method of the C++ library's, Thrust's or libcu++'s
// classes (pureLibraryMethod) on its object and arguments.
Value Interpreter::opaqueCall(const CallExpr* call, const FunctionDecl* fn, const std::string& name) {
  const bool headerFunction = fn && sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation()));
  const auto* method = dyn_cast_or_null<CXXMethodDecl>(fn);
  bool pureOfArgs = headerFunction && (!method || pureLibraryMethod(method));
  for (const char* reads : {"__activemask", "__lanemask", "clock", "__globaltimer", "__nanosleep", "__lane_id"})
    if (name.rfind(reads, 0) == 0) pureOfArgs = false;
  std::vector<ExprRef> inputs;
  if (const auto* member = dyn_cast<CXXMemberCallExpr>(call)) {
    const Expr* object = member->getImplicitObjectArgument();
    const Value self = eval(object);
    inputs.push_back(uniformValue(self) ? constant(0) : leaf(Op::Varying));
  }
  // A header's function reads what it takes by const reference: `v[i] + v[i + 64]` on
  // __half2 calls `operator+(const __half2&, const __half2&)`, whose operands are loads
  // (fp16ScalarProduct's reductions), as a by-value argument's would be. A method's
  // object is the first argument of a member operator, not a parameter: offset by one.
  // So does a forwarding reference (`template <class T> f(T&& val)`), which an lvalue binds
  // as T& and the function reads to forward it: cg::reduce(tile, sdata[tid], cg::plus<double>())
  // loads sdata[tid] (an LDS the H200 measured on reductionMultiBlockCG's line 94).
  const unsigned firstParam = isa<CXXOperatorCallExpr>(call) && fn && isa<CXXMethodDecl>(fn) ? 1 : 0;
  const FunctionDecl* pattern = fn ? fn->getTemplateInstantiationPattern() : nullptr;
  unsigned index = 0;
  for (const Expr* arg : call->arguments()) {
    const unsigned param = index++ - firstParam;
    const bool inHeader = fn && index > firstParam && param < fn->getNumParams() &&
                          sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation()));
    const bool readByConstRef = inHeader && fn->getParamDecl(param)->getType()->isReferenceType() &&
                                fn->getParamDecl(param)->getType().getNonReferenceType().isConstQualified();
    const bool forwarded = inHeader && pattern && param < pattern->getNumParams() &&
                           pattern->getParamDecl(param)->getType()->isRValueReferenceType() &&
                           pattern->getParamDecl(param)->getType().getNonReferenceType()->isTemplateTypeParmType();
    Value v = readByConstRef || forwarded ? readRecord(arg) : eval(arg);
    inputs.push_back(uniformValue(v) ? constant(0) : leaf(Op::Varying));
  }
  // A function of the user's not followed may read and write any memory, and a function not
  // followed may hold a barrier (cub's BlockReduce).
  if (!fn || !sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation()))) memoryMayChange();
  if (mayHoldBarrier(fn)) noteBarrierSighting();
  if (!pureOfArgs) return intValue(leaf(Op::Varying));
  return intValue(opaqueLike(inputs, name.empty() ? "call" : name));
}

// A const method of a class of the C++ library (std), Thrust or libcu++ (cuda): what it
// returns follows from its object and arguments, as a header's free function's does (a
// non-const one, `std::array::operator[]` on a local, hands out the element to write, which
// the interpreter does not follow). CUDASW4's kernels take a `thrust::counting_iterator<int>`
// of the selected sequences and read `devOffsets[d_positions[blockIdx.x]]`, the same in every
// lane of a block: the iterator's operator[] was lane-varying, so every read of the sequence
// through that offset was "a gather through loaded indices" (panel 40). Not cooperative
// groups' or CUB's classes, whose objects hold the thread's own rank (cub::BlockLoad's
// linear_tid).
bool Interpreter::pureLibraryMethod(const CXXMethodDecl* method) {
  if (!method->isConst()) return false;
  const DeclContext* outermost = nullptr;
  for (const DeclContext* dc = method->getParent(); dc; dc = dc->getParent())
    if (const auto* ns = dyn_cast<NamespaceDecl>(dc); ns && !ns->isInline() && !ns->isAnonymousNamespace()) outermost = ns;
  const auto* ns = dyn_cast_or_null<NamespaceDecl>(outermost);
  if (!ns) return false;
  const std::string n = ns->getName().str();
  return n == "std" || n == "thrust" || n == "cuda";
}

// Inlines a __device__ function, method or lambda: parameters bound to the arguments,
// `this` to the object, reference parameters written back to the caller's variables.
Value Interpreter::inlineCall(const FunctionDecl* fn, const CallExpr* call) {
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
    // `more(&p)`, p a record in registers (a kernel's by-value parameter struct, a local):
    // the callee reads p's fields through it (`p->iter`), which are as uniform as p's own.
    // Through a pointer to non-const it may write them (`first(&cursor)` advancing
    // `cursor->current`, as Chai's partitioner does): the record comes back after the call.
    if (i < def->getNumParams()) {
      const QualType param = def->getParamDecl(i)->getType();
      if (auto object = registerRecordAddress(arg, param, /*allowWrites=*/true)) {
        values.push_back(*object);
        if (!param->getPointeeType().isConstQualified())
          writeBack[i] = llvm::cast<UnaryOperator>(arg->IgnoreParenImpCasts())->getSubExpr()->IgnoreParens();
        continue;
      }
    }
    values.push_back(eval(arg));
  }
  for (unsigned i = 0; i < def->getNumParams() && i < values.size(); ++i) {
    // A reference parameter bound to memory stays a location; one bound to a register
    // is that register's value.
    state_.env[def->getParamDecl(i)] = values[i];
  }
  frame.guardDepth = state_.guards.size();
  frame.loopDepth = state_.loopExits.size();
  state_.frames.push_back(frame);
  state_.stack.push_back(fn->getCanonicalDecl());
  walk(def->getBody());
  state_.stack.pop_back();
  Frame done = state_.frames.back();
  state_.frames.pop_back();
  for (unsigned i = 0; i < writeBack.size() && i < def->getNumParams(); ++i)
    if (writeBack[i]) {
      auto it = state_.env.find(def->getParamDecl(i));
      if (it != state_.env.end()) assignRegister(writeBack[i], it->second);
    }
  if (objectExpr && done.self && !done.self->isPointer() && !objectExpr->getType()->isPointerType())
    assignRegister(objectExpr, *done.self);
  if (done.returns.empty()) return intValue(leaf(Op::Varying));
  // The first return whose condition holds wins: fold from the last.
  Value result = done.returns.back().second;
  for (size_t i = done.returns.size() - 1; i-- > 0;) result = merge(done.returns[i].first, done.returns[i].second, result);
  return result;
}

std::optional<Value> Interpreter::registerRecordAddress(const Expr* e, QualType target, bool allowWrites) {
  if (!target->isPointerType() || (!allowWrites && !target->getPointeeType().isConstQualified())) return std::nullopt;
  const auto* addr = dyn_cast<UnaryOperator>(e->IgnoreParenImpCasts());
  if (!addr || addr->getOpcode() != UO_AddrOf || location(addr->getSubExpr()->IgnoreParens())) return std::nullopt;
  Value object = eval(addr->getSubExpr());
  if (!object.object) return std::nullopt;
  return object;
}

Value Interpreter::construct(const CXXConstructExpr* ctor) {
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
    return inlineConstructor(cd, {v});
  }
  if (inlinable(cd)) {
    std::vector<Value> args;
    for (const Expr* a : ctor->arguments()) args.push_back(eval(a));
    return inlineConstructor(cd, args);
  }
  return generic(ctor);
}

bool Interpreter::inlinable(const FunctionDecl* fn) const {
  const FunctionDecl* def = nullptr;
  return fn && fn->hasBody(def) && def && state_.stack.size() < kMaxInlineDepth &&
         std::find(state_.stack.begin(), state_.stack.end(), fn->getCanonicalDecl()) == state_.stack.end() &&
         !sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation()));
}

Value Interpreter::inlineConstructor(const CXXConstructorDecl* cd, const std::vector<Value>& args) {
  const FunctionDecl* defFn = nullptr;
  cd->hasBody(defFn);
  const auto* def = dyn_cast_or_null<CXXConstructorDecl>(defFn);
  if (!def) return intValue(leaf(Op::Varying));
  for (unsigned i = 0; i < def->getNumParams() && i < args.size(); ++i) state_.env[def->getParamDecl(i)] = args[i];
  Frame f;
  f.guardDepth = state_.guards.size();
  f.loopDepth = state_.loopExits.size();
  Value self;
  self.object = std::make_shared<StructValue>();
  f.self = self;
  state_.frames.push_back(f);
  state_.stack.push_back(cd->getCanonicalDecl());
  for (const CXXCtorInitializer* init : def->inits()) {
    if (!init->isMemberInitializer() || !init->getInit()) continue;
    Value v = eval(init->getInit());
    auto copy = std::make_shared<StructValue>(*state_.frames.back().self->object);
    copy->fields[init->getMember()] = v;
    state_.frames.back().self->object = copy;
  }
  walk(def->getBody());
  state_.stack.pop_back();
  Value out = *state_.frames.back().self;
  state_.frames.pop_back();
  return out;
}

}  // namespace coalesce::analysis
