// The analysis of one translation unit (device pass): collects the kernels and their
// launches (launch_collector.cpp), runs the abstract interpreter over each kernel's body
// (interpreter.h), works out the contexts its accesses run under (block_shape.cpp), and
// turns what the interpreter saw into records (record_builder.cpp).
#include "kernel_analyzer.h"

#include <clang/AST/GlobalDecl.h>
#include <clang/AST/Mangle.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "analysis_policy.h"
#include "arithmetic_estimate.h"
#include "block_shape.h"
#include "fix_edits.h"
#include "interpreter.h"
#include "kernel_resources.h"
#include "launch_collector.h"
#include "record_builder.h"
#include "shape_trials.h"

namespace coalesce::analysis {

namespace {

// The kernel's name as the driver reports it (Itanium mangling; extern "C" kernels keep their
// own): what launches recorded by `verify` are keyed on. Empty when none is asked for.
std::string mangledKernelName(const clang::FunctionDecl* fn, clang::ASTContext& ctx) {
  std::unique_ptr<clang::MangleContext> mangler(ctx.createMangleContext());
  if (!mangler->shouldMangleDeclName(fn)) return fn->getNameAsString();
  std::string name;
  llvm::raw_string_ostream os(name);
  mangler->mangleName(clang::GlobalDecl(fn), os);
  return os.str();
}

// When the kernel's launches use more than one block shape, the kernel's `block` (the
// first) says so and names them all: each access is judged under every one of them
// (record_builder.cpp keeps the worst, and says which).
std::string severalShapes(const std::vector<LaunchContext>& contexts) {
  std::vector<model::Dim3> shapes;
  for (const LaunchContext& c : contexts)
    if (std::find(shapes.begin(), shapes.end(), c.block.dim) == shapes.end()) shapes.push_back(c.block.dim);
  if (shapes.size() < 2) return {};
  std::string names;
  for (const model::Dim3& d : shapes)
    names += (names.empty() ? "" : ", ") + std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
  return "; its launches use " + std::to_string(shapes.size()) + " block shapes (" + names +
         "), each access is judged under the one where it fares worst";
}

// What one run of the program launches of the kernel (KernelRecord::launchesPerRun), and the
// sentence that says what the count rests on.
void setLaunchesPerRun(const LaunchCollector::Runs& r, KernelRecord& kernel) {
  kernel.launchesPerRun = r.runs * (r.unknownLoops ? static_cast<double>(kAssumedLoopTrips) : 1.0);
  // The program's other files' loops count as this file's do (ProgramFacts::callsPerRunAssumed:
  // an unknown one sets unknownLoops).
  kernel.launchesShown = r.fromMain && !r.unknownLoops && r.optionDefaults.empty() && r.sites > 0;
  kernel.launchedFromMain = r.fromMain && !r.throughOtherFiles && r.sites > 0;
  const auto joined = [](const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& i : items) text += (text.empty() ? "" : ", ") + i;
    return text;
  };
  const std::string loops = joined(r.loops);
  kernel.launchesBasis =
      std::to_string(r.sites) + (r.sites == 1 ? " launch site" : " launch sites") +
      (loops.empty() && r.programLoops.empty() && r.perObject.empty()
           ? std::string(", outside host loops")
           : loops.empty() ? std::string()
                           : ", in the host " + std::string(r.loops.size() == 1 ? "loop at " : "loops at ") + loops) +
      (r.sampled.empty() ? std::string() : ", in " + joined(r.sampled)) +
      (r.programLoops.empty() ? std::string()
                              : ", called in host loops of the program's other files (around " +
                                    joined(r.programLoops) + ")") +
      (r.perObject.empty() ? std::string() : ", called through " + r.perObject) +
      (r.optionDefaults.empty() ? std::string()
                                : " with " + joined(r.optionDefaults) +
                                      (r.optionDefaults.size() == 1 ? ", the default of a run-time option"
                                                                    : ", the defaults of run-time options")) +
      (r.unknownLoops ? " (trip counts the code does not show taken as " + std::to_string(kAssumedLoopTrips) +
                            " iterations together)"
                      : std::string());
}

// A kernel whose launch sites in the unit all sit in code the host's values make dead: it
// runs 0 times per run, and the sentence (non-empty, unlike a kernel the unit launches
// nowhere) says why; its findings' share of the program is 0 (lib/report/src/cost.cpp).
// `dead`: sites whose every call makes a condition around the launch false; `uncalled`: sites
// in functions nothing in the program calls (LaunchCollector::uncalledSites), "a.cu:31, through `f`".
void setNeverLaunched(const std::vector<std::string>& dead, const std::vector<std::string>& uncalled,
                      KernelRecord& kernel) {
  kernel.launchesPerRun = 0;
  std::string where;
  for (const auto* sites : {&dead, &uncalled})
    for (const std::string& s : *sites) where += (where.empty() ? "" : ", ") + s;
  const size_t n = dead.size() + uncalled.size();
  std::string why;
  if (!dead.empty())
    why = "every call of " + std::string(n == 1 ? "the function holding it" : "the functions holding them") +
          " passes values that make a condition around the launch false";
  if (!uncalled.empty())
    why = (dead.empty() ? std::string() : why + ", or ") +
          "nothing in the program's files calls the function every path to " + (n == 1 ? "it" : "them") +
          " starts in, and they show its `main` (a caller in a folder not read would run it)";
  kernel.launchesBasis = std::to_string(n) + (n == 1 ? " launch site" : " launch sites") + " (" + where +
                         "), none of which runs: " + why;
}

// A kernel's entry of LaunchCollector::deadSites or uncalledSites (empty when it has none).
const std::vector<std::string>& sitesOf(const std::map<const clang::FunctionDecl*, std::vector<std::string>>& sites,
                                        const clang::FunctionDecl* kernel) {
  static const std::vector<std::string> none;
  const auto it = sites.find(kernel->getCanonicalDecl());
  return it == sites.end() ? none : it->second;
}

// The kernels of a run-time choice by the names their records carry (launch_alternatives.cpp).
RunTimeChoice runTimeChoice(const LaunchCollector::Alternatives& a, const clang::ASTContext& ctx) {
  RunTimeChoice c{a.selector, a.where, a.arms, a.arm, {}, a.evidence};
  for (const LaunchCollector::Alternatives::Arm& arm : a.others) {
    ChoiceArm out{arm.arm, arm.call, {}};
    for (const clang::FunctionDecl* k : arm.kernels) out.kernels.push_back(kernelRecord(k, ctx).name);
    c.others.push_back(std::move(out));
  }
  return c;
}

// The kernel's arithmetic floor (arithmetic_estimate.h), and the warps of one launch under the
// grid its accesses' costs count: the fewest over its launches, so that the floor stays one.
void setArithmetic(const ArithmeticEstimate& estimate, const std::vector<LaunchContext>& contexts,
                   const model::Arch& arch, KernelRecord& kernel) {
  kernel.arithmeticCyclesPerWarp = estimate.operations.cyclesPerWarp;
  kernel.arithmeticBasis = estimate.operations.cyclesPerWarp > 0 ? estimate.basis() : std::string();
  double fewest = -1;
  for (const LaunchContext& c : contexts) {
    const double threads = static_cast<double>(c.block.dim.volume());
    const double warps = std::ceil(threads / arch.warpSize) * static_cast<double>(costGridOf(c).volume());
    if (fewest < 0 || warps < fewest) fewest = warps;
  }
  kernel.warpsPerLaunch = std::max(0.0, fewest);
}

// The kernels analysed, each with the number of instantiations its template has in the file
// when that is more than `most` (0 otherwise) and, on the first one analysed of such a
// template, how many of them are left out. Past `most` instantiations of one kernel template,
// `most` of them are analysed, spread evenly over the order the file makes them in (the first
// always): a dispatch over template parameters instantiates them in nested order, so the first
// ones differ in the innermost parameter only, and an even spread reaches the outer
// parameters' code too. An instantiation a recorded run launched (--launch-info, verify's
// predictions) is analysed as well, so that every kernel that ran is predicted. Explicit
// specializations have bodies of their own and are always analysed, as are kernels that are
// no instantiation.
struct Sampled {
  const clang::FunctionDecl* fn;
  int64_t instantiations = 0, leftOut = 0;
};
std::vector<Sampled> sampledInstantiations(const std::vector<const clang::FunctionDecl*>& kernels, size_t most,
                                           const std::vector<RecordedLaunch>* recorded, clang::ASTContext& ctx) {
  std::map<const clang::FunctionTemplateDecl*, std::vector<size_t>> byTemplate;
  const auto templateOf = [](const clang::FunctionDecl* fn) -> const clang::FunctionTemplateDecl* {
    const clang::FunctionTemplateDecl* t = fn->getPrimaryTemplate();
    if (!t || fn->getTemplateSpecializationKind() == clang::TSK_ExplicitSpecialization) return nullptr;
    return t->getCanonicalDecl();
  };
  for (size_t i = 0; i < kernels.size(); ++i)
    if (const auto* t = templateOf(kernels[i])) byTemplate[t].push_back(i);
  std::set<std::string> ran;
  if (recorded)
    for (const RecordedLaunch& r : *recorded) ran.insert(r.kernel);
  std::vector<Sampled> all;
  for (const clang::FunctionDecl* fn : kernels) all.push_back({fn});
  std::vector<bool> kept(kernels.size(), true);
  for (const auto& [t, members] : byTemplate) {
    if (most == 0 || members.size() <= most) continue;
    const size_t m = members.size();
    for (size_t i : members) kept[i] = !ran.empty() && ran.count(mangledKernelName(kernels[i], ctx));
    for (size_t k = 0; k < most; ++k) kept[members[k * m / most]] = true;
    int64_t analysed = 0;
    for (size_t i : members) {
      all[i].instantiations = static_cast<int64_t>(m);
      analysed += kept[i] ? 1 : 0;
    }
    all[members.front()].leftOut = static_cast<int64_t>(m) - analysed;  // members.front() is kept
  }
  std::vector<Sampled> out;
  for (size_t i = 0; i < kernels.size(); ++i)
    if (kept[i]) out.push_back(all[i]);
  return out;
}

}  // namespace

TranslationUnitResult analyzeTranslationUnit(clang::ASTContext& ctx, const TranslationUnitOptions& options) {
  TranslationUnitResult result;
  const clang::SourceManager& sm = ctx.getSourceManager();
  LaunchCollector collector(ctx);
  if (options.programFacts) collector.useProgramFacts([&] { return options.programFacts(ctx); });
  collector.TraverseDecl(ctx.getTranslationUnitDecl());
  collector.resolveLaunches();
  collector.launchesFromOtherFiles();
  collector.perObjectCounts();
  collector.findAlternatives();

  const std::optional<LaunchCollector::RepeatedWork> repeatedWork = collector.repeatedLibraryWork();
  for (const Sampled& sampled : sampledInstantiations(collector.kernels, options.maxInstantiations,
                                                     options.recordedLaunches, ctx)) {
    const clang::FunctionDecl* fn = sampled.fn;
    KernelRecord kernel = kernelRecord(fn, ctx);
    kernel.templateInstantiations = sampled.instantiations;
    kernel.instantiationsLeftOut = sampled.leftOut;
    if (auto main = sm.getFileEntryRefForID(sm.getMainFileID())) kernel.unit = std::string(main->getName());
    if (repeatedWork) {
      kernel.repeatedWork = repeatedWork->sentence;
      kernel.repeatedWorkRuns = repeatedWork->runs;
    }
    if (auto r = collector.runs.find(fn->getCanonicalDecl()); r != collector.runs.end() && r->second.runs > 0)
      setLaunchesPerRun(r->second, kernel);
    else if (const auto& dead = sitesOf(collector.deadSites, fn), &uncalled = sitesOf(collector.uncalledSites, fn);
             !dead.empty() || !uncalled.empty())
      setNeverLaunched(dead, uncalled, kernel);
    if (auto a = collector.alternatives.find(fn->getCanonicalDecl()); a != collector.alternatives.end())
      kernel.choice = runTimeChoice(a->second, ctx);
    if (auto failure = kernelFailure(fn, options, sm)) {
      kernel.status = Status::Failed;
      kernel.reason = *failure;
      result.kernels.push_back(std::move(kernel));
      continue;
    }

    SymbolTable symbols;
    Interpreter interpreter(ctx, symbols, options.arch);
    const std::map<unsigned, int> paramSymbols = interpreter.bindKernelParams(fn);
    for (const auto& [name, value] : options.assumedValues)
      for (size_t id = 0; id < symbols.size(); ++id)
        if (symbols[static_cast<int>(id)].name == name && symbols[static_cast<int>(id)].kind == SymbolInfo::Kind::Param)
          symbols[static_cast<int>(id)].value = value;
    interpreter.run(fn);

    const auto launches = collector.launches.find(fn->getCanonicalDecl());
    std::vector<LaunchContext> contexts =
        kernelContexts(fn, options.recordedLaunches && !options.recordedLaunches->empty() ? mangledKernelName(fn, ctx) : std::string(),
                       launches == collector.launches.end() ? nullptr : &launches->second, paramSymbols, options,
                       ctx, interpreter.events().threadDimsUsed);
    const size_t firstAccess = result.accesses.size(), firstParam = result.pointerParams.size();
    const size_t firstBranch = result.branches.size(), firstBarrier = result.barriers.size();
    buildKernelRecords(fn, interpreter.events(), contexts, symbols, options.arch, sm, kernel, result);
    // A guessed shape: do the figures rest on it? (shape_trials.h; only guessed kernels pay.)
    if (contexts.front().block.source == BlockSource::Assumed) {
      const ShapeTrial trial = tryOtherShapes(interpreter.events(), contexts, symbols, options.arch, result,
                                              firstAccess, firstBranch, firstBarrier);
      recordShapeTrial(trial, contexts, result, firstAccess, firstBranch, firstBarrier);
    }
    kernel.block = contexts.front().block;
    kernel.block.detail += severalShapes(contexts);
    kernel.occupancy = kernelOccupancy(kernelResources(fn, ctx), contexts, options.arch);
    setArithmetic(estimateArithmetic(fn, ctx, options.arch), contexts, options.arch, kernel);
    attachFixEdits(fn, interpreter.events(), ctx, options.arch, result, firstAccess, firstParam);  // docs/fixes.md
    result.kernels.push_back(std::move(kernel));
  }
  return result;
}

}  // namespace coalesce::analysis
