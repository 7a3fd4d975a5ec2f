// Process isolation (docs/reliability.md): each file is analysed in a child process, so that a file
// that crashes or hangs the Clang frontend costs that file, never the run. With
// AnalysisRequest::isolateFiles, analyze() forks a few workers from its own,
// single-threaded process (no exec: a worker starts with the libraries loaded, the
// toolchain found and the run's precompiled headers built, so isolation costs a fork, not
// a program start; docs/architecture.md) and hands each one file at a time. A worker runs the very same per-file pass the in-process
// mode runs and writes back every field of every record it produced, doubles as their
// bit patterns, so the records the parent reads equal the ones an in-process run makes.
// A worker that dies fails its file, reported with the signal named; one whose file outlives
// AnalysisRequest::fileTimeoutSeconds is killed and the file reported as timed out. Either
// is replaced for the files left.
//
// Test-only triggers, read by the workers alone (never by an in-process run):
//   COALESCE_TEST_CRASH_ON=<substring>  a worker on a file whose path contains it calls abort()
//   COALESCE_TEST_HANG_ON=<substring>   a worker on a file whose path contains it sleeps forever
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
