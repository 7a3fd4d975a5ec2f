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
  uint64_t launches = 1;                   // the launches the program made with this configuration
};

// One compiler command line, as a compile_commands.json entry holds it (and as the compiler
// launcher receives it: docs/ci.md).
struct DatabaseEntry {
  std::string file;                      // as in the database
  std::string directory;
  std::vector<std::string> commandLine;  // argv, [0] the compiler
};

// Where the result cache lives when no folder is given: $COALESCE_LINT_CACHE_DIR, else
// $XDG_CACHE_HOME/coalesce-lint, else $HOME/.cache/coalesce-lint (the XDG base directory
// specification); empty when none of them is set.
std::string defaultCacheDir();
inline constexpr uint64_t kDefaultCacheMaxBytes = uint64_t{1} << 30;  // 1 GiB
// Instantiations of one kernel template analysed per file (--max-instantiations; 0: all). A
// host dispatch over several template parameters makes thousands (DualSPHysics' particle
// interaction: 2,160 of one kernel, each about 0.5 s of analysis; docs/analysis-speed.md,
// "Session 24"); no file of the CUDA samples or Rodinia makes more than 63 of one (the reduction
// sample's `reduce7`), so their reports are those of every instantiation.
inline constexpr size_t kDefaultMaxInstantiations = 64;

struct AnalysisRequest {
  std::vector<std::string> inputs;           // files, or directories searched for .cu/.cuh
  std::string buildDir;                      // -p: folder holding compile_commands.json
  // Exact command lines, each analysed as its database entry would be (the compiler
  // launcher's, docs/ci.md). When set, `inputs` and `buildDir` are not read.
  std::vector<DatabaseEntry> commands;
  std::vector<std::string> extraArgs;        // compiler arguments after "--"
  std::string gpuArch = "sm_90";
  std::optional<std::string> cudaPath;       // overrides $CUDA_PATH and /usr/local/cuda
  bool builtinCuda = false;                  // use the built-in CUDA headers even if a toolkit exists
  std::optional<model::Dim3> blockDim;       // --block-dim: used when no launch fixes the shape
  std::map<std::string, int64_t> assumedValues;  // --assume NAME=VALUE for runtime scalars
  // Past this many instantiations of one kernel template in a file, only this many are
  // analysed, spread evenly over them (kernel_analyzer.cpp, `sampledInstantiations`); 0: all.
  size_t maxInstantiations = kDefaultMaxInstantiations;
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
  // Preambles (lib/analysis/src/preamble_cache.h): with a result cache and header reuse, a PCH
  // of each file's leading #include block is kept in the cache, so that the file's next parse
  // reads its headers from it. Off: only the forced includes' PCH is kept
  // (--no-preamble-cache). The results are the same either way.
  bool keepPreambles = true;
  // A preamble is built only in runs that parse at most this many files (the edit loop: an
  // editor, a pre-commit hook, a pull request touching a few files); a run over a whole tree
  // builds none (each costs about a parse of the file and 3 to 24 MB) and uses those kept.
  size_t preambleBuildLimit = 16;
  // A file's preamble is built on its second miss, not its first (docs/cache.md): the first
  // run of a file (a CI job's fresh cache, a file checked once) is parsed over the CUDA
  // headers' PCH and leaves a mark; a later run of the same file, after an edit, builds the
  // preamble its next runs read. True: built on the first miss (the preambles' tests).
  bool preambleOnFirstRun = false;
  // Speed (docs/architecture.md): the bodies of host functions declared in system headers are not
  // parsed (the analysis never reads them). Off: Clang parses everything (--full-parse).
  // The results are the same either way.
  bool skipSystemHostBodies = true;
  // Read the files beside each input (.c, .cpp, .cu in its folder) for host values the input
  // leaves open: a wrapper's arguments, struct members (sibling_files.h; --no-sibling-files).
  bool readSiblingFiles = true;
  // Result cache between runs (docs/cache.md): per file, its records are kept under
  // `cacheDir`, keyed on everything that can change them (the contents of the file and of
  // every file its parse read, the arguments, the analysis options, the tool and Clang), and
  // reused when nothing changed. Empty: no cache (the default here; the command line
  // turns it on). The results are the same either way (tested).
  std::string cacheDir;
  uint64_t cacheMaxBytes = kDefaultCacheMaxBytes;  // least recently used entries go beyond it
  // Diff-aware runs (docs/ci.md): when set, a file is analysed only if it, or a file it
  // reaches through #include (followed textually, the -I and -iquote folders of its
  // arguments), is one of these paths (absolute, normalised). The others are left out.
  std::optional<std::vector<std::string>> onlyFilesReaching;
  // In-memory copies of files, by absolute path: the parse reads these contents instead of
  // the files' (the re-analysis of a fix-it's edit, docs/fixes.md). A file analysed with a
  // copy of its own is neither looked up in nor stored to the result cache.
  std::map<std::string, std::string> replacedFiles;
  // Fill AnalysisStats::filesRead (the compiler launcher's depfiles, docs/ci.md).
  bool reportFilesRead = false;
  // Called once per finished file (from the coordinating thread).
  std::function<void(const std::string& file, size_t done, size_t total)> progress;
};

// What a run did besides its records, for the summary line and the benchmark.
struct AnalysisStats {
  size_t jobs = 0;           // files to analyse (translation units)
  size_t cacheHits = 0;      // of those, taken from the result cache
  size_t cacheStored = 0;    // entries written to it
  size_t notReachingDiff = 0;  // files left out by onlyFilesReaching
  // Sibling files parsed for their host code and shared by the run's workers, each once
  // (lib/analysis/src/sibling_summaries.h; runs that parse more than one file).
  size_t siblingParses = 0;
  // Sibling summaries taken from the result cache's folder, kept by an earlier run
  // (docs/cache.md, "Sibling files"), instead of parsing the sibling.
  size_t siblingsFromCache = 0;
  std::string cacheProblem;  // one line when the cache folder could not be used (the run goes on without)
  // With AnalysisRequest::reportFilesRead: per analysed file (as its records name it), the
  // files its parse read, absolute and sorted.
  std::map<std::string, std::vector<std::string>> filesRead;
};

// Analyses every input. Files that cannot be analysed come back as FileRecords with
// status Failed and a one-line reason; the others are analysed regardless.
AnalysisResult analyze(const AnalysisRequest& request, AnalysisStats* stats = nullptr);

}  // namespace coalesce::analysis
