#include "kernel_resources.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <set>
#include <string>

#include "coalesce/model/occupancy.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// The __shared__ variables a kernel can reach: its body and, through direct calls, the
// bodies of its callees. A variable declared in a function called twice is one allocation.
class SharedDeclarations : public RecursiveASTVisitor<SharedDeclarations> {
 public:
  explicit SharedDeclarations(ASTContext& ctx) : ctx_(ctx) {}

  void walk(const FunctionDecl* fn) {
    const FunctionDecl* def = nullptr;
    if (!fn || !fn->hasBody(def) || !def || !walked_.insert(def).second) return;
    TraverseStmt(def->getBody());
  }
  bool VisitVarDecl(VarDecl* var) {
    if (!var->hasAttr<CUDASharedAttr>() || !seen_.insert(var->getCanonicalDecl()).second) return true;
    const QualType type = var->getType();
    if (type->isIncompleteArrayType() || type->isIncompleteType()) {
      if (var->hasExternalStorage()) out.usesDynamicShared = true;
      return true;
    }
    if (type->isDependentType()) return true;
    out.staticSharedBytes += ctx_.getTypeSizeInChars(type).getQuantity();
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    if (const FunctionDecl* callee = call->getDirectCallee()) pending_.push_back(callee);
    return true;
  }
  void drain() {
    while (!pending_.empty()) {
      const FunctionDecl* next = pending_.back();
      pending_.pop_back();
      walk(next);
    }
  }
  // Variables referred to from elsewhere (a file-scope `__shared__` array used by the kernel).
  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (auto* var = dyn_cast<VarDecl>(ref->getDecl()); var && var->hasGlobalStorage() && !var->isLocalVarDecl())
      VisitVarDecl(var);
    return true;
  }

  KernelResources out;

 private:
  ASTContext& ctx_;
  std::set<const FunctionDecl*> walked_;
  std::set<const VarDecl*> seen_;
  std::vector<const FunctionDecl*> pending_;
};

}  // namespace

KernelResources kernelResources(const FunctionDecl* kernel, ASTContext& ctx) {
  SharedDeclarations walker(ctx);
  walker.walk(kernel);
  walker.drain();
  KernelResources r = walker.out;
  if (const auto* lb = kernel->getAttr<CUDALaunchBoundsAttr>(); lb && lb->getMinBlocks()) {
    Expr::EvalResult v;
    if (!lb->getMinBlocks()->isValueDependent() && lb->getMinBlocks()->EvaluateAsInt(v, ctx) && v.Val.isInt())
      r.launchBoundsMinBlocks = static_cast<int>(v.Val.getInt().getExtValue());
  }
  return r;
}

KernelOccupancy kernelOccupancy(const KernelResources& resources, const std::vector<LaunchContext>& contexts,
                                const model::Arch& arch) {
  KernelOccupancy best;
  bool any = false;
  for (const LaunchContext& c : contexts) {
    model::OccupancyInput in;
    in.threadsPerBlock = c.block.dim.volume();
    in.staticSharedBytes = resources.staticSharedBytes;
    in.dynamicSharedBytes = resources.usesDynamicShared ? c.dynamicSharedBytes : std::optional<int64_t>(0);
    const model::Occupancy o = model::computeOccupancy(in, arch);
    KernelOccupancy k;
    k.threadsPerBlock = in.threadsPerBlock;
    k.staticSharedBytes = in.staticSharedBytes;
    k.dynamicSharedBytes = in.dynamicSharedBytes.value_or(-1);
    k.launchBoundsMinBlocks = resources.launchBoundsMinBlocks;
    k.blocksLimitWarps = o.blocksLimitWarps;
    k.blocksLimitBlocks = o.blocksLimitBlocks;
    k.blocksLimitSharedMemory = o.blocksLimitSharedMemory;
    k.activeBlocks = o.activeBlocks;
    k.activeWarps = o.activeWarps;
    k.occupancy = o.occupancy;
    k.limitedBy = std::string(model::toString(o.limitedBy));
    k.notes.push_back("registers unknown: the figure is the bound without them (the verifier reads ptxas's count)");
    if (resources.launchBoundsMinBlocks > 0)
      k.notes.push_back("__launch_bounds__ asks ptxas to fit " + std::to_string(resources.launchBoundsMinBlocks) +
                        " blocks per SM: registers then allow at least that many");
    if (!in.dynamicSharedBytes)
      k.notes.push_back("the dynamic shared memory is not known (no launch says how much): counted as 0, an upper bound");
    if (c.block.source == BlockSource::Assumed) k.notes.push_back("on an assumed block: " + c.block.detail);
    if (c.block.source == BlockSource::KernelImplied)
      k.notes.push_back("on the block the kernel implies: " + c.block.detail);
    if (!o.invalid.empty()) k.notes.push_back(o.invalid);
    if (!any || k.occupancy < best.occupancy) best = std::move(k);
    any = true;
  }
  return best;
}

}  // namespace coalesce::analysis
