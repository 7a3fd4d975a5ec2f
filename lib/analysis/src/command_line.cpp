// Inputs -> per-file Clang command lines: input expansion, compile_commands.json and the
// final argument vector (the nvcc and Clang/GCC flag tables are in flag_translation.cpp).
#include "coalesce/analysis/command_line.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/StringSaver.h"

#include "coalesce/analysis/builtin_files.h"
#include "command_line_text.h"

namespace coalesce::analysis {
namespace fs = std::filesystem;
using namespace cmdline;

namespace {

FileRecord failure(std::string path, std::string error) {
  FileRecord record;
  record.path = std::move(path);
  record.status = Status::Failed;
  record.error = std::move(error);
  return record;
}

bool isCudaSource(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".cu" || ext == ".cuh";
}

// One identity per file however it was reached (relative, absolute, through a link).
std::string identity(const fs::path& p) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(p, ec).lexically_normal();
  const fs::path canonical = fs::weakly_canonical(absolute, ec);
  return (ec ? absolute : canonical).string();
}

// ---------------------------------------------------------------------------------------------
// (a) input expansion

class InputWalker {
 public:
  ExpandedInputs result;

  void addInput(const std::string& input) {
    std::error_code ec;
    const fs::file_status st = fs::status(input, ec);
    if (ec || !fs::exists(st)) {
      result.failures.push_back(failure(input, "no such file or directory"));
      return;
    }
    if (fs::is_directory(st)) {
      walk(fs::path(input));
      return;
    }
    addFile(fs::path(input));  // named explicitly: taken whatever its extension
  }

 private:
  std::set<std::string> seenFiles_;
  std::set<std::string> seenDirs_;

  void addFile(const fs::path& p) {
    if (!seenFiles_.insert(identity(p)).second) return;
    // Only regular files are opened: a FIFO named *.cu would block the open (and the run)
    // forever, a device would never end (docs/reliability.md).
    std::error_code sec;
    const fs::file_status st = fs::status(p, sec);
    if (sec) {
      result.failures.push_back(failure(p.string(), "cannot read file: " + sec.message()));
      return;
    }
    if (!fs::is_regular_file(st)) {
      const char* kind = fs::is_fifo(st)                                      ? " (a FIFO)"
                         : fs::is_socket(st)                                  ? " (a socket)"
                         : fs::is_character_file(st) || fs::is_block_file(st) ? " (a device)"
                                                                              : "";
      result.failures.push_back(failure(p.string(), std::string("not read: not a regular file") + kind));
      return;
    }
    if (!std::ifstream(p, std::ios::binary)) {
      result.failures.push_back(failure(p.string(), "cannot read file (permission denied?)"));
      return;
    }
    result.files.push_back(p.string());
  }

  void walk(const fs::path& dir) {
    // A directory reached twice (a link back up the tree, or to a sibling) is walked once.
    if (!seenDirs_.insert(identity(dir)).second) return;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      result.failures.push_back(failure(dir.string(), "cannot read directory: " + ec.message()));
      return;
    }
    std::vector<fs::path> files, dirs;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const fs::path entry = it->path();
      const std::string name = entry.filename().string();
      std::error_code sec;
      if (it->is_directory(sec)) {
        // Build trees hold CMake's compiler-identification .cu files; hidden folders are
        // version control and tool caches. Neither is the user's code.
        if (name == "CMakeFiles" || startsWith(name, ".")) continue;
        dirs.push_back(entry);
      } else if (isCudaSource(entry)) {
        if (sec || !it->exists(sec)) {
          result.failures.push_back(
              failure(entry.string(), sec ? "broken symbolic link: " + sec.message() : "broken symbolic link"));
          continue;
        }
        files.push_back(entry);
      }
    }
    if (ec) result.failures.push_back(failure(dir.string(), "cannot read directory: " + ec.message()));
    std::sort(files.begin(), files.end());
    std::sort(dirs.begin(), dirs.end());
    for (const auto& f : files) addFile(f);
    for (const auto& d : dirs) walk(d);
  }
};

// ---------------------------------------------------------------------------------------------
// (b) compilation database

// The shape the JSON compilation database format requires, checked before Clang's loader so a
// bad file gives one clear line (Clang's YAML-based parser prints its own messages to stderr).
std::string checkDatabaseShape(const std::string& text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) return "invalid JSON: " + llvm::toString(parsed.takeError());
  const llvm::json::Array* entries = parsed->getAsArray();
  if (!entries) return "the top level is not an array of compile commands";
  for (size_t i = 0; i < entries->size(); ++i) {
    const llvm::json::Object* entry = (*entries)[i].getAsObject();
    const std::string where = "entry " + std::to_string(i + 1);
    if (!entry) return where + " is not an object";
    for (const char* key : {"directory", "file"})
      if (!entry->getString(key)) return where + " has no string \"" + key + "\"";
    const bool hasCommand = entry->getString("command").has_value();
    const llvm::json::Array* arguments = entry->getArray("arguments");
    if (!hasCommand && !arguments) return where + " has neither \"command\" nor \"arguments\"";
    if (arguments)
      for (const llvm::json::Value& a : *arguments)
        if (!a.getAsString()) return where + " has a non-string in \"arguments\"";
  }
  return {};
}

// CUDA by its extension or by `-x cu` / `-x cuda` (nvcc compiles a .cpp as plain host C++).
bool isCudaEntry(const DatabaseEntry& entry) {
  if (isCudaSource(entry.file)) return true;
  const auto& cl = entry.commandLine;
  auto isCuda = [](const std::string& lang) { return lang == "cu" || lang == "cuda"; };
  for (size_t i = 0; i < cl.size(); ++i) {
    if ((cl[i] == "-x" || cl[i] == "--x") && i + 1 < cl.size() && isCuda(cl[i + 1])) return true;
    if ((startsWith(cl[i], "-x=") || startsWith(cl[i], "--x=")) && isCuda(cl[i].substr(cl[i].find('=') + 1)))
      return true;
    if (cl[i] == "-xcuda") return true;
  }
  return false;
}

// Finds a file's database entry, or else the CUDA entry sharing the longest leading path
// with it (a header or a new file borrows the flags of its neighbours, as clangd does).
class EntryIndex {
 public:
  explicit EntryIndex(const CompilationDatabase& db) : db_(db) {
    for (const DatabaseEntry& e : db.entries) ids_.push_back(identity(absoluteIn(e.directory, e.file)));
  }
  struct Match {
    const DatabaseEntry* entry = nullptr;
    bool exact = false;
  };
  Match find(const std::string& absoluteFile) const {
    const std::string want = identity(absoluteFile);
    Match nearest;
    size_t best = 0;
    for (size_t i = 0; i < ids_.size(); ++i) {
      if (ids_[i] == want) return {&db_.entries[i], true};
      if (!isCudaEntry(db_.entries[i])) continue;
      const fs::path a(ids_[i]), b(want);
      size_t common = 0;
      for (auto ia = a.begin(), ib = b.begin(); ia != a.end() && ib != b.end() && *ia == *ib; ++ia, ++ib) ++common;
      if (common > best) best = common, nearest = {&db_.entries[i], false};
    }
    return nearest;
  }

 private:
  const CompilationDatabase& db_;
  std::vector<std::string> ids_;
};

// ---------------------------------------------------------------------------------------------
// (a') which inputs other inputs #include (inputsIncludedByOthers)

// The #include directives of a file: (name, angled). A line-based scan: a directive is `#`
// and `include` at the start of a line, whitespace allowed around the `#`. Comments after
// `//` never match; conditional compilation is not evaluated.
std::vector<std::pair<std::string, bool>> includeDirectives(const std::string& text) {
  std::vector<std::pair<std::string, bool>> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    size_t i = pos;
    auto skipBlanks = [&] {
      while (i < end && (text[i] == ' ' || text[i] == '\t')) ++i;
    };
    skipBlanks();
    if (i < end && text[i] == '#') {
      ++i;
      skipBlanks();
      if (text.compare(i, 7, "include") == 0)
        if (auto name = includedName(std::string_view(text).substr(i + 7, end - i - 7))) out.push_back(std::move(*name));
    }
    pos = end + 1;
  }
  return out;
}

class IncludeGraph {
 public:
  explicit IncludeGraph(const std::vector<std::string>& includeDirs) : dirs_(includeDirs) {}

  // The files `id` includes that exist (identities), each once.
  const std::vector<std::string>& includes(const std::string& id) {
    auto it = edges_.find(id);
    if (it != edges_.end()) return it->second;
    std::vector<std::string>& out = edges_[id];
    if (edges_.size() > kMaxFiles) return out;  // a pathological tree: stop following
    std::error_code ec;
    const auto size = fs::file_size(id, ec);
    if (ec || size > kMaxBytes) return out;
    const auto text = readText(id);
    if (!text) return out;
    const fs::path here = fs::path(id).parent_path();
    std::set<std::string> seen;
    for (const auto& [name, angled] : includeDirectives(*text)) {
      if (fs::path(name).is_absolute()) continue;  // system and toolkit headers, not the user's tree
      std::vector<fs::path> candidates;
      if (!angled) candidates.push_back(here / name);
      for (const std::string& d : dirs_) candidates.push_back(fs::path(d) / name);
      // Clang, not finding <name>, reports an error but includes the file next to the
      // includer if there is one (its "use quotes instead" recovery): so does this.
      if (angled) candidates.push_back(here / name);
      for (const fs::path& c : candidates) {
        std::error_code cec;
        if (!fs::is_regular_file(c, cec)) continue;
        const std::string target = identity(c);
        if (seen.insert(target).second) out.push_back(target);
        break;
      }
    }
    return out;
  }

  // Every file reachable from `id` through #include (not `id` itself unless in a cycle).
  std::set<std::string> reach(const std::string& id) {
    std::set<std::string> seen;
    std::vector<std::string> todo = {id};
    while (!todo.empty()) {
      const std::string cur = todo.back();
      todo.pop_back();
      for (const std::string& next : includes(cur))
        if (seen.insert(next).second) todo.push_back(next);
    }
    return seen;
  }

 private:
  static constexpr size_t kMaxFiles = 20000;
  static constexpr std::uintmax_t kMaxBytes = 16u << 20;
  std::vector<std::string> dirs_;
  std::map<std::string, std::vector<std::string>> edges_;
};

// The -I and -iquote folders among extra arguments, absolute.
std::vector<std::string> userIncludeDirs(const std::vector<std::string>& args, const std::string& cwd) {
  return folderOptions(args, cwd, {"-I", "-iquote"});
}

}  // namespace

// ---------------------------------------------------------------------------------------------

ExpandedInputs expandInputs(const std::vector<std::string>& inputs) {
  InputWalker walker;
  for (const auto& input : inputs) walker.addInput(input);
  return std::move(walker.result);
}

std::map<std::string, std::string> inputsIncludedByOthers(const std::vector<std::string>& files,
                                                          const std::vector<std::string>& includeDirs) {
  std::map<std::string, std::string> result;
  if (files.size() < 2) return result;
  std::vector<std::string> ids;
  std::map<std::string, size_t> inputIndex;
  for (size_t i = 0; i < files.size(); ++i) {
    ids.push_back(identity(files[i]));
    inputIndex.emplace(ids.back(), i);
  }
  IncludeGraph graph(includeDirs);
  std::vector<std::set<std::string>> reach(files.size());
  std::vector<bool> included(files.size(), false);
  for (size_t i = 0; i < files.size(); ++i) {
    reach[i] = graph.reach(ids[i]);
    for (const std::string& r : reach[i]) {
      auto it = inputIndex.find(r);
      if (it != inputIndex.end() && it->second != i) included[it->second] = true;
    }
  }
  // Inputs nothing includes are the translation units; what they reach is parsed with them.
  for (size_t i = 0; i < files.size(); ++i) {
    if (included[i]) continue;
    for (const std::string& r : reach[i]) {
      auto it = inputIndex.find(r);
      if (it != inputIndex.end() && it->second != i) result.emplace(files[it->second], files[i]);
    }
  }
  return result;
}

CompilationDatabase loadCompilationDatabase(const std::string& buildDirOrFile) {
  CompilationDatabase db;
  std::error_code ec;
  db.path = fs::is_directory(buildDirOrFile, ec) ? (fs::path(buildDirOrFile) / "compile_commands.json").string()
                                                 : buildDirOrFile;
  const auto text = readText(db.path);
  if (!text) {
    db.error = db.path + ": cannot read the compilation database";
    return db;
  }
  if (std::string shape = checkDatabaseShape(*text); !shape.empty()) {
    db.error = db.path + ": not a valid compilation database: " + shape;
    return db;
  }
  std::string message;
  auto loaded = clang::tooling::JSONCompilationDatabase::loadFromFile(db.path, message,
                                                                       clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!loaded) {
    std::replace(message.begin(), message.end(), '\n', ' ');
    db.error = db.path + ": not a valid compilation database: " + message;
    return db;
  }
  for (clang::tooling::CompileCommand& c : loaded->getAllCompileCommands())
    db.entries.push_back({std::move(c.Filename), std::move(c.Directory), std::move(c.CommandLine)});
  return db;
}


std::vector<std::string> buildClangArguments(const Toolchain& tc, const std::vector<std::string>& flags,
                                             const std::vector<std::string>& extraArgs, const std::string& file) {
  std::vector<std::string> a = {"clang++",
                                "-x", "cuda",
                                "--cuda-device-only",  // one pass: kernel bodies and launch sites
                                "--cuda-gpu-arch=" + tc.gpuArch,
                                "-fsyntax-only",
                                "-resource-dir", tc.resourceDir};
  if (tc.builtinCuda) {
    // No toolkit: Clang's runtime wrapper needs one, so it is left out and the built-in
    // headers are force-included in its place, as nvcc force-includes cuda_runtime.h.
    // --cuda-path names the built-in tree (which has no bin/) so no toolkit that happens to
    // be installed is picked up behind the user's back.
    a.insert(a.end(), {"-nocudainc", "-nocudalib", "--cuda-path=" + builtinCudaRoot(), "-isystem", builtinCudaIncludeDir(),
                       "-include", builtinCudaIncludeDir() + "/cuda_runtime.h"});
  } else {
    a.push_back("--cuda-path=" + *tc.cudaPath);
    if (tc.hasCccl) a.insert(a.end(), {"-isystem", *tc.cudaPath + "/include/cccl"});  // CUDA 13 moved CCCL here
  }
  // Stand-ins for headers that are missing only because Clang is not nvcc: the
  // texture_fetch_functions.h CUDA 13 removed and Clang 19's wrapper still includes, and the
  // host compiler's omp.h. -idirafter: a real header of the same name wins.
  a.insert(a.end(), {"-idirafter", shimIncludeDir()});
  a.insert(a.end(), {"-include", preludePath(),
                     // Noise that says nothing about the user's code:
                     "-Wno-unknown-cuda-version",           // CUDA newer than Clang 19 knows
                     "-Wno-unused-command-line-argument",   // e.g. -nocudalib in a syntax-only run
                     "-Wno-cuda-compat",
                     "-Wno-unknown-attributes",             // nvcc-only attributes in CUDA headers
                     "-Wno-deprecated-declarations",        // deprecated CUDA APIs in host code
                     "-Wno-unknown-pragmas",                // #pragma nv_diag_suppress and co.
                     // "%d"FMT (no space before a macro): GCC and EDG, hence nvcc, warn and
                     // read two tokens; Clang makes it an error unless this warning is off,
                     // and then reads two tokens too.
                     "-Wno-reserved-user-defined-literal",
                     "-Wno-register",                       // `register int i`: nvcc accepts it in C++17
                     // All errors, not the first 20: a kernel after twenty host-side errors
                     // must still be parsed (error tolerance, docs/frontend-command-lines.md).
                     "-ferror-limit=0",
                     // No typo correction: an undeclared name (a macro the build defines with
                     // -D) is left unknown, not replaced by a declared one it resembles
                     // (`<<<g, BLOCK>>>` read as `BLOCKS`, a block stated as the launch's:
                     // golden findings/undeclared_near_a_declared_name.cu). It was also 1.5 %
                     // of Rodinia's run, in the files with errors.
                     "-fno-spell-checking"});
  a.insert(a.end(), flags.begin(), flags.end());
  a.insert(a.end(), extraArgs.begin(), extraArgs.end());
  a.push_back(file);
  return a;
}

std::vector<CompileJob> jobsReaching(std::vector<CompileJob> jobs, const std::vector<std::string>& paths,
                                     size_t& left, std::vector<FileRecord>& notes) {
  std::set<std::string> wanted;
  for (const std::string& p : paths) wanted.insert(identity(p));
  std::erase_if(notes, [&](const FileRecord& r) { return r.status == Status::Analysed && !wanted.count(identity(r.path)); });
  // One include graph per set of include folders: most jobs of a tree share theirs.
  std::map<std::vector<std::string>, IncludeGraph> graphs;
  std::vector<CompileJob> kept;
  left = 0;
  for (CompileJob& job : jobs) {
    const std::string main = identity(absoluteIn(job.directory, job.arguments.back()));
    bool reaches = wanted.count(main) > 0;
    if (!reaches) {
      std::vector<std::string> dirs = userIncludeDirs(job.arguments, job.directory);
      auto it = graphs.find(dirs);
      if (it == graphs.end()) it = graphs.emplace(dirs, IncludeGraph(dirs)).first;
      for (const std::string& reached : it->second.reach(main))
        if (wanted.count(reached)) {
          reaches = true;
          break;
        }
    }
    if (reaches)
      kept.push_back(std::move(job));
    else
      ++left;
  }
  return kept;
}

std::vector<CompileJob> collectJobs(const AnalysisRequest& request, const Toolchain& toolchain,
                                    std::vector<FileRecord>& failures) {
  std::error_code ec;
  const std::string cwd = fs::current_path(ec).string();
  std::vector<CompileJob> jobs;

  std::optional<CompilationDatabase> db;
  if (!request.buildDir.empty()) {
    db = loadCompilationDatabase(request.buildDir);
    if (!db->error.empty()) {
      failures.push_back(failure(db->path, db->error));
      return jobs;
    }
  }

  // `file` is how records name it; `directory` is the job's working directory, and `path`
  // reaches the file from there. Database flags are translated against their own entry's
  // directory, which makes their relative paths absolute.
  auto addJob = [&](const std::string& file, const std::string& directory, const std::string& path,
                    const DatabaseEntry* entry) {
    std::vector<std::string> flags;
    if (entry) {
      TranslatedFlags t = translateCompileCommand(entry->commandLine, entry->directory);
      if (!t.error.empty()) {
        failures.push_back(failure(file, t.error));
        return;
      }
      flags = std::move(t.kept);
    }
    jobs.push_back({file, directory, buildClangArguments(toolchain, flags, request.extraArgs, path)});
  };

  if (!request.commands.empty()) {  // the compiler launcher's exact command lines
    for (const DatabaseEntry& e : request.commands) addJob(e.file, e.directory, e.file, &e);
    return jobs;
  }

  if (db && request.inputs.empty()) {
    std::set<std::string> seen;
    for (const DatabaseEntry& e : db->entries)
      if (isCudaEntry(e) && seen.insert(identity(absoluteIn(e.directory, e.file))).second)
        addJob(e.file, e.directory, e.file, &e);
    if (jobs.empty() && failures.empty())
      failures.push_back(failure(db->path, db->path + ": no CUDA source in the compilation database"));
    return jobs;
  }

  ExpandedInputs expanded = expandInputs(request.inputs);
  failures.insert(failures.end(), expanded.failures.begin(), expanded.failures.end());
  std::optional<EntryIndex> index;
  if (db) index.emplace(*db);
  // A file another input includes is parsed with it, not on its own (see inputsIncludedByOthers);
  // a file the database lists is a translation unit of the build whatever includes it.
  const std::map<std::string, std::string> includedBy =
      inputsIncludedByOthers(expanded.files, userIncludeDirs(request.extraArgs, cwd));
  for (const std::string& file : expanded.files) {
    const EntryIndex::Match match = index ? index->find(absoluteIn(cwd, file)) : EntryIndex::Match{};
    if (auto inc = includedBy.find(file); inc != includedBy.end() && !match.exact) {
      FileRecord record;
      record.path = file;
      record.status = Status::Analysed;
      record.diagnostics.push_back("not parsed on its own: " + inc->second +
                                   " includes it, and its kernels are analysed there");
      failures.push_back(std::move(record));
      continue;
    }
    if (match.exact)  // run where the build ran it, as the build would
      addJob(file, match.entry->directory, absoluteIn(cwd, file), match.entry);
    else  // as given, with a neighbour's flags if the database has one
      addJob(file, cwd, file, match.entry);
  }
  return jobs;
}

std::string flagSetKey(const CompileJob& job) {
  std::string key = job.directory;
  for (size_t i = 0; i + 1 < job.arguments.size(); ++i) {
    key += '\0';
    key += job.arguments[i];
  }
  return key;
}

}  // namespace coalesce::analysis
