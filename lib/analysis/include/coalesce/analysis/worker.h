// Process isolation (docs/reliability.md): each file is analysed in a child process, so that a file
// that crashes or hangs the Clang frontend costs that file, never the run. With
// AnalysisRequest::isolateFiles, analyze() forks one child per file from its own,
// single-threaded process (no exec: the child starts with the libraries loaded, the
// toolchain found and the run's precompiled headers built, so isolation costs a fork, not
// a program start; docs/architecture.md). The child runs the very same per-file pass the in-process
// mode runs and writes back every field of every record it produced, doubles as their
// bit patterns, so the records the parent reads equal the ones an in-process run makes.
// A child that dies is reported as a failed file with the signal named; one that outlives
// AnalysisRequest::fileTimeoutSeconds is killed and reported as timed out.
//
// Test-only triggers, read by the child alone (never by an in-process run):
//   COALESCE_TEST_CRASH_ON=<substring>  a child whose file path contains it calls abort()
//   COALESCE_TEST_HANG_ON=<substring>   a child whose file path contains it sleeps forever
#pragma once

#include <string>
#include <string_view>

#include "coalesce/records/records.h"

namespace coalesce::analysis {

// The records of a run as the child sends them, and back. Every field of every record
// is written; fromJson fills `out` and returns an empty string, or returns why not.
std::string recordsToJson(const AnalysisResult& records);
std::string recordsFromJson(std::string_view text, AnalysisResult& out);

// The same records in the compact binary form a worker writes to its parent and the result
// cache keeps (lib/analysis/src/worker_binary.cpp): read only by the executable that wrote
// it. fromBinary fills `out` and returns an empty string, or returns why not (a cut-short or
// damaged text is refused, never read past).
std::string recordsToBinary(const AnalysisResult& records);
std::string recordsFromBinary(std::string_view data, AnalysisResult& out);

}  // namespace coalesce::analysis
