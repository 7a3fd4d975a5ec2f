#include "launch_collector.h"
#include "host_summary.h"  // templateArgumentsText

#include <clang/Basic/SourceManager.h>

#include <algorithm>

#include "analysis_policy.h"
#include "library_work.h"

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

// `k<<<grid, block>>>(args)`, `k` a kernel or a function pointer (resolved after the walk).
bool LaunchCollector::VisitCUDAKernelCallExpr(CUDAKernelCallExpr* call) {
  if (!call->getConfig() || call->getConfig()->getNumArgs() < 2 || call->isValueDependent()) return true;
  PendingLaunch p{call, call->getCallee(), call->getConfig()->getArg(0), call->getConfig()->getArg(1), {},
                  "the launch", functions_.empty() ? nullptr : functions_.back().fn,
                  call->getConfig()->getNumArgs() >= 3 ? call->getConfig()->getArg(2) : nullptr};
  for (const Expr* a : call->arguments()) p.args.push_back(a);
  pendingLaunches_.push_back(std::move(p));
  return true;
}

// Calls made from the user's code (not a system header's), by callee: where the
// parameters of a function that launches come from. cudaLaunchKernel and
// cudaLaunchCooperativeKernel (func, gridDim, blockDim, args, ...) are launches too; their
// kernel arguments sit behind `void**` and are not read.
bool LaunchCollector::VisitCallExpr(CallExpr* call) {
  if (functions_.empty() || functions_.back().inSystemHeader || isa<CUDAKernelCallExpr>(call)) return true;
  const FunctionDecl* callee = call->getDirectCallee();
  if (!callee) return true;
  callsOf_[callee->getCanonicalDecl()].push_back({call, functions_.back().fn});
  if (!functions_.back().fn->hasAttr<CUDAGlobalAttr>() && !functions_.back().fn->hasAttr<CUDADeviceAttr>()) {
    std::string name = callee->getQualifiedNameAsString();
    const LibraryWork kind = libraryWorkOf(name);
    // Thrust runs on the host for host data: device vectors, pointers or policies say otherwise.
    // The arguments' types are spelled only for such a call, not for every call of the host code.
    const auto deviceArgument = [&] {
      return std::any_of(call->arg_begin(), call->arg_end(), [](const Expr* a) {
        const std::string type = a->getType().getCanonicalType().getAsString();
        return type.find("device") != std::string::npos || type.find("cuda") != std::string::npos;
      });
    };
    if (kind == LibraryWork::Always || (kind == LibraryWork::OnDeviceData && deviceArgument()))
      libraryCalls_.push_back({call, functions_.back().fn, std::move(name)});
  }
  if (callee->getDeclName().isIdentifier() && call->getNumArgs() >= 3 && !call->isValueDependent() &&
      (callee->getName() == "cudaLaunchKernel" || callee->getName() == "cudaLaunchCooperativeKernel"))
    pendingLaunches_.push_back({call, call->getArg(0), call->getArg(1), call->getArg(2), {},
                                "the " + callee->getNameAsString(), functions_.back().fn,
                                call->getNumArgs() >= 5 ? call->getArg(4) : nullptr});
  return true;
}

// After the walk: the block and constant arguments of every launch, as written or, when
// they depend on the parameters of the function holding the launch, per call site of it.

namespace {

// The variable a reference names, for facts about it.
const ValueDecl* referencedVar(const Expr* e) {
  const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref && isa<VarDecl>(ref->getDecl()) ? ref->getDecl() : nullptr;
}

// Two launches of one kernel as written, configuration and arguments: one entry, their runs
// added (what a call site adds nothing to; another file's launch that repeats one).
bool sameConfiguration(const Launch& a, const Launch& b) {
  return a.blockKnown == b.blockKnown && a.block == b.block && a.blockAxes == b.blockAxes && a.blockCap == b.blockCap &&
         a.blockDefaults == b.blockDefaults && a.grid == b.grid && a.argValues == b.argValues &&
         a.pointerOffsets == b.pointerOffsets && a.dynamicSharedBytes == b.dynamicSharedBytes;
}

}  // namespace

void LaunchCollector::resolveLaunches() {
  for (const PendingLaunch& p : pendingLaunches_) {
    const std::string at = locationText(p.call->getBeginLoc());
    // Per kernel the callee can be (a function pointer may hold several): its launches,
    // and whether the first is the launch as written, with no caller's values.
    struct Found {
      std::vector<Launch> launches;
      bool firstAsWritten = false;
    };
    std::map<const FunctionDecl*, Found> found;
    std::vector<const FunctionDecl*> order;
    const std::vector<std::pair<const Expr*, bool>> conditions = enclosingConditions(p.call, p.holder);
    const std::vector<Equality> equalities = enclosingEqualities(p.call, p.holder);
    const std::vector<const ForStmt*> loops = precedingLoops(p.call, p.holder);
    const std::vector<const ForStmt*> around = enclosingForLoops(p.call, p.holder);
    const auto* pointer = dyn_cast<DeclRefExpr>(p.callee->IgnoreParenCasts());
    const std::string through = pointer && !isa<FunctionDecl>(pointer->getDecl())
                                    ? " (through the function pointer `" + pointer->getDecl()->getNameAsString() + "`)"
                                    : std::string();
    bool anyLaunches = false;  // some environment's values let the launch run
    std::vector<const HostEnv*> envs = environmentsOf(p.holder, kCallerDepth);
    std::vector<std::optional<double>> envRuns(envs.size());
    if (envs.size() == 1 && !envs.front()) spreadOverProgramCalls(p.holder, envs, envRuns);
    // A loop around the launch whose counter an argument reads: a launch per value (launch_counters.cpp).
    if (const std::optional<CounterSweep> sweep = counterSweep(p, around)) sweepCounter(*sweep, envs, envRuns);
    const Runs inHolder = runsOf(p.call, p.holder, 0);  // the loops around the launch in its function
    for (size_t e = 0; e < envs.size(); ++e) {
      const HostEnv* env = envs[e];
      // `case 512:` of `switch (threads)`, `if (block_size == 16)`: the variable has that
      // value at this launch. A call site giving it another value does not launch here.
      HostEnv withFacts;
      std::string factsText;
      bool contradicts = false;
      for (const Equality& eq : equalities) {
        auto value = values_.constantOf(eq.value, env);
        const ValueDecl* var = referencedVar(eq.var);
        const auto axis = HostValues::referencedAxis(eq.var);
        if (!value || (!var && !axis.first) || (var && withFacts.facts.count(var)) || withFacts.axisFacts.count(axis))
          continue;
        if (auto current = values_.constantOf(eq.var, env); current && *current != *value) contradicts = true;
        std::string name;
        if (var) {
          withFacts.facts[var] = *value;
          name = var->getNameAsString();
        } else {
          withFacts.axisFacts[axis] = *value;
          name = axis.first->getNameAsString() + "." + "xyz"[axis.second];
        }
        factsText += (factsText.empty() ? " (where `" : ", `") + name + "` is " + std::to_string(*value);
      }
      if (contradicts) continue;
      // `for (; log2N > 11; log2N -= 2, N >>= 2)` before the launch: the values it leaves.
      for (const ForStmt* loop : loops)
        for (const auto& [var, value] : values_.valuesAfterLoop(loop, p.holder, env)) {
          if (withFacts.facts.count(var)) continue;
          withFacts.facts[var] = value;
          factsText += (factsText.empty() ? " (where `" : ", `") + var->getNameAsString() + "` is " +
                       std::to_string(value) + " after the loop at " + locationText(loop->getBeginLoc());
        }
      if (!factsText.empty()) factsText += ")";
      const HostEnv* use = env;
      if (!withFacts.facts.empty() || !withFacts.axisFacts.empty()) {
        if (env) {
          withFacts.params = env->params;
          withFacts.via = env->via;
        }
        use = &withFacts;
      }
      // `if (which == 0) k<<<...>>>()` in a wrapper: a call site whose arguments make an
      // enclosing condition false does not launch here.
      // A condition over the counter of a host loop around the launch (`if (!(step % 4))`, whose
      // counter the values read at its first iteration) varies from one iteration to the next:
      // it never makes the launch dead (launch_repeats.cpp counts the iterations it takes),
      // unless the environment fixes the counter (a launch per value: launch_counters.cpp).
      const bool skipped = std::any_of(conditions.begin(), conditions.end(), [&](const auto& c) {
        if (readsLoopCounter(c.first, use)) return false;
        auto v = values_.constantOf(c.first, use);
        return v && (*v != 0) != c.second;
      });
      if (skipped) continue;
      anyLaunches = true;
      const std::vector<const FunctionDecl*> kernelsHere = values_.kernelsOf(p.callee, use);
      if (kernelsHere.empty()) continue;
      Dim3Axes blockAxes = values_.dim3AxesOf(p.block, use);
      if (!blockAxes[0] && !blockAxes[1] && !blockAxes[2]) blockAxes = values_.fileScopeDim3(p.block, p.holder, use);
      Launch l;
      // A block the host computes at run time: the kernel still gets this launch's
      // arguments and pointer offsets, over the fallback block shape, with the axes the
      // launch does fix (block_shape.cpp, `withLaunchAxes`).
      l.blockKnown = blockAxes[0] && blockAxes[1] && blockAxes[2];
      if (l.blockKnown) l.block = model::Dim3{*blockAxes[0], *blockAxes[1], *blockAxes[2]};
      else l.blockAxes = blockAxes;
      // `threads = n < 512 ? n : 512`: the cap, the block of an input larger than one block.
      if (!l.blockKnown)
        if (const CappedAxes capped = caps_.cappedAxesOf(p.block, use);
            capped.capped && capped.axes[0] && capped.axes[1] && capped.axes[2]) {
          l.blockKnown = true;
          l.block = model::Dim3{*capped.axes[0], *capped.axes[1], *capped.axes[2]};
          l.blockCap = capped.why;
        }
      // `dim3 block(blockx, blocky)` with `int blockx = 16;` changed only by a command-line
      // option: the default run's block, when the options' defaults are all it rests on (a size
      // the code does not fix, taken at the bare default, would make it a guess again).
      if (!l.blockKnown)
        if (auto defaulted = values_.gridWithDefaults(p.block, use, around);
            defaulted && defaulted->leaves.empty() && defaulted->counters.empty() && !defaulted->options.empty()) {
          l.blockKnown = true;
          l.block = defaulted->grid;
          l.blockDefaults = std::move(defaulted->options);
        }
      l.grid = values_.dim3Of(p.grid, use);
      if (!l.grid)
        if (const Dim3Axes g = values_.fileScopeDim3(p.grid, p.holder, use); g[0] && g[1] && g[2])
          l.grid = model::Dim3{*g[0], *g[1], *g[2]};
      if (!l.grid)
        if (auto defaulted = values_.gridWithDefaults(p.grid, use, around)) {
          l.costGrid = defaulted->grid;
          l.costGridLeaves = std::move(defaulted->leaves);
          l.costGridCounters = std::move(defaulted->counters);
          l.costGridOptions = std::move(defaulted->options);
        }
      for (unsigned i = 0; i < p.args.size(); ++i) {
        if (auto v = values_.constantOf(p.args[i], use)) l.argValues[i] = *v;
        else if (p.args[i]->getType()->isIntegralOrEnumerationType())
          if (auto defaulted = values_.valueWithDefaults(p.args[i], use, around)) l.costArgValues[i] = std::move(*defaulted);
        if (p.args[i]->getType()->isPointerType())
          if (const int64_t off = values_.pointerByteOffset(p.args[i], use); off != 0) l.pointerOffsets[i] = off;
      }
      l.dynamicSharedBytes = p.sharedBytes ? values_.constantOf(p.sharedBytes, use) : std::optional<int64_t>(0);
      l.how = p.how;
      l.where = at + through + factsText + (env ? env->via : "");
      if (envRuns[e] && !inHolder.unknownLoops) l.runs = *envRuns[e] * inHolder.runs;
      for (const FunctionDecl* kernel : kernelsHere) {
        Found& f = found[kernel];
        if (f.launches.empty() && std::find(order.begin(), order.end(), kernel) == order.end()) order.push_back(kernel);
        const auto same = std::find_if(f.launches.begin(), f.launches.end(),
                                       [&](const Launch& o) { return sameConfiguration(o, l); });
        if (same != f.launches.end()) {  // this call site adds nothing to the launch as written
          same->runs = same->runs && l.runs ? std::optional<double>(*same->runs + *l.runs) : std::nullopt;
          continue;
        }
        // A call site that fixes more than the launch as written replaces it.
        if (env && f.firstAsWritten) {
          f.launches.erase(f.launches.begin());
          f.firstAsWritten = false;
        }
        if (!env && f.launches.empty()) f.firstAsWritten = true;
        f.launches.push_back(l);
      }
    }
    if (!anyLaunches)
      for (const FunctionDecl* kernel : values_.kernelsOf(p.callee, nullptr))
        deadSites[kernel->getCanonicalDecl()].push_back(at);
    // No entry for a kernel: it gets the fallback block.
    const Runs here = order.empty() ? Runs{} : runsOf(p.call, p.holder, kCallerDepth);
    for (const FunctionDecl* kernel : order) {
      Runs& total = runs.try_emplace(kernel->getCanonicalDecl(), Runs{0, false, {}, 0, {}, {}, {}, true, false, {}, {}, false, {}, {}}).first->second;
      total.runs += here.runs;
      total.fromMain = total.fromMain && here.fromMain && !order.empty();
      total.throughOtherFiles = total.throughOtherFiles || here.throughOtherFiles;
      total.unknownLoops = total.unknownLoops || here.unknownLoops;
      for (const std::string& l : here.loops)
        if (std::find(total.loops.begin(), total.loops.end(), l) == total.loops.end()) total.loops.push_back(l);
      for (const std::string& l : here.programLoops)
        if (std::find(total.programLoops.begin(), total.programLoops.end(), l) == total.programLoops.end())
          total.programLoops.push_back(l);
      for (const std::string& d : here.sampled)
        if (std::find(total.sampled.begin(), total.sampled.end(), d) == total.sampled.end()) total.sampled.push_back(d);
      for (const std::string& d : here.optionDefaults)
        if (std::find(total.optionDefaults.begin(), total.optionDefaults.end(), d) == total.optionDefaults.end())
          total.optionDefaults.push_back(d);
      total.addStarts(here);
      ++total.sites;
      if (here.runs <= 0 && !here.uncalled.empty())
        uncalledSites[kernel->getCanonicalDecl()].push_back(at + ", through `" + here.uncalled + "`");
    }
    for (const FunctionDecl* kernel : order) {
      auto& list = launches[kernel->getCanonicalDecl()];
      list.insert(list.end(), found[kernel].launches.begin(), found[kernel].launches.end());
    }
  }
}

// A kernel defined here and launched only from another file of the program (a kernels.cu
// beside the main.cu that launches them; a library's entry file launching what its kernels
// file defines, declared in a header both include): this unit shows no launch, so the kernel
// was judged on a guessed block. The other files' launches, as their summaries show them
// (host_summary.cpp, ProgramFacts::launchesOf), give it its block, grid, constant arguments and
// launches per run. A template's instance matches the launches of its own arguments
// (`k<4, 512><<<...>>>`, templateArgumentsText); a name two kernels here share (overloads) is
// left to the guess, as a summary keeps no parameter types.
void LaunchCollector::launchesFromOtherFiles() {
  if (!programFacts_) return;
  // The kernels this unit launches nowhere: most units have none, and pay for nothing below.
  std::vector<const FunctionDecl*> unlaunched;
  for (const FunctionDecl* k : kernels) {
    const FunctionDecl* canonical = k->getCanonicalDecl();
    if (!launches.count(canonical) && !runs.count(canonical) && !deadSites.count(canonical) &&
        !uncalledSites.count(canonical) && !k->isTemplated() && k->getDeclName().isIdentifier())
      unlaunched.push_back(k);
  }
  if (unlaunched.empty()) return;
  using Name = std::pair<std::string, std::string>;  // the name and the template arguments
  auto nameOf = [](const FunctionDecl* k) {
    return Name(k->getName().str(), templateArgumentsText(k, k->getASTContext()));
  };
  std::map<Name, int> named;
  for (const FunctionDecl* k : kernels)
    if (k->getDeclName().isIdentifier()) ++named[nameOf(k)];
  std::erase_if(unlaunched, [&](const FunctionDecl* k) { return named[nameOf(k)] != 1; });
  if (unlaunched.empty()) return;
  const ProgramFacts* facts = programFacts_();
  if (!facts) return;
  // The files of this unit: a launch written in one of them is this unit's own, which the
  // collector saw (and left out, its arguments broken by a header not found: Kaldi's
  // cudafeat/ without its cudamatrix headers) or resolved; only other files' count here.
  std::set<std::string> ownFiles;
  for (auto it = sm_.fileinfo_begin(); it != sm_.fileinfo_end(); ++it) {
    ownFiles.insert(it->first.getName().str());
    if (const llvm::StringRef real = it->first.getFileEntry().tryGetRealPathName(); !real.empty())
      ownFiles.insert(real.str());
  }
  for (const FunctionDecl* k : unlaunched) {
    const FunctionDecl* canonical = k->getCanonicalDecl();
    std::vector<Launch>& list = launches[canonical];
    double total = 0;
    bool counted = true;
    const auto [name, templateArgs] = nameOf(k);
    for (const ProgramFacts::KernelLaunch& from : facts->launchesOf(name, templateArgs)) {
      if (ownFiles.count(from.file)) continue;
      Launch l;
      const Dim3Axes axes{from.block[0], from.block[1], from.block[2]};
      l.blockKnown = axes[0] && axes[1] && axes[2];
      if (l.blockKnown) l.block = model::Dim3{*axes[0], *axes[1], *axes[2]};
      else l.blockAxes = axes;
      l.blockDefaults = from.blockDefaults;
      if (from.grid[0] && from.grid[1] && from.grid[2]) l.grid = model::Dim3{*from.grid[0], *from.grid[1], *from.grid[2]};
      for (const auto& [index, value] : from.args)
        if (index < k->getNumParams() && k->getParamDecl(index)->getType()->isIntegralOrEnumerationType())
          l.argValues[index] = value;
      l.dynamicSharedBytes = from.sharedBytes;
      l.where = from.where + ", in another file of the program";
      l.runs = from.runs;
      counted = counted && from.runs.has_value();
      total += from.runs.value_or(0);
      const auto same = std::find_if(list.begin(), list.end(), [&](const Launch& o) { return sameConfiguration(o, l); });
      if (same == list.end()) list.push_back(std::move(l));
      else same->runs = same->runs && l.runs ? std::optional<double>(*same->runs + *l.runs) : std::nullopt;
    }
    if (list.empty()) {
      launches.erase(canonical);
      continue;
    }
    if (counted && total > 0) {
      Runs& r = runs[canonical];
      r.runs = total;
      r.sites = static_cast<int>(list.size());
      r.throughOtherFiles = true;
      r.otherStarts = true;
    }
  }
}

// A wrapper that no call site of this file reaches, called from the program's other files
// (ProgramFacts, sibling_files.h): one environment per value the program's calls give one of
// its integer parameters when they give several (a host loop over sizes: the scan sample's
// `for (arrayLength = 4; arrayLength <= 1024; arrayLength <<= 1) scanExclusiveShort(...,
// arrayLength)`), each with the calls per run that give it; else the one environment as
// written, with the wrapper's calls per run. Nothing changes when the program does not show
// them, or when two parameters vary (their values need not pair up).
void LaunchCollector::spreadOverProgramCalls(const FunctionDecl* holder, std::vector<const HostEnv*>& envs,
                                            std::vector<std::optional<double>>& envRuns) {
  if (!holder || holder->isMain() || !holder->getDeclName().isIdentifier() || !programFacts_) return;
  const bool integerParameter = std::any_of(holder->param_begin(), holder->param_end(), [](const ParmVarDecl* p) {
    return p->getType()->isIntegralOrEnumerationType() && p->isReferenced();
  });
  if (!integerParameter) return;  // nothing the program's calls would fix: its files are not read for this
  const ProgramFacts* facts = programFacts_();
  if (!facts) return;
  const std::string name = holder->getNameAsString();
  const ParmVarDecl* spread = nullptr;
  std::map<int64_t, double> values;
  for (const ParmVarDecl* parm : holder->parameters()) {
    // A parameter the wrapper never reads changes nothing in its launches.
    if (!parm->getType()->isIntegralOrEnumerationType() || !parm->isReferenced() || values_.isReassigned(parm)) continue;
    auto r = facts->parameterRuns(name, static_cast<int>(parm->getFunctionScopeIndex()));
    if (!r || r->size() < 2) continue;
    if (spread || r->size() > kMaxEnvironments) return;
    spread = parm;
    values = std::move(*r);
  }
  if (!spread) {
    envRuns.front() = facts->callsPerRun(name);
    return;
  }
  envs.clear();
  envRuns.clear();
  for (const auto& [value, n] : values) {
    HostEnv env;
    env.facts[spread] = value;
    env.via = ", `" + spread->getNameAsString() + "` " + std::to_string(value) + " (one of the " +
              std::to_string(values.size()) + " values the program's calls of `" + name + "` give it)";
    envs_.push_back(std::move(env));
    envs.push_back(&envs_.back());
    envRuns.push_back(n);
  }
}

bool LaunchCollector::readsLoopCounter(const Stmt* e, const HostEnv* env) {
  if (!e) return false;
  if (const auto* r = dyn_cast<DeclRefExpr>(e))
    if (const auto* v = dyn_cast<VarDecl>(r->getDecl());
        v && v->isLocalVarDecl() && !(env && env->facts.count(v)) && values_.countsLoopAround(v, r))
      return true;
  return std::any_of(e->child_begin(), e->child_end(), [&](const Stmt* c) { return readsLoopCounter(c, env); });
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
const ParentMap& LaunchCollector::parentsOf(const FunctionDecl* holder) {
  static const ParentMap none(nullptr);  // a function without a body: no statement has a parent
  const ParentMap* map = values_.parents().mapOf(holder);
  return map ? *map : none;
}

std::vector<std::pair<const Expr*, bool>> LaunchCollector::enclosingConditions(const Stmt* call, const FunctionDecl* holder) {
  std::vector<std::pair<const Expr*, bool>> out;
  if (!holder || !holder->getBody()) return out;
  const ParentMap& parents = parentsOf(holder);
  for (const Stmt* child = call, *parent = parents.getParent(call); parent;
       child = parent, parent = parents.getParent(parent))
    if (const auto* ifs = dyn_cast<IfStmt>(parent)) {
      if (child == ifs->getThen()) out.push_back({ifs->getCond(), true});
      else if (child == ifs->getElse()) out.push_back({ifs->getCond(), false});
    }
  return out;
}

// The `for` loops whose body holds `call` inside `holder`, outermost first.
std::vector<const ForStmt*> LaunchCollector::enclosingForLoops(const Stmt* call, const FunctionDecl* holder) {
  std::vector<const ForStmt*> out;
  if (!holder || !holder->getBody()) return out;
  const ParentMap& parents = parentsOf(holder);
  for (const Stmt *child = call, *parent = parents.getParent(call); parent;
       child = parent, parent = parents.getParent(parent))
    if (const auto* loop = dyn_cast<ForStmt>(parent); loop && child == loop->getBody()) out.insert(out.begin(), loop);
  return out;
}

// The `for` loops that run before `call` in the blocks around it (not those around it),
// innermost block first.
std::vector<const ForStmt*> LaunchCollector::precedingLoops(const Stmt* call, const FunctionDecl* holder) {
  std::vector<const ForStmt*> out;
  if (!holder || !holder->getBody()) return out;
  const ParentMap& parents = parentsOf(holder);
  for (const Stmt *child = call, *parent = parents.getParent(call); parent;
       child = parent, parent = parents.getParent(parent))
    if (const auto* block = dyn_cast<CompoundStmt>(parent))
      for (const Stmt* s : block->body()) {
        if (s == child) break;
        if (const auto* loop = dyn_cast<ForStmt>(s)) out.push_back(loop);
      }
  return out;
}

namespace {

// Whether control cannot run on past `s` into the next statement (no fall-through from
// the case before a label).
bool endsFlow(const Stmt* s) {
  while (s) {
    if (const auto* c = dyn_cast<SwitchCase>(s)) s = c->getSubStmt();
    else if (const auto* block = dyn_cast<CompoundStmt>(s)) s = block->body_empty() ? nullptr : block->body_back();
    else break;
  }
  if (const auto* e = dyn_cast_or_null<Expr>(s))  // exit(1), abort(), a [[noreturn]] helper
    if (const auto* call = dyn_cast<CallExpr>(e->IgnoreParenImpCasts()))
      if (const FunctionDecl* fn = call->getDirectCallee(); fn && fn->isNoReturn()) return true;
  return s && (isa<BreakStmt>(s) || isa<ReturnStmt>(s) || isa<ContinueStmt>(s) || isa<GotoStmt>(s) ||
               isa<CXXThrowExpr>(s));
}

// `a == b` (and conjunctions of them) where one side is a variable: that it has the other's
// value. `ne`: read `a != b` instead (an else-branch).
void equalitiesIn(const Expr* cond, bool ne, std::vector<std::pair<const Expr*, const Expr*>>& out) {
  cond = cond->IgnoreParenImpCasts();
  const auto* b = dyn_cast<BinaryOperator>(cond);
  if (!b) return;
  if (b->getOpcode() == (ne ? BO_LOr : BO_LAnd)) {
    equalitiesIn(b->getLHS(), ne, out);
    equalitiesIn(b->getRHS(), ne, out);
    return;
  }
  if (b->getOpcode() != (ne ? BO_NE : BO_EQ)) return;
  const auto named = [](const Expr* e) { return referencedVar(e) || HostValues::referencedAxis(e).first; };
  if (named(b->getLHS())) out.push_back({b->getLHS(), b->getRHS()});
  else if (named(b->getRHS())) out.push_back({b->getRHS(), b->getLHS()});
}

}  // namespace

// What the code around `call` fixes: the case label of each enclosing `switch (var)` it sits
// under (a single label, not reached by falling through from the case before), and the
// equalities of enclosing `if` conditions. Innermost first.
std::vector<LaunchCollector::Equality> LaunchCollector::enclosingEqualities(const Stmt* call, const FunctionDecl* holder) {
  std::vector<Equality> out;
  if (!holder || !holder->getBody()) return out;
  const ParentMap& parents = parentsOf(holder);
  std::vector<const Stmt*> chain{call};
  for (const Stmt* parent = parents.getParent(call); parent; parent = parents.getParent(parent)) chain.push_back(parent);
  for (size_t i = 1; i < chain.size(); ++i) {
    // `if (radius != RADIUS) { ...; exit(1); }` earlier in an enclosing block: past it, the
    // variable has that value (FDTD3d), when nothing assigns it.
    if (const auto* block = dyn_cast<CompoundStmt>(chain[i])) {
      for (const Stmt* s : block->body()) {
        if (s == chain[i - 1]) break;
        const auto* guard = dyn_cast<IfStmt>(s);
        if (!guard || guard->getElse() || guard->getInit() || guard->getConditionVariable() || !endsFlow(guard->getThen()))
          continue;
        std::vector<std::pair<const Expr*, const Expr*>> eqs;
        equalitiesIn(guard->getCond(), true, eqs);
        for (const auto& [var, value] : eqs)
          if (!values_.isReassigned(referencedVar(var))) out.push_back({var, value});
      }
      continue;
    }
    if (const auto* ifs = dyn_cast<IfStmt>(chain[i])) {
      std::vector<std::pair<const Expr*, const Expr*>> eqs;
      if (chain[i - 1] == ifs->getThen()) equalitiesIn(ifs->getCond(), false, eqs);
      else if (chain[i - 1] == ifs->getElse()) equalitiesIn(ifs->getCond(), true, eqs);
      for (const auto& [var, value] : eqs) out.push_back({var, value});
      continue;
    }
    const auto* sw = dyn_cast<SwitchStmt>(chain[i]);
    if (!sw || i < 2 || !sw->getCond() ||
        (!referencedVar(sw->getCond()) && !HostValues::referencedAxis(sw->getCond()).first))
      continue;
    const auto* body = dyn_cast<CompoundStmt>(chain[i - 1]);
    if (!body || body != sw->getBody()) continue;
    const Stmt* inBody = chain[i - 2];
    const Stmt* const* begin = body->body_begin();
    const Stmt* const* at = std::find(begin, static_cast<const Stmt* const*>(body->body_end()), inBody);
    if (at == body->body_end()) continue;
    for (const Stmt* const* s = at;; --s) {
      if (const auto* label = dyn_cast<SwitchCase>(*s)) {
        const auto* single = dyn_cast<CaseStmt>(label);
        const bool fallsIn = s != begin && !endsFlow(*(s - 1));
        if (single && !single->caseStmtIsGNURange() && !isa<SwitchCase>(single->getSubStmt()) && !fallsIn)
          out.push_back({sw->getCond(), single->getLHS()});
        break;
      }
      if (s == begin) break;
    }
  }
  return out;
}

}  // namespace coalesce::analysis
