// The CUDA built-ins a call may name, as one table: atomics, cache-hinted loads and stores,
// warp shuffles, vector constructors, integer min/max, texture and surface fetches,
// cooperative groups' thread identity.
// Only callees declared in system headers (the CUDA toolkit's, Clang's wrappers, the
// built-in headers and prelude in lib/analysis/resources/) or built into the compiler count:
// a user's own function of the same name is inlined like any other.
#include <clang/AST/DeclTemplate.h>

#include "interpreter.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// tex1Dfetch, tex2D, tex3D, tex2DLayered, texCubemap, tex2DLod, tex2DGrad, tex2Dgather...
// (texture references and objects), surf2Dread, surf2Dwrite... (surfaces).
bool isTextureFetchName(StringRef name) {
  if (name.starts_with("tex")) {
    StringRef rest = name.drop_front(3);
    return rest.starts_with("1D") || rest.starts_with("2D") || rest.starts_with("3D") || rest.starts_with("Cubemap");
  }
  return name.starts_with("surf") && (name.ends_with("read") || name.ends_with("write"));
}

bool isAtomicName(StringRef name) {
  return name.starts_with("atomic") || name.starts_with("__atomic") || name.starts_with("__nv_atomic");
}

// The symbolic op and width of a bit-count intrinsic's name.
std::optional<std::pair<Op, int>> bitCountOp(StringRef n) {
  if (n == "__ffs" || n == "__builtin_ffs") return std::pair{Op::Ffs, 32};
  if (n == "__ffsll" || n == "__builtin_ffsll") return std::pair{Op::Ffs, 64};
  if (n == "__popc" || n == "__builtin_popcount") return std::pair{Op::Popc, 32};
  if (n == "__popcll" || n == "__builtin_popcountll") return std::pair{Op::Popc, 64};
  if (n == "__clz" || n == "__builtin_clz") return std::pair{Op::Clz, 32};
  if (n == "__clzll" || n == "__builtin_clzll") return std::pair{Op::Clz, 64};
  return std::nullopt;
}

// One row of the table: which callees it covers, and what a call to one evaluates to.
struct IntrinsicRule {
  bool (*matches)(StringRef name, const CallExpr* call);
  Value (Interpreter::*evaluate)(const CallExpr* call, const std::string& name);
};

}  // namespace

// The table. Matchers look at the name and the argument count only; each handler evaluates
// every argument, so side effects in them are seen whatever the row.
std::optional<Value> Interpreter::cudaIntrinsic(const CallExpr* call, const FunctionDecl* fn, const std::string& name) {
  static const IntrinsicRule kRules[] = {
      // atomicAdd, atomicCAS, __atomic*, __nv_atomic*: a read-modify-write of *arg0
      {[](StringRef n, const CallExpr* c) { return isAtomicName(n) && c->getNumArgs() >= 1; },
       &Interpreter::atomicCall},
      // __stcs, __stcg, __stwt, __stwb: cache-hinted stores
      {[](StringRef n, const CallExpr* c) {
         return n.starts_with("__st") && n.size() >= 5 && c->getNumArgs() == 2 && c->getArg(0)->getType()->isPointerType();
       },
       &Interpreter::hintedStore},
      // __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync
      {[](StringRef n, const CallExpr* c) {
         return n.starts_with("__shfl") && n.contains("sync") && c->getNumArgs() >= 3;
       },
       &Interpreter::shuffle},
      // make_int2, make_float4, ...: a register record of the arguments
      {[](StringRef n, const CallExpr* c) { return n.starts_with("make_") && c->getType()->isRecordType(); },
       &Interpreter::makeVector},
      // __ldg, __ldcg, __ldca, __ldcs, __ldcv, __ldlu: cache-hinted loads
      {[](StringRef n, const CallExpr* c) {
         return (n == "__ldg" || n.starts_with("__ldc") || n.starts_with("__ldlu")) && c->getNumArgs() == 1;
       },
       &Interpreter::hintedLoad},
      // min, max, umin, umax, __mul24, __umul24 on integers
      {[](StringRef n, const CallExpr* c) {
         return (n == "min" || n == "max" || n == "umin" || n == "umax" || n == "__mul24" || n == "__umul24") &&
                c->getNumArgs() == 2 && c->getType()->isIntegralOrEnumerationType();
       },
       &Interpreter::integerMinMax},
      // __ffs, __popc, __clz and their 64-bit `ll` forms, the compiler's __builtin_ffs,
      // __builtin_popcount, __builtin_clz: bit counts, exact where the argument is known
      // (convolutionFFT2D's `dividend >>= (__ffs(divisor) - 1)` divides by a power of two)
      {[](StringRef n, const CallExpr* c) { return c->getNumArgs() == 1 && bitCountOp(n).has_value(); },
       &Interpreter::bitCountCall},
      // tex1Dfetch, tex2D, ..., surf2Dread, surf2Dwrite: the texture path
      {[](StringRef n, const CallExpr* c) { return isTextureFetchName(n) && c->getNumArgs() >= 2; },
       &Interpreter::textureFetch},
      // __syncthreads_or, __syncthreads_and, __syncthreads_count: a barrier that returns the
      // block's vote, the same to every thread of the block
      {[](StringRef n, const CallExpr* c) {
         return (n == "__syncthreads_or" || n == "__syncthreads_and" || n == "__syncthreads_count") && c->getNumArgs() == 1;
       },
       &Interpreter::blockVote},
  };
  if (!fn) return std::nullopt;
  const clang::SourceLocation declared = fn->getLocation();
  if (declared.isValid() && !sm_.isInSystemHeader(sm_.getExpansionLoc(declared))) return std::nullopt;
  for (const IntrinsicRule& rule : kRules)
    if (rule.matches(name, call)) return (this->*rule.evaluate)(call, name);
  return cooperativeGroups(call);
}

// The CUDA C++ Programming Guide ("Synchronization Functions"): each returns to every thread
// of the block the same count, AND or OR of the threads' predicates. A loop that stops on it
// (`changed = __syncthreads_or(changed); if (!changed) break;`, PCL's people elec.cu) is
// left by the whole block at once, so the barriers after the test are not divergent. The
// value is a named unknown, uniform over the block, as a kernel parameter is.
Value Interpreter::blockVote(const CallExpr* call, const std::string&) {
  eval(call->getArg(0));
  return intValue(opaque(text(call->getSourceRange())));
}

Value Interpreter::atomicCall(const CallExpr* call, const std::string& name) {
  auto ptr = pointerOf(call->getArg(0));
  for (unsigned i = 1; i < call->getNumArgs(); ++i) eval(call->getArg(i));
  if (ptr) {
    QualType t = call->getArg(0)->getType()->getPointeeType();
    // Shared memory has no FP64 atomic add: nvcc reads the word (LDS) and swaps the sum in
    // with a compare-and-swap loop (ATOMS.CAST.SPIN.64), so the read is a load of its own
    // (jacobiCudaGraphs' atomicAdd(&b_shared[...], -sum), measured on the H200).
    if (ptr->root->space == model::Space::Shared && StringRef(name).starts_with("atomicAdd") &&
        t.getCanonicalType().getUnqualifiedType() == ctx_.DoubleTy)
      record(model::AccessKind::Load, MemLoc{ptr->root, ptr->off, t}, call);
    const size_t before = events_.accesses.size();
    record(model::AccessKind::Atomic, MemLoc{ptr->root, ptr->off, t}, call);
    // The lanes of one word update it one after another, except in nvcc's counting form
    // atomicAdd(p, 1), which adds the word's lane count once (ATOMS.POPC.INC; H200:
    // calibration satom_u32_s0 1 wavefront, eigenvalues' same-word atomicExch 1 per lane).
    Expr::EvalResult one;
    const bool counting = StringRef(name).starts_with("atomicAdd") && call->getNumArgs() == 2 &&
                          call->getArg(1)->EvaluateAsInt(one, ctx_) && one.Val.getInt() == 1;
    for (size_t i = before; i < events_.accesses.size(); ++i) events_.accesses[i].raw.sameWordSerialised = !counting;
  }
  return intValue(leaf(Op::Varying));
}

Value Interpreter::hintedStore(const CallExpr* call, const std::string&) {
  eval(call->getArg(1));
  if (auto ptr = pointerOf(call->getArg(0)))
    record(model::AccessKind::Store, MemLoc{ptr->root, ptr->off, call->getArg(0)->getType()->getPointeeType()}, call);
  return intValue(constant(0));
}

// __shfl_sync(mask, v, srcLane): every lane gets lane srcLane's value, so a uniform source
// lane makes it warp-uniform; the other shuffles keep only uniform values.
Value Interpreter::shuffle(const CallExpr* call, const std::string& name) {
  eval(call->getArg(0));
  Value v = eval(call->getArg(1));
  ExprRef lane = asInt(eval(call->getArg(2)));
  for (unsigned i = 3; i < call->getNumArgs(); ++i) eval(call->getArg(i));
  if (uniformValue(v)) return v.v ? v : intValue(opaque("shfl"));
  if (name == "__shfl_sync" && isUniform(lane)) return intValue(leaf(Op::UniformLoad));
  return intValue(leaf(Op::Varying));
}

Value Interpreter::makeVector(const CallExpr* call, const std::string&) {
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

Value Interpreter::hintedLoad(const CallExpr* call, const std::string&) {
  if (auto ptr = pointerOf(call->getArg(0))) {
    MemLoc loc{ptr->root, ptr->off, call->getArg(0)->getType()->getPointeeType()};
    record(model::AccessKind::Load, loc, call);
    return loaded(loc);
  }
  return intValue(leaf(Op::Varying));
}

Value Interpreter::integerMinMax(const CallExpr* call, const std::string& name) {
  ExprRef a = asInt(eval(call->getArg(0))), b = asInt(eval(call->getArg(1)));
  const Op op = (name == "min" || name == "umin") ? Op::Min : (name == "max" || name == "umax") ? Op::Max : Op::Mul;
  return intValue(binary(op, a, b));
}

Value Interpreter::bitCountCall(const CallExpr* call, const std::string& name) {
  const auto op = bitCountOp(name);
  return intValue(bitCount(op->first, asInt(eval(call->getArg(0))), op->second));
}

// A fetch through the texture path (or a surface read or write): an access of its own space,
// which the model gives no figures (the texture cache's layout is not the array's), counted
// only in its kernel's memory time at the least it moves, its active lanes' bytes in
// consecutive sectors (lib/report/src/cost.cpp). Until session 12 it was an opaque call:
// a kernel reading its data through textures (Rodinia kmeans' kmeansPoint, leukocyte's
// GICOV and dilate kernels) moved nothing, and a setup kernel beside it looked like the
// whole program. The coordinates are evaluated once (their loads recorded); the value is
// uniform when they are.
Value Interpreter::textureFetch(const CallExpr* call, const std::string& name) {
  const bool surface = StringRef(name).starts_with("surf");
  const bool write = surface && StringRef(name).ends_with("write");
  // The texture (or surface) is the first argument, or the second after the value a surface
  // write stores or the pointer a surface read writes (`surf2Dread(&out, surf, x, y)`); the
  // coordinates follow it.
  const unsigned object = surface && (write || call->getArg(0)->getType()->isPointerType()) ? 1 : 0;
  const VarDecl* var = nullptr;
  if (const auto* ref = dyn_cast<DeclRefExpr>(call->getArg(object)->IgnoreParenImpCasts()))
    var = dyn_cast<VarDecl>(ref->getDecl());
  std::vector<ExprRef> coordinates;
  bool uniform = true;
  for (unsigned i = 0; i < call->getNumArgs(); ++i) {
    if (i == object && var) continue;
    const Value v = eval(call->getArg(i));
    if (i < object) continue;
    uniform = uniform && uniformValue(v);
    if (i > object) coordinates.push_back(asInt(v));
  }
  // The element: what a read returns (or writes through its pointer), what a write stores.
  QualType element = call->getType();
  if (write) element = call->getArg(0)->getType();
  else if (object == 1) element = call->getArg(0)->getType()->getPointeeType();
  RootRef& root = state_.textureRoots[var];
  if (!root) {
    auto r = std::make_shared<Root>();
    r->name = var ? var->getNameAsString() : name;
    r->space = model::Space::Texture;
    r->alignment = arch_.pointerAlignment;
    root = r;
  }
  // tex1Dfetch(t, i): element i; elsewhere the coordinates as one opaque value, the same for
  // the same coordinates (a fetch repeated with them is kept in a register, as a load is).
  ExprRef offset = StringRef(name) == "tex1Dfetch" && coordinates.size() == 1
                       ? binary(Op::Mul, coordinates.front(), constant(sizeOf(element)))
                       : opaqueLike(coordinates, name);
  if (!element.isNull() && !element->isVoidType())
    record(write ? model::AccessKind::Store : model::AccessKind::Load, MemLoc{root, offset, element}, call);
  if (write || element.isNull() || element->isVoidType()) return intValue(constant(0));
  return intValue(uniform ? leaf(Op::UniformLoad) : leaf(Op::Varying));
}

// A block-wide barrier: __syncthreads and its variants, cooperative groups' block sync.
// Compiler built-ins (no declaration in a header), so matched by name.
bool isBlockBarrier(const CallExpr* call) {
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

// Barriers and fences: memory other threads wrote may be read after them, so nothing stays
// in registers; a barrier in the user's code is an event of its own.
void Interpreter::synchronisation(const CallExpr* call, const std::string& name) {
  const bool barrier = isBlockBarrier(call);
  if (barrier || name == "__syncwarp" || name.rfind("__threadfence", 0) == 0) memoryMayChange();
  if (barrier) noteBarrierSighting();
  if (barrier && userCode(call))
    events_.barriers.push_back(SeenBarrier{currentGuards(), text(call->getSourceRange()),
                                           state_.stack.back()->getNameAsString(),
                                           sm_.getExpansionLoc(call->getBeginLoc()), state_.loops, state_.guardIds});
}

// Cooperative groups' thread identity, for the block and for tiles.
std::optional<Value> Interpreter::cooperativeGroups(const CallExpr* call) {
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

}  // namespace coalesce::analysis
