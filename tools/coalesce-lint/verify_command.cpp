#include "verify_command.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "coalesce/verify/compare.h"
#include "coalesce/verify/measurements.h"
#include "coalesce/verify/process.h"
#include "coalesce/verify/report.h"
#include "coalesce/verify/sass.h"

namespace coalesce::cli {

namespace v = coalesce::verify;

namespace {

struct VerifyOptions {
  std::string predictions;
  std::vector<std::string> files;      // .cu files to build and run
  std::vector<std::string> command;    // after "--": an unmodified program and its arguments
  std::vector<std::string> measurementFiles;  // compare recorded measurements instead of running
  std::vector<std::string> sassFiles;  // listings for recorded measurements (opcodes, inline info)
  std::string format = "text";
  std::string output;
  double timeout = 120;
  std::string nvcc;
  std::string arch;
  std::vector<std::string> nvccFlags;
  std::string inject;
  std::string keep;
  bool allowNotFound = false;
};

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

bool exists(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0;
}

std::string dirOf(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

std::string stem(const std::string& p) {
  std::string b = p.substr(p.find_last_of('/') == std::string::npos ? 0 : p.find_last_of('/') + 1);
  const size_t dot = b.find_last_of('.');
  return dot == std::string::npos ? b : b.substr(0, dot);
}

std::string selfDir() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  return dirOf(buf);
}

std::string findInjectLibrary(const std::string& given) {
  if (!given.empty()) {
    if (!exists(given)) throw VerifyError("the injection library " + given + " does not exist");
    return given;
  }
  const char* name = "libcoalesce_verify_inject.so";
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COALESCE_VERIFY_INJECT")) candidates.emplace_back(env);
  const std::string self = selfDir();
  candidates.push_back(self + "/" + name);
  candidates.push_back(self + "/../lib/" + name);
  candidates.push_back(self + "/../../lib/verify/" + name);
#ifdef COALESCE_VERIFY_INJECT_BUILD_PATH
  candidates.emplace_back(COALESCE_VERIFY_INJECT_BUILD_PATH);
#endif
  for (const std::string& c : candidates)
    if (exists(c)) return c;
  throw VerifyError(
      "CUPTI collector not built: libcoalesce_verify_inject.so was not found (this coalesce-lint was built "
      "without CUDA/CUPTI, or pass --inject PATH)");
}

std::string findCudaTool(const std::string& given, const std::string& name, const std::string& nvccPath) {
  if (!given.empty()) return given;
  std::vector<std::string> candidates;
  if (!nvccPath.empty()) candidates.push_back(dirOf(nvccPath) + "/" + name);
  if (const char* home = std::getenv("CUDA_HOME")) candidates.push_back(std::string(home) + "/bin/" + name);
  if (const char* home = std::getenv("CUDA_PATH")) candidates.push_back(std::string(home) + "/bin/" + name);
  candidates.push_back("/usr/local/cuda/bin/" + name);
  for (const std::string& c : candidates)
    if (access(c.c_str(), X_OK) == 0) return c;
  if (auto p = v::findInPath(name)) return *p;
  return {};
}

std::string makeWorkDir(const std::string& keep) {
  if (!keep.empty()) {
    if (!exists(keep) && mkdir(keep.c_str(), 0755) != 0) throw VerifyError("cannot create " + keep);
    return keep;
  }
  std::string tmpl = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
                     "/coalesce-verify-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw VerifyError("cannot create a temporary directory");
  return tmpl;
}

void removeTree(const std::string& dir) {
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n == "." || n == "..") continue;
      const std::string p = dir + "/" + n;
      struct stat st {};
      if (lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) removeTree(p);
      else unlink(p.c_str());
    }
    closedir(d);
  }
  rmdir(dir.c_str());
}

std::vector<std::string> listFiles(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
        out.push_back(dir + "/" + n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string firstLines(const std::string& path, size_t n) {
  std::ifstream in(path);
  std::string line, out;
  for (size_t i = 0; i < n && std::getline(in, line); ++i) out += (i ? " | " : "") + line;
  return out;
}

// Opcodes and inline information for every instruction, from the cubins the collector kept.
void disassemble(v::Measurements& m, const std::string& cubinDir, const std::string& nvdisasm,
                 const std::string& cuobjdump, const std::string& workDir) {
  if (nvdisasm.empty() && cuobjdump.empty()) {
    m.notes.push_back("neither nvdisasm nor cuobjdump found: instruction widths and inlining not known");
    return;
  }
  for (const std::string& cubin : listFiles(cubinDir, ".cubin")) {
    const std::string listing = cubin + ".sass";
    v::RunOptions ro;
    ro.argv = nvdisasm.empty() ? std::vector<std::string>{cuobjdump, "-sass", cubin}
                               : std::vector<std::string>{nvdisasm, "-c", "-gi", cubin};
    ro.captureFile = listing;
    ro.timeoutSeconds = 120;
    const v::RunResult r = v::runProcess(ro);
    if (!r.succeeded()) {
      m.notes.push_back(fmt::format("disassembling {} {}", cubin, r.describe()));
      continue;
    }
    v::attachSass(m, v::parseSassListing(readAll(listing)));
  }
  (void)workDir;
}

// Runs one program under the injection library; throws VerifyError with one line on
// every way it can fail.
v::Measurements collect(const std::vector<std::string>& argv, const std::string& inject, const std::string& work,
                        int index, const VerifyOptions& o, const std::string& nvdisasm, const std::string& cuobjdump) {
  const std::string out = fmt::format("{}/measurements_{}.json", work, index);
  const std::string cubins = fmt::format("{}/cubins_{}", work, index);
  mkdir(cubins.c_str(), 0755);
  unlink(out.c_str());
  v::RunOptions ro;
  ro.argv = argv;
  ro.timeoutSeconds = o.timeout;
  ro.stdoutToStderr = true;
  ro.extraEnv = {{"CUDA_INJECTION64_PATH", inject},
                 {"COALESCE_VERIFY_OUT", out},
                 {"COALESCE_VERIFY_CUBIN_DIR", cubins},
                 {"COALESCE_VERIFY_QUIET", "1"}};
  const std::string what = argv.front();
  const v::RunResult r = v::runProcess(ro);
  if (!r.started) throw VerifyError(fmt::format("{} {}", what, r.describe()));
  if (r.timedOut)
    throw VerifyError(fmt::format("{} did not finish within {:g} s (--timeout) and was killed; no measurements",
                                  what, o.timeout));
  // A collector failure explains a crash better than the crash does.
  std::optional<v::Measurements> m;
  if (exists(out)) {
    try {
      m = v::loadMeasurements(out);
    } catch (const std::exception& e) {
      if (r.succeeded()) throw VerifyError(e.what());
    }
  }
  if (m && !m->ok()) {
    const std::string kind = v::toString(m->errorKind);
    std::string prefix = "CUPTI error";
    if (m->errorKind == v::ErrorKind::NoPermission) prefix = "no permission to read GPU counters";
    else if (m->errorKind == v::ErrorKind::UnsupportedDevice) prefix = "unsupported device";
    else if (m->errorKind == v::ErrorKind::NoGpu) prefix = "no GPU";
    (void)kind;
    throw VerifyError(fmt::format("{}: {}", prefix, m->error));
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
  disassemble(*m, cubins, nvdisasm, cuobjdump, work);
  if (!o.keep.empty()) {
    // The measurements with each instruction's opcode and inlined-at chain from the
    // listings: `--measurements annotated_*.json` compares them again offline with no
    // --sass, and without mixing listings of same-named kernels of different programs.
    std::ofstream annotated(fmt::format("{}/annotated_{}.json", work, index));
    annotated << v::toJson(*m);
  }
  return *m;
}

int runVerify(const VerifyOptions& o, const PredictFunction& predict) {
  auto fail = [](const std::string& msg) {
    std::fprintf(stderr, "coalesce-lint verify: error: %s\n", msg.c_str());
    return v::kExitError;
  };
  try {
    if (o.files.empty() && o.command.empty() && o.measurementFiles.empty())
      return fail("nothing to verify: give .cu FILES, or -- PROGRAM ARGS, or --measurements FILE");
    if (!o.files.empty() && !o.command.empty())
      return fail("give either .cu FILES or -- PROGRAM ARGS, not both");
    v::Predictions predictions;
    if (!o.predictions.empty()) {
      predictions = v::loadPredictions(o.predictions);
    } else if (predict && !o.files.empty()) {
      std::string error;
      auto p = predict(o.files, error);
      if (!p) return fail("could not analyse the files: " + error);
      predictions = std::move(*p);
    } else {
      return fail("--predictions P.json is required (produce it with `coalesce-lint --format=json` on a CPU "
                  "machine)");
    }

    std::vector<v::Measurements> all;
    std::string work;
    if (!o.measurementFiles.empty()) {
      for (const std::string& f : o.measurementFiles) {
        v::Measurements m = v::loadMeasurements(f);
        if (!m.ok()) return fail(fmt::format("{}: recorded collection failed: {}", f, m.error));
        all.push_back(std::move(m));
      }
      for (const std::string& s : o.sassFiles) {
        const auto listing = v::parseSassListing(readAll(s));
        for (v::Measurements& m : all) v::attachSass(m, listing);
      }
    } else {
      const v::GpuInfo gpu = v::probeGpu();
      if (!gpu.ok) return fail(gpu.error);
      const std::string inject = findInjectLibrary(o.inject);
      if (std::string err = v::tryLoadLibrary(inject); !err.empty()) {
        if (err.find("cupti") != std::string::npos)
          return fail("CUPTI not found: " + err + " (install the CUDA toolkit's CUPTI, or add its lib64 to "
                      "LD_LIBRARY_PATH)");
        return fail("cannot load the injection library: " + err);
      }
      std::string nvcc;
      if (!o.files.empty()) {
        nvcc = o.nvcc.empty() ? findCudaTool("", "nvcc", "") : o.nvcc;
        if (nvcc.empty() || access(nvcc.c_str(), X_OK) != 0)
          return fail("nvcc not found (set CUDA_HOME or pass --nvcc PATH)");
      } else {
        nvcc = findCudaTool("", "nvcc", "");
      }
      const std::string nvdisasm = findCudaTool("", "nvdisasm", nvcc);
      const std::string cuobjdump = findCudaTool("", "cuobjdump", nvcc);
      work = makeWorkDir(o.keep);
      struct Cleanup {
        std::string dir;
        bool keep;
        ~Cleanup() {
          if (!keep && !dir.empty()) removeTree(dir);
        }
      } cleanup{work, !o.keep.empty()};
      const std::string arch = o.arch.empty() ? fmt::format("sm_{}", gpu.sm) : o.arch;
      int index = 0;
      if (!o.files.empty()) {
        for (const std::string& file : o.files) {
          if (!exists(file)) return fail(file + ": no such file");
          const std::string exe = fmt::format("{}/{}_{}", work, stem(file), index);
          v::RunOptions build;
          build.argv = {nvcc, "-lineinfo", "-O2", "-arch=" + arch, "-o", exe, file};
          build.argv.insert(build.argv.end(), o.nvccFlags.begin(), o.nvccFlags.end());
          build.captureFile = exe + ".nvcc.log";
          build.timeoutSeconds = 600;
          const v::RunResult br = v::runProcess(build);
          if (!br.succeeded())
            return fail(fmt::format("nvcc failed on {} ({}): {}", file, br.describe(),
                                    firstLines(build.captureFile, 3)));
          all.push_back(collect({exe}, inject, work, index++, o, nvdisasm, cuobjdump));
        }
      } else {
        all.push_back(collect(o.command, inject, work, index++, o, nvdisasm, cuobjdump));
      }
    }
    v::Measurements merged = all.front();
    for (size_t i = 1; i < all.size(); ++i) {
      merged.instructions.insert(merged.instructions.end(), all[i].instructions.begin(), all[i].instructions.end());
      merged.kernelLaunches += all[i].kernelLaunches;
      merged.droppedRecords += all[i].droppedRecords;
    }
    const v::VerifyReport report = v::compare(predictions, merged);
    const int rc = v::exitCodeFor(report, o.allowNotFound);
    const std::string text = o.format == "json" ? v::formatJson(report, rc) : v::formatText(report);
    if (!o.output.empty()) {
      std::ofstream f(o.output);
      if (!f) return fail("cannot write " + o.output);
      f << text;
    } else {
      std::fputs(text.c_str(), stdout);
    }
    if (rc == v::kExitIncomplete)
      std::fprintf(stderr,
                   "coalesce-lint verify: %zu predicted line(s) map to no executed instruction (inlined away, "
                   "optimised out, or never run): not a mismatch, but not confirmed either "
                   "(--allow-not-found accepts this)\n",
                   report.count(v::Verdict::NotFound));
    return rc;
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace

CLI::App* addVerifyCommand(CLI::App& app, int& exitCode, PredictFunction predict) {
  auto opts = std::make_shared<VerifyOptions>();
  CLI::App* sub = app.add_subcommand(
      "verify",
      "Build and run CUDA programs with per-instruction GPU counters (CUPTI) and compare each predicted access "
      "with what the hardware measured");
  sub->add_option("--predictions", opts->predictions, "predictions JSON (schema coalesce-lint/1)")
      ->check(CLI::ExistingFile);
  sub->add_option("files", opts->files, ".cu files to build with nvcc -lineinfo and run (each needs a main)");
  sub->add_option("--measurements", opts->measurementFiles,
                  "compare recorded measurements (from libcoalesce_verify_inject.so) instead of running")
      ->check(CLI::ExistingFile);
  sub->add_option("--sass", opts->sassFiles, "SASS listings (cuobjdump -sass or nvdisasm -c -gi) for --measurements")
      ->check(CLI::ExistingFile);
  sub->add_option("--format", opts->format, "report format")->check(CLI::IsMember({"text", "json"}));
  sub->add_option("-o,--output", opts->output, "write the report to this file instead of stdout");
  sub->add_option("--timeout", opts->timeout, "seconds each program may run before it is killed (default 120)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--nvcc", opts->nvcc, "nvcc to build FILES with");
  sub->add_option("--arch", opts->arch, "GPU architecture for nvcc (default: the local GPU's, e.g. sm_90)");
  sub->add_option("-X,--nvcc-flag", opts->nvccFlags, "extra nvcc flag (repeatable)")->allow_extra_args(false);
  sub->add_option("--inject", opts->inject, "path of libcoalesce_verify_inject.so");
  sub->add_option("--keep", opts->keep,
                  "keep binaries, measurements, listings and annotated_N.json (the measurements with opcodes, "
                  "for --measurements) in this directory");
  sub->add_flag("--allow-not-found", opts->allowNotFound,
                "exit 0 even when predicted lines map to no instruction (inlined away or optimised out)");
  sub->footer(
      "Run an unmodified program: coalesce-lint verify --predictions P.json -- ./app args\n"
      "Exit: 0 confirmed, 1 mismatch, 2 could not verify, 3 predicted lines with no instruction.");
  sub->callback([opts, sub, &exitCode, predict] {
    // CLI11 hands everything after "--" to the positional list and leaves "--" in
    // remaining(): then the positionals are the program to run and its arguments.
    const auto rest = sub->remaining();
    if (std::find(rest.begin(), rest.end(), "--") != rest.end()) {
      opts->command = opts->files;
      opts->files.clear();
      if (opts->command.empty()) {
        std::fprintf(stderr, "coalesce-lint verify: error: no program after \"--\"\n");
        exitCode = v::kExitError;
        return;
      }
    } else if (!rest.empty()) {
      std::fprintf(stderr, "coalesce-lint verify: error: unexpected argument %s\n", rest.front().c_str());
      exitCode = v::kExitError;
      return;
    }
    exitCode = runVerify(*opts, predict);
  });
  sub->allow_extras();
  return sub;
}

}  // namespace coalesce::cli
