#include "verify_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "coalesce/verify/compare.h"

namespace coalesce::cli {

namespace v = coalesce::verify;

namespace {

// Where libcoalesce_verify_inject.so may be when --inject is not given: next to this
// binary, in an installed tree's lib/, and in the build tree (the path the build passes
// in, see tools/coalesce-lint/CMakeLists.txt).
std::vector<std::string> injectSearchPaths() {
  namespace fs = std::filesystem;
  const char* name = "libcoalesce_verify_inject.so";
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path selfDir = ec ? fs::path(".") : self.parent_path();
  std::vector<std::string> paths{(selfDir / name).string(), (selfDir / ".." / "lib" / name).string()};
#ifdef COALESCE_VERIFY_INJECT_BUILD_PATH
  paths.emplace_back(COALESCE_VERIFY_INJECT_BUILD_PATH);
#endif
  return paths;
}

}  // namespace

CLI::App* addVerifyCommand(CLI::App& app, int& exitCode, PredictFunction predict) {
  auto opts = std::make_shared<v::VerifyOptions>();
  opts->predict = std::move(predict);
  CLI::App* sub = app.add_subcommand(
      "verify",
      "Build and run CUDA programs with per-instruction GPU counters (CUPTI) and compare each predicted access "
      "with what the hardware measured");
  sub->add_option("--predictions", opts->predictions, "predictions JSON (schema coalesce-lint/1)")
      ->check(CLI::ExistingFile);
  sub->add_flag("--analyze", opts->analyze,
                "predict now with the built-in analyzer instead of reading --predictions: on --sources, or on "
                "the sources of -p BUILD_DIR's compile_commands.json (not in the verifier-only build)");
  sub->add_option("--sources", opts->sources, "with --analyze: the program's .cu files or folders");
  sub->add_option("-p,--build-dir", opts->buildDir, "with --analyze: folder holding compile_commands.json");
  sub->add_option("files", opts->files, ".cu files to build with nvcc -lineinfo and run (each needs a main)");
  sub->add_option("--measurements", opts->measurementFiles,
                  "compare recorded measurements (from libcoalesce_verify_inject.so) instead of running")
      ->check(CLI::ExistingFile);
  sub->add_option("--sass", opts->sassFiles, "SASS listings (cuobjdump -sass or nvdisasm -c -gi) for --measurements")
      ->check(CLI::ExistingFile);
  sub->add_option("--format", opts->format, "report format")->check(CLI::IsMember({"text", "json", "html"}));
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
  sub->add_option("--sample", opts->sample,
                  "which launches to instrument: config = the first of each distinct (kernel, grid, block, shared "
                  "memory, arguments) configuration (default), first = the first launch of each kernel (Nsight "
                  "Compute's --kernel-id ::regex:.:1), all = every launch")
      ->check(CLI::IsMember({"config", "first", "all"}));
  sub->add_option("--kernel-name", opts->kernelRegex, "instrument only kernels whose name matches this regex");
  sub->add_option("--launch-skip", opts->launchSkip, "per kernel, launches to run unmeasured before measuring");
  sub->add_option("--launch-count", opts->launchCount, "per kernel, the most launches to measure (0: no cap)");
  sub->add_option("--max-configs", opts->maxConfigs,
                  "with --sample config, per kernel, the most distinct configurations to measure (default 0: "
                  "every one)");
  sub->add_option_function<double>(
         "--tolerance", [opts](double percent) { opts->relativeTolerance = percent / 100; },
         "how far, in percent, a measured sectors or wavefronts per request may be from the prediction and "
         "still match (default 0.1)")
      ->check(CLI::Range(0.0, 100.0));
  sub->footer(
      "Run an unmodified program: coalesce-lint verify --predictions P.json -- ./app args\n"
      "Or predict on the fly: coalesce-lint verify --analyze -p BUILD_DIR -- ./app args\n"
      "Exit: 0 confirmed, 1 mismatch, 2 could not verify, 3 predicted lines with no instruction.");
  sub->callback([opts, sub, &exitCode] {
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
    opts->injectSearchPaths = injectSearchPaths();
    exitCode = v::runVerify(*opts);
  });
  sub->allow_extras();
  return sub;
}

}  // namespace coalesce::cli
