// Process isolation, the private side (worker.h has the public one): running a list of
// per-file passes in a few forked workers, one pass at a time each.
#pragma once

#include <cstddef>
#include <functional>

#include "kernel_analyzer.h"
#include "sibling_text.h"

namespace coalesce::analysis {

struct WorkerOutcome {
  FileRecord file;
  TranslationUnitResult tu;
  // The files the parse read from disk (absolute; the in-memory built-in files left out):
  // what the result cache checks before reusing these records (result_cache.h).
  std::vector<std::string> inputs;
  // The records are the analysis's own, not a worker that crashed, hung or was lost:
  // only those may be cached.
  bool cacheable = false;
  // The file was to be parsed over the run's precompiled header and could not be (it was
  // parsed again without): a PCH kept between runs is then removed (analyze.cpp).
  bool pchUnusable = false;
  // Which siblings the analysis took as its program's, read as text: the result cache checks
  // the choice again before reusing the records (sibling_text.h).
  SiblingCheck siblings;
  // Sibling summaries taken from the result cache's folder rather than parsed.
  size_t siblingsKept = 0;
};

// A worker's outcome as it travels (the records' wire format of worker.h, plus the files
// the parse read), and back; fromWire returns why it could not be read, or "".
std::string outcomeToWire(const WorkerOutcome& outcome);
std::string outcomeFromWire(std::string_view text, WorkerOutcome& out);

struct IsolatedRun {
  size_t count = 0;                // jobs 0..count-1
  unsigned parallel = 1;           // workers at once
  unsigned timeoutSeconds = 0;     // per job; 0: no limit
  // In the parent, for every job in order before the first worker is forked (e.g. to build
  // what job i will read): a worker sees the parent's memory as it was at its fork.
  std::function<void(size_t)> beforeFork;
  // In a worker: job i's pass. Its file path names it in failures and test triggers.
  std::function<WorkerOutcome(size_t)> run;
  std::function<std::string(size_t)> fileOf;
  // In each worker, first thing: let go of what the parent owns (temporary files it would
  // otherwise delete from its signal handlers should it crash).
  std::function<void()> inChild;
  // In the parent, as each job ends, in the order they end.
  std::function<void(size_t)> finished;
};

// Runs every job in a forked worker and returns their outcomes, by job. A worker runs one
// job after another; one that crashes, hangs past the deadline or is lost fails the job it
// was on and is replaced for the jobs left. Never throws; a failed job is a failed
// FileRecord saying why. The calling process must be
// single-threaded (fork copies only the calling thread, so locks held by others would
// stay locked in the child); analyze() checks this and analyses in process otherwise.
std::vector<WorkerOutcome> runIsolated(const IsolatedRun& run);

// Whether this process has one thread (Linux: /proc/self/task; elsewhere: false).
bool singleThreaded();

}  // namespace coalesce::analysis
