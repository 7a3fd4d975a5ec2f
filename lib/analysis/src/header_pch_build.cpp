// The run's precompiled headers: the CUDA headers' and the include prefixes' (header_pch_build.h).
#include "header_pch_build.h"

#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Sema/Sema.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <map>
#include <memory>

#include "coalesce/analysis/builtin_files.h"
#include "coalesce/analysis/command_line.h"
#include "coalesce/analysis/cuda_toolchain.h"
#include "adjusting_factory.h"
#include "command_line_text.h"
#include "error_collector.h"
#include "parse_inputs.h"

namespace coalesce::analysis {

namespace {

// Clang's PCH writer, skipping what Consumer skips (the headers' host function bodies).
class HeaderPchGenerator : public clang::PCHGenerator {
 public:
  using clang::PCHGenerator::PCHGenerator;
  bool shouldSkipFunctionBody(clang::Decl* d) override { return isHostOnlySystemHeaderFunction(d); }
};

// Clang's GeneratePCHAction, with the PCH kept in `buffer` rather than written where -o says.
class PchToMemoryAction : public clang::GeneratePCHAction {
 public:
  explicit PchToMemoryAction(std::shared_ptr<clang::PCHBuffer> buffer) : buffer_(std::move(buffer)) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    std::string sysroot;
    if (!ComputeASTConsumerArguments(ci, sysroot)) return nullptr;
    return std::make_unique<HeaderPchGenerator>(ci.getPreprocessor(), ci.getModuleCache(), /*OutputFile=*/"",
                                                /*isysroot=*/"", buffer_, ci.getFrontendOpts().ModuleFileExtensions,
                                                /*AllowASTWithErrors=*/false,
                                                /*IncludeTimestamps=*/ci.getFrontendOpts().IncludeTimestamps != 0);
  }

 private:
  std::shared_ptr<clang::PCHBuffer> buffer_;
};

// Errors CUDA defers until a function is emitted for the device (a host function called from a
// `__host__ __device__` one) are Sema's, not the PCH's: a file whose kernel calls such a
// function of the user's headers would not report them over the prefix. (Those of the system
// headers are not reported over the CUDA headers' PCH either: header_deferred_diags.h.)
bool deferredErrorsInUserHeaders(const clang::CompilerInstance& ci) {
  if (!ci.hasSema()) return false;
  const clang::SourceManager& sm = ci.getSourceManager();
  for (const auto& [fn, diags] : ci.getSema().DeviceDeferredDiags)
    if (!diags.empty() && !sm.isInSystemHeader(sm.getExpansionLoc(fn->getLocation()))) return true;
  return false;
}

// An include prefix's build: checks, once the headers are read, that a file parsed over the
// PCH would see them under their names and report the errors it reports without it
// (header_pch_build.h).
class PrefixPchAction : public PchToMemoryAction {
 public:
  PrefixPchAction(std::shared_ptr<clang::PCHBuffer> buffer, bool& faithful)
      : PchToMemoryAction(std::move(buffer)), faithful_(faithful) {}

 protected:
  void EndSourceFileAction() override {
    const clang::CompilerInstance& ci = getCompilerInstance();
    faithful_ = pchKeepsFileNames(ci) && !deferredErrorsInUserHeaders(ci);
    PchToMemoryAction::EndSourceFileAction();
  }

 private:
  bool& faithful_;
};

// Runs `job` with `args` over `factory`'s action in a file system of its own, crash-contained;
// `inputs` gets the files it read but `ownPch`.
bool runBuild(const CompileJob& job, const std::vector<std::string>& args, const Toolchain& toolchain,
              AdjustingFactory& factory, const std::string& ownPch, std::vector<std::string>& inputs,
              const std::vector<std::string>& mustBeAbsent = {}) {
  ErrorCollector diags;
  bool ok = false;
  auto work = [&] {
    OverlayOptions overlay;
    overlay.workingDirectory = job.directory;
    auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions{job.directory},
                                                                makeOverlayFileSystem(toolchain, overlay));
    for (const std::string& path : mustBeAbsent)
      if (files->getVirtualFileSystem().exists(path)) return;
    clang::tooling::ToolInvocation invocation(args, &factory, files.get(),
                                              std::make_shared<clang::PCHContainerOperations>());
    invocation.setDiagnosticConsumer(&diags);
    ok = invocation.run();
    inputs = filesReadBy(*files, job.directory, ownPch);
  };
  llvm::CrashRecoveryContext crc;
  return crc.RunSafely(work) && ok && diags.errors.empty();
}

// The invocation of a PCH build: bodies skipped as in a file's parse, Clang's "N errors
// generated" line kept off this process's stderr (the errors are collected, and the PCH
// dropped, instead), and only the forced includes the analysis adds itself, the prelude last:
// false when the job has its user's own (they are parsed with each file, after the PCH).
bool adjustBuild(clang::CompilerInvocation& invocation, bool skipHostBodies) {
  invocation.getFrontendOpts().SkipFunctionBodies = skipHostBodies;
  invocation.getDiagnosticOpts().ShowCarets = false;
  const std::vector<std::string>& includes = invocation.getPreprocessorOpts().Includes;
  auto prelude = std::find(includes.begin(), includes.end(), preludePath());
  return prelude != includes.end() && prelude + 1 == includes.end();
}

}  // namespace

std::optional<std::string> buildHeaderPch(const CompileJob& job, const Toolchain& toolchain, bool skipHostBodies,
                                          std::vector<std::string>& inputs) {
  std::vector<std::string> args = job.arguments;
  args.back() = headerCacheSourcePath();
  auto buffer = std::make_shared<clang::PCHBuffer>();
  buffer->IsComplete = false;
  AdjustingFactory factory([&] { return std::make_unique<PchToMemoryAction>(buffer); },
                           [&](clang::CompilerInvocation& invocation) {
                             clang::PreprocessorOptions& pp = invocation.getPreprocessorOpts();
                             if (!pp.ImplicitPCHInclude.empty()) return false;  // the user's own PCH
                             auto prelude = std::find(pp.Includes.begin(), pp.Includes.end(), preludePath());
                             if (prelude == pp.Includes.end()) return false;
                             pp.Includes.erase(prelude + 1, pp.Includes.end());  // the user's: with each file
                             return adjustBuild(invocation, skipHostBodies);
                           });
  if (!runBuild(job, args, toolchain, factory, "", inputs) || !buffer->IsComplete) return std::nullopt;
  return std::string(buffer->Data.begin(), buffer->Data.end());
}

std::optional<std::string> buildIncludePrefixPch(const CompileJob& job, const std::string& headerPch,
                                                 const std::vector<std::string>& headers, const Toolchain& toolchain,
                                                 bool skipHostBodies, std::vector<std::string>& inputs) {
  if (headers.empty()) return std::nullopt;
  // `-include x` looks in the working folder first, then along the quoted chain: as `<x>`
  // only without -iquote folders and `-I-`, and with no x in that folder.
  for (const std::string& a : job.arguments)
    if (llvm::StringRef(a).starts_with("-iquote") || a == "-I-") return std::nullopt;
  std::vector<std::string> absent;
  for (const std::string& h : headers) absent.push_back(cmdline::absoluteIn(job.directory, h));
  std::vector<std::string> args = job.arguments;
  args.back() = headerCacheSourcePath();
  args.insert(args.end() - 1, {"-include-pch", headerPch});
  auto buffer = std::make_shared<clang::PCHBuffer>();
  buffer->IsComplete = false;
  bool faithful = false;
  AdjustingFactory factory([&] { return std::make_unique<PrefixPchAction>(buffer, faithful); },
                           [&](clang::CompilerInvocation& invocation) {
                             if (!adjustBuild(invocation, skipHostBodies)) return false;
                             std::vector<std::string>& includes = invocation.getPreprocessorOpts().Includes;
                             includes.insert(includes.end(), headers.begin(), headers.end());
                             return true;
                           });
  if (!runBuild(job, args, toolchain, factory, headerPch, inputs, absent) || !buffer->IsComplete || !faithful)
    return std::nullopt;
  return std::string(buffer->Data.begin(), buffer->Data.end());
}

std::vector<AngleInclude> leadingAngleIncludes(const std::string& text) {
  clang::LangOptions lang;
  lang.CPlusPlus = true;
  lang.LineComment = true;
  clang::Lexer lexer(clang::SourceLocation::getFromRawEncoding(1), lang, text.data(), text.data(),
                     text.data() + text.size());
  // Raw locations count from 1 (the lexer's base above): a token's offset is its encoding - 1.
  auto offsetOf = [](const clang::Token& t) -> size_t { return t.getLocation().getRawEncoding() - 1; };
  std::vector<AngleInclude> out;
  clang::Token tok;
  lexer.LexFromRawLexer(tok);
  // One directive a round: `#`, `include`, `<`, the name's tokens, `>`, and nothing else on the line.
  while (tok.is(clang::tok::hash) && tok.isAtStartOfLine()) {
    lexer.LexFromRawLexer(tok);
    if (!tok.is(clang::tok::raw_identifier) || tok.getRawIdentifier() != "include" || tok.isAtStartOfLine()) break;
    lexer.LexFromRawLexer(tok);
    if (!tok.is(clang::tok::less) || tok.isAtStartOfLine()) break;
    const size_t start = offsetOf(tok) + 1;
    std::string name;
    bool closed = false;
    for (lexer.LexFromRawLexer(tok); !tok.is(clang::tok::eof) && !tok.isAtStartOfLine(); lexer.LexFromRawLexer(tok)) {
      if (tok.is(clang::tok::greater)) {
        name = text.substr(start, offsetOf(tok) - start);
        closed = true;
        lexer.LexFromRawLexer(tok);
        break;
      }
    }
    // `<a//b.h>` lexes as `<a` and a comment, `<a> x` has more after it: not a plain include.
    const bool lineEnds = tok.is(clang::tok::eof) || tok.isAtStartOfLine();
    if (!closed || name.empty() || name.find_first_of(" \t") != std::string::npos || !lineEnds) break;
    out.push_back({std::move(name), tok.is(clang::tok::eof) ? text.size() : offsetOf(tok)});
  }
  return out;
}

std::vector<size_t> chooseIncludePrefixes(const std::vector<std::vector<std::string>>& prefixes, size_t minFiles) {
  auto keyOf = [](const std::vector<std::string>& p, size_t n) {
    std::string key;
    for (size_t i = 0; i < n; ++i) key.append(p[i]).push_back('\n');
    return key;
  };
  std::map<std::string, size_t> sharing;  // files that begin with each prefix
  for (const auto& p : prefixes)
    for (size_t n = 1; n <= p.size(); ++n) ++sharing[keyOf(p, n)];
  // The longest prefix of at most `n` includes that enough files share.
  auto longest = [&](const std::vector<std::string>& p, size_t n) -> size_t {
    for (; n > 0; --n)
      if (sharing[keyOf(p, n)] >= std::max<size_t>(minFiles, 1)) return n;
    return 0;
  };
  std::vector<size_t> chosen(prefixes.size());
  for (size_t i = 0; i < prefixes.size(); ++i) chosen[i] = longest(prefixes[i], prefixes[i].size());
  // A group left with fewer files (the others took longer prefixes) hands them to a shorter
  // one; from the longest groups down, so that a shorter group counts the files it was handed.
  size_t longestChosen = 0;
  for (size_t n : chosen) longestChosen = std::max(longestChosen, n);
  for (size_t length = longestChosen; length > 0; --length) {
    std::map<std::string, size_t> users;
    for (size_t i = 0; i < prefixes.size(); ++i)
      if (chosen[i] == length) ++users[keyOf(prefixes[i], length)];
    for (size_t i = 0; i < prefixes.size(); ++i)
      if (chosen[i] == length && users[keyOf(prefixes[i], length)] < minFiles)
        chosen[i] = longest(prefixes[i], length - 1);
  }
  return chosen;
}

bool pchKeepsFileNames(const clang::CompilerInstance& ci) {
  const clang::SourceManager& sm = ci.getSourceManager();
  auto kept = [&](llvm::StringRef name) {
    if (name.empty() || name.starts_with("<")) return true;  // <built-in>, <command line>
    llvm::SmallString<256> path(name);
    ci.getFileManager().makeAbsolutePath(path);
    llvm::sys::path::remove_dots(path);
    return path.str() == name;
  };
  const clang::OptionalFileEntryRef mainEntry = sm.getFileEntryRefForID(sm.getMainFileID());
  for (unsigned i = 1, n = sm.local_sloc_entry_size(); i < n; ++i) {
    const clang::SrcMgr::SLocEntry& e = sm.getLocalSLocEntry(i);
    if (!e.isFile()) continue;
    const clang::SrcMgr::ContentCache& content = e.getFile().getContentCache();
    // The file's own name is not kept from the PCH: a parse over it names the file as given.
    if (mainEntry && content.OrigEntry && &content.OrigEntry->getFileEntry() == &mainEntry->getFileEntry()) continue;
    if (!kept(e.getFile().getName()) || (content.OrigEntry && !kept(content.OrigEntry->getName()))) return false;
  }
  return true;
}

}  // namespace coalesce::analysis
