#include "launch_collector.h"

#include <clang/Basic/SourceManager.h>

#include <algorithm>

#include "analysis_policy.h"

namespace coalesce::analysis {

using namespace clang;

// Keeps the function being walked (and whether it is a system header's), for launches
// and calls.
bool LaunchCollector::TraverseDecl(Decl* d) {
  auto* fn = dyn_cast_or_null<FunctionDecl>(d);
  if (!fn) return RecursiveASTVisitor::TraverseDecl(d);
  functions_.push_back({fn, sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation()))});
  const bool ok = RecursiveASTVisitor::TraverseDecl(d);
  functions_.pop_back();
  return ok;
}

bool LaunchCollector::VisitFunctionDecl(FunctionDecl* fn) {
  if (fn->hasAttr<CUDAGlobalAttr>() && fn->doesThisDeclarationHaveABody() && !fn->isDependentContext() &&
      !sm_.isInSystemHeader(sm_.getExpansionLoc(fn->getLocation())))
    if (std::find(kernels.begin(), kernels.end(), fn) == kernels.end()) kernels.push_back(fn);
  return true;
}

bool LaunchCollector::VisitCUDAKernelCallExpr(CUDAKernelCallExpr* call) {
  if (call->getDirectCallee() && call->getConfig() && call->getConfig()->getNumArgs() >= 2)
    pendingLaunches_.push_back({call, functions_.empty() ? nullptr : functions_.back().fn});
  return true;
}

// Calls made from the user's code (not a system header's), by callee: where the
// parameters of a function that launches come from.
bool LaunchCollector::VisitCallExpr(CallExpr* call) {
  if (functions_.empty() || functions_.back().inSystemHeader || isa<CUDAKernelCallExpr>(call)) return true;
  if (const FunctionDecl* callee = call->getDirectCallee())
    callsOf_[callee->getCanonicalDecl()].push_back({call, functions_.back().fn});
  return true;
}

// After the walk: the block and constant arguments of every launch, as written or, when
// they depend on the parameters of the function holding the launch, per call site of it.

void LaunchCollector::resolveLaunches() {
  for (const auto& [call, holder] : pendingLaunches_) {
    const std::string at = locationText(call->getBeginLoc());
    std::vector<Launch> found;
    const std::vector<std::pair<const Expr*, bool>> conditions = enclosingConditions(call, holder);
    for (const HostEnv* env : environmentsOf(holder, kCallerDepth)) {
      // `if (which == 0) k<<<...>>>()` in a wrapper: a call site whose arguments make an
      // enclosing condition false does not launch here.
      const bool skipped = std::any_of(conditions.begin(), conditions.end(), [&](const auto& c) {
        auto v = values_.constantOf(c.first, env);
        return v && (*v != 0) != c.second;
      });
      if (skipped) continue;
      auto block = values_.dim3Of(call->getConfig()->getArg(1), env);
      Launch l;
      // A block the host computes at run time: the kernel still gets this launch's
      // arguments and pointer offsets, over the fallback block shape.
      l.blockKnown = block.has_value();
      if (block) l.block = *block;
      l.grid = values_.dim3Of(call->getConfig()->getArg(0), env);
      if (call->getConfig()->getNumArgs() < 3) l.dynamicSharedBytes = 0;
      else l.dynamicSharedBytes = values_.constantOf(call->getConfig()->getArg(2), env);
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        if (auto v = values_.constantOf(call->getArg(i), env)) l.argValues[i] = *v;
        if (call->getArg(i)->getType()->isPointerType())
          if (const int64_t off = values_.pointerByteOffset(call->getArg(i), env); off != 0) l.pointerOffsets[i] = off;
      }
      l.where = at + (env ? env->via : "");
      const bool seen = std::any_of(found.begin(), found.end(), [&](const Launch& o) {
        return o.blockKnown == l.blockKnown && o.block == l.block && o.grid == l.grid && o.argValues == l.argValues &&
               o.pointerOffsets == l.pointerOffsets && o.dynamicSharedBytes == l.dynamicSharedBytes;
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

std::string LaunchCollector::locationText(clang::SourceLocation loc) const {
  PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(loc));
  return p.isValid() ? std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) : std::string();
}

// The environments `fn`'s parameters can take: none (null) when it has no parameter or
// no caller in the user's code, else one per call site (and per environment of that
// caller, up to `depth` levels).
std::vector<const HostEnv*> LaunchCollector::environmentsOf(const FunctionDecl* fn, int depth) {
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
std::vector<std::pair<const Expr*, bool>> LaunchCollector::enclosingConditions(const Stmt* call, const FunctionDecl* holder) {
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

}  // namespace coalesce::analysis
