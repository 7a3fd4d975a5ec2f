// Runs one Clang device pass per file (in parallel, output in input order) and hands
// each AST to the kernel analyzer.
#include "coalesce/analysis/analyze.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Sema/SemaConsumer.h>
#include <clang/AST/Attr.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Threading.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

// header reuse (docs/architecture.md)
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Serialization/ASTReader.h>
#include <clang/Serialization/ModuleManager.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/Support/FileSystem.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <set>

#include "coalesce/analysis/builtin_files.h"
#include "coalesce/analysis/command_line.h"
#include "coalesce/analysis/cuda_toolchain.h"
#include "adjusting_factory.h"
#include "build_hints.h"
#include "sibling_text.h"
#include "command_line_text.h"
#include "error_collector.h"
#include "header_deferred_diags.h"
#include "header_cache.h"
#include "kernel_analyzer.h"
#include "preamble_cache.h"
#include "result_cache.h"
#include "host_summary.h"
#include "sibling_files.h"
#include "worker_process.h"

namespace coalesce::analysis {

namespace {

// What a file is parsed over (header reuse, docs/architecture.md; preambles, preamble_cache.h).
enum class Reuse { None, HeaderPch, Preamble };

bool inSystemHeader(const clang::Decl* d) {
  const clang::SourceManager& sm = d->getASTContext().getSourceManager();
  return sm.isInSystemHeader(sm.getExpansionLoc(d->getLocation()));
}

class Consumer : public clang::SemaConsumer {
 public:
  // reuse: what the file is parsed over (header reuse, docs/architecture.md).
  Consumer(TranslationUnitOptions& options, const ErrorCollector& diags, TranslationUnitResult& out, Reuse reuse,
           bool& analysed, const clang::CompilerInstance& ci)
      : options_(options), diags_(diags), out_(out), reuse_(reuse), analysed_(analysed), ci_(ci) {}
  void InitializeSema(clang::Sema& sema) override { sema_ = &sema; }
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    overIncludePrefix();
    if (reuse_ == Reuse::HeaderPch && sema_) skipPchEndOfUnitLists(*std::exchange(sema_, nullptr));
    if (reuse_ != Reuse::None) noteInstantiationsOfPchTemplates(group);  // header reuse (docs/architecture.md)
    return true;
  }
  // Declarations the PCH reader hands over: not this file's (header reuse, docs/architecture.md).
  void HandleInterestingDecl(clang::DeclGroupRef) override {}
  // Speed (docs/architecture.md): the bodies the analysis never reads are not parsed (Action turns
  // skipping on).
  bool shouldSkipFunctionBody(clang::Decl* d) override { return isHostOnlySystemHeaderFunction(d); }
  void HandleTranslationUnit(clang::ASTContext& context) override {
    overIncludePrefix();
    if (reuse_ == Reuse::HeaderPch) walkOnlyWhatThisFileAdded(context);  // header reuse (docs/architecture.md)
    if (reuse_ == Reuse::Preamble) walkWhatThePreambleAndFileAdded(context);  // preamble_cache.h
    if (options_.parsed) options_.parsed(context);
    options_.errors = diags_.errors;
    out_ = analyzeTranslationUnit(context, options_);
    analysed_ = true;
  }

 private:
  TranslationUnitOptions& options_;
  const ErrorCollector& diags_;
  TranslationUnitResult& out_;
  Reuse reuse_;
  bool& analysed_;
  clang::Sema* sema_ = nullptr;  // until its PCH reader is wrapped (header_deferred_diags.h)
  const clang::CompilerInstance& ci_;
  bool chainChecked_ = false;

  // An include prefix's PCH (header_pch_build.h) is chained on the CUDA headers': it may hold
  // the user's headers, so the file is walked as over a preamble, and the PCH's roots of
  // deferred diagnostics are read (they may be the user's). Known once the PCH is loaded.
  void overIncludePrefix() {
    if (std::exchange(chainChecked_, true) || reuse_ != Reuse::HeaderPch) return;
    const llvm::IntrusiveRefCntPtr<clang::ASTReader> reader = ci_.getASTReader();
    if (reader && reader->getModuleManager().size() > 1) reuse_ = Reuse::Preamble;
  }

  // ---- header reuse (docs/architecture.md): what a walk of the whole AST would reach of this file.
  // Without a PCH the analysis walks every declaration of the translation unit; over a PCH
  // that would read the whole PCH back. The declarations the PCH holds are the forced
  // includes' (system headers: the analysis reports no kernel of theirs); what this file's
  // parse added is (a) its own top-level declarations, TranslationUnitDecl::noload_decls(),
  // i.e. those not read from the PCH, in the order a full walk meets them, and (b) the
  // function instantiations it made of templates that come from the PCH, which a full walk
  // meets under those templates (Sema hands each to HandleTopLevelDecl); they go first, as
  // the headers come first. Should the PCH's declarations have been loaded into the
  // translation unit anyway, the walk covers everything, as without a PCH.
  std::vector<clang::Decl*> pchInstantiations_;
  std::set<const clang::Decl*> seen_;

  void noteInstantiationsOfPchTemplates(clang::DeclGroupRef group) {
    for (clang::Decl* d : group) {
      auto* fn = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!fn || fn->isFromASTFile()) continue;
      const clang::FunctionDecl* pattern = fn->getTemplateInstantiationPattern();
      if (!pattern || !pattern->isFromASTFile()) continue;
      // Over a preamble, a template of the user's headers is walked itself, its
      // instantiations under it (walkWhatThePreambleAndFileAdded).
      if (reuse_ == Reuse::Preamble && !inSystemHeader(pattern)) continue;
      // Members of lambdas and local classes are walked with the function that holds them.
      if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(fn->getDeclContext()))
        if (record->isLambda() || record->isLocalClass()) continue;
      if (fn->getLexicalDeclContext()->isFunctionOrMethod()) continue;
      if (seen_.insert(fn).second) pchInstantiations_.push_back(fn);
    }
  }

  void walkOnlyWhatThisFileAdded(clang::ASTContext& context) {
    std::vector<clang::Decl*> scope = pchInstantiations_;
    for (clang::Decl* d : context.getTranslationUnitDecl()->noload_decls()) {
      if (d->isFromASTFile()) return;  // the PCH's declarations are in the list: walk everything
      scope.push_back(d);
    }
    context.setTraversalScope(scope);
  }

  // Over a file's preamble (preamble_cache.h) the PCH holds the system headers' declarations,
  // which the walk leaves out as over the headers' PCH, and those of the user's headers the
  // preamble includes, which a walk without a PCH meets (their kernels, launches and device
  // functions): these are walked, in their order, then what the file added. Loading the
  // translation unit's top-level declarations reads only those (a namespace's members stay
  // in the PCH until walked).
  void walkWhatThePreambleAndFileAdded(clang::ASTContext& context) {
    std::vector<clang::Decl*> scope = pchInstantiations_;
    for (clang::Decl* d : context.getTranslationUnitDecl()->decls())
      if (!d->isFromASTFile() || !inSystemHeader(d)) scope.push_back(d);
    context.setTraversalScope(scope);
  }
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(TranslationUnitOptions& options, const ErrorCollector& diags, TranslationUnitResult& out, Reuse reuse,
         bool skipHostBodies, bool& analysed)
      : options_(options), diags_(diags), out_(out), reuse_(reuse), skipHostBodies_(skipHostBodies),
        analysed_(analysed) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    return std::make_unique<Consumer>(options_, diags_, out_, reuse_, analysed_, ci);
  }
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    // Lets Sema ask Consumer::shouldSkipFunctionBody (ParseAST reads the option).
    ci.getFrontendOpts().SkipFunctionBodies = skipHostBodies_;
    // No "N errors generated" line on stderr (in process it would be the run's own): the
    // errors are reported through ErrorCollector, one line per file.
    ci.getDiagnosticOpts().ShowCarets = false;
    // A missing header is an error, not a fatal one (as clangd does): after a fatal error
    // Clang reports nothing more but goes on parsing, and silently drops the statements
    // it cannot make sense of, so a kernel using what the header declares would come out
    // clean with its accesses missing. As an error, the errors it causes are reported,
    // and fail the kernels they fall in (kernel_analyzer.cpp); the others are analysed.
    ci.getDiagnostics().setSeverity(clang::diag::err_pp_file_not_found, clang::diag::Severity::Error, {});
    return true;
  }

 private:
  TranslationUnitOptions& options_;
  const ErrorCollector& diags_;
  TranslationUnitResult& out_;
  const Reuse reuse_;
  const bool skipHostBodies_;
  bool& analysed_;
};


// `preambles`: parse the file over its kept preamble (preamble_cache.h); when it has none
// that can be used, nothing is parsed and `declined` is set.
// `siblings`: where sibling summaries are shared (sibling_summaries.h: the run's, those kept
// between runs; either may be null).
// `chainBase`: over an include prefix's PCH (header_cache.h), the set's PCH it is chained on.
WorkerOutcome runJob(const CompileJob& job, const Toolchain& toolchain, const AnalysisRequest& request,
                     const model::Arch& arch, const SiblingSources& siblings, const std::string& chainBase = "",
                     PreambleCache* preambles = nullptr, bool* declined = nullptr) {
  WorkerOutcome outcome;
  outcome.file.path = job.file;
  TranslationUnitOptions options;
  options.arch = arch;
  options.blockDim = request.blockDim;
  options.assumedValues = request.assumedValues;
  options.maxInstantiations = request.maxInstantiations;
  options.recordedLaunches = &request.recordedLaunches;
  ErrorCollector diags;
  bool ran = false;
  const bool withPch = usesHeaderPch(job);  // header reuse (docs/architecture.md)
  bool analysed = false;
  std::optional<PreambleUse> preamble;
  std::vector<std::string> siblingInputs;  // what the siblings' parses read, when shared (sibling_summaries.h)
  // The PCH this file is parsed over, left out of what its parse read (its inputs are listed apart).
  const auto ownPch = [&]() -> std::string {
    return preamble ? preamble->path : withPch ? job.arguments[job.arguments.size() - 2] : "";
  };
  // The file's command line as its siblings and its own summary see it: over an include
  // prefix's PCH, the set's PCH under it (the prefix is this file's, not its siblings').
  const std::vector<std::string> ownArguments = HeaderCache::overChainBase(job, chainBase);
  auto work = [&] {
    OverlayOptions overlay;
    overlay.workingDirectory = job.directory;
    overlay.replacedFiles = &request.replacedFiles;  // a fix-it's edit (docs/fixes.md)
    auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions{job.directory},
                                                                makeOverlayFileSystem(toolchain, overlay));
    // The program's other files, read once, when the analysis first asks (sibling_files.h).
    std::optional<ProgramFacts> facts;
    if (request.readSiblingFiles)
      options.programFacts = [&](clang::ASTContext& ctx) -> const ProgramFacts* {
        if (!facts) {
          // What a sibling's parse read, as this file's parse would list it (the PCH it is parsed over left out).
          SiblingSources sources = siblings;
          sources.filesRead = [&](const clang::FileManager& fm) {
            return filesReadBy(fm, job.directory, chainBase.empty() ? ownPch() : chainBase);
          };
          sources.keptRead = &outcome.siblingsKept;
          facts = programFactsFor(ctx, ownArguments, job.directory, files.get(), sources, &siblingInputs,
                                  request.skipSystemHostBodies, &outcome.siblings);
        }
        return &*facts;
      };
    // This file is a sibling of the run's other files, and of the next runs' files of its
    // folder (when other sources lie beside it): its summary, from this parse, spares them a
    // parse of their own (the same command line: the key they look it up under).
    if (request.readSiblingFiles && (siblings.run || siblings.kept))
      options.parsed = [&](clang::ASTContext& ctx) {
        const bool forRun = siblings.run && siblings.run->claim(SiblingSummaries::keyOf(ownArguments, job.directory));
        const std::string self = cmdline::absoluteIn(job.directory, job.arguments.back());
        const bool forKept = siblings.kept && !SiblingTexts().siblingsOf(self).empty();
        if (!forRun && !forKept) return;
        SiblingSummary own;
        own.summary = summarizeHostCode(ctx);
        own.inputs = filesReadBy(*files, job.directory, ownPch());
        if (preamble) own.inputs.insert(own.inputs.end(), preamble->inputs.begin(), preamble->inputs.end());
        if (forRun) siblings.run->store(SiblingSummaries::keyOf(ownArguments, job.directory), own);
        if (forKept) siblings.kept->store(ownArguments, job.directory, own);
      };
    if (preambles) {
      AdjustingFactory factory(
          [&] {
            return std::make_unique<Action>(options, diags, outcome.tu, Reuse::Preamble, request.skipSystemHostBodies,
                                            analysed);
          },
          [&](clang::CompilerInvocation& invocation) {
            preamble = preambles->apply(invocation, *files, job);
            return preamble.has_value();
          });
      clang::tooling::ToolInvocation invocation(job.arguments, &factory, files.get(),
                                                std::make_shared<clang::PCHContainerOperations>());
      invocation.setDiagnosticConsumer(&diags);
      invocation.run();
      ran = true;
      if (preamble) outcome.inputs = filesReadBy(*files, job.directory, preamble->path);
      outcome.inputs.insert(outcome.inputs.end(), siblingInputs.begin(), siblingInputs.end());
      return;
    }
    clang::tooling::ToolInvocation invocation(
        job.arguments,
        std::make_unique<Action>(options, diags, outcome.tu, withPch ? Reuse::HeaderPch : Reuse::None,
                                 request.skipSystemHostBodies, analysed),
        files.get());
    invocation.setDiagnosticConsumer(&diags);
    invocation.run();
    ran = true;
    outcome.inputs = filesReadBy(*files, job.directory, withPch ? job.arguments[job.arguments.size() - 2] : "");
    if (!chainBase.empty()) std::erase(outcome.inputs, chainBase);  // its inputs are listed apart
    outcome.inputs.insert(outcome.inputs.end(), siblingInputs.begin(), siblingInputs.end());
  };
  // A crash inside Clang costs this file, not the run.
  llvm::CrashRecoveryContext crc;
  const bool safe = crc.RunSafely(work);
  if (preambles) {
    // No preamble to parse over, or one the parse could not use (a damaged PCH under a valid
    // record of its inputs: removed, so that the next run builds it again): the caller
    // parses the file as without preambles.
    if (preamble && (!safe || !ran || !analysed)) preambles->forget(*preamble);
    if (!preamble || !safe || !ran || !analysed) {
      if (declined) *declined = true;
      return outcome;
    }
    outcome.inputs.insert(outcome.inputs.end(), preamble->inputs.begin(), preamble->inputs.end());
    // A preamble shared with another file opens that file (its locations' file): not an input.
    namespace fs = std::filesystem;
    const fs::path self = fs::path(cmdline::absoluteIn(job.directory, job.arguments.back())).lexically_normal();
    if (!preamble->builtFrom.empty() && fs::path(preamble->builtFrom).lexically_normal() != self)
      std::erase(outcome.inputs, preamble->builtFrom);
  }
  // header reuse (docs/architecture.md): a PCH that could not be used, or a crash over it: without it.
  if (withPch && (!safe || !ran || !analysed)) {
    WorkerOutcome without = runJob(withoutHeaderPch(job), toolchain, request, arch, siblings);
    without.pchUnusable = true;  // a kept PCH that fails is not to be used again (HeaderCache::forget)
    return without;
  }
  if (!safe || !ran) {
    outcome.file.status = Status::Failed;
    // The parse and the analysis run in one recovery context: a crash in either lands here (a
    // grid read from an expression the parse never built crashed the analysis, not Clang:
    // docs/findings.md, session 41), so the message blames neither.
    outcome.file.error = "the parse or the analysis crashed on this file (a bug in coalesce-lint or Clang: "
                         "please report it with the file)";
    return outcome;
  }
  outcome.cacheable = true;  // the analysis's own verdict, crash-free: the cache may keep it
  outcome.file.diagnostics = diags.messages;
  const int errors = static_cast<int>(diags.errors.size());
  const bool anyKernelAnalysed = std::any_of(outcome.tu.kernels.begin(), outcome.tu.kernels.end(),
                                             [](const KernelRecord& k) { return k.status == Status::Analysed; });
  if (errors > 0 && !anyKernelAnalysed) {
    outcome.file.status = Status::Failed;
    outcome.file.error = diags.messages.empty() ? "Clang reported errors" : diags.messages.front();
    if (errors > 1) outcome.file.error += " (and " + std::to_string(errors - 1) + " more errors)";
    outcome.file.error += undeclaredNamesHint(undeclaredNames(diags.errors), outcome.inputs,
                                              headerSearchDirs(job.arguments, job.directory));
  } else {
    outcome.file.hostErrors = errors;
  }
  return outcome;
}

// A file's parse over its kept preamble when there is one to use (preamble_cache.h), else
// over the flag set's PCH (HeaderCache), else alone; the files it read include those of the
// PCH it was parsed over.
WorkerOutcome runWithReuse(const CompileJob& job, HeaderCache& headers, PreambleCache* preambles,
                           const Toolchain& toolchain, const AnalysisRequest& request, const model::Arch& arch,
                           const SiblingSources& siblings) {
  if (preambles) {
    bool declined = false;
    WorkerOutcome outcome = runJob(job, toolchain, request, arch, siblings, "", preambles, &declined);
    if (!declined) return outcome;
  }
  const CompileJob prepared = headers.prepare(job);
  WorkerOutcome outcome = runJob(prepared, toolchain, request, arch, siblings, headers.chainBaseOf(prepared));
  if (outcome.pchUnusable) headers.forget(prepared);
  const std::vector<std::string> pch = headers.inputsOf(prepared);
  outcome.inputs.insert(outcome.inputs.end(), pch.begin(), pch.end());
  return outcome;
}

// The test triggers of worker.h must fire whatever the cache holds.
bool testTriggersSet() {
  for (const char* var : {"COALESCE_TEST_CRASH_ON", "COALESCE_TEST_HANG_ON"})
    if (const char* v = std::getenv(var); v && *v) return true;
  return false;
}

}  // namespace

AnalysisResult analyze(const AnalysisRequest& request, AnalysisStats* statsOut) {
  AnalysisResult result;
  AnalysisStats stats;
  const auto arch = model::parseArch(request.gpuArch);
  const model::Arch archParams = arch ? *arch : model::defaultArch();
  const Toolchain toolchain = detectToolchain(request);
  std::vector<FileRecord> failures;
  std::vector<CompileJob> jobs = collectJobs(request, toolchain, failures);
  if (request.onlyFilesReaching)  // diff-aware runs (docs/ci.md)
    jobs = jobsReaching(std::move(jobs), *request.onlyFilesReaching, stats.notReachingDiff, failures);
  stats.jobs = jobs.size();

  std::vector<WorkerOutcome> outcomes(jobs.size());
  size_t done = 0;
  auto finished = [&](size_t i) {
    ++done;
    if (request.progress) request.progress(jobs[i].file, done, jobs.size());
  };

  // Result cache (result_cache.h): the jobs whose records it holds are not parsed.
  std::optional<ResultCache> cache;
  if (!request.cacheDir.empty() && !testTriggersSet()) {
    cache.emplace(request.cacheDir, request.cacheMaxBytes);
    if (!cache->usable()) {
      stats.cacheProblem = cache->problem();
      cache.reset();
    }
  }
  std::vector<std::string> keys(jobs.size());
  std::vector<size_t> toParse;
  std::vector<bool> replaced(jobs.size(), false);
  for (size_t i = 0; i < jobs.size(); ++i) {
    // A file read from an in-memory copy (a fix-it's re-analysis) is not the file on disk.
    replaced[i] = request.replacedFiles.count(
        std::filesystem::path(cmdline::absoluteIn(jobs[i].directory, jobs[i].arguments.back())).lexically_normal().string()) > 0;
    if (cache && !replaced[i]) {
      keys[i] = cache->keyOf(jobs[i], request);
      if (!keys[i].empty())
        if (std::optional<WorkerOutcome> hit = cache->lookup(keys[i])) {
          outcomes[i] = std::move(*hit);
          ++stats.cacheHits;
          finished(i);
          continue;
        }
    }
    toParse.push_back(i);
  }

  llvm::CrashRecoveryContext::Enable();
  std::vector<const CompileJob*> parsed;
  for (size_t i : toParse) parsed.push_back(&jobs[i]);
  std::mutex keptMutex;  // the result cache, for the PCHs' users (it is not thread-safe)
  HeaderCache headers(parsed, toolchain, request, cache ? &*cache : nullptr, keptMutex);  // header reuse (docs/architecture.md)
  // Preambles kept between runs (preamble_cache.h): with the result cache and header reuse on.
  // Each file's pass then decides itself what it is parsed over (runWithReuse), in the
  // worker: a preamble is built where it is used.
  std::optional<PreambleCache> preambles;
  if (cache && request.reuseHeaders && request.keepPreambles)
    preambles.emplace(*cache, keptMutex, request.skipSystemHostBodies, toParse.size() <= request.preambleBuildLimit,
                      request.preambleOnFirstRun);
  auto preamblesFor = [&](size_t i) { return replaced[i] ? nullptr : &*preambles; };
  // Sibling files (sibling_files.h) parsed once per run, not once per file that asks: their
  // summaries shared by the run's workers through a folder of the run's own
  // (sibling_summaries.h). A file read from an in-memory copy parses its siblings itself.
  std::optional<SiblingSummaries> siblings;
  llvm::SmallString<128> siblingFolder;
  if (request.readSiblingFiles && toParse.size() > 1 &&
      !llvm::sys::fs::createUniqueDirectory("coalesce-lint-siblings", siblingFolder))
    siblings.emplace(std::string(siblingFolder));
  // And kept between runs in the result cache's folder (docs/cache.md, "Sibling files").
  std::optional<KeptSiblingSummaries> keptSiblings;
  if (cache && request.readSiblingFiles) keptSiblings = cache->keptSiblings(keptMutex, request.skipSystemHostBodies);
  auto siblingsOf = [&](size_t i) {
    SiblingSources share;
    if (replaced[i]) return share;
    share.run = siblings ? &*siblings : nullptr;
    share.kept = keptSiblings ? &*keptSiblings : nullptr;
    return share;
  };
  std::vector<CompileJob> prepared(jobs.size());
  const unsigned parallel = llvm::hardware_concurrency(request.jobs).compute_thread_count();
  if (request.isolateFiles && singleThreaded()) {
    // Process isolation (worker.h): `parallel` forked workers, a file at a time each.
    IsolatedRun run;
    run.count = toParse.size();
    run.parallel = parallel;
    run.timeoutSeconds = request.fileTimeoutSeconds;
    if (preambles) {
      run.run = [&](size_t k) {
        return runWithReuse(jobs[toParse[k]], headers, preamblesFor(toParse[k]), toolchain, request, archParams,
                            siblingsOf(toParse[k]));
      };
    } else {
      run.beforeFork = [&](size_t k) { prepared[toParse[k]] = headers.prepare(jobs[toParse[k]]); };  // -include-pch
      run.run = [&](size_t k) {
        return runJob(prepared[toParse[k]], toolchain, request, archParams, siblingsOf(toParse[k]),
                      headers.chainBaseOf(prepared[toParse[k]]));
      };
    }
    run.fileOf = [&](size_t k) { return jobs[toParse[k]].file; };
    run.inChild = [&] { headers.disownInChild(); };
    run.finished = [&](size_t k) { finished(toParse[k]); };
    std::vector<WorkerOutcome> fresh = runIsolated(run);
    for (size_t k = 0; k < toParse.size(); ++k) outcomes[toParse[k]] = std::move(fresh[k]);
  } else {
    std::mutex progressMutex;
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(parallel));
    for (size_t i : toParse)
      pool.async([&, i] {
        if (preambles) {
          outcomes[i] = runWithReuse(jobs[i], headers, preamblesFor(i), toolchain, request, archParams, siblingsOf(i));
        } else {
          prepared[i] = headers.prepare(jobs[i]);  // header reuse (docs/architecture.md): -include-pch
          outcomes[i] = runJob(prepared[i], toolchain, request, archParams, siblingsOf(i), headers.chainBaseOf(prepared[i]));
        }
        std::lock_guard<std::mutex> lock(progressMutex);
        finished(i);
      });
    pool.wait();
  }

  for (size_t i : toParse) stats.siblingsFromCache += outcomes[i].siblingsKept;
  if (siblings) {
    stats.siblingParses = siblings->claimed();
    std::error_code ec;
    std::filesystem::remove_all(std::string(siblingFolder), ec);
  }
  // A file parsed over the PCH depends on what the PCH was built from too (runWithReuse has
  // added them when it ran the file: prepared[i] is then an empty job).
  for (size_t i : toParse) {
    if (outcomes[i].pchUnusable) headers.forget(prepared[i]);
    std::vector<std::string>& inputs = outcomes[i].inputs;
    const std::vector<std::string> pch = headers.inputsOf(prepared[i]);
    inputs.insert(inputs.end(), pch.begin(), pch.end());
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  }
  if (cache) {
    for (size_t i : toParse)
      if (outcomes[i].cacheable && !keys[i].empty() && cache->store(keys[i], outcomes[i], outcomes[i].inputs))
        ++stats.cacheStored;
    if (stats.cacheStored) cache->trim();
  }
  if (request.reportFilesRead)
    for (size_t i = 0; i < jobs.size(); ++i) stats.filesRead[jobs[i].file] = outcomes[i].inputs;

  // Deterministic order whatever the number of threads: by job order. The lists sized
  // first: grown by push_back they would hold up to twice the records, and both buffers
  // while moving them (docs/analysis-speed.md, "Memory").
  size_t accessCount = 0, branchCount = 0, barrierCount = 0;
  for (const auto& o : outcomes) {
    accessCount += o.tu.accesses.size();
    branchCount += o.tu.branches.size();
    barrierCount += o.tu.barriers.size();
  }
  result.accesses.reserve(accessCount);
  result.branches.reserve(branchCount);
  result.barriers.reserve(barrierCount);
  for (auto& o : outcomes) {
    result.files.push_back(std::move(o.file));
    for (auto& k : o.tu.kernels) result.kernels.push_back(std::move(k));
    appendAccesses(result.accesses, o.tu.accesses);  // group ids made the run's
    for (auto& b : o.tu.branches) result.branches.push_back(std::move(b));
    for (auto& b : o.tu.barriers) result.barriers.push_back(std::move(b));
    for (auto& p : o.tu.pointerParams) result.pointerParams.push_back(std::move(p));
    o.tu = TranslationUnitResult();  // the moved-from records' own buffers, not kept beside the run's
  }
  for (auto& f : failures) result.files.push_back(std::move(f));
  std::stable_sort(result.files.begin(), result.files.end(),
                   [](const FileRecord& a, const FileRecord& b) { return a.path < b.path; });
  for (size_t i = 0; i < result.accesses.size(); ++i) result.accesses[i].id = static_cast<int>(i);
  for (size_t i = 0; i < result.branches.size(); ++i) result.branches[i].id = static_cast<int>(i);
  for (size_t i = 0; i < result.barriers.size(); ++i) result.barriers[i].id = static_cast<int>(i);
  if (statsOut) *statsOut = stats;
  return result;
}

}  // namespace coalesce::analysis
