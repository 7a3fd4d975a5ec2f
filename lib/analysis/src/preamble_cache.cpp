// The preamble of a file, precompiled and kept between runs (preamble_cache.h says how).
#include "preamble_cache.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/PrecompiledPreamble.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Serialization/ASTReader.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <filesystem>

#include "coalesce/analysis/command_line.h"
#include "command_line_text.h"
#include "header_pch_build.h"  // pchKeepsFileNames
#include "result_cache.h"

namespace coalesce::analysis {

namespace {

// Counts the errors of the preamble's build: a preamble with errors is not used (the file's
// own parse reports them).
class ErrorCounter : public clang::DiagnosticConsumer {
 public:
  unsigned errors = 0;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level >= clang::DiagnosticsEngine::Error) ++errors;
  }
};

// The build's hooks: the same bodies skipped as in a file's parse (its PCH then holds what
// the parse would have made), and the files it read.
class BuildHooks : public clang::PreambleCallbacks {
 public:
  BuildHooks(std::string directory, std::string mainFile) : directory_(std::move(directory)), main_(std::move(mainFile)) {}
  std::vector<std::string> inputs;
  // A file the preamble read under a name the PCH would not keep: Clang's PCH writer stores
  // names absolute and without `.` components (ASTWriter, cleanPathForOutput), so a parse over
  // it would call `dir/./k.cuh` (a quoted `#include "./k.cuh"`) or `inc/k.cuh` (a relative
  // `-I inc`) `dir/k.cuh` and `/abs/inc/k.cuh`: the records' file names would change. Such a
  // preamble is not used.
  bool renamed = false;
  bool shouldSkipFunctionBody(clang::Decl* d) override { return isHostOnlySystemHeaderFunction(d); }
  void AfterExecute(clang::CompilerInstance& ci) override {
    inputs = filesReadBy(ci.getFileManager(), directory_, "");
    // The file itself: its preamble's text is in the key, the rest of it is not the PCH's.
    std::erase(inputs, main_);
    renamed = !pchKeepsFileNames(ci);
  }

 private:
  std::string directory_, main_;
};

}  // namespace

PreambleDirectives preambleDirectives(const std::string& text) {
  PreambleDirectives out;
  clang::LangOptions lang;
  lang.CPlusPlus = true;
  lang.LineComment = true;
  const clang::SourceLocation base = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer lexer(base, lang, text.data(), text.data(), text.data() + text.size());
  auto offsetOf = [&](const clang::Token& t) { return t.getLocation().getRawEncoding() - base.getRawEncoding(); };
  // The directive being read: where it starts and ends, how many of its tokens were seen.
  size_t start = 0, end = 0;
  unsigned tokens = 0;
  enum class Include { None, Angled, Quoted } include = Include::None;
  bool angledClosed = false;
  auto close = [&] {
    if (tokens == 0) return;
    // `#include <a//b.h>` lexes as `<a` and a comment: only a `>` last says the name is whole.
    if (include == Include::None || (include == Include::Angled && !angledClosed)) out.onlyIncludes = false;
    if (include == Include::Quoted) out.quotedInclude = true;
    if (!out.text.empty()) out.text += '\n';
    out.text.append(text, start, end - start);
  };
  clang::Token tok;
  for (;;) {
    lexer.LexFromRawLexer(tok);
    if (tok.is(clang::tok::eof)) break;
    if (tok.isAtStartOfLine() || tokens == 0) {
      close();
      start = offsetOf(tok);
      tokens = 0;
      include = Include::None;
      angledClosed = false;
      if (tok.isNot(clang::tok::hash)) out.onlyIncludes = false;  // not a directive (a preamble holds none)
    }
    ++tokens;
    end = offsetOf(tok) + tok.getLength();
    if (tokens == 2 && !(tok.is(clang::tok::raw_identifier) && tok.getRawIdentifier() == "include"))
      out.onlyIncludes = false;  // #define, #if, #pragma, #include_next, #import...
    if (tokens == 3 && tok.is(clang::tok::string_literal)) include = Include::Quoted;
    if (tokens == 3 && tok.is(clang::tok::less)) include = Include::Angled;
    if (tokens > 3 && include == Include::Quoted) include = Include::None;  // `#include "a" b`: not plain
    if (include == Include::Angled) angledClosed = tok.is(clang::tok::greater);
  }
  close();
  return out;
}

// A preamble costs about a parse of the file without any PCH, plus writing it (3 to 24 MB),
// and only the file's next runs gain: on a file's first run (a CI job starting from an empty
// cache, a file checked once) that made it 1.35 x the parse instead of 0.2 x over the CUDA
// headers' PCH alone (bench/RESULTS.md, "Session 30"). So the first ask leaves a mark, keyed
// on the file as well as the directives (files sharing directives share the preamble, not
// the mark), and the preamble is built when the file is parsed again: an edit loop's second
// run. The mark is an empty entry with no inputs, kept and evicted as the others.
bool PreambleCache::firstAsk(const std::string& flagSet, const std::string& identity, const std::string& mainPath) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string key =
      kept_.preambleKey(flagSet, skipHostBodies_, identity + std::string("\0asked by\n", 10) + mainPath);
  if (kept_.pchInputs(key)) return false;
  kept_.storePch(key, "", {});
  return true;
}

// A preamble that adds little to the CUDA headers' kept PCH (the file includes what the forced
// includes hold and a few small headers: <cuda_runtime.h>, <cstdio>...) saves less than it
// costs: a parse over it took 0.23 x the file's parse against 0.18 x over that PCH, the few
// extra headers parsed again (kernels/examples, bench/RESULTS.md, "Session 30"). Such a
// preamble, a PCH at most 5 % larger than the headers', is kept as "none". Caller holds mutex_.
bool PreambleCache::addsLittle(const std::string& flagSet, size_t preambleBytes) {
  const std::string key = kept_.pchKey(flagSet, skipHostBodies_);
  if (!kept_.pchInputs(key)) return false;  // no headers' PCH to parse over instead
  std::error_code ec;
  const uintmax_t headers = std::filesystem::file_size(kept_.pchPath(key), ec);
  return !ec && headers > 0 && preambleBytes <= headers + headers / 20;
}

std::optional<PreambleUse> PreambleCache::apply(clang::CompilerInvocation& invocation, clang::FileManager& files,
                                                const CompileJob& job) {
  const clang::FrontendOptions& frontend = invocation.getFrontendOpts();
  clang::PreprocessorOptions& pp = invocation.getPreprocessorOpts();
  // A PCH of the user's own (-include-pch) cannot sit under a preamble.
  if (frontend.Inputs.size() != 1 || !frontend.Inputs[0].isFile() || !pp.ImplicitPCHInclude.empty()) return std::nullopt;
  const std::string mainName = frontend.Inputs[0].getFile().str();
  auto buffer = files.getBufferForFile(mainName);
  if (!buffer) return std::nullopt;
  const clang::PreambleBounds bounds =
      clang::ComputePreambleBounds(invocation.getLangOpts(), (*buffer)->getMemBufferRef(), 0);
  if (bounds.Size == 0) return std::nullopt;
  const std::string text((*buffer)->getBufferStart(), bounds.Size);

  // The key (preamble_cache.h): the directives, and where the file is when they depend on it.
  const std::string mainPath = cmdline::absoluteIn(job.directory, mainName);
  const std::filesystem::path normalized = std::filesystem::path(mainPath).lexically_normal();
  const PreambleDirectives directives = preambleDirectives(text);
  std::string identity;
  if (directives.onlyIncludes) {
    identity = "directives\n" + directives.text;
  } else {
    identity = "text\n" + text + '\0' + normalized.string() + (bounds.PreambleEndsAtStartOfLine ? '1' : '0');
  }
  if (directives.quotedInclude) identity += std::string("\0folder\n", 8) + normalized.parent_path().string();

  PreambleUse use;
  use.bytes = bounds.Size;
  use.endsAtStartOfLine = bounds.PreambleEndsAtStartOfLine;
  const std::string flagSet = flagSetKey(job);
  std::string key;
  std::optional<std::vector<std::string>> keptInputs;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    key = kept_.preambleKey(flagSet, skipHostBodies_, identity);
    keptInputs = kept_.pchInputs(key);
    if (keptInputs) use.path = kept_.pchPath(key);
  }
  if (keptInputs) {
    std::error_code ec;
    if (std::filesystem::file_size(use.path, ec) == 0 || ec) return std::nullopt;  // kept as "none"
    use.inputs = std::move(*keptInputs);
  } else if (!build_ || (!onFirstRun_ && firstAsk(flagSet, identity, normalized.string()))) {
    return std::nullopt;
  } else {
    // Built in memory with the job's own arguments and file system, then kept.
    clang::CompilerInvocation build(invocation);
    build.getFrontendOpts().SkipFunctionBodies = skipHostBodies_;  // BuildHooks decide which
    ErrorCounter counter;
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diagnostics =
        clang::CompilerInstance::createDiagnostics(&build.getDiagnosticOpts(), &counter, /*ShouldOwnClient=*/false);
    BuildHooks hooks(job.directory, mainPath);
    std::string data;
    {
      auto built = clang::PrecompiledPreamble::Build(build, buffer->get(), bounds, *diagnostics,
                                                     files.getVirtualFileSystemPtr(),
                                                     std::make_shared<clang::PCHContainerOperations>(),
                                                     /*StoreInMemory=*/true, /*StoragePath=*/"", hooks);
      if (!built && hooks.inputs.empty()) return std::nullopt;  // nothing read: nothing to key a "none" on
      if (built && counter.errors == 0 && !hooks.renamed) {
        // The PCH's bytes, as the preamble hands them to a parse: through a file system.
        clang::CompilerInvocation scratch(build);
        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = files.getVirtualFileSystemPtr();
        built->AddImplicitPreamble(scratch, fs, buffer->get());
        scratch.getPreprocessorOpts().RemappedFileBuffers.clear();  // ours, not the scratch's
        if (auto pch = fs->getBufferForFile(scratch.getPreprocessorOpts().ImplicitPCHInclude))
          data = (*pch)->getBuffer().str();
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!data.empty() && addsLittle(flagSet, data.size())) data.clear();
    use.path = kept_.storePch(key, data, hooks.inputs);  // "" data: kept as "none"
    if (data.empty() || use.path.empty()) return std::nullopt;
    use.inputs = std::move(hooks.inputs);
  }
  {
    clang::IgnoringDiagConsumer ignore;
    auto diagnostics = clang::CompilerInstance::createDiagnostics(new clang::DiagnosticOptions, &ignore, false);
    clang::PCHContainerOperations containers;
    use.builtFrom = clang::ASTReader::getOriginalSourceFile(use.path, files, containers.getRawReader(), *diagnostics);
  }
  // As PrecompiledPreamble::AddImplicitPreamble sets a parse up (clang/lib/Frontend/PrecompiledPreamble.cpp):
  // the PCH's files are checked here, by their contents, not by Clang.
  pp.ImplicitPCHInclude = use.path;
  pp.PrecompiledPreambleBytes = {use.bytes, use.endsAtStartOfLine};
  pp.DisablePCHOrModuleValidation = clang::DisableValidationForModuleKind::PCH;
  pp.UsePredefines = false;  // the PCH holds the predefines and the forced includes
  return use;
}

void PreambleCache::forget(const PreambleUse& use) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::error_code ec;
  std::filesystem::remove(use.path + "inputs", ec);
  std::filesystem::remove(use.path, ec);
}

}  // namespace coalesce::analysis
