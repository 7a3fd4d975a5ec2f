// programFactsFor: the analysed file's own summary and its siblings' (sibling_files.h).
// A `.cu` sibling is parsed with the analysed file's own command line (the same device pass:
// its host functions are parsed too); a C or C++ one as host code with the same include
// folders and macros, and the CUDA toolkit's include folder (their `#include
// <cuda_runtime.h>`). Only host_summary.cpp reads their ASTs.
#include "sibling_files.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <set>
#include <iterator>
#include <cctype>
#include <memory>
#include <optional>
#include <thread>

#include "analysis_policy.h"
#include "host_summary.h"
#include "parse_inputs.h"  // isHostOnlySystemHeaderFunction

namespace coalesce::analysis {

namespace fs = std::filesystem;

namespace {

class SummaryConsumer : public clang::ASTConsumer {
 public:
  explicit SummaryConsumer(std::optional<HostSummary>& out) : out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override { out_ = summarizeHostCode(ctx); }
  // The summary reads nothing of the system headers (host_summary.cpp): their host bodies
  // are skipped as in the analysis's own parse (analyze.cpp, SummaryAction below).
  bool shouldSkipFunctionBody(clang::Decl* d) override { return isHostOnlySystemHeaderFunction(d); }

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

// A sibling's summary through the run's shared ones (sibling_summaries.h): read when another
// worker has parsed it, else parsed here (through a FileManager of its own, so that the
// files it read are known) and kept for the others.
SiblingSummary sharedSibling(const SiblingSummaries& shared, const std::vector<std::string>& args,
                             const std::string& directory, clang::FileManager* files, const FilesRead& filesRead,
                             bool skipHostBodies) {
  const std::string key = SiblingSummaries::keyOf(args, directory);
  auto parseHere = [&](bool keep) {
    auto own = llvm::makeIntrusiveRefCnt<clang::FileManager>(files->getFileSystemOpts(),
                                                              files->getVirtualFileSystemPtr());
    SiblingSummary s;
    if (std::optional<HostSummary> summary = parseSibling(args, own.get(), skipHostBodies))
      s.summary = std::move(*summary);
    s.inputs = filesRead(*own);
    if (keep) shared.store(key, s);
    return s;
  };
  if (std::optional<SiblingSummary> s = shared.load(key)) return std::move(*s);
  if (shared.claim(key)) return parseHere(true);
  // Another worker is parsing it: wait for its summary while it lives.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kSiblingWaitSeconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::optional<SiblingSummary> s = shared.load(key)) return std::move(*s);
    if (!shared.claimHeld(key)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (std::optional<SiblingSummary> s = shared.load(key)) return std::move(*s);
  return parseHere(false);
}

bool isSource(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".c" || ext == ".cc" || ext == ".cpp" || ext == ".cxx" || ext == ".cu";
}

// A C or C++ sibling's host command line: the device pass's include folders, macros and
// resource folder, the toolkit's include folder, no CUDA mode.
std::vector<std::string> hostArguments(const std::vector<std::string>& device, const std::string& file) {
  const bool c = fs::path(file).extension() == ".c";
  std::vector<std::string> a = {"clang++", "-x", c ? "c" : "c++", "-fsyntax-only", "-w", "-ferror-limit=0"};
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

// Whether a file's text defines `main` (`int main(int argc, char** argv)`, `int main(void) {`,
// a K&R `main(argc, argv)`): read as text, so that a folder of programs costs no parse.
bool definesMain(const std::string& text) {
  // `main(...)` then `{` or the line's end (a prototype or a call has `;` after its `)`), or
  // a parameter list that goes on on the next line.
  static const std::regex mainDefinition(R"((^|[\s*])main\s*\(([^)]*\)\s*(\{.*)?|[^;)]*)$)");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find("main") != std::string::npos && std::regex_search(line, mainDefinition)) return true;
  return false;
}

std::string textOf(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The functions of the analysed file that another file of the same program cannot define
// again: defined in the file itself (not a header), visible to the linker, neither inline nor
// a template, not `main` (which decides whether the folder is one program at all).
std::set<std::string> linkedDefinitions(clang::ASTContext& ctx) {
  std::set<std::string> out;
  const clang::SourceManager& sm = ctx.getSourceManager();
  for (const clang::Decl* d : ctx.getTranslationUnitDecl()->decls()) {
    const auto* f = llvm::dyn_cast<clang::FunctionDecl>(d);
    if (!f || !f->doesThisDeclarationHaveABody() || f->isInlined() || f->isMain() || f->isTemplated() ||
        !f->isExternallyVisible() || !f->getDeclName().isIdentifier() || !sm.isInMainFile(sm.getExpansionLoc(f->getLocation())))
      continue;
    out.insert(f->getName().str());
  }
  return out;
}

bool identifierByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `text` defines a function called `name`, read as text: `name (` preceded on its line
// by a return type (words, `*`, `&`, `::`, `<...>`; not a statement keyword, an assignment or
// an argument list) and whose parameter list is followed by `{` before any `;`. A call, a
// prototype and `return name(...)` are not definitions.
bool definesFunction(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    if ((at > 0 && identifierByte(text[at - 1])) || (at + name.size() < text.size() && identifierByte(text[at + name.size()])))
      continue;
    size_t open = at + name.size();
    while (open < text.size() && (text[open] == ' ' || text[open] == '\t')) ++open;
    if (open >= text.size() || text[open] != '(') continue;
    const size_t lineStart = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    std::string before = text.substr(lineStart, at - lineStart);
    while (!before.empty() && std::isspace(static_cast<unsigned char>(before.back()))) before.pop_back();
    if (before.empty() || before.find_first_of("=(,;.{}\"#") != std::string::npos || before.find("->") != std::string::npos)
      continue;
    const char last = before.back();
    if (!identifierByte(last) && last != '*' && last != '&' && last != '>' && last != ':') continue;
    size_t first = before.find_first_not_of(" \t");
    const std::string firstWord = before.substr(first, before.find_first_of(" \t*&", first) - first);
    static const std::set<std::string> kStatements{"return", "else", "case", "do", "throw", "new", "delete", "co_return", "goto"};
    if (kStatements.count(firstWord)) continue;
    int depth = 0;
    size_t close = open;
    for (; close < text.size(); ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')' && --depth == 0) break;
    }
    const size_t next = text.find_first_of("{;", close);
    if (close < text.size() && next != std::string::npos && text[next] == '{') return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> siblingFiles(const std::string& file) {
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path self = fs::absolute(file, ec);
  for (const auto& e : fs::directory_iterator(self.parent_path(), ec)) {
    std::error_code e2;
    if (!e.is_regular_file(e2) || !isSource(e.path()) || fs::equivalent(e.path(), self, e2)) continue;
    if (e.file_size(e2) > kMaxSiblingBytes) continue;
    out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  if (out.size() > kMaxSiblingFiles) out.resize(kMaxSiblingFiles);
  return out;
}

ProgramFacts programFactsFor(clang::ASTContext& ctx, const std::vector<std::string>& arguments,
                             const std::string& directory, clang::FileManager* files,
                             const SiblingSummaries* shared, const FilesRead& filesRead,
                             std::vector<std::string>* inputs, bool skipHostBodies) {
  ProgramFacts facts;
  facts.add(summarizeHostCode(ctx));
  if (arguments.empty()) return facts;
  const std::string self = fs::path(arguments.back()).is_absolute()
                               ? arguments.back()
                               : (fs::path(directory) / arguments.back()).string();
  // The folder is one program only when one `main` is defined in it (this file or a sibling);
  // a folder of examples, each with its own main, or a library's folder with none is not: its
  // functions of one name belong to different programs, so no sibling is read.
  const std::vector<std::string> siblings = siblingFiles(self);
  std::vector<std::string> texts;  // each sibling read once, for both tests below
  for (const std::string& sibling : siblings) texts.push_back(textOf(sibling));
  size_t mains = facts.defines("main") ? 1 : 0;
  for (const std::string& text : texts) mains += definesMain(text) ? 1 : 0;
  if (mains != 1) return facts;
  // A sibling that defines a function this file defines is another version of it that the
  // build links instead (gardenia's bfs/ keeps a dozen `BFSSolver`s beside one main.cc): it
  // is not part of this program, and parsing it would only cost time.
  const std::set<std::string> mine = linkedDefinitions(ctx);
  for (size_t i = 0; i < siblings.size(); ++i) {
    const std::string& sibling = siblings[i];
    if (std::any_of(mine.begin(), mine.end(), [&](const std::string& n) { return definesFunction(texts[i], n); }))
      continue;
    std::vector<std::string> args;
    if (fs::path(sibling).extension() == ".cu") {
      args = arguments;
      args.back() = sibling;
    } else {
      args = hostArguments(arguments, sibling);
    }
    if (shared) {
      SiblingSummary s = sharedSibling(*shared, args, directory, files, filesRead, skipHostBodies);
      facts.add(s.summary);
      if (inputs) inputs->insert(inputs->end(), s.inputs.begin(), s.inputs.end());
    } else if (std::optional<HostSummary> summary = parseSibling(args, files, skipHostBodies)) {
      facts.add(*summary);
    }
  }
  return facts;
}

}  // namespace coalesce::analysis
