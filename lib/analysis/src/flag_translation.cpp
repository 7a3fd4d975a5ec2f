// Flag translation: a foreign compiler's command line (nvcc, Clang or GCC, behind ccache and
// co.) -> the flags that shape a Clang device parse. One table per compiler family, in the
// spirit of scip-clang's CommandLineCleaner (docs/frontend-command-lines.md).
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "coalesce/analysis/command_line.h"
#include "command_line_text.h"

namespace coalesce::analysis {

namespace fs = std::filesystem;
using namespace cmdline;

namespace {

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

}  // namespace

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

}  // namespace coalesce::analysis
