// Runs one Clang device pass per file (in parallel, output in input order) and hands
// each AST to the kernel analyzer.
#include "coalesce/analysis/analyze.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/Diagnostic.h>
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
#include <mutex>

#include "coalesce/analysis/builtin_files.h"
#include "coalesce/analysis/command_line.h"
#include "coalesce/analysis/cuda_toolchain.h"
#include "kernel_analyzer.h"

namespace coalesce::analysis {

namespace {

// Collects Clang's errors as plain records: the file's status and the kernels whose
// bodies they fall in are decided from them.
class ErrorCollector : public clang::DiagnosticConsumer {
 public:
  std::vector<TranslationUnitOptions::ErrorSpot> errors;
  std::vector<std::string> messages;  // "file:line:col: error: text", first few

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    TranslationUnitOptions::ErrorSpot spot;
    spot.message = text.str().str();
    std::string where;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const clang::SourceManager& sm = info.getSourceManager();
      clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) {
        spot.file = p.getFilename();
        spot.line = p.getLine();
        where = spot.file + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) + ": ";
      }
    }
    if (messages.size() < 5)
      messages.push_back(where + (level == clang::DiagnosticsEngine::Fatal ? "fatal error: " : "error: ") + spot.message);
    errors.push_back(std::move(spot));
  }
};

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(TranslationUnitOptions& options, const ErrorCollector& diags, TranslationUnitResult& out)
      : options_(options), diags_(diags), out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& context) override {
    options_.errors = diags_.errors;
    out_ = analyzeTranslationUnit(context, options_);
    analysed_ = true;
  }
  bool analysed_ = false;

 private:
  TranslationUnitOptions& options_;
  const ErrorCollector& diags_;
  TranslationUnitResult& out_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(TranslationUnitOptions& options, const ErrorCollector& diags, TranslationUnitResult& out)
      : options_(options), diags_(diags), out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<Consumer>(options_, diags_, out_);
  }

 private:
  TranslationUnitOptions& options_;
  const ErrorCollector& diags_;
  TranslationUnitResult& out_;
};

struct JobOutcome {
  FileRecord file;
  TranslationUnitResult tu;
};

JobOutcome runJob(const CompileJob& job, const Toolchain& toolchain, const AnalysisRequest& request,
                  const model::Arch& arch) {
  JobOutcome outcome;
  outcome.file.path = job.file;
  TranslationUnitOptions options;
  options.arch = arch;
  options.blockDim = request.blockDim;
  options.assumedValues = request.assumedValues;
  ErrorCollector diags;
  bool ran = false;
  auto work = [&] {
    OverlayOptions overlay;
    overlay.workingDirectory = job.directory;
    auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions{job.directory},
                                                                makeOverlayFileSystem(toolchain, overlay));
    clang::tooling::ToolInvocation invocation(job.arguments, std::make_unique<Action>(options, diags, outcome.tu),
                                              files.get());
    invocation.setDiagnosticConsumer(&diags);
    invocation.run();
    ran = true;
  };
  // A crash inside Clang costs this file, not the run.
  llvm::CrashRecoveryContext crc;
  if (!crc.RunSafely(work) || !ran) {
    outcome.file.status = Status::Failed;
    outcome.file.error = "the Clang frontend crashed on this file";
    return outcome;
  }
  outcome.file.diagnostics = diags.messages;
  const int errors = static_cast<int>(diags.errors.size());
  const bool anyKernelAnalysed = std::any_of(outcome.tu.kernels.begin(), outcome.tu.kernels.end(),
                                             [](const KernelRecord& k) { return k.status == Status::Analysed; });
  if (errors > 0 && !anyKernelAnalysed) {
    outcome.file.status = Status::Failed;
    outcome.file.error = diags.messages.empty() ? "Clang reported errors" : diags.messages.front();
    if (errors > 1) outcome.file.error += " (and " + std::to_string(errors - 1) + " more errors)";
  } else {
    outcome.file.hostErrors = errors;
  }
  return outcome;
}

}  // namespace

AnalysisResult analyze(const AnalysisRequest& request) {
  AnalysisResult result;
  const auto arch = model::parseArch(request.gpuArch);
  const model::Arch archParams = arch ? *arch : model::defaultArch();
  const Toolchain toolchain = detectToolchain(request);
  std::vector<FileRecord> failures;
  const std::vector<CompileJob> jobs = collectJobs(request, toolchain, failures);

  llvm::CrashRecoveryContext::Enable();
  std::vector<JobOutcome> outcomes(jobs.size());
  std::mutex progressMutex;
  size_t done = 0;
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(request.jobs));
    for (size_t i = 0; i < jobs.size(); ++i)
      pool.async([&, i] {
        outcomes[i] = runJob(jobs[i], toolchain, request, archParams);
        std::lock_guard<std::mutex> lock(progressMutex);
        ++done;
        if (request.progress) request.progress(jobs[i].file, done, jobs.size());
      });
    pool.wait();
  }

  // Deterministic order whatever the number of threads: by job order.
  for (auto& o : outcomes) {
    result.files.push_back(std::move(o.file));
    for (auto& k : o.tu.kernels) result.kernels.push_back(std::move(k));
    for (auto& a : o.tu.accesses) result.accesses.push_back(std::move(a));
    for (auto& b : o.tu.branches) result.branches.push_back(std::move(b));
    for (auto& b : o.tu.barriers) result.barriers.push_back(std::move(b));
    for (auto& p : o.tu.pointerParams) result.pointerParams.push_back(std::move(p));
  }
  for (auto& f : failures) result.files.push_back(std::move(f));
  std::stable_sort(result.files.begin(), result.files.end(),
                   [](const FileRecord& a, const FileRecord& b) { return a.path < b.path; });
  for (size_t i = 0; i < result.accesses.size(); ++i) result.accesses[i].id = static_cast<int>(i);
  for (size_t i = 0; i < result.branches.size(); ++i) result.branches[i].id = static_cast<int>(i);
  for (size_t i = 0; i < result.barriers.size(); ++i) result.barriers[i].id = static_cast<int>(i);
  return result;
}

}  // namespace coalesce::analysis
