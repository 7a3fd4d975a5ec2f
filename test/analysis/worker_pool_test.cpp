// The worker pool (lib/analysis/src/worker_process.cpp): a worker runs job after job; one that
// crashes or overruns its deadline fails its job only and is replaced for the jobs left.
// Each job's outcome names the worker that ran it (its pid as the path) and how many jobs
// that worker had run before it.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "worker_process.h"

using namespace coalesce;

namespace {
size_t jobsBefore = 0;  // per worker: each worker is a copy of this process
}

TEST_CASE("workers run job after job, and a crashed or hung one is replaced for the jobs left") {
  const std::vector<std::string> files = {"a.cu", "b.cu", "crash.cu", "c.cu", "hang.cu", "d.cu", "e.cu"};
  analysis::IsolatedRun run;
  run.count = files.size();
  run.parallel = GENERATE(1u, 2u);
  run.timeoutSeconds = 2;
  run.fileOf = [&](size_t i) { return files[i]; };
  size_t prepared = 0;
  run.beforeFork = [&](size_t) { ++prepared; };
  jobsBefore = 0;
  run.run = [&](size_t) {
    analysis::WorkerOutcome o;
    o.file.path = std::to_string(getpid());
    o.file.status = Status::Analysed;
    o.file.error = std::to_string(jobsBefore++);
    return o;
  };
  std::vector<size_t> finished;
  run.finished = [&](size_t i) { finished.push_back(i); };
  setenv("COALESCE_TEST_CRASH_ON", "crash.cu", 1);
  setenv("COALESCE_TEST_HANG_ON", "hang.cu", 1);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<analysis::WorkerOutcome> out = analysis::runIsolated(run);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  unsetenv("COALESCE_TEST_CRASH_ON");
  unsetenv("COALESCE_TEST_HANG_ON");

  INFO("workers at once: " << run.parallel);
  CHECK(prepared == files.size());  // every job's inputs made in this process, before the forks
  REQUIRE(out.size() == files.size());
  CHECK(finished.size() == files.size());
  CHECK(seconds < 20);
  CHECK(out[2].file.status == Status::Failed);
  CHECK_THAT(out[2].file.error, Catch::Contains("killed by SIGABRT"));
  CHECK(out[4].file.status == Status::Failed);
  CHECK_THAT(out[4].file.error, Catch::Contains("timed out"));
  std::map<std::string, std::vector<size_t>> byWorker;  // pid -> the jobs-before counts it reported
  for (size_t i : {0, 1, 3, 5, 6}) {
    INFO(files[i] << ": " << out[i].file.error);
    REQUIRE(out[i].file.status == Status::Analysed);
    CHECK(out[i].file.path != std::to_string(getpid()));  // never in this process
    byWorker[out[i].file.path].push_back(std::stoul(out[i].file.error));
  }
  // A worker that ran several jobs counted on from its earlier ones (it was not forked again).
  CHECK(std::any_of(byWorker.begin(), byWorker.end(), [](const auto& w) { return w.second.size() > 1; }));
  for (auto& [pid, counts] : byWorker) {
    std::sort(counts.begin(), counts.end());
    CHECK(std::adjacent_find(counts.begin(), counts.end()) == counts.end());
  }
  // The crash and the hang took their workers with them: the jobs after them ran in others.
  CHECK(byWorker.size() >= 2);
  CHECK(byWorker.size() < 5);
}
