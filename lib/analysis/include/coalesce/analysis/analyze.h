// The frontend's one entry point: CUDA sources in, plain access records out.
// Nothing here prints; callers report what comes back.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/model/geometry.h"
#include "coalesce/records/records.h"

namespace coalesce::analysis {

// A launch as a program ran it, recorded by `coalesce-lint verify` (the measurements'
// `launch_configs`, docs/verification/README.md) and read back with --launch-info: its block,
// grid and scalar arguments replace what the analysis would find or guess for that kernel.
struct RecordedLaunch {
  std::string kernel;  // mangled name, as the driver reports it
  model::Dim3 grid, block;
  std::vector<std::vector<uint8_t>> args;  // each argument's bytes, in parameter order
  std::string source;                      // the file it was read from
};

struct AnalysisRequest {
  std::vector<std::string> inputs;           // files, or directories searched for .cu/.cuh
  std::string buildDir;                      // -p: folder holding compile_commands.json
  std::vector<std::string> extraArgs;        // compiler arguments after "--"
  std::string gpuArch = "sm_90";
  std::optional<std::string> cudaPath;       // overrides $CUDA_PATH and /usr/local/cuda
  bool builtinCuda = false;                  // use the built-in CUDA headers even if a toolkit exists
  std::optional<model::Dim3> blockDim;       // --block-dim: used when no launch fixes the shape
  std::map<std::string, int64_t> assumedValues;  // --assume NAME=VALUE for runtime scalars
  std::vector<RecordedLaunch> recordedLaunches;  // --launch-info
  unsigned jobs = 0;                         // 0: one per hardware thread
  unsigned fileTimeoutSeconds = 120;         // a file that takes longer is reported as failed
                                             // (enforced with isolateFiles; 0: no limit)
  // Process isolation (worker.h): each file is analysed in a child process forked from
  // this one, so a crash or a hang in the frontend costs that file only. Needs a
  // single-threaded caller (analyze() analyses in process otherwise). Off: every file in
  // this process, on a pool of threads.
  bool isolateFiles = false;
  // Header reuse (docs/architecture.md): files that share their flags share one precompiled header of
  // the forced includes (the CUDA headers), built once per run. Off: every file parses
  // them itself (--no-header-cache). The results are the same either way.
  bool reuseHeaders = true;
  // Speed (docs/architecture.md): the bodies of host functions declared in system headers are not
  // parsed (the analysis never reads them). Off: Clang parses everything (--full-parse).
  // The results are the same either way.
  bool skipSystemHostBodies = true;
  // Called once per finished file (from the coordinating thread).
  std::function<void(const std::string& file, size_t done, size_t total)> progress;
};

// Analyses every input. Files that cannot be analysed come back as FileRecords with
// status Failed and a one-line reason; the others are analysed regardless.
AnalysisResult analyze(const AnalysisRequest& request);

}  // namespace coalesce::analysis
