// Inputs -> per-file Clang command lines: input expansion, compile_commands.json, the nvcc
// and Clang/GCC flag tables, and the final argument vector.
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

namespace coalesce::analysis {
namespace fs = std::filesystem;

namespace {

FileRecord failure(std::string path, std::string error) {
  FileRecord record;
  record.path = std::move(path);
  record.status = Status::Failed;
  record.error = std::move(error);
  return record;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

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

std::string absoluteIn(const std::string& directory, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(directory) / path).lexically_normal().string();
}

std::optional<std::string> readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> splitList(const std::string& value) {  // nvcc's comma-separated lists
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(value);
  while (std::getline(in, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

std::vector<std::string> tokenize(const std::string& text) {  // shell-like words, as in response files
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char*, 32> words;
  llvm::cl::TokenizeGNUCommandLine(text, saver, words);
  return {words.begin(), words.end()};
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
    // forever, a device would never end (issue 7).
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
// (c) flag translation. One table per compiler family, in the spirit of scip-clang's
// CommandLineCleaner: what is not known to shape parsing is dropped, so a host-compiler or
// nvcc option Clang does not know can never fail the parse.

enum class Act {
  Drop,
  Include,        // -I
  System,         // -isystem
  Quote,          // -iquote
  After,          // -idirafter
  Define,         // -D
  Undefine,       // -U
  PreInclude,     // -include
  Imacros,        // -imacros
  Std,            // -std=
  Rdc,            // nvcc -rdc=true|false
  RdcOn,          // nvcc -dc, clang -fgpu-rdc
  RdcOff,         // clang -fno-gpu-rdc
  FastMath,       // nvcc --use_fast_math
  DefaultStream,  // nvcc --default-stream per-thread
  HostOptions,    // nvcc -Xcompiler a,b,c
  OptionsFile,    // nvcc --options-file f
  WerrorKinds,    // nvcc -Werror kind,... (takes a value only when one follows)
  KeepAsIs,       // Clang/GCC options passed on verbatim (-nostdinc, --sysroot=...)
};

struct Rule {
  std::string_view name;
  bool takesValue;
  Act act;
};

// nvcc: every option has a short and a long name; a value follows as `-o v`, `-o=v`,
// `--opt v` or `--opt=v`, and list values are comma-separated.
constexpr Rule kNvccRules[] = {
    {"-I", true, Act::Include},              {"--include-path", true, Act::Include},
    {"-isystem", true, Act::System},         {"--system-include", true, Act::System},
    {"-D", true, Act::Define},               {"--define-macro", true, Act::Define},
    {"-U", true, Act::Undefine},             {"--undefine-macro", true, Act::Undefine},
    {"-include", true, Act::PreInclude},     {"--pre-include", true, Act::PreInclude},
    {"-std", true, Act::Std},                {"--std", true, Act::Std},
    {"-rdc", true, Act::Rdc},                {"--relocatable-device-code", true, Act::Rdc},
    {"-dc", false, Act::RdcOn},              {"--device-c", false, Act::RdcOn},
    {"-use_fast_math", false, Act::FastMath}, {"--use_fast_math", false, Act::FastMath},
    {"-default-stream", true, Act::DefaultStream}, {"--default-stream", true, Act::DefaultStream},
    {"-Xcompiler", true, Act::HostOptions},  {"--compiler-options", true, Act::HostOptions},
    {"-optf", true, Act::OptionsFile},       {"--options-file", true, Act::OptionsFile},
    {"-Werror", false, Act::WerrorKinds},    {"--Werror", false, Act::WerrorKinds},
    // Options with a value that say nothing about the source: targets, outputs, other tools.
    {"-x", true, Act::Drop}, {"--x", true, Act::Drop},
    {"-gencode", true, Act::Drop}, {"--generate-code", true, Act::Drop},
    {"-arch", true, Act::Drop}, {"--gpu-architecture", true, Act::Drop},
    {"-code", true, Act::Drop}, {"--gpu-code", true, Act::Drop},
    {"-Xptxas", true, Act::Drop}, {"--ptxas-options", true, Act::Drop},
    {"-Xnvlink", true, Act::Drop}, {"--nvlink-options", true, Act::Drop},
    {"-Xlinker", true, Act::Drop}, {"--linker-options", true, Act::Drop},
    {"-Xarchive", true, Act::Drop}, {"--archive-options", true, Act::Drop},
    {"-Xfatbin", true, Act::Drop}, {"--fatbin-options", true, Act::Drop},
    {"-Xcudafe", true, Act::Drop}, {"--cudafe-options", true, Act::Drop},
    {"-Xcicc", true, Act::Drop},
    {"-ccbin", true, Act::Drop}, {"--compiler-bindir", true, Act::Drop},
    {"-o", true, Act::Drop}, {"--output-file", true, Act::Drop},
    {"-odir", true, Act::Drop}, {"--output-directory", true, Act::Drop},
    {"-MF", true, Act::Drop}, {"--dependency-output", true, Act::Drop},
    {"-MT", true, Act::Drop}, {"--dependency-target-name", true, Act::Drop},
    {"-L", true, Act::Drop}, {"--library-path", true, Act::Drop},
    {"-l", true, Act::Drop}, {"--library", true, Act::Drop},
    {"-O", true, Act::Drop}, {"--optimize", true, Act::Drop},
    {"-dopt", true, Act::Drop}, {"--dopt", true, Act::Drop},
    {"-t", true, Act::Drop}, {"--threads", true, Act::Drop},
    {"-split-compile", true, Act::Drop}, {"--split-compile", true, Act::Drop},
    {"-maxrregcount", true, Act::Drop}, {"--maxrregcount", true, Act::Drop},
    {"-ftz", true, Act::Drop}, {"--ftz", true, Act::Drop},
    {"-prec-div", true, Act::Drop}, {"--prec-div", true, Act::Drop},
    {"-prec-sqrt", true, Act::Drop}, {"--prec-sqrt", true, Act::Drop},
    {"-fmad", true, Act::Drop}, {"--fmad", true, Act::Drop},
    {"-cudart", true, Act::Drop}, {"--cudart", true, Act::Drop},
    {"-cudadevrt", true, Act::Drop}, {"--cudadevrt", true, Act::Drop},
    {"-keep-dir", true, Act::Drop}, {"--keep-dir", true, Act::Drop},
    {"-time", true, Act::Drop}, {"--time", true, Act::Drop},
    {"-m", true, Act::Drop}, {"--machine", true, Act::Drop},
    {"-diag-suppress", true, Act::Drop}, {"--diag-suppress", true, Act::Drop},
    {"-diag-error", true, Act::Drop}, {"--diag-error", true, Act::Drop},
    {"-diag-warn", true, Act::Drop}, {"--diag-warn", true, Act::Drop},
    {"-run-args", true, Act::Drop}, {"--run-args", true, Act::Drop},
    {"-ldir", true, Act::Drop}, {"--libdevice-directory", true, Act::Drop},
    {"-target-dir", true, Act::Drop}, {"--target-directory", true, Act::Drop},
    {"-hls", true, Act::Drop}, {"--host-linker-script", true, Act::Drop},
    {"-jtd", true, Act::Drop}, {"--jump-table-density", true, Act::Drop},
    {"-frandom-seed", true, Act::Drop}, {"--frandom-seed", true, Act::Drop},
    {"-compress-mode", true, Act::Drop}, {"--compress-mode", true, Act::Drop},
    {"-static-global-template-stub", true, Act::Drop}, {"--static-global-template-stub", true, Act::Drop},
    {"-fdevice-time-trace", true, Act::Drop}, {"--fdevice-time-trace", true, Act::Drop},
    {"-qpp-config", true, Act::Drop}, {"--qpp-config", true, Act::Drop},
    {"-device-entity-has-hidden-visibility", true, Act::Drop},
    {"--device-entity-has-hidden-visibility", true, Act::Drop},
};

// nvcc options written joined to their value (`-I../inc`, `-DX=1`, `-O3`), tried after the
// exact names; longest first so `-isystem/x` is not read as `-i...`.
constexpr Rule kNvccJoined[] = {
    {"-isystem", true, Act::System}, {"-I", true, Act::Include}, {"-D", true, Act::Define},
    {"-U", true, Act::Undefine},     {"-L", true, Act::Drop},    {"-l", true, Act::Drop},
    {"-O", true, Act::Drop},
};

// nvcc -Werror's values; anything else after it is the next option or a file.
constexpr std::string_view kNvccWarningKinds[] = {
    "all-warnings", "cross-execution-space-call", "reorder", "default-stream-launch",
    "missing-launch-bounds", "ext-lambda-captures-this", "deprecated-declarations"};

// Clang and GCC: a value follows as the next argument (`-I dir`), joined (`-Idir`) or after
// `=` for long options (`--sysroot=/x`).
constexpr Rule kClangSeparate[] = {
    {"-I", true, Act::Include},         {"-isystem", true, Act::System},
    {"-cxx-isystem", true, Act::System}, {"-iquote", true, Act::Quote},
    {"-idirafter", true, Act::After},   {"-include", true, Act::PreInclude},
    {"-imacros", true, Act::Imacros},   {"-D", true, Act::Define},
    {"-U", true, Act::Undefine},        {"--sysroot", true, Act::KeepAsIs},
    {"-isysroot", true, Act::KeepAsIs},
    // Values that must not be mistaken for options of their own (`-Xclang -DX`).
    {"-o", true, Act::Drop}, {"-MF", true, Act::Drop}, {"-MT", true, Act::Drop}, {"-MQ", true, Act::Drop},
    {"-MJ", true, Act::Drop}, {"-Xclang", true, Act::Drop}, {"-Xlinker", true, Act::Drop},
    {"-Xassembler", true, Act::Drop}, {"-Xpreprocessor", true, Act::Drop}, {"-Xcuda-ptxas", true, Act::Drop},
    {"-Xcuda-fatbinary", true, Act::Drop}, {"-Xarch_host", true, Act::Drop}, {"-Xarch_device", true, Act::Drop},
    {"-Xopenmp-target", true, Act::Drop}, {"-Xoffload-linker", true, Act::Drop}, {"-mllvm", true, Act::Drop},
    {"-x", true, Act::Drop}, {"-arch", true, Act::Drop}, {"-target", true, Act::Drop},
    {"-include-pch", true, Act::Drop}, {"-ivfsoverlay", true, Act::Drop}, {"-L", true, Act::Drop},
    {"-l", true, Act::Drop}, {"-z", true, Act::Drop}, {"-u", true, Act::Drop}, {"-T", true, Act::Drop},
    {"-e", true, Act::Drop}, {"-F", true, Act::Drop}, {"-iprefix", true, Act::Drop},
    {"-iwithprefix", true, Act::Drop}, {"-iwithprefixbefore", true, Act::Drop},
    {"-working-directory", true, Act::Drop}, {"-dependency-file", true, Act::Drop},
    {"-serialize-diagnostics", true, Act::Drop}, {"--cuda-path", true, Act::Drop},
    {"--cuda-gpu-arch", true, Act::Drop}, {"--offload-arch", true, Act::Drop},
};
constexpr Rule kClangEquals[] = {
    {"-std", true, Act::Std},               {"--std", true, Act::Std},
    {"--sysroot", true, Act::KeepAsIs},      {"-stdlib", true, Act::KeepAsIs},
    {"--gcc-toolchain", true, Act::KeepAsIs}, {"--gcc-install-dir", true, Act::KeepAsIs},
};
constexpr Rule kClangJoined[] = {
    {"-cxx-isystem", true, Act::System}, {"-isystem", true, Act::System}, {"-iquote", true, Act::Quote},
    {"-idirafter", true, Act::After},    {"-imacros", true, Act::Imacros}, {"-isysroot", true, Act::KeepAsIs},
    {"-I", true, Act::Include},          {"-D", true, Act::Define},        {"-U", true, Act::Undefine},
};
constexpr Rule kClangFlags[] = {
    {"-fgpu-rdc", false, Act::RdcOn},     {"-fno-gpu-rdc", false, Act::RdcOff},
    {"-nostdinc", false, Act::KeepAsIs},  {"-nostdinc++", false, Act::KeepAsIs},
    {"-nostdlibinc", false, Act::KeepAsIs}, {"-fsigned-char", false, Act::KeepAsIs},
    {"-funsigned-char", false, Act::KeepAsIs}, {"-fcuda-approx-transcendentals", false, Act::FastMath},
    {"-fgpu-approx-transcendentals", false, Act::FastMath},
};

template <size_t N>
const Rule* findRule(const Rule (&rules)[N], std::string_view name) {
  for (const Rule& r : rules)
    if (r.name == name) return &r;
  return nullptr;
}
template <size_t N>
const Rule* findJoined(const Rule (&rules)[N], std::string_view arg) {
  for (const Rule& r : rules)
    if (arg.size() > r.name.size() && startsWith(arg, r.name)) return &r;
  return nullptr;
}

bool allWarningKinds(const std::string& value) {
  const auto kinds = splitList(value);
  return !kinds.empty() && std::all_of(kinds.begin(), kinds.end(), [](const std::string& k) {
    return std::find(std::begin(kNvccWarningKinds), std::end(kNvccWarningKinds), k) != std::end(kNvccWarningKinds);
  });
}

class Translator {
 public:
  Translator(CompilerFamily family, std::string directory) : family_(family), directory_(std::move(directory)) {}
  TranslatedFlags out;

  void run(const std::vector<std::string>& args, size_t first) {
    for (size_t i = first; i < args.size();) {
      const std::string& arg = args[i++];
      if (startsWith(arg, "@") && arg.size() > 1) {  // response file, both families
        expandFile(arg.substr(1), arg);
        continue;
      }
      if (arg.size() < 2 || arg[0] != '-') {  // sources, objects: the job names its own file
        out.dropped.push_back(arg);
        continue;
      }
      if (family_ == CompilerFamily::Nvcc)
        nvccOption(arg, args, i);
      else
        clangOption(arg, args, i);
    }
  }

 private:
  CompilerFamily family_;
  std::string directory_;
  bool hostOptions_ = false;  // inside nvcc -Xcompiler: only preprocessor flags survive
  int depth_ = 0;             // options files nested in options files

  void nvccOption(const std::string& arg, const std::vector<std::string>& args, size_t& i) {
    std::string name = arg, value;
    bool hasValue = false;
    if (const size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      hasValue = true;
    }
    const Rule* rule = findRule(kNvccRules, name);
    if (!rule && (rule = findJoined(kNvccJoined, arg))) {
      value = arg.substr(rule->name.size());
      hasValue = true;
    }
    if (!rule) {
      // Unknown (a host-compiler flag forwarded by -forward-unknown-to-host-compiler, a newer
      // nvcc option) or an nvcc -W warning switch.
      out.dropped.push_back(arg);
      return;
    }
    if (rule->act == Act::WerrorKinds) {
      std::string dropped = arg;
      if (!hasValue && i < args.size() && allWarningKinds(args[i])) dropped += " " + args[i++];
      out.dropped.push_back(dropped);
      return;
    }
    if (rule->takesValue && !hasValue) {
      if (i >= args.size()) {
        out.dropped.push_back(arg);
        return;
      }
      value = args[i++];
    }
    apply(*rule, arg, value);
  }

  void clangOption(const std::string& arg, const std::vector<std::string>& args, size_t& i) {
    if (const Rule* rule = findRule(kClangFlags, arg)) return apply(*rule, arg, "");
    if (const Rule* rule = findRule(kClangSeparate, arg)) {
      if (i >= args.size()) return out.dropped.push_back(arg);
      const std::string value = args[i++];
      return apply(*rule, arg + " " + value, value, /*separate=*/true);
    }
    if (const size_t eq = arg.find('='); eq != std::string::npos)
      if (const Rule* rule = findRule(kClangEquals, std::string_view(arg).substr(0, eq)))
        return apply(*rule, arg, arg.substr(eq + 1));
    if (const Rule* rule = findJoined(kClangJoined, arg)) return apply(*rule, arg, arg.substr(rule->name.size()));
    out.dropped.push_back(arg);  // codegen, warnings, -M*, -c, -f*, -m*, and anything unknown
  }

  // A path given relative to the job's directory; `=` and `$SYSROOT` prefixes stay as they are.
  std::string path(const std::string& value) const {
    if (startsWith(value, "=") || startsWith(value, "$")) return value;
    return absoluteIn(directory_, value);
  }
  // -include names a file that the compiler also looks for on the include path: made
  // absolute only when it exists next to the job.
  std::string includeFile(const std::string& value) const {
    const std::string candidate = absoluteIn(directory_, value);
    std::error_code ec;
    return fs::exists(candidate, ec) ? candidate : value;
  }

  // `original` is the option as written (for the dropped list); `separate` tells that its
  // value was the next argument.
  void apply(const Rule& rule, const std::string& original, const std::string& value, bool separate = false) {
    const bool nvcc = family_ == CompilerFamily::Nvcc;
    // nvcc's path options take comma-separated lists; Clang's take one value.
    const std::vector<std::string> values = nvcc && !value.empty() ? splitList(value) : std::vector<std::string>{value};
    const bool preprocessor = rule.act == Act::Include || rule.act == Act::System || rule.act == Act::Quote ||
                              rule.act == Act::After || rule.act == Act::Define || rule.act == Act::Undefine ||
                              rule.act == Act::PreInclude || rule.act == Act::Imacros;
    if (hostOptions_ && !preprocessor) return out.dropped.push_back(original);
    auto& k = out.kept;
    switch (rule.act) {
      case Act::Drop: out.dropped.push_back(original); break;
      case Act::Include: for (const auto& v : values) k.push_back("-I" + path(v)); break;
      case Act::System: for (const auto& v : values) { k.push_back("-isystem"); k.push_back(path(v)); } break;
      case Act::Quote: k.push_back("-iquote"); k.push_back(path(value)); break;
      case Act::After: k.push_back("-idirafter"); k.push_back(path(value)); break;
      // A macro definition keeps its commas: -DPAIR=a,b is one macro.
      case Act::Define: k.push_back("-D" + value); break;
      case Act::Undefine: k.push_back("-U" + value); break;
      case Act::PreInclude: for (const auto& v : values) { k.push_back("-include"); k.push_back(includeFile(v)); } break;
      case Act::Imacros: k.push_back("-imacros"); k.push_back(includeFile(value)); break;
      case Act::Std: k.push_back("-std=" + value); break;
      case Act::Rdc:
        if (value == "true") k.push_back("-fgpu-rdc");
        else out.dropped.push_back(original);
        break;
      case Act::RdcOn: k.push_back("-fgpu-rdc"); break;
      case Act::RdcOff: k.push_back("-fno-gpu-rdc"); break;
      // nvcc's fast math selects approximate transcendental functions in device code; this
      // is Clang's switch for the same choice in its CUDA headers.
      case Act::FastMath: k.push_back("-fcuda-approx-transcendentals"); break;
      case Act::DefaultStream:
        if (value == "per-thread") k.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
        else out.dropped.push_back(original);
        break;
      case Act::HostOptions: {
        // Host-compiler options: each comma-separated item may hold several words. nvcc's
        // device pass is preprocessed by the host compiler, so its -D/-I count for us too.
        std::vector<std::string> words;
        for (const auto& item : splitList(value))
          for (auto& w : tokenize(item)) words.push_back(std::move(w));
        const CompilerFamily saved = family_;
        const bool savedHost = hostOptions_;
        family_ = CompilerFamily::ClangOrGcc;
        hostOptions_ = true;
        run(words, 0);
        family_ = saved;
        hostOptions_ = savedHost;
        break;
      }
      case Act::OptionsFile: for (const auto& v : values) expandFile(v, original); break;
      case Act::WerrorKinds: out.dropped.push_back(original); break;
      case Act::KeepAsIs:
        if (separate) {
          k.push_back(std::string(rule.name));
          k.push_back(path(value));
        } else {
          k.push_back(original);
        }
        break;
    }
  }

  void expandFile(const std::string& file, const std::string& original) {
    const std::string full = absoluteIn(directory_, file);
    const auto text = readText(full);
    if (!text) {
      out.error = "cannot read options file " + full + " (from " + original + ")";
      return;
    }
    if (++depth_ > 8) {
      out.error = "options files nested too deeply at " + full;
      return;
    }
    run(tokenize(*text), 0);
    --depth_;
  }
};

// Launchers that CMake or users put before the compiler.
bool isLauncher(std::string_view argv0) {
  const std::string name = fs::path(std::string(argv0)).filename().string();
  return name == "ccache" || name == "sccache" || name == "distcc" || name == "buildcache" || name == "icecc";
}

size_t compilerIndex(const std::vector<std::string>& commandLine) {
  size_t i = 0;
  while (i + 1 < commandLine.size() && isLauncher(commandLine[i])) ++i;
  return i;
}

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
      if (text.compare(i, 7, "include") == 0) {
        i += 7;
        skipBlanks();
        if (i < end && (text[i] == '"' || text[i] == '<')) {
          const char close = text[i] == '"' ? '"' : '>';
          const size_t stop = text.find(close, i + 1);
          if (stop != std::string::npos && stop < end && stop > i + 1)
            out.emplace_back(text.substr(i + 1, stop - i - 1), close == '>');
        }
      }
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
  std::vector<std::string> dirs;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    for (const std::string_view opt : {"-I", "-iquote"}) {
      if (a == opt && i + 1 < args.size()) {
        dirs.push_back(absoluteIn(cwd, args[++i]));
        break;
      }
      if (startsWith(a, opt) && a.size() > opt.size() && !(opt == "-I" && startsWith(a, "-iquote"))) {
        dirs.push_back(absoluteIn(cwd, a.substr(opt.size())));
        break;
      }
    }
  }
  return dirs;
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

CompilerFamily compilerFamily(const std::vector<std::string>& commandLine) {
  if (commandLine.empty()) return CompilerFamily::ClangOrGcc;
  const std::string name = fs::path(commandLine[compilerIndex(commandLine)]).filename().string();
  return name.find("nvcc") != std::string::npos ? CompilerFamily::Nvcc : CompilerFamily::ClangOrGcc;
}

TranslatedFlags translateCompileCommand(const std::vector<std::string>& commandLine, const std::string& directory) {
  Translator translator(compilerFamily(commandLine), directory);
  if (!commandLine.empty()) translator.run(commandLine, compilerIndex(commandLine) + 1);
  return std::move(translator.out);
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
                     // All errors, not the first 20: a kernel after twenty host-side errors
                     // must still be parsed (error tolerance, issue 8).
                     "-ferror-limit=0"});
  a.insert(a.end(), flags.begin(), flags.end());
  a.insert(a.end(), extraArgs.begin(), extraArgs.end());
  a.push_back(file);
  return a;
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

}  // namespace coalesce::analysis
