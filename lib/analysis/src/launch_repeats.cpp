// How many times one run of the program executes a launch, as far as its translation unit
// shows: the trip counts of the host loops around the launch and around each call of the
// function holding it (up to kCallerDepth callers), summed over those call sites. What a
// finding's share of the program's memory time rests on (lib/report/src/cost.cpp,
// docs/findings.md "Levels"): a one-off setup kernel next to one launched in a loop.
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <string>

#include "analysis_policy.h"
#include "host_writes.h"
#include "launch_collector.h"
#include "source_text.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

const VarDecl* varOf(const Expr* e) {
  const auto* ref = e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

// Whether anything in `s` but the loop's own increment writes `var`.
bool writtenIn(const Stmt* s, const VarDecl* var, const Stmt* increment) {
  if (!s || s == increment) return false;
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && varOf(b->getLHS()) == var) return true;
  if (const auto* u = dyn_cast<UnaryOperator>(s))
    if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && varOf(u->getSubExpr()) == var) return true;
  return std::any_of(s->child_begin(), s->child_end(), [&](const Stmt* c) { return writtenIn(c, var, increment); });
}

// The variables `e` reads.
void varsIn(const Stmt* e, std::vector<const VarDecl*>& out) {
  if (!e) return;
  if (const auto* r = dyn_cast<DeclRefExpr>(e))
    if (const auto* v = dyn_cast<VarDecl>(r->getDecl())) out.push_back(v);
  for (const Stmt* c : e->children()) varsIn(c, out);
}

// Whether `s` calls cudaSetDevice with an argument that reads one of `vars`, directly or
// through a function it calls so (`prk::CUDA::set_device(i)`, whose body calls
// cudaSetDevice with its parameter), `depth` calls deep.
bool setsDeviceFrom(const Stmt* s, const std::vector<const VarDecl*>& vars, int depth) {
  if (!s) return false;
  if (const auto* call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* fn = call->getDirectCallee();
    const bool setsDevice = fn && fn->getDeclName().isIdentifier() && fn->getName() == "cudaSetDevice";
    // Only cudaSetDevice, or a function whose body may call it, is worth reading the arguments of.
    if (!setsDevice && !(fn && depth > 0 && fn->getBody())) fn = nullptr;
    for (unsigned i = 0; fn && i < call->getNumArgs(); ++i) {
      std::vector<const VarDecl*> read;
      varsIn(call->getArg(i), read);
      if (std::none_of(read.begin(), read.end(),
                       [&](const VarDecl* v) { return std::find(vars.begin(), vars.end(), v) != vars.end(); }))
        continue;
      if (setsDevice) return true;
      if (i < fn->getNumParams()) {
        const std::vector<const VarDecl*> param = {fn->getParamDecl(i)};
        if (setsDeviceFrom(fn->getBody(), param, depth - 1)) return true;
      }
    }
  }
  return std::any_of(s->child_begin(), s->child_end(), [&](const Stmt* c) { return setsDeviceFrom(c, vars, depth); });
}

}  // namespace

// A `for` loop over the GPUs: its body selects the device by its counter
// (`for (i = 0; i < ngpus; ++i) { cudaSetDevice(i); init<<<...>>>(...); }`). Each iteration's
// launches run on another GPU, so the loop repeats nothing on one device: the counts, the
// cost's and the levels', are per device (the Parallel Research Kernels' multi-GPU dgemm
// launches its `init` once per GPU, not once per iteration of a loop of unknown count).
// Asked for every loop around every launch and library call, on every path runsOf walks: each
// loop's body is read once.
bool LaunchCollector::loopOverDevices(const Stmt* loop) {
  const auto* f = dyn_cast<ForStmt>(loop);
  if (!f || !f->getInc()) return false;
  auto [known, inserted] = deviceLoops_.try_emplace(loop, false);
  if (!inserted) return known->second;
  std::vector<const VarDecl*> counters;
  varsIn(f->getInc(), counters);
  known->second = !counters.empty() && setsDeviceFrom(f->getBody(), counters, 1);
  return known->second;
}

std::string LaunchCollector::sourceText(const Expr* e) const {
  const CharSourceRange range = CharSourceRange::getTokenRange(sm_.getExpansionRange(e->getSourceRange()).getAsRange());
  return oneLine(Lexer::getSourceText(range, sm_, lang_));
}

std::optional<EveryNthArm> everyNthArm(const IfStmt* branch, const Stmt* child, HostValues& values) {
  if (child != branch->getThen() && child != branch->getElse()) return std::nullopt;
  const Expr* cond = branch->getCond()->IgnoreParenImpCasts();
  bool equal = true;
  const Expr* remainder = nullptr;
  std::optional<int64_t> value;
  if (const auto* u = dyn_cast<UnaryOperator>(cond); u && u->getOpcode() == UO_LNot) {
    remainder = u->getSubExpr()->IgnoreParenImpCasts();
    value = 0;
  } else if (const auto* b = dyn_cast<BinaryOperator>(cond); b && (b->getOpcode() == BO_EQ || b->getOpcode() == BO_NE)) {
    equal = b->getOpcode() == BO_EQ;
    const auto* l = dyn_cast<BinaryOperator>(b->getLHS()->IgnoreParenImpCasts());
    if (l && l->getOpcode() == BO_Rem) {
      remainder = l;
      value = values.constantOf(b->getRHS());
    } else if (const auto* r = dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParenImpCasts()); r && r->getOpcode() == BO_Rem) {
      remainder = r;
      value = values.constantOf(b->getLHS());
    }
  }
  const auto* rem = dyn_cast_or_null<BinaryOperator>(remainder);
  if (!rem || rem->getOpcode() != BO_Rem || !value) return std::nullopt;
  const std::optional<int64_t> k = values.constantOf(rem->getRHS());
  if (!k || *k < 2 || *value < 0 || *value >= *k) return std::nullopt;
  EveryNthArm out;
  varsIn(rem->getLHS(), out.dividend);
  if (out.dividend.empty()) return std::nullopt;
  out.k = *k;
  out.taken = equal == (child == branch->getThen());
  out.share = out.taken ? 1.0 / static_cast<double>(*k) : 1.0 - 1.0 / static_cast<double>(*k);
  return out;
}

std::optional<LaunchCollector::EveryNth> LaunchCollector::everyNth(const IfStmt* branch, const Stmt* child) {
  const auto arm = everyNthArm(branch, child, values_);
  if (!arm) return std::nullopt;
  EveryNth out;
  out.share = arm->share;
  out.dividend = arm->dividend;
  out.text = (arm->taken ? "1 in " : std::to_string(arm->k - 1) + " in ") + std::to_string(arm->k) +
             " of the iterations (`" + sourceText(branch->getCond()) + "` at " + locationText(branch->getBeginLoc()) + ")";
  return out;
}

// `for (int i = a; i < b; i += c)` (and `<=`, `>`, `>=`, `!=`, `++`, `--`, `-=`) with a, b, c
// constants the host code shows and nothing else writing i: its trip count; else none.
std::optional<int64_t> LaunchCollector::hostTripCount(const Stmt* loop) {
  const auto* f = dyn_cast<ForStmt>(loop);
  if (!f || !f->getCond() || !f->getInc()) return std::nullopt;
  const VarDecl* var = nullptr;
  std::optional<int64_t> start;
  if (const auto* d = dyn_cast_or_null<DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
    var = dyn_cast<VarDecl>(d->getSingleDecl());
    if (var && var->getInit()) start = values_.constantOf(var->getInit());
  } else if (const auto* b = dyn_cast_or_null<BinaryOperator>(f->getInit()); b && b->getOpcode() == BO_Assign) {
    var = varOf(b->getLHS());
    start = values_.constantOf(b->getRHS());
  }
  if (!var || !start || !var->getType()->isIntegerType()) return std::nullopt;
  const auto* cond = dyn_cast<BinaryOperator>(f->getCond()->IgnoreParenImpCasts());
  if (!cond || varOf(cond->getLHS()) != var) return std::nullopt;
  const std::optional<int64_t> bound = values_.constantOf(cond->getRHS());
  std::optional<int64_t> step;
  const Expr* inc = f->getInc()->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && varOf(u->getSubExpr()) == var)
    step = u->isIncrementOp() ? 1 : -1;
  else if (const auto* c = dyn_cast<CompoundAssignOperator>(inc); c && varOf(c->getLHS()) == var) {
    if (auto by = values_.constantOf(c->getRHS())) {
      if (c->getOpcode() == BO_AddAssign) step = *by;
      if (c->getOpcode() == BO_SubAssign) step = -*by;
    }
  }
  if (!bound || !step || *step == 0 || writtenIn(f->getBody(), var, f->getInc())) return std::nullopt;
  int64_t span = 0;  // how far the variable moves while the condition holds, counted from 1
  switch (cond->getOpcode()) {
    case BO_LT: span = *step > 0 ? *bound - *start : -1; break;
    case BO_LE: span = *step > 0 ? *bound - *start + 1 : -1; break;
    case BO_GT: span = *step < 0 ? *start - *bound : -1; break;
    case BO_GE: span = *step < 0 ? *start - *bound + 1 : -1; break;
    case BO_NE: span = (*bound - *start) % *step == 0 ? std::abs(*bound - *start) : -1; break;
    default: return std::nullopt;
  }
  if (span < 0 && cond->getOpcode() != BO_NE) return std::nullopt;  // a loop that would not end
  if (span <= 0) return 0;
  const int64_t by = std::abs(*step);
  return (span + by - 1) / by;
}

// A function this file never calls (a wrapper another file calls, kmeans' `kmeansCuda` in
// the `do ... while` of kmeans_clustering.c): the runs the program's other files show
// (ProgramFacts::callsPerRunAssumed; loops whose count they do not show count as this file's
// own do). Until session 13 such a function ran once, so a wrapper called once for setup and
// one called in the program's main loop weighed the same.
LaunchCollector::Runs LaunchCollector::withProgramCalls(Runs out, const FunctionDecl* holder) {
  out.fromMain = holder->isMain();
  const ProgramFacts* facts =
      holder->isMain() || !holder->getDeclName().isIdentifier() || !programFacts_ ? nullptr : programFacts_();
  const auto calls = facts ? facts->callsPerRunAssumed(holder->getNameAsString()) : std::nullopt;
  // None, or none that runs (a caller the program's reachable code never calls): the path
  // starts in the holder, once.
  if (!calls || calls->runs <= 0) {
    // Nothing in the program's files calls or names it, and they show its `main`: the launch
    // never runs (cuda_hgemm's `simtNaive`, whose one call in main.cu is commented out; blind
    // panel 24, session 28). A caller in a folder the analysis does not read would run it: the
    // finding then says where the count came from, and is a note rather than gone. Only where
    // every file read parsed without an error: Rodinia's leukocyte calls GICOV_CUDA from
    // find_ellipse.c, whose `MAT` types come from a header the flags do not find, and that
    // parse lost the call.
    if (calls && !calls->called && facts->complete()) {
      out.runs = 0;
      out.uncalled = holder->getNameAsString();
    }
    startsIn(out, holder);
    return out;
  }
  out.runs *= calls->runs;
  out.unknownLoops = out.unknownLoops || calls->unknownLoops;
  // Reached from the program's `main` in another file (a driver main.cpp beside the kernels'
  // .cu): as much the program's own as a launch from this file's main.
  out.fromMain = calls->fromMain;
  out.throughOtherFiles = true;
  if (calls->called) out.otherStarts = true;  // counted from the calls the program shows
  else startsIn(out, holder);
  out.programLoops.insert(out.programLoops.end(), calls->loops.begin(), calls->loops.end());
  for (const std::string& d : calls->defaults)
    if (std::find(out.optionDefaults.begin(), out.optionDefaults.end(), d) == out.optionDefaults.end())
      out.optionDefaults.push_back(d);
  return out;
}

// The runs of `call` inside `holder` per run of the program: the product of the trip counts of
// the loops around it, times the sum over the holder's call sites (a function nobody in this
// file calls, `main` or an entry point, runs once).
LaunchCollector::Runs LaunchCollector::runsOf(const Stmt* call, const FunctionDecl* holder, int depth) {
  Runs out;
  if (!holder || !holder->getBody()) return out;
  const ParentMap& parents = parentsOf(holder);
  std::vector<EveryNth> pending;  // `if (i % k == 0)` arms not yet matched with a loop stepping i
  for (const Stmt *child = call, *parent = parents.getParent(call); parent;
       child = parent, parent = parents.getParent(parent)) {
    if (const auto* branch = dyn_cast<IfStmt>(parent))
      if (auto nth = everyNth(branch, child)) pending.push_back(std::move(*nth));
    const Stmt* body = nullptr;
    if (const auto* f = dyn_cast<ForStmt>(parent)) body = f->getBody();
    else if (const auto* w = dyn_cast<WhileStmt>(parent)) body = w->getBody();
    else if (const auto* d = dyn_cast<DoStmt>(parent)) body = d->getBody();
    else if (const auto* r = dyn_cast<CXXForRangeStmt>(parent)) body = r->getBody();
    if (!body || child != body) continue;
    if (loopOverDevices(parent)) {
      out.loops.push_back(locationText(parent->getBeginLoc()) + " (over the GPUs: once per device)");
      continue;
    }
    if (auto trips = hostTripCount(parent)) out.runs *= static_cast<double>(*trips);
    else out.unknownLoops = true;
    out.loops.push_back(locationText(parent->getBeginLoc()));
    // An arm taken once in k iterations of this loop: the loop steps its dividend.
    for (auto nth = pending.begin(); nth != pending.end();) {
      const bool stepped = std::any_of(nth->dividend.begin(), nth->dividend.end(),
                                       [&](const VarDecl* v) { return writtenIn(parent, v, nullptr); });
      if (!stepped) {
        ++nth;
        continue;
      }
      out.runs *= nth->share;
      out.sampled.push_back(nth->text);
      nth = pending.erase(nth);
    }
  }
  auto sites = callsOf_.find(holder->getCanonicalDecl());
  if (depth > 0 && sites == callsOf_.end()) return withProgramCalls(out, holder);
  if (sites == callsOf_.end()) out.fromMain = holder->isMain();
  if (depth <= 0 || sites == callsOf_.end()) {
    if (sites == callsOf_.end()) startsIn(out, holder);
    else out.otherStarts = true;  // callers not followed
    return out;
  }
  Runs callers;
  callers.runs = 0;
  callers.fromMain = true;
  size_t counted = 0;
  for (const CallSite& site : sites->second) {
    if (site.caller == holder) continue;  // recursion says nothing new
    if (counted++ >= kMaxCallSites) {
      callers.fromMain = false;  // a call site not counted
      continue;
    }
    const Runs r = runsOf(site.call, site.caller, depth - 1);
    callers.runs += r.runs;
    if (callers.uncalled.empty()) callers.uncalled = r.uncalled;
    callers.fromMain = callers.fromMain && r.fromMain;
    callers.throughOtherFiles = callers.throughOtherFiles || r.throughOtherFiles;
    callers.unknownLoops = callers.unknownLoops || r.unknownLoops;
    callers.loops.insert(callers.loops.end(), r.loops.begin(), r.loops.end());
    callers.optionDefaults.insert(callers.optionDefaults.end(), r.optionDefaults.begin(), r.optionDefaults.end());
    callers.programLoops.insert(callers.programLoops.end(), r.programLoops.begin(), r.programLoops.end());
    callers.sampled.insert(callers.sampled.end(), r.sampled.begin(), r.sampled.end());
    callers.addStarts(r);
  }
  if (counted < sites->second.size()) callers.otherStarts = true;  // call sites not counted (recursion, kMaxCallSites)
  if (counted == 0) {
    out.otherStarts = true;
    return out;
  }
  out.runs *= callers.runs;
  if (callers.runs <= 0) out.uncalled = callers.uncalled;  // every caller's path is uncalled
  out.fromMain = callers.fromMain;
  out.throughOtherFiles = callers.throughOtherFiles;
  out.unknownLoops = out.unknownLoops || callers.unknownLoops;
  out.loops.insert(out.loops.end(), callers.loops.begin(), callers.loops.end());
  out.optionDefaults.insert(out.optionDefaults.end(), callers.optionDefaults.begin(), callers.optionDefaults.end());
  out.programLoops.insert(out.programLoops.end(), callers.programLoops.begin(), callers.programLoops.end());
  out.sampled.insert(out.sampled.end(), callers.sampled.begin(), callers.sampled.end());
  out.addStarts(callers);  // out itself starts nowhere: it has callers
  return out;
}

void LaunchCollector::startsIn(Runs& out, const FunctionDecl* holder) {
  const auto* method = dyn_cast<CXXMethodDecl>(holder);
  if (const auto* ctor = dyn_cast_or_null<CXXConstructorDecl>(method)) out.constructedBy.insert(ctor->getParent()->getCanonicalDecl());
  else if (method && method->isInstance() && !isa<CXXDestructorDecl>(method) && !method->isOverloadedOperator())
    out.calledFromOutside.insert(method->getCanonicalDecl());
  else out.otherStarts = true;
}

// A class whose constructor launches kernels and whose member functions, called by code the
// analysis does not see (the program's other folders: GPUMD's integrator calls
// `ensemble->compute1(...)` every time step from src/main_gpumd/run.cu, through the base
// class), launch others: an object is built once and used as often as its user calls it, so a
// kernel its constructor launches is setup beside the ones its members launch. Those members'
// launches count kAssumedLoopTrips calls, as a loop whose trip count the code does not show;
// before, every path from a function nobody visible calls counted once, and a constructor's
// initialisation weighed as much as the per-step work (blind panel 20: QTB's history
// initialisation, noise). Only where the class's constructor launches a kernel of its own,
// and only kernels every path of which starts in such a member.
void LaunchCollector::perObjectCounts() {
  // class -> the first kernel (in the order the unit defines them) only its construction launches
  std::map<const CXXRecordDecl*, const FunctionDecl*> setupOf;
  for (const FunctionDecl* kernel : kernels) {
    auto it = runs.find(kernel->getCanonicalDecl());
    if (it == runs.end()) continue;
    const Runs& r = it->second;
    if (!r.constructedBy.empty() && r.calledFromOutside.empty() && !r.otherStarts)
      for (const CXXRecordDecl* c : r.constructedBy) setupOf.try_emplace(c, kernel);
  }
  if (setupOf.empty()) return;
  const auto builtHere = [&](const CXXMethodDecl* m) -> const FunctionDecl* {
    auto it = setupOf.find(m->getParent()->getCanonicalDecl());
    return it == setupOf.end() ? nullptr : it->second;
  };
  for (auto& [kernel, r] : runs) {
    if (r.calledFromOutside.empty() || r.otherStarts || !r.constructedBy.empty() || r.runs <= 0) continue;
    // Every member it starts in belongs to such a class; the text names the first by name (not
    // by pointer, so that it is the same from run to run) and its class's setup kernel.
    const CXXMethodDecl* named = nullptr;
    bool all = true;
    for (const CXXMethodDecl* m : r.calledFromOutside) {
      all = all && builtHere(m);
      if (!named || m->getQualifiedNameAsString() < named->getQualifiedNameAsString()) named = m;
    }
    if (!all || !named) continue;
    const std::string first = named->getQualifiedNameAsString();
    const FunctionDecl* setup = builtHere(named);
    r.unknownLoops = true;
    r.fromMain = false;
    r.perObject = "`" + first + "`, which code the program's folder does not show calls, " +
                  "as often as an object's user does (its class's constructor launches `" + setup->getNameAsString() +
                  "` once)";
  }
}

// The library call one run of the program makes most often, counted as a launch is (runsOf:
// the loops around it and around the calls of the functions holding it), when that is at least
// twice: the program's repeated work that the analysis has no traffic for. The Parallel
// Research Kernels' dgemm drivers launch their `init` kernel once and call `cublasDgemm` in
// the timed loop (session 17's blind panel: every `init` finding noise, "a setup kernel").
std::optional<LaunchCollector::RepeatedWork> LaunchCollector::repeatedLibraryWork() {
  // A file of hundreds of library calls (a BLAS wrapper) needs only one made twice: the first
  // kMaxLibraryCalls are counted, so that the cost stays bounded.
  constexpr size_t kMaxLibraryCalls = 256;
  const LibraryCall* most = nullptr;
  Runs mostRuns;
  double made = 0;
  for (size_t i = 0; i < libraryCalls_.size() && i < kMaxLibraryCalls; ++i) {
    const Runs r = runsOf(libraryCalls_[i].call, libraryCalls_[i].holder, kCallerDepth);
    const double count = r.runs * (r.unknownLoops ? static_cast<double>(kAssumedLoopTrips) : 1.0);
    if (count <= made) continue;
    most = &libraryCalls_[i];
    mostRuns = r;
    made = count;
  }
  if (!most || made < 2) return std::nullopt;
  std::string loops, around;
  for (const std::string& l : mostRuns.loops) loops += (loops.empty() ? "" : ", ") + l;
  for (const std::string& l : mostRuns.programLoops) around += (around.empty() ? "" : ", ") + l;
  return RepeatedWork{
      "`" + most->name + "` (" + locationText(most->call->getBeginLoc()) + ")" +
          (loops.empty() ? std::string()
                         : (mostRuns.loops.size() == 1 ? ", in the host loop at " : ", in the host loops at ") + loops) +
          (around.empty() ? std::string()
                          : ", called in host loops of the program's other files (around " + around + ")") +
          (mostRuns.unknownLoops ? " (trip counts the code does not show taken as " +
                                       std::to_string(kAssumedLoopTrips) + " iterations together)"
                                 : std::string()),
      made};
}

}  // namespace coalesce::analysis
