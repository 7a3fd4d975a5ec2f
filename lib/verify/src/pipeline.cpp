#include "coalesce/verify/pipeline.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "coalesce/verify/compare.h"
#include "coalesce/verify/format_number.h"
#include "coalesce/verify/measurements.h"
#include "coalesce/verify/process.h"
#include "coalesce/verify/report.h"
#include "coalesce/verify/resource_usage.h"
#include "coalesce/verify/sass.h"

namespace coalesce::verify {

namespace fs = std::filesystem;

namespace {

// The one failure message of a run that could not be verified.
struct VerifyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw VerifyError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string findInjectLibrary(const VerifyOptions& o) {
  if (!o.inject.empty()) {
    if (!fs::exists(o.inject)) throw VerifyError("the injection library " + o.inject + " does not exist");
    return o.inject;
  }
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COALESCE_VERIFY_INJECT")) candidates.emplace_back(env);
  candidates.insert(candidates.end(), o.injectSearchPaths.begin(), o.injectSearchPaths.end());
  for (const std::string& c : candidates)
    if (fs::exists(c)) return c;
  throw VerifyError(
      "CUPTI collector not built: libcoalesce_verify_inject.so was not found (this coalesce-lint was built "
      "without CUDA/CUPTI, or pass --inject PATH)");
}

// nvcc, nvdisasm or cuobjdump: next to nvcc, in $CUDA_HOME or $CUDA_PATH, in
// /usr/local/cuda, then in PATH. Empty when none is found.
std::string findCudaTool(const std::string& name, const std::string& nvccPath) {
  std::vector<fs::path> candidates;
  if (!nvccPath.empty()) candidates.push_back(fs::path(nvccPath).parent_path() / name);
  if (const char* home = std::getenv("CUDA_HOME")) candidates.push_back(fs::path(home) / "bin" / name);
  if (const char* home = std::getenv("CUDA_PATH")) candidates.push_back(fs::path(home) / "bin" / name);
  candidates.push_back(fs::path("/usr/local/cuda/bin") / name);
  for (const fs::path& c : candidates)
    if (isExecutable(c.string())) return c.string();
  if (auto p = findInPath(name)) return *p;
  return {};
}

std::string makeWorkDir(const std::string& keep) {
  if (keep.empty()) return makeTemporaryDirectory("coalesce-verify-");
  std::error_code ec;
  if (!fs::exists(keep) && !fs::create_directory(keep, ec)) throw VerifyError("cannot create " + keep);
  return keep;
}

// Files in `dir` whose name ends with `suffix`, sorted.
std::vector<std::string> listFiles(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The measurements each process of a run wrote: `out`.<pid> (COALESCE_VERIFY_PER_PROCESS), in
// the order of their process ids, half-written ".tmp" files left out; first `out` itself, where a
// collector that predates per-process files (--inject an older one) wrote.
std::vector<std::string> processFiles(const std::string& out) {
  const fs::path base(out);
  const std::string prefix = base.filename().string() + ".";
  std::vector<std::pair<unsigned long, std::string>> found;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(base.parent_path(), ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) != 0) continue;
    const std::string pid = n.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    found.emplace_back(std::stoul(pid), e.path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> paths;
  if (fs::exists(out, ec)) paths.push_back(out);
  for (auto& f : found) paths.push_back(std::move(f.second));
  return paths;
}

std::string firstLines(const std::string& path, size_t n) {
  std::ifstream in(path);
  std::string line, out;
  for (size_t i = 0; i < n && std::getline(in, line); ++i) out += (i ? " | " : "") + line;
  return out;
}

struct CudaTools {
  std::string nvcc, nvdisasm, cuobjdump;
};

// Opcodes and inline information for every instruction, from the cubins the collector kept.
void disassemble(Measurements& m, const std::string& cubinDir, const CudaTools& tools) {
  if (tools.nvdisasm.empty() && tools.cuobjdump.empty()) {
    m.notes.push_back("neither nvdisasm nor cuobjdump found: instruction widths and inlining not known");
    return;
  }
  for (const std::string& cubin : listFiles(cubinDir, ".cubin")) {
    const std::string listing = cubin + ".sass";
    RunOptions ro;
    ro.argv = tools.nvdisasm.empty() ? std::vector<std::string>{tools.cuobjdump, "-sass", cubin}
                                     : std::vector<std::string>{tools.nvdisasm, "-c", "-gi", cubin};
    ro.captureFile = listing;
    ro.timeoutSeconds = 120;
    const RunResult r = runProcess(ro);
    if (!r.succeeded()) {
      m.notes.push_back(fmt::format("disassembling {} {}", cubin, r.describe()));
      continue;
    }
    attachSass(m, parseSassListing(readAll(listing)));
  }
  // ptxas's registers per kernel, for the occupancy (docs/occupancy.md).
  if (tools.cuobjdump.empty()) return;
  for (const std::string& cubin : listFiles(cubinDir, ".cubin")) {
    RunOptions ro;
    ro.argv = {tools.cuobjdump, "--dump-resource-usage", cubin};
    ro.captureFile = cubin + ".resources";
    ro.timeoutSeconds = 60;
    if (runProcess(ro).succeeded()) mergeResources(m.kernelResources, parseResourceUsage(readAll(ro.captureFile)));
  }
}

// The one-line reason a collection failed, from the collector's own error.
std::string collectorFailure(const Measurements& m) {
  std::string prefix = "CUPTI error";
  if (m.errorKind == ErrorKind::NoPermission) prefix = "no permission to read GPU counters";
  else if (m.errorKind == ErrorKind::UnsupportedDevice) prefix = "unsupported device";
  else if (m.errorKind == ErrorKind::NoGpu) prefix = "no GPU";
  return fmt::format("{}: {}", prefix, m.error);
}

// Runs one program under the injection library; throws VerifyError with one line on
// every way it can fail.
Measurements collect(const std::vector<std::string>& argv, const std::string& inject, const std::string& work,
                     int index, const VerifyOptions& o, const CudaTools& tools) {
  const std::string out = fmt::format("{}/measurements_{}.json", work, index);
  const std::string cubins = fmt::format("{}/cubins_{}", work, index);
  std::error_code ec;
  fs::create_directory(cubins, ec);
  for (const std::string& stale : processFiles(out)) fs::remove(stale, ec);
  RunOptions ro;
  ro.argv = argv;
  ro.timeoutSeconds = o.timeout;
  ro.stdoutToStderr = true;
  ro.extraEnv = {{"CUDA_INJECTION64_PATH", inject},
                 {"COALESCE_VERIFY_OUT", out},
                 {"COALESCE_VERIFY_PER_PROCESS", "1"},
                 {"COALESCE_VERIFY_CUBIN_DIR", cubins},
                 {"COALESCE_VERIFY_QUIET", "1"},
                 {"COALESCE_VERIFY_SAMPLING", o.sample},
                 {"COALESCE_VERIFY_KERNEL_REGEX", o.kernelRegex},
                 {"COALESCE_VERIFY_LAUNCH_SKIP", std::to_string(o.launchSkip)},
                 {"COALESCE_VERIFY_LAUNCH_COUNT", std::to_string(o.launchCount)},
                 {"COALESCE_VERIFY_MAX_CONFIGS", std::to_string(o.maxConfigs)}};
  const std::string what = argv.front();
  const RunResult r = runProcess(ro);
  if (!r.started) throw VerifyError(fmt::format("{} {}", what, r.describe()));
  if (r.timedOut)
    throw VerifyError(fmt::format("{} did not finish within {} s (--timeout) and was killed; no measurements",
                                  what, formatNumber(o.timeout, NumberStyle::Shortest)));
  // A collector failure explains a crash better than the crash does. Every process that ran
  // CUDA wrote its own file; they are compared together.
  std::optional<Measurements> m;
  const std::vector<std::string> files = processFiles(out);
  for (const std::string& file : files) {
    try {
      Measurements one = loadMeasurements(file);
      if (!one.ok()) throw VerifyError(collectorFailure(one));
      if (!m) m = std::move(one);
      else {
        appendMeasurements(*m, one);
        m->processes += one.processes;
        mergeResources(m->kernelResources, one.kernelResources);
      }
    } catch (const VerifyError&) {
      throw;
    } catch (const std::exception& e) {
      if (r.succeeded()) throw VerifyError(e.what());
    }
  }

  if (r.signal)
    throw VerifyError(fmt::format("{} crashed (signal {}: {}); no measurements are used", what, r.signal,
                                  strsignal(r.signal)));
  if (r.exitCode != 0)
    throw VerifyError(fmt::format("{} exited with status {}; its measurements are not used", what, r.exitCode));
  if (!m)
    throw VerifyError(fmt::format("{} ran but the collector wrote no measurements: the injection library was not "
                                  "loaded (is {} loadable, and does the program use CUDA?)",
                                  what, inject));
  if (m->kernelLaunches == 0 && m->instructions.empty())
    throw VerifyError(fmt::format("{} launched no CUDA kernel: nothing to verify", what));
  disassemble(*m, cubins, tools);
  if (!o.keep.empty()) {
    // The measurements with each instruction's opcode and inlined-at chain from the
    // listings: `--measurements annotated_*.json` compares them again offline with no
    // --sass, and without mixing listings of same-named kernels of different programs.
    std::ofstream annotated(fmt::format("{}/annotated_{}.json", work, index));
    annotated << toJson(*m);
  }
  return *m;
}

// What --analyze predicts on: --sources, the database of -p, or else the .cu FILES being verified.
PredictInput analysisInput(const VerifyOptions& o) {
  PredictInput in;
  in.files = o.sources.empty() && o.buildDir.empty() ? o.files : o.sources;
  in.buildDir = o.buildDir;
  in.arch = o.arch;
  return in;
}

// Checks the combination of --analyze, --sources, -p and --predictions before anything runs.
void checkAnalyzeOptions(const VerifyOptions& o) {
  if (!o.analyze) {
    if (!o.sources.empty() || !o.buildDir.empty())
      throw VerifyError("--sources and -p/--build-dir name what --analyze predicts on: add --analyze");
    return;
  }
  if (!o.predictions.empty()) throw VerifyError("give either --predictions FILE or --analyze, not both");
  if (!o.predict)
    throw VerifyError("--analyze needs the analyzer, and this coalesce-lint is the verifier-only build (no LLVM): "
                      "run `coalesce-lint --format=json SOURCES > P.json` where the analyzer is built, then "
                      "verify --predictions P.json");
  if (o.sources.empty() && o.buildDir.empty() && o.files.empty())
    throw VerifyError("--analyze needs the program's sources: -p BUILD_DIR (a folder with compile_commands.json) "
                      "or --sources FILE...");
  for (const std::string& f : o.sources)
    if (!fs::exists(f)) throw VerifyError("--sources " + f + ": no such file or folder");
  if (!o.buildDir.empty()) {
    std::error_code ec;
    const bool isDir = fs::is_directory(o.buildDir, ec);
    const fs::path db = isDir ? fs::path(o.buildDir) / "compile_commands.json" : fs::path(o.buildDir);
    if (!fs::exists(db, ec))
      throw VerifyError("-p " + o.buildDir + ": " + (isDir ? "no compile_commands.json in it" : "no such folder"));
  }
}

// Whether the predictions come from the analyzer in this process (so it can predict again per
// configuration, compare_configurations.cpp) rather than from a file.
bool analyzerPredicts(const VerifyOptions& o) {
  return o.predictions.empty() && o.predict && (o.analyze || !o.files.empty());
}

Predictions obtainPredictions(const VerifyOptions& o) {
  if (!o.predictions.empty()) return loadPredictions(o.predictions);
  if (analyzerPredicts(o)) {
    std::string error;
    PredictInput in = analysisInput(o);
    if (!o.keep.empty()) in.jsonPath = (fs::path(makeWorkDir(o.keep)) / "predictions.json").string();
    auto p = o.predict(in, error);
    if (!p) throw VerifyError("could not analyse the sources: " + error);
    return std::move(*p);
  }
  throw VerifyError("--predictions P.json is required (produce it with `coalesce-lint --format=json` on a CPU "
                    "machine)");
}

std::vector<Measurements> loadRecorded(const VerifyOptions& o) {
  std::vector<Measurements> all;
  for (const std::string& f : o.measurementFiles) {
    Measurements m = loadMeasurements(f);
    if (!m.ok()) throw VerifyError(fmt::format("{}: recorded collection failed: {}", f, m.error));
    all.push_back(std::move(m));
  }
  for (const std::string& s : o.sassFiles) {
    const auto listing = parseSassListing(readAll(s));
    for (Measurements& m : all) attachSass(m, listing);
  }
  return all;
}

// Removes the work folder on every way out, unless the user asked to keep it.
struct WorkDirCleanup {
  std::string dir;
  bool keep;
  ~WorkDirCleanup() {
    std::error_code ec;
    if (!keep && !dir.empty()) fs::remove_all(dir, ec);
  }
};

// Builds FILES (or takes the program after "--") and collects each under the injection library.
std::vector<Measurements> buildAndCollect(const VerifyOptions& o) {
  const GpuInfo gpu = probeGpu();
  if (!gpu.ok) throw VerifyError(gpu.error);
  const std::string inject = findInjectLibrary(o);
  if (std::string err = tryLoadLibrary(inject); !err.empty()) {
    if (err.find("cupti") != std::string::npos)
      throw VerifyError("CUPTI not found: " + err + " (install the CUDA toolkit's CUPTI, or add its lib64 to "
                        "LD_LIBRARY_PATH)");
    throw VerifyError("cannot load the injection library: " + err);
  }
  CudaTools tools;
  if (!o.files.empty()) {
    tools.nvcc = o.nvcc.empty() ? findCudaTool("nvcc", "") : o.nvcc;
    if (tools.nvcc.empty() || !isExecutable(tools.nvcc))
      throw VerifyError("nvcc not found (set CUDA_HOME or pass --nvcc PATH)");
  } else {
    tools.nvcc = findCudaTool("nvcc", "");
  }
  tools.nvdisasm = findCudaTool("nvdisasm", tools.nvcc);
  tools.cuobjdump = findCudaTool("cuobjdump", tools.nvcc);
  const std::string work = makeWorkDir(o.keep);
  const WorkDirCleanup cleanup{work, !o.keep.empty()};
  std::vector<Measurements> all;
  if (o.files.empty()) {
    all.push_back(collect(o.command, inject, work, 0, o, tools));
    return all;
  }
  const std::string arch = o.arch.empty() ? fmt::format("sm_{}", gpu.sm) : o.arch;
  int index = 0;
  for (const std::string& file : o.files) {
    if (!fs::exists(file)) throw VerifyError(file + ": no such file");
    const std::string exe = fmt::format("{}/{}_{}", work, fs::path(file).stem().string(), index);
    RunOptions build;
    build.argv = {tools.nvcc, "-lineinfo", "-O2", "-arch=" + arch, "-o", exe, file};
    build.argv.insert(build.argv.end(), o.nvccFlags.begin(), o.nvccFlags.end());
    build.captureFile = exe + ".nvcc.log";
    build.timeoutSeconds = 600;
    const RunResult br = runProcess(build);
    if (!br.succeeded())
      throw VerifyError(
          fmt::format("nvcc failed on {} ({}): {}", file, br.describe(), firstLines(build.captureFile, 3)));
    all.push_back(collect({exe}, inject, work, index++, o, tools));
  }
  return all;
}

// One set of measurements from several programs' (their instructions side by side).
Measurements merge(const std::vector<Measurements>& all) {
  Measurements merged = all.front();
  for (size_t i = 1; i < all.size(); ++i) {
    appendMeasurements(merged, all[i]);
    mergeResources(merged.kernelResources, all[i].kernelResources);
  }
  return merged;
}

int compareAndReport(const VerifyOptions& o, const Predictions& predictions, const Measurements& merged) {
  CompareOptions options;
  options.relativeTolerance = o.relativeTolerance;
  if (analyzerPredicts(o))
    options.repredict = [&o, n = 0](const LaunchConfig& launch, std::string& error) mutable {
      PredictInput in = analysisInput(o);
      in.launches = {launch};
      if (!o.keep.empty()) in.jsonPath = fmt::format("{}/predictions_repredicted_{}.json", o.keep, n++);
      return o.predict(in, error);
    };
  const VerifyReport report = compare(predictions, merged, options);
  const int rc = exitCodeFor(report, o.allowNotFound);
  std::string text;
  if (o.format == "json") {
    text = formatJson(report, rc);
  } else if (o.format == "html") {
    // The predicted files as they are now, for the page's source views.
    text = formatHtml(report, rc, [](const std::string& path) -> std::optional<std::string> {
      std::ifstream in(path, std::ios::binary);
      if (!in) return std::nullopt;
      std::ostringstream s;
      s << in.rdbuf();
      return s.str();
    });
  } else {
    text = formatText(report);
  }
  if (!o.output.empty()) {
    std::ofstream f(o.output);
    if (!f) throw VerifyError("cannot write " + o.output);
    f << text;
  } else {
    std::fputs(text.c_str(), stdout);
  }
  if (rc == kExitIncomplete)
    std::fprintf(stderr,
                 "coalesce-lint verify: %zu predicted line(s) map to no executed instruction (inlined away, "
                 "optimised out, or never run): not a mismatch, but not confirmed either "
                 "(--allow-not-found accepts this)\n",
                 report.count(Verdict::NotFound));
  return rc;
}

}  // namespace

int runVerify(const VerifyOptions& o) {
  try {
    if (o.files.empty() && o.command.empty() && o.measurementFiles.empty())
      throw VerifyError("nothing to verify: give .cu FILES, or -- PROGRAM ARGS, or --measurements FILE");
    if (!o.files.empty() && !o.command.empty()) throw VerifyError("give either .cu FILES or -- PROGRAM ARGS, not both");
    if (!o.kernelRegex.empty()) {
      try {
        std::regex check(o.kernelRegex, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        throw VerifyError(fmt::format("--kernel-name '{}' is not a valid regular expression ({})", o.kernelRegex,
                                      e.what()));
      }
    }
    checkAnalyzeOptions(o);
    const Predictions predictions = obtainPredictions(o);
    const std::vector<Measurements> all = o.measurementFiles.empty() ? buildAndCollect(o) : loadRecorded(o);
    return compareAndReport(o, predictions, merge(all));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "coalesce-lint verify: error: %s\n", e.what());
    return kExitError;
  }
}

}  // namespace coalesce::verify
