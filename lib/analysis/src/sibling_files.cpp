// programFactsFor: the analysed file's own summary and its siblings' (sibling_files.h).
// A `.cu` sibling is parsed with the analysed file's own command line (the same device pass:
// its host functions are parsed too); a C or C++ one as host code with the same include
// folders and macros, and the CUDA toolkit's include folder (their `#include
// <cuda_runtime.h>`). Only host_summary.cpp reads their ASTs.
#include "sibling_files.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "analysis_policy.h"
#include "host_summary.h"
#include "parse_inputs.h"  // isSystemHeaderFunction
#include "sibling_text.h"

namespace coalesce::analysis {

namespace fs = std::filesystem;

namespace {

class SummaryConsumer : public clang::ASTConsumer {
 public:
  explicit SummaryConsumer(std::optional<HostSummary>& out) : out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    // The summary walks no declaration of the system headers (host_summary.cpp, Summarizer::
    // TraverseDecl) and asks only for the parents of statements inside the functions it walks;
    // the parent map Clang builds on the first ask covers the traversal scope, by default the
    // whole translation unit with the CUDA and C++ headers (a sixth of a run of Rodinia's
    // hybridsort/mergesort.cu, whose two .cu siblings are parsed each). The scope is this
    // file's and its own headers' declarations, walked in the same order: the same summary.
    std::vector<clang::Decl*> scope;
    const clang::SourceManager& sm = ctx.getSourceManager();
    for (clang::Decl* d : ctx.getTranslationUnitDecl()->decls())
      if (d->getLocation().isInvalid() || !sm.isInSystemHeader(d->getLocation())) scope.push_back(d);
    ctx.setTraversalScope(scope);
    out_ = summarizeHostCode(ctx);
  }
  // The summary reads nothing of the system headers (host_summary.cpp): their bodies are
  // skipped, the device ones too (the analysis's own parse keeps those, which kernels may
  // call: analyze.cpp), where Sema lets a body be skipped (not a constexpr function's, nor
  // one whose return type is deduced from it: Sema::canSkipFunctionBody).
  bool shouldSkipFunctionBody(clang::Decl* d) override { return isSystemHeaderFunction(d); }

 private:
  std::optional<HostSummary>& out_;
};

class SummaryAction : public clang::ASTFrontendAction {
 public:
  SummaryAction(std::optional<HostSummary>& out, bool skipHostBodies) : out_(out), skipHostBodies_(skipHostBodies) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<SummaryConsumer>(out_);
  }
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    ci.getFrontendOpts().SkipFunctionBodies = skipHostBodies_;  // Sema asks shouldSkipFunctionBody
    return true;
  }

 private:
  std::optional<HostSummary>& out_;
  const bool skipHostBodies_;
};

// One sibling's parse (`args`) through `files`: its summary, none when the parse crashed
// before it was made (a crash costs that sibling's facts, not the file's analysis).
std::optional<HostSummary> parseSibling(const std::vector<std::string>& args, clang::FileManager* files,
                                        bool skipHostBodies) {
  std::optional<HostSummary> out;
  clang::IgnoringDiagConsumer quiet;
  clang::tooling::ToolInvocation invocation(args, std::make_unique<SummaryAction>(out, skipHostBodies), files);
  invocation.setDiagnosticConsumer(&quiet);
  llvm::CrashRecoveryContext crc;
  crc.RunSafely([&] { invocation.run(); });
  return out;
}

// A sibling's summary: from the run's shared ones (sibling_summaries.h) when another worker
// has parsed it, else from those kept between runs (the result cache's folder), else parsed
// here (through a FileManager of its own, so that the files it read are known) and kept for
// the run's other workers and the next runs.
SiblingSummary sharedSibling(const SiblingSources& sources, const std::vector<std::string>& args,
                             const std::string& directory, clang::FileManager* files, bool skipHostBodies) {
  const std::string key = SiblingSummaries::keyOf(args, directory);
  auto parseHere = [&](bool keep) {
    auto own = llvm::makeIntrusiveRefCnt<clang::FileManager>(files->getFileSystemOpts(),
                                                              files->getVirtualFileSystemPtr());
    SiblingSummary s;
    if (std::optional<HostSummary> summary = parseSibling(args, own.get(), skipHostBodies))
      s.summary = std::move(*summary);
    s.inputs = sources.filesRead(*own);
    if (keep && sources.run) sources.run->store(key, s);
    if (sources.kept) sources.kept->store(args, directory, s);
    return s;
  };
  auto kept = [&]() -> std::optional<SiblingSummary> {
    if (!sources.kept) return std::nullopt;
    std::optional<SiblingSummary> s = sources.kept->load(args, directory);
    if (s && sources.keptRead) ++*sources.keptRead;
    return s;
  };
  const SiblingSummaries* shared = sources.run;
  if (!shared) {
    if (std::optional<SiblingSummary> s = kept()) return std::move(*s);
    return parseHere(false);
  }
  if (std::optional<SiblingSummary> s = shared->load(key)) return std::move(*s);
  if (std::optional<SiblingSummary> s = kept()) return std::move(*s);
  if (shared->claim(key)) return parseHere(true);
  // Another worker is parsing it: wait for its summary while it lives.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kSiblingWaitSeconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::optional<SiblingSummary> s = shared->load(key)) return std::move(*s);
    if (!shared->claimHeld(key)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (std::optional<SiblingSummary> s = shared->load(key)) return std::move(*s);
  return parseHere(false);
}

// A C or C++ sibling's host command line: the device pass's include folders, macros and
// resource folder, the toolkit's include folder, no CUDA mode.
std::vector<std::string> hostArguments(const std::vector<std::string>& device, const std::string& file) {
  const bool c = fs::path(file).extension() == ".c";
  std::vector<std::string> a = {"clang++", "-x", c ? "c" : "c++", "-fsyntax-only", "-w", "-ferror-limit=0",
                                "-fno-spell-checking"};  // as the device pass (command_line.cpp)
  if (!c) a.push_back("-std=c++17");
  for (size_t i = 0; i + 1 < device.size(); ++i) {
    const std::string& s = device[i];
    const bool separate = s == "-I" || s == "-D" || s == "-U" || s == "-isystem" || s == "-iquote" ||
                          s == "-idirafter" || s == "-resource-dir";
    if (separate && i + 2 < device.size()) {
      a.push_back(s);
      a.push_back(device[++i]);
    } else if (s.size() > 2 && (s.rfind("-I", 0) == 0 || s.rfind("-D", 0) == 0 || s.rfind("-U", 0) == 0)) {
      a.push_back(s);
    } else if (s.rfind("--cuda-path=", 0) == 0) {
      a.push_back("-isystem");
      a.push_back(s.substr(12) + "/include");
    }
  }
  a.push_back(file);
  return a;
}

// The functions of the analysed file that another file of the same program cannot define
// again: defined in the file itself (not a header), visible to the linker, neither inline nor
// a template, not `main` (which decides whether the folder is one program at all).
std::set<std::string> linkedDefinitions(clang::ASTContext& ctx) {
  std::set<std::string> out;
  const clang::SourceManager& sm = ctx.getSourceManager();
  // Only what this file's parse added: a PCH's declarations (the headers', analyze.cpp) are not
  // the main file's, and reading them all back cost a third of a small file's run. Namespaces
  // and `extern "C"` blocks of the main file are walked too: a library's host functions are
  // often in a namespace, and a driver one folder up calls
  // them (sibling_text.cpp, SiblingTexts::choose).
  std::vector<const clang::DeclContext*> todo{ctx.getTranslationUnitDecl()};
  while (!todo.empty()) {
    const clang::DeclContext* dc = todo.back();
    todo.pop_back();
    for (const clang::Decl* d : dc->noload_decls()) {
      if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl>(d)) {
        if (sm.isInMainFile(sm.getExpansionLoc(d->getLocation()))) todo.push_back(llvm::cast<clang::DeclContext>(d));
        continue;
      }
      const auto* f = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!f || !f->doesThisDeclarationHaveABody() || f->isInlined() || f->isMain() || f->isTemplated() ||
          !f->isExternallyVisible() || !f->getDeclName().isIdentifier() ||
          !sm.isInMainFile(sm.getExpansionLoc(f->getLocation())))
        continue;
      out.insert(f->getName().str());
    }
  }
  return out;
}

// The source files of `file`'s folder that the parse behind `sm` read besides `file` itself
// (SiblingCheck::included), absolute and lexically normal as SiblingTexts names siblings.
std::vector<std::string> includedSiblings(const clang::SourceManager& sm, const std::string& file,
                                          const std::string& directory) {
  const fs::path folder = fs::path(file).parent_path().lexically_normal();
  const std::string self = fs::path(file).lexically_normal().string();
  std::vector<std::string> out;
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
    fs::path p(it->first.getName().str());
    if (p.is_relative()) p = fs::path(directory) / p;
    p = p.lexically_normal();
    if (p.parent_path() != folder || p.string() == self) continue;
    out.push_back(p.string());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

ProgramFacts programFactsFor(clang::ASTContext& ctx, const std::vector<std::string>& arguments,
                             const std::string& directory, clang::FileManager* files, const SiblingSources& sources,
                             std::vector<std::string>* inputs, bool skipHostBodies, SiblingCheck* checkOut) {
  ProgramFacts facts;
  facts.add(summarizeHostCode(ctx));
  if (arguments.empty()) return facts;
  SiblingCheck check;
  check.asked = true;
  check.file = fs::path(arguments.back()).is_absolute() ? arguments.back()
                                                        : (fs::path(directory) / arguments.back()).string();
  check.fileDefinesMain = facts.defines("main");
  const std::set<std::string> mine = linkedDefinitions(ctx);
  check.linked.assign(mine.begin(), mine.end());
  check.included = includedSiblings(ctx.getSourceManager(), check.file, directory);
  // Which siblings are the program's, read as text (sibling_text.h); the result cache checks
  // the same choice again before it reuses this file's result.
  SiblingTexts texts;
  texts.choose(check);
  for (const std::string& sibling : check.read) {
    std::vector<std::string> args;
    if (fs::path(sibling).extension() == ".cu") {
      args = arguments;
      args.back() = sibling;
    } else {
      args = hostArguments(arguments, sibling);
    }
    if (sources.run || sources.kept) {
      SiblingSummary s = sharedSibling(sources, args, directory, files, skipHostBodies);
      facts.add(s.summary);
      if (inputs) inputs->insert(inputs->end(), s.inputs.begin(), s.inputs.end());
    } else if (std::optional<HostSummary> summary = parseSibling(args, files, skipHostBodies)) {
      facts.add(*summary);
    }
  }
  if (checkOut) *checkOut = std::move(check);
  return facts;
}

}  // namespace coalesce::analysis
