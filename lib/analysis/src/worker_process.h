// Process isolation, the private side (worker.h has the public one): the job a worker
// receives, its encoding, and the two ways of running one job.
#pragma once

#include <string>
#include <string_view>

#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/command_line.h"
#include "coalesce/analysis/cuda_toolchain.h"
#include "kernel_analyzer.h"

namespace coalesce::analysis {

struct WorkerOutcome {
  FileRecord file;
  TranslationUnitResult tu;
};

// Everything the per-file pass reads, as plain data.
struct WorkerJob {
  CompileJob job;
  Toolchain toolchain;
  std::string gpuArch;
  std::optional<model::Dim3> blockDim;
  std::map<std::string, int64_t> assumedValues;
};

std::string jobToJson(const WorkerJob& job);
std::string jobFromJson(std::string_view text, WorkerJob& out);  // empty, or why not

// analyze.cpp: the per-file pass in this process (what analyze() runs per file without
// a worker, and what the worker runs).
WorkerOutcome runJobHere(const CompileJob& job, const Toolchain& toolchain, const AnalysisRequest& request,
                         const model::Arch& arch);

// worker_process.cpp: the per-file pass in a child process (request.workerCommand), with
// request.fileTimeoutSeconds as its limit. Never throws; a failure is a failed FileRecord.
WorkerOutcome runJobInWorker(const CompileJob& job, const Toolchain& toolchain, const AnalysisRequest& request);

}  // namespace coalesce::analysis
