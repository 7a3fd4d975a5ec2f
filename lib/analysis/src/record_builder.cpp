#include "record_builder.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "access_groups.h"
#include "array_loop_bounds.h"
#include "build_hints.h"
#include "compiler_vectorised.h"
#include "lane_evaluator.h"
#include "launch_mix.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// Whether another kernel of the unit has the same name: an overload (`init(int, double*)`
// beside `init(int, double*, double*, double*)`, the Parallel Research Kernels' setup kernels).
bool overloadedKernel(const FunctionDecl* fn) {
  if (!fn->getDeclName().isIdentifier() || fn->getTemplateSpecializationArgs()) return false;
  for (const NamedDecl* d : fn->getDeclContext()->lookup(fn->getDeclName())) {
    const auto* other = dyn_cast<FunctionDecl>(d);
    if (other && other->getCanonicalDecl() != fn->getCanonicalDecl() && other->hasAttr<CUDAGlobalAttr>()) return true;
  }
  return false;
}

std::string kernelName(const FunctionDecl* fn, const ASTContext& ctx) {
  std::string out;
  llvm::raw_string_ostream os(out);
  fn->getNameForDiagnostic(os, ctx.getPrintingPolicy(), /*Qualified=*/true);
  // Every later stage tells kernels apart by name (a finding's kernel, its cost, whether it is
  // launched: lib/report/src/launch_level.cpp), so overloads carry their parameter types, as a
  // demangled name (and the profiler) shows them. Until session 17 the overload nobody
  // launched took the launched one's block and launch count.
  if (overloadedKernel(fn)) {
    os << '(';
    for (unsigned i = 0; i < fn->getNumParams(); ++i)
      os << (i ? ", " : "") << fn->getParamDecl(i)->getType().getAsString(ctx.getPrintingPolicy());
    os << ')';
  }
  return os.str();
}

coalesce::SourceLocation plainLocation(const SourceManager& sm, clang::SourceLocation loc) {
  coalesce::SourceLocation out;
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid()) return out;
  // `#include "../scan/scan.cu"` names the file through a folder it then leaves: without the
  // dots, the place is one whichever unit includes it (one finding per place; merge, baselines).
  // A path without `..` is kept as the user wrote it (`./a.cu` stays `./a.cu`).
  llvm::SmallString<256> file(p.getFilename());
  if (llvm::StringRef(file).contains("..")) llvm::sys::path::remove_dots(file, /*remove_dot_dot=*/true);
  out.file = std::string(file.str());
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

// The loops whose variables the divisor of a `%` in `condition` depends on, once each.
// Expressions are DAGs: each node is visited once.
void modulusLoops(const ExprRef& condition, const SymbolTable& symbols, std::vector<int>& out) {
  std::set<const SymExpr*> seen;
  std::function<void(const ExprRef&, bool)> walk = [&](const ExprRef& e, bool inDivisor) {
    if (!e || !seen.insert(e.get()).second) return;
    if (inDivisor && e->op == Op::Symbol) {
      const int loop = symbols[e->symbolId].loop;
      if (loop >= 0 && std::find(out.begin(), out.end(), loop) == out.end()) out.push_back(loop);
    }
    for (size_t i = 0; i < e->args.size(); ++i)
      walk(e->args[i], inDivisor || (e->op == Op::Rem && i == 1));
  };
  walk(condition, false);
}

// What every site record takes from the event it is built from: where, in which kernel and
// function, the source line, the loops around it.
template <class Site, class Event>
Site siteAt(const Event& e, const std::string& kernel, const SourceManager& sm) {
  Site site;
  site.loc = plainLocation(sm, e.loc);
  site.kernel = kernel;
  site.function = e.function;
  site.lineText = lineTextAt(sm, e.loc);
  site.loops = e.loops;
  return site;
}

// Whether an access's warp requests per launch rest only on what the program's code fixes
// (AccessSite::requestsShown): the count's own grid and trips (LaunchRequests::shown), a block
// the launch (or the user) gives, no guessed spacing in the figures, and every value its
// guards and its loops' bounds read known. A guard on data each thread loads counts every
// lane (the figures' own assumption), which only bounds the count from above.
bool requestsShown(const LaunchRequests& n, const LaneResult& lanes, const RawAccess& raw,
                   const std::vector<int>& loops, const LaunchContext& launch, const SymbolTable& symbols,
                   const LoopVariables& loopVariables) {
  const BlockSource source = launch.block.source;
  if (!n.shown || !lanes.assumedStrideScalars.empty() ||
      (source != BlockSource::Launch && source != BlockSource::Option && source != BlockSource::Annotation))
    return false;
  std::set<int> read;
  for (size_t g = 0; g < raw.guards.size(); ++g)
    if (g >= raw.guardTestsData.size() || !raw.guardTestsData[g]) lanes::collectSymbols(raw.guards[g], read);
  for (int loop : loops)
    if (auto vars = loopVariables.find(loop); vars != loopVariables.end())
      for (int id : vars->second) lanes::collectLoopBounds(symbols[id], read);
  // A loop's trip count or a geometric variable's value at its loop's end (a Blelloch scan's
  // down-sweep starts from the offset its up-sweep ended with: loop_summary.cpp) is shown when
  // what that loop's start, step and condition read is.
  std::vector<int> todo(read.begin(), read.end());
  std::set<int> seen;
  while (!todo.empty()) {
    const int id = todo.back();
    todo.pop_back();
    if (!seen.insert(id).second) continue;
    const SymbolInfo& s = symbols[id];
    if (launch.defaultedSymbols.count(id) > 0) return false;  // the default run's, not the code's
    if (s.kind == SymbolInfo::Kind::LoopVar || s.value.has_value() || launch.symbolValues.count(id) > 0) continue;
    const int loopVariable = s.exitOf >= 0 ? s.exitOf : s.tripOf;
    if (loopVariable < 0) return false;
    std::set<int> bounds;
    for (const ExprRef& e : {symbols[loopVariable].loopInit, symbols[loopVariable].loopNext, symbols[loopVariable].loopCond})
      if (e) lanes::collectSymbols(e, bounds);
    todo.insert(todo.end(), bounds.begin(), bounds.end());
  }
  return true;
}

}  // namespace

// The texts of the guards that test per-thread values the analysis does not follow, in the
// order they are in force (AccessSite::dataGuards), each once.
std::vector<std::string> dataGuards(const RawAccess& raw) {
  std::vector<std::string> out;
  for (size_t g = 0; g < raw.guards.size() && g < raw.guardTestsData.size(); ++g)
    if (raw.guardTestsData[g] && std::find(out.begin(), out.end(), raw.guardTexts[g]) == out.end())
      out.push_back(raw.guardTexts[g]);
  return out;
}

double accessSeverity(const model::AccessFigures& f) {
  if (f.global) return f.global->aligned.sectorsPerRequest / std::max(1e-9, f.global->aligned.idealSectors);
  if (f.shared) return f.shared->aligned.conflictDegree;
  return 0;
}

KernelRecord kernelRecord(const FunctionDecl* fn, const ASTContext& ctx) {
  KernelRecord kernel;
  kernel.name = kernelName(fn, ctx);
  kernel.loc = plainLocation(ctx.getSourceManager(), fn->getLocation());
  return kernel;
}

std::optional<std::string> kernelFailure(const FunctionDecl* fn, const TranslationUnitOptions& options,
                                         const SourceManager& sm) {
  // A Clang error inside the kernel's body: its AST cannot be trusted.
  const coalesce::SourceLocation first = plainLocation(sm, fn->getBeginLoc());
  const coalesce::SourceLocation last = plainLocation(sm, fn->getEndLoc());
  for (const auto& err : options.errors)
    if (err.file == first.file && err.line >= first.line && err.line <= last.line)
      return first.file + ":" + std::to_string(err.line) + ": " + err.message + buildDefinesHint(undeclaredNames({err}));
  // A record whose declaration has errors (a field of an unknown type) has a layout Clang
  // made up: its strides would be wrong.
  return firstUseOfInvalidRecord(fn, sm);
}

namespace {

// Capacity for `more` elements beyond `v`'s: exactly when they need more than half as much
// again (the one large kernel of a file), else half as much again, so that a file of many
// small kernels still grows its lists geometrically.
template <class T>
void reserveFor(std::vector<T>& v, size_t more) {
  const size_t need = v.size() + more;
  if (need > v.capacity()) v.reserve(std::max(need, v.capacity() + v.capacity() / 2));
}

// The bytes one block's lanes span in an access's object under its figures' values: from the
// lowest lane offset to the highest, plus the access's width. A lower bound on what the block
// touches of it (its loops' iterations add to that); nothing for a data-dependent address.
std::optional<int64_t> blockSpan(const model::Access& a, const model::Dim3& block) {
  if (a.pattern.kind == model::PatternKind::Affine) {
    const model::AffineLanes& l = a.pattern.affine;
    return std::llabs(l.cx) * (block.x - 1) + std::llabs(l.cy) * (block.y - 1) + std::llabs(l.cz) * (block.z - 1) +
           a.bytesPerLane;
  }
  if (a.pattern.kind != model::PatternKind::Enumerated) return std::nullopt;
  std::optional<int64_t> low, high;
  for (const std::optional<int64_t>& o : a.pattern.threadOffsets)
    if (o) {
      low = std::min(low.value_or(*o), *o);
      high = std::max(high.value_or(*o), *o);
    }
  if (!low) return std::nullopt;
  return *high - *low + a.bytesPerLane;
}

}  // namespace

void buildKernelRecords(const FunctionDecl* fn, const KernelEvents& events, const std::vector<LaunchContext>& contexts,
                        const SymbolTable& symbols, const model::Arch& arch, const SourceManager& sm,
                        KernelRecord& kernel, TranslationUnitResult& out) {
  GuardCache guardCache;  // the accesses of one block share their guards
  // The kernel's extents: scalars some access's guard or loop compares with a thread's value
  // (AccessSite::guessedScalars are the lane-stride scalars that are not).
  std::vector<const RawAccess*> raws;
  for (const SeenAccess& s : events.accesses) raws.push_back(&s.raw);
  const std::set<int> bounding = lanes::boundingSymbols(raws, symbols);
  const size_t firstAccess = out.accesses.size();
  // Room for this kernel's records at once: a vector left to double on push_back holds up to
  // twice the records, and both buffers while it moves them (an AccessSite is about 1.4 KB:
  // 65,536 loads, 87 MiB of records, took 175 MiB and 262 at the move; docs/analysis-speed.md).
  reserveFor(out.accesses, events.accesses.size());
  reserveFor(out.branches, events.branches.size());
  reserveFor(out.barriers, events.barriers.size());
  // Launches a run recorded (--launch-info), or whose runs the program's host code shows (a
  // wrapper called over a loop of sizes from another file: Launch::runs), in several
  // configurations: the figures are their mix, as a run's counters add them up (launch_mix.h);
  // else the worst launch's.
  const bool recordedMix = std::all_of(contexts.begin(), contexts.end(), [](const LaunchContext& c) {
    return c.recordedLaunches > 0;
  });
  const auto launchesOf = [&](const LaunchContext& c) { return recordedMix ? c.recordedLaunches : c.hostRuns.value_or(0); };
  const bool mixLaunches =
      contexts.size() > 1 &&
      (recordedMix || (std::all_of(contexts.begin(), contexts.end(), [](const LaunchContext& c) { return c.hostRuns.has_value(); }) &&
                       std::any_of(contexts.begin(), contexts.end(), [](const LaunchContext& c) { return *c.hostRuns > 0; })));
  // Contexts equal to an earlier one are not evaluated again (lane_function.h): the worst
  // launch is the first of its figures, so they change no choice below, and a mix adds their
  // figures again as the earlier one's.
  const std::vector<size_t> firstEqual = firstEqualContexts(contexts);  // the context each repeats (itself if none)
  std::vector<bool> repeated(contexts.size());
  for (size_t i = 0; i < contexts.size(); ++i) repeated[i] = firstEqual[i] != i;
  // Each loop's variables (its counter, a geometric variable), found once for the kernel: the
  // per-access questions below would otherwise walk every symbol for every access.
  LoopVariables loopVariables;
  for (size_t id = 0; id < symbols.size(); ++id)
    if (symbols[static_cast<int>(id)].kind == SymbolInfo::Kind::LoopVar)
      loopVariables[symbols[static_cast<int>(id)].loop].push_back(static_cast<int>(id));
  // The components of one vector element nvcc merges into one access (compiler_vectorised.h).
  const std::vector<std::optional<CompilerVectorised>> componentMerges = vectorComponentsMerged(events.accesses);
  // Scalars at a default no launch can have (AccessSite::impossibleScalars): each with the
  // sentence that rules it out, from the first access that does; and each access's scalars
  // taken at a default that scale its lanes' stride, to mark once all are known.
  std::map<int, std::string> impossible;
  std::vector<std::vector<std::pair<int, int64_t>>> strideScalarsOf;
  strideScalarsOf.reserve(events.accesses.size());
  for (const SeenAccess& s : events.accesses) {
    strideScalarsOf.emplace_back();
    AccessSite site = siteAt<AccessSite>(s, kernel.name, sm);
    site.expression = s.expression;
    site.elementType = s.elementType;
    site.dataGuards = dataGuards(s.raw);
    site.record = s.record;
    site.field = s.field;
    if (!lanesEvaluated(s.raw.space)) {
      site.access = model::Access{s.raw.space, s.raw.kind, s.raw.bytes, model::LanePattern{}, s.raw.sameWordSerialised};
      site.block = contexts.front().block;
      site.requestsShown = false;
      site.assumptions.push_back(std::string("not evaluated per lane: ") +
                                 (s.raw.space == model::Space::Local ? "local memory (a thread's own array)"
                                                                     : "constant memory") +
                                 " has no sectors or wavefronts in the model and no share of the kernel's traffic");
      out.accesses.push_back(std::move(site));
      ++kernel.accesses;
      continue;
    }
    double worst = -1;
    std::vector<WeightedFigures> mix;
    double runRequests = 0, runLaunches = 0;
    bool everyCountShown = true;
    // A thread's consecutive shared words in a short unrolled loop are one wide access
    // (compiler_vectorised.h): judged as that access, counted once per pass of the loop.
    const std::optional<CompilerVectorised>& byComponents = componentMerges[static_cast<size_t>(&s - events.accesses.data())];
    const std::optional<CompilerVectorised> merged = byComponents ? byComponents : compilerVectorised(s, symbols, loopVariables);
    const RawAccess& raw = merged ? merged->raw : s.raw;
    std::vector<int> countedLoops = countedLoopsOf(s);
    if (merged && merged->loop >= 0 && !countedLoops.empty() && countedLoops.back() == s.loops.back()) countedLoops.pop_back();
    // Per distinct context, what the mix below reads of it again for the contexts equal to it.
    struct Evaluated {
      model::AccessFigures figures;
      double mixRequests = 0, requests = 0;
    };
    std::vector<std::optional<Evaluated>> evaluated(contexts.size());
    for (size_t ci = 0; ci < contexts.size(); ++ci) {
      const LaunchContext& c = contexts[ci];
      if (repeated[ci]) {
        if (!mixLaunches) continue;
        const Evaluated& e = *evaluated[firstEqual[ci]];
        mix.push_back({e.figures, e.mixRequests});  // equal contexts: the same launches too
        runRequests += e.requests * launchesOf(c);
        runLaunches += launchesOf(c);
        continue;
      }
      LaneResult lr = evaluateLanes(raw, c, symbols, arch, &guardCache);
      LaunchRequests counted = launchRequests(lr, countedLoops, c, symbols, arch, guardCache.iterations.get());
      const double passes = merged ? merged->passes : 1;  // merged accesses a pass of its loop makes
      if (passes > 1) {
        counted.requests *= passes;
        counted.basis += " x " + std::to_string(merged->passes) + " merged accesses a pass of the loop";
      }
      everyCountShown = everyCountShown && requestsShown(counted, lr, raw, countedLoops, c, symbols, loopVariables);
      const double key = accessSeverity(lr.figures);
      if (mixLaunches) {
        // A grid the host code does not fix is the same assumed grid for every launch here:
        // the cost's grid under the program's defaults (LaunchContext::costGrid) is never for
        // the figures (scan's `(batchSize * arrayLength) / 1024` blocks, batchSize = N /
        // arrayLength unknown, would weigh each size by its length).
        LaunchContext weighed = c;
        weighed.costGrid.reset();
        weighed.costSymbolValues.clear();
        const double requests =
            launchRequests(lr, countedLoops, weighed, symbols, arch, guardCache.iterations.get()).requests * passes *
            launchesOf(c);
        mix.push_back({lr.figures, requests});
        // The requests per launch the cost reads stay the launch's own (its cost grid included).
        runRequests += counted.requests * launchesOf(c);
        runLaunches += launchesOf(c);
        evaluated[ci] = Evaluated{lr.figures, requests, counted.requests};
      }
      if (key > worst) {
        worst = key;
        site.access = lr.access;
        site.figures = lr.figures;
        site.assumptions = lr.assumptions;
        site.guessedScalars.clear();
        for (const auto& [id, taken] : lr.assumedStrideScalars)
          if (!bounding.count(id)) site.guessedScalars.push_back(symbols[id].name + " = " + std::to_string(taken));
        strideScalarsOf.back() = lr.assumedStrideScalars;
        site.indirectRowGather = lr.indirectRowGather;
        site.blockReuse = lr.blockReuse;
        site.iterationReuse = lr.iterationReuse;
        site.block = c.block;
        site.launchRequests = counted.requests;
        site.requestsBasis = counted.basis;
        site.gridAssumed = counted.gridAssumed;
      }
    }
    site.requestsShown = everyCountShown;
    if (merged) site.assumptions.push_back(merged->note);
    // A block's lanes cannot span more of an object than it holds: a shared array more than a
    // block's shared memory, an array of constant size more than its size. Where they would at
    // the defaults of the scalars that space them, those defaults are no launch's values.
    const std::optional<int64_t> span = blockSpan(site.access, site.block.dim);
    const int64_t holds = site.access.objectBytes > 0 ? site.access.objectBytes
                          : site.access.space == model::Space::Shared ? arch.maxSharedBytesPerBlock
                                                                      : 0;
    if (span && holds > 0 && *span > holds && !strideScalarsOf.back().empty()) {
      const auto kib = [](int64_t bytes) { return std::to_string((bytes + 1023) / 1024) + " KB"; };
      const std::string because =
          "`" + s.expression + "` would span " + kib(*span) + " of " +
          (site.access.objectBytes > 0 ? "its " + kib(holds) + " array"
                                       : "shared memory in one block of " + std::to_string(site.block.dim.volume()) +
                                             " threads, more than the " + kib(holds) + " a block can have");
      for (const auto& [id, taken] : strideScalarsOf.back()) impossible.try_emplace(id, because);
    }
    const bool anyWeight = std::any_of(mix.begin(), mix.end(), [](const WeightedFigures& w) { return w.weight > 0; });
    if (mixLaunches && anyWeight) {
      site.figures = mixedFigures(mix);
      site.launchRequests = runRequests / runLaunches;
      site.assumptions.push_back("the mix of the kernel's " + std::to_string(contexts.size()) +
                                 (recordedMix ? " launch configurations evaluated from the recorded run"
                                              : " launches the program's host code shows, with how often a run makes each") +
                                 ", weighted by each one's requests over the run (the worst is the " + site.block.detail +
                                 ")");
    } else if (contexts.size() > 1) {
      site.assumptions.push_back("the kernel has " + std::to_string(contexts.size()) +
                                 " launches; these are the worst figures, for the " + site.block.detail);
    }
    // Never a figure for an access no lane runs: 0 sectors at 100 % would read as perfect.
    // A data-dependent address keeps its range even where no request was counted for it: the
    // H200 measured accesses of the real-code set (convolutionFFT2D's record stores, Sobol's,
    // mergeSort's) inside their ranges that the count, under the defaults, found idle.
    const bool idle = (site.figures.global && site.figures.global->aligned.requests == 0) ||
                      (site.figures.shared && site.figures.shared->aligned.requests == 0);
    if (idle) {
      std::string guards;
      for (const std::string& g : s.raw.guardTexts) guards += (guards.empty() ? "" : ", ") + ("`" + g + "`");
      site.executed = false;
      site.notExecuted = "no thread runs it under " +
                         std::string(contexts.size() > 1 ? "any launch the analysis found" : "the launch analysed") +
                         (guards.empty() ? std::string() : ": its guards " + guards + " are false for every lane") +
                         ", whatever values were tried for the unknown scalars (set them with --assume NAME=N)";
      site.figures.global.reset();
      site.figures.shared.reset();
      site.launchRequests = 0;
      site.requestsBasis.clear();
      site.requestsShown = false;
    }
    out.accesses.push_back(std::move(site));
    ++kernel.accesses;
  }

  // A scalar that bounds a loop whose counter indexes an array of known size cannot exceed what
  // keeps the index inside it (array_loop_bounds.h): a default above that is no launch's either.
  const std::map<int, ArrayLoopBound> arrayBounds = arrayLoopBounds(raws, symbols);
  for (const auto& scalars : strideScalarsOf)
    for (const auto& [id, taken] : scalars)
      if (const auto b = arrayBounds.find(id); b != arrayBounds.end() && taken > b->second.most)
        impossible.try_emplace(id, b->second.because);
  for (size_t i = 0; i < strideScalarsOf.size() && !impossible.empty(); ++i) {
    AccessSite& site = out.accesses[firstAccess + i];
    for (const auto& [id, taken] : strideScalarsOf[i])
      if (const auto it = impossible.find(id); it != impossible.end()) {
        site.impossibleScalars.push_back(symbols[id].name + " = " + std::to_string(taken));
        if (site.impossibleBecause.empty()) site.impossibleBecause = it->second;
      }
  }

  groupAccesses(events.accesses, contexts, symbols, arch, guardCache, out.accesses, firstAccess);

  // Branches: the launch where most warp requests split.
  for (const SeenBranch& b : events.branches) {
    BranchSite site = siteAt<BranchSite>(b, kernel.name, sm);
    site.kind = b.kind;
    modulusLoops(b.condition, symbols, site.modulusLoops);
    site.condition = b.conditionText;
    double worst = -1;
    for (size_t ci = 0; ci < contexts.size(); ++ci) {
      if (repeated[ci]) continue;  // the same figures: not the worst again
      const LaunchContext& c = contexts[ci];
      ConditionFigures f =
          evaluateCondition(b.condition, b.guards, c, symbols, arch, b.kind == BranchKind::Switch, &guardCache);
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
        site.split = f.split;
        site.remappedDivergentRequests = f.remapKnown ? f.remappedDivergentRequests : -1;
      }
    }
    out.branches.push_back(std::move(site));
  }
  // Barriers: divergent under any launch is divergent.
  for (const SeenBarrier& b : events.barriers) {
    BarrierSite site = siteAt<BarrierSite>(b, kernel.name, sm);
    site.call = b.call;
    site.block = contexts.front().block;
    for (size_t ci = 0; ci < contexts.size(); ++ci) {
      if (repeated[ci]) continue;  // the same reach: not a higher rank
      const LaunchContext& c = contexts[ci];
      BarrierReach r = evaluateBarrier(b.guards, c, symbols, arch);
      const auto rank = [](BarrierSite::Reach k) { return k == BarrierSite::Reach::Divergent ? 2 : k == BarrierSite::Reach::Unknown ? 1 : 0; };
      const BarrierSite::Reach reach = r.kind == BarrierReach::Kind::Divergent ? BarrierSite::Reach::Divergent
                                       : r.kind == BarrierReach::Kind::Unknown ? BarrierSite::Reach::Unknown
                                                                               : BarrierSite::Reach::Uniform;
      // Split only by threads that skip it and then exit (barrier_skippers.cpp): no hang on
      // compute capability 7.0 and later.
      const bool skippersExit =
          reach == BarrierSite::Reach::Divergent &&
          std::find(b.guards.guardSkippersExit.begin(), b.guards.guardSkippersExit.end(), true) !=
              b.guards.guardSkippersExit.end() &&
          evaluateBarrier(b.guards, c, symbols, arch, /*skippersExit=*/true).kind != BarrierReach::Kind::Divergent;
      if (rank(reach) > rank(site.reach) || (reach == site.reach && site.skippersExit && !skippersExit)) {
        site.reach = reach;
        site.condition = r.guard;
        site.block = c.block;
        site.assumptions = r.assumptions;
        site.reachByWarp = r.reachByWarp;
        site.reachIteration = r.iteration;
        site.skippersExit = skippersExit;
      }
    }
    out.barriers.push_back(std::move(site));
  }
  // Pointer parameters: restrict-qualified or not, read and written.
  for (const ParmVarDecl* p : fn->parameters()) {
    if (!p->getType()->isPointerType()) continue;
    PointerParam pp;
    pp.kernel = kernel.name;
    pp.loc = plainLocation(sm, p->getLocation());
    pp.name = p->getNameAsString();
    pp.isRestrict = p->getType().isRestrictQualified();
    for (const SeenAccess& s : events.accesses) {
      if (s.raw.rootName != pp.name || s.raw.space != model::Space::Global) continue;
      if (s.raw.kind == model::AccessKind::Load || s.raw.kind == model::AccessKind::Atomic) pp.read = true;
      if (s.raw.kind == model::AccessKind::Store || s.raw.kind == model::AccessKind::Atomic) pp.written = true;
    }
    out.pointerParams.push_back(std::move(pp));
  }
}

}  // namespace coalesce::analysis
