// Process isolation (issue 7): each file is analysed in a child process, so that a file
// that crashes or hangs the Clang frontend costs that file, never the run. The parent
// (analyze() with AnalysisRequest::workerCommand set) sends the child one job as JSON on
// its standard input; the child (`coalesce-lint --worker`, which calls runWorker) runs the
// very same per-file pass the in-process mode runs and writes back every field of every
// record it produced, doubles as their bit patterns, so the records the parent reads
// equal the ones an in-process run makes. A child that dies is reported as a failed file
// with the signal named; one that outlives AnalysisRequest::fileTimeoutSeconds is killed
// and reported as timed out.
//
// Test-only triggers, read by the worker alone (never by an in-process run):
//   COALESCE_TEST_CRASH_ON=<substring>  a worker whose file path contains it calls abort()
//   COALESCE_TEST_HANG_ON=<substring>   a worker whose file path contains it sleeps forever
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "coalesce/report/records.h"

namespace coalesce::analysis {

// The hidden command-line flag that puts coalesce-lint in worker mode.
inline constexpr std::string_view kWorkerFlag = "--worker";

// The worker's whole life: one job from stdin, its records on stdout. Returns the exit
// status (0 when the records were written, whatever the file's own status).
int runWorker();

// {this executable, "--worker"}, or empty when the running executable cannot be found
// (then the caller analyses in process).
std::vector<std::string> selfWorkerCommand();

// The records of a run as the worker sends them, and back. Every field of every record
// is written; fromJson fills `out` and returns an empty string, or returns why not.
std::string recordsToJson(const AnalysisResult& records);
std::string recordsFromJson(std::string_view text, AnalysisResult& out);

}  // namespace coalesce::analysis
