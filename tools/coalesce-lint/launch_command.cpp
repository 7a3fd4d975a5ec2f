// `coalesce-lint launch`, the compiler launcher (launch_command.h; docs/ci.md).
#include "launch_command.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fcntl.h>  // AT_FDCWD
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "coalesce/analysis/result_file.h"

namespace coalesce::cli {

namespace fs = std::filesystem;

namespace {

bool startsWith(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

// What the launcher needs to know of a compile command (nvcc's, Clang's or GCC's spelling).
struct CompileCommand {
  std::string source;      // the one source file; empty when the command compiles none
  std::string object;      // -o; empty when none
  std::string depfile;     // -MF; empty when none
  std::string depTarget;   // -MT; the object when none
  bool compiles = false;   // -c, --compile, -dc, --device-c, -dw, --device-w
  bool cuda = false;       // a .cu source, or -x cu / -x cuda
  std::string arch;        // the highest sm_XX / compute_XX it names, for the model ("" if none)
};

// The value of an option at args[i], if it is one of `names` (`-o X`, `-o=X`,
// `--output-file X`, `--output-file=X`; with `attached`, also `-xcu`); i moves past a
// separate value. Attached values are not read for -o: nvcc's -odir is another option.
std::optional<std::string> valueOf(const std::vector<std::string>& args, size_t& i,
                                   std::initializer_list<const char*> names, bool attached = false) {
  const std::string& a = args[i];
  for (const char* n : names) {
    const std::string name = n;
    if (a == name && i + 1 < args.size()) return args[++i];
    if (startsWith(a, name + "=")) return a.substr(name.size() + 1);
    if (attached && name.size() == 2 && startsWith(a, name) && a.size() > name.size()) return a.substr(name.size());
  }
  return std::nullopt;
}

// "sm_80", "compute_86", "arch=compute_80,code=[compute_80,sm_80]" -> the highest number.
void noteArch(const std::string& text, int& best) {
  for (const char* prefix : {"sm_", "compute_"}) {
    for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
      size_t k = at + std::strlen(prefix);
      int n = 0;
      while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) n = n * 10 + (text[k++] - '0');
      if (model::parseArch("sm_" + std::to_string(n))) best = std::max(best, n);
    }
  }
}

CompileCommand readCompileCommand(const std::vector<std::string>& argv) {
  CompileCommand c;
  std::vector<std::string> sources;
  int arch = 0;
  static const std::set<std::string> kSourceExtensions = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".C"};
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-c" || a == "--compile" || a == "-dc" || a == "--device-c" || a == "-dw" || a == "--device-w") {
      c.compiles = true;
    } else if (auto o = valueOf(argv, i, {"-o", "--output-file"})) {
      c.object = *o;
    } else if (auto f = valueOf(argv, i, {"-MF", "--dependency-output"})) {
      c.depfile = *f;
    } else if (auto t = valueOf(argv, i, {"-MT", "--dependency-target-name"})) {
      c.depTarget = *t;
    } else if (auto x = valueOf(argv, i, {"-x", "--x"}, /*attached=*/true)) {
      c.cuda |= *x == "cu" || *x == "cuda";
    } else if (a == "-include" || a == "-imacros" || a == "-ccbin" || a == "--compiler-bindir") {
      ++i;  // their value is a file, never the source
    } else if (startsWith(a, "-arch") || startsWith(a, "--gpu-architecture") || startsWith(a, "-gencode") ||
               startsWith(a, "--generate-code") || startsWith(a, "--cuda-gpu-arch") || startsWith(a, "--offload-arch")) {
      noteArch(a, arch);
      if ((a == "-arch" || a == "--gpu-architecture" || a == "-gencode" || a == "--generate-code") && i + 1 < argv.size())
        noteArch(argv[++i], arch);
    } else if (!startsWith(a, "-") && kSourceExtensions.count(fs::path(a).extension().string())) {
      std::error_code ec;
      if (fs::is_regular_file(a, ec)) sources.push_back(a);
    }
  }
  if (sources.size() == 1) {
    c.source = sources.front();
    c.cuda |= fs::path(c.source).extension() == ".cu";
  }
  if (c.depTarget.empty()) c.depTarget = c.object;
  if (arch) c.arch = "sm_" + std::to_string(arch);
  return c;
}

// Make's syntax for a file name in a rule: spaces and '#' escaped, '$' doubled.
std::string makeEscaped(const std::string& path) {
  std::string out;
  for (char ch : path) {
    if (ch == ' ' || ch == '#') out += '\\';
    if (ch == '$') out += '$';
    out += ch;
  }
  return out;
}

// With --skip-compile the compiler writes nothing, so the launcher leaves what the build
// expects of it: the object (empty; the build's later steps are the user's business) and,
// when asked for, the dependency file, from the files the analysis read, so that an edited
// header still makes the build run the launcher again.
bool standInForCompiler(const CompileCommand& c, const std::vector<std::string>& inputs, std::string& error) {
  if (!c.object.empty()) {
    std::ofstream touch(c.object, std::ios::binary | std::ios::app);
    if (!touch) {
      error = c.object + ": cannot write the object file";
      return false;
    }
    touch.close();
    utimensat(AT_FDCWD, c.object.c_str(), nullptr, 0);
  }
  if (!c.depfile.empty()) {
    std::string rule = makeEscaped(c.depTarget) + ":";
    // Resolved: build tools normalise the names lexically, which a name through a
    // symbolic link ("/lib/gcc/../../include") does not survive.
    for (const std::string& in : inputs) {
      std::error_code ec;
      const fs::path real = fs::weakly_canonical(in, ec);
      rule += " \\\n  " + makeEscaped(ec ? in : real.string());
    }
    rule += "\n";
    if (!analysis::writeFileAtomically(c.depfile, rule)) {
      error = c.depfile + ": cannot write the dependency file";
      return false;
    }
  }
  return true;
}

[[noreturn]] void execCompiler(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  execvp(args[0], args.data());
  fmt::print(stderr, "coalesce-lint: error: {}: cannot run the compiler: {}\n", argv[0], std::strerror(errno));
  std::_Exit(127);
}

}  // namespace

int runLaunch(const std::vector<std::string>& launchArgs) {
  CLI::App app{"coalesce-lint launch: analyse one compile command's translation unit, then run the compiler",
               "coalesce-lint launch"};
  std::string arch, block, cacheDir;
  std::vector<std::string> assumes;
  bool noCache = false, skipCompile = false, quiet = false, builtinCuda = false;
  std::string cudaPath;
  unsigned timeout = 120;
  size_t maxInstantiations = analysis::kDefaultMaxInstantiations;
  app.add_option("--arch", arch, "GPU architecture of the figures (default: the highest the command names, or sm_90)");
  app.add_option("--block-dim", block, "block shape for kernels with no launch in their file, e.g. 32x8");
  app.add_option("--assume", assumes, "NAME=VALUE for a runtime scalar (repeatable)")->allow_extra_args(false);
  app.add_option("--cuda-path", cudaPath, "CUDA toolkit to parse with");
  app.add_flag("--builtin-cuda", builtinCuda, "use the built-in CUDA headers");
  app.add_option("--cache-dir", cacheDir, "result cache folder (default as for a lint run)");
  app.add_flag("--no-cache", noCache, "neither read nor write the result cache");
  app.add_option("--file-timeout", timeout, "seconds the analysis may take (0: no limit)")->capture_default_str();
  app.add_option("--max-instantiations", maxInstantiations,
                 "instantiations of one kernel template analysed (0: all), as for a lint run")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("--skip-compile", skipCompile,
               "do not run the compiler: leave an empty object file (and the dependency file it asks for)");
  app.add_flag("-q,--quiet", quiet, "say nothing about a file that could not be analysed");
  app.prefix_command();  // the first argument that is not an option starts the compile command
  std::vector<std::string> args = launchArgs;
  std::reverse(args.begin(), args.end());
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    return usageError("launch: " + what + " (see launch --help)");
  }
  std::vector<std::string> compiler = app.remaining();
  if (!compiler.empty() && compiler.front() == "--") compiler.erase(compiler.begin());
  if (compiler.empty()) return usageError("launch: no compiler command (coalesce-lint launch [OPTIONS] -- COMPILER ARGS...)");

  const CompileCommand command = readCompileCommand(compiler);
  if (command.compiles && command.cuda && !command.source.empty() && !command.object.empty()) {
    LintOptions lint;
    analysis::AnalysisRequest& r = lint.request;
    std::error_code ec;
    r.commands.push_back({command.source, fs::current_path(ec).string(), compiler});
    r.gpuArch = !arch.empty() ? arch : !command.arch.empty() ? command.arch : "sm_90";
    if (!model::parseArch(r.gpuArch)) return usageError("launch: unknown GPU architecture '" + r.gpuArch + "'");
    for (const std::string& a : assumes) {
      if (!parseAssume(a, r.assumedValues)) return usageError("launch: --assume '" + a + "': expected NAME=INTEGER");
    }
    if (!block.empty()) {
      r.blockDim = parseBlockDim(block);
      if (!r.blockDim) return usageError("launch: --block-dim '" + block + "': expected X[xY[xZ]] with at most 1024 threads");
    }
    if (!cudaPath.empty()) r.cudaPath = cudaPath;
    r.builtinCuda = builtinCuda;
    r.isolateFiles = true;  // a crash in the frontend costs the analysis, never the build
    r.jobs = 1;
    r.fileTimeoutSeconds = timeout;
    r.maxInstantiations = maxInstantiations;
    r.reportFilesRead = true;
    lint.noCache = noCache;
    lint.cacheDir = cacheDir;
    r.cacheDir = cacheDirFor(lint);
    analysis::AnalysisStats stats;
    analysis::ResultFile result;
    result.records = analysis::analyze(r, &stats);
    result.arch = r.gpuArch;
    result.source = command.source;
    if (auto it = stats.filesRead.find(command.source); it != stats.filesRead.end()) result.inputs = it->second;
    std::string error;
    if (!analysis::writeResultFile(command.object + kResultSuffix, result, error))
      fmt::print(stderr, "coalesce-lint: warning: {}\n", error);
    if (!quiet)
      for (const FileRecord& f : result.records.files)
        if (f.status == Status::Failed)
          fmt::print(stderr, "coalesce-lint: warning: {}: not analysed: {}\n", f.path, f.error);
    if (skipCompile) {
      if (!standInForCompiler(command, result.inputs, error)) {
        fmt::print(stderr, "coalesce-lint: error: {}\n", error);
        return 1;
      }
      return 0;
    }
  } else if (skipCompile) {
    return 0;  // not a CUDA compile (a link, a probe): nothing to stand in for
  }
  execCompiler(compiler);
}

}  // namespace coalesce::cli
