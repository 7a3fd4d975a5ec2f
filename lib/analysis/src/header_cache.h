// ---- header reuse (docs/architecture.md): one precompiled header per flag set ---------------
// Most of a file's parse is the headers every file is given before its first line: the
// driver's CUDA runtime wrapper (and with it cuda_runtime.h and the C++ library), the
// built-in CUDA headers in built-in mode, the compatibility prelude. With the same
// arguments that part is the same for every file. So when two or more files share their
// arguments, the first of them to start builds a precompiled header (PCH) of those forced
// includes over an empty source (headerCacheSourcePath()) with exactly those arguments,
// into a temporary file outside the user's tree (removed when analyze() returns, and on a
// fatal signal), while the others of the set wait; each file of the set is then parsed with
// `-include-pch` before it. Clang's PCH reader drops from the file's forced includes the
// ones the PCH holds (ASTReader, checkPreprocessorOptions), and the file's own
// `#include <cuda_runtime.h>` is skipped by its include guard, known from the PCH.
// A file on disk rather than memory, so that worker processes (worker.h) can read it too.
//   Not reused: the user's own forced includes (-include from the database or after --),
// which stay out of the PCH and are parsed with each file, after it, in their order; a flag
// set of one file (building the PCH would cost more than it saves), unless the result cache
// is on: then the PCH is kept in its folder between runs (ResultCache::storePch, keyed on the
// tool and the flag set, valid while none of the files it was built from changes), and a
// run over one file parses only that file; a flag set whose headers do not parse cleanly
// (each file reports their errors, as without reuse); AnalysisRequest::reuseHeaders off
// (--no-header-cache).
//   Include prefixes (header_pch_build.h): three or more files of a flag set that begin with
// the same `#include <x>` lines share a PCH of those headers too, built over the set's PCH
// and chained on it, in a temporary file; each of them is parsed over it with those lines
// skipped. Only in a run without the result cache, whose sets' PCHs are its own: a chained
// PCH names the PCH under it by path and checks its signature, and a kept one may be written
// again by another process of the run (the workers that use the cache build it each), and
// those workers would leave their own temporary files behind. With the cache, a file's next
// runs read its preamble (preamble_cache.h) instead.
//   Same results with and without: see Consumer::walkOnlyWhatThisFileAdded (analyze.cpp). A
// file whose PCH cannot be used (or whose parse over it crashes) is parsed again without it,
// and a kept PCH that failed so is removed (HeaderCache::forget).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "coalesce/analysis/command_line.h"

namespace coalesce::analysis {

struct AnalysisRequest;
struct Toolchain;
class ResultCache;

inline constexpr const char* kIncludePch = "-include-pch";
inline constexpr const char* kXclang = "-Xclang";
inline constexpr const char* kPreambleBytes = "-preamble-bytes=";

// As HeaderCache::prepare adds it: `-include-pch PATH` just before the file; over an include
// prefix's PCH, `-Xclang -preamble-bytes=N,1` before that (the prefix's lines skipped).
inline bool usesHeaderPch(const CompileJob& job) {
  const auto& a = job.arguments;
  return a.size() >= 3 && a[a.size() - 3] == kIncludePch;
}
inline bool skipsIncludePrefix(const CompileJob& job) {
  const auto& a = job.arguments;
  return usesHeaderPch(job) && a.size() >= 5 && a[a.size() - 5] == kXclang &&
         a[a.size() - 4].rfind(kPreambleBytes, 0) == 0;
}
inline CompileJob withoutHeaderPch(CompileJob job) {
  auto& a = job.arguments;
  a.erase(a.end() - (skipsIncludePrefix(job) ? 5 : 3), a.end() - 1);
  return job;
}

// The run's PCHs, one per flag set shared by two files or more, and one per include prefix
// three files of a set or more begin with, built on first use.
class HeaderCache {
 public:
  // `jobs`: the jobs this run will parse (not those the result cache answers). With a result
  // cache (`kept`), a flag set's PCH is kept there between runs and used from the first file
  // of a set: once it is stored, a run over one file parses only that file.
  // `keptMutex` guards `kept`, shared with the preambles' users.
  HeaderCache(const std::vector<const CompileJob*>& jobs, const Toolchain& toolchain, const AnalysisRequest& request,
              ResultCache* kept, std::mutex& keptMutex);
  HeaderCache(const HeaderCache&) = delete;
  HeaderCache& operator=(const HeaderCache&) = delete;
  ~HeaderCache();

  // The job as it is to run: with `-include-pch PCH` before its file when its flag set has
  // a PCH (the first job of the set to ask builds it; the others wait for it), its include
  // prefix's when it has one.
  CompileJob prepare(const CompileJob& job);

  // The files the PCH of a prepared job was built from (none without a PCH); over an include
  // prefix, those of the set's PCH too.
  std::vector<std::string> inputsOf(const CompileJob& prepared) const;

  // The set's PCH a prepared job's include prefix is chained on; empty when it is parsed over
  // none or the set's own. Its siblings are parsed over it (not over the prefix, which is this
  // file's), and it is not among the files the job read.
  std::string chainBaseOf(const CompileJob& prepared) const;
  // The prepared job's arguments over the set's PCH rather than its include prefix's (the
  // same when it has none): its siblings', and its own summary's key.
  static std::vector<std::string> overChainBase(const CompileJob& prepared, const std::string& chainBase);

  // A kept PCH that a file could not be parsed over (a damaged file under a valid record of
  // its inputs): removed, so that the next run builds it again.
  void forget(const CompileJob& prepared);

  // In a forked worker (worker.h): the PCHs are the parent's, to remove when its run ends;
  // the worker's signal handlers must not remove them should it crash.
  void disownInChild();

 private:
  struct Built {
    std::once_flag once;
    std::string path;  // the PCH; empty: none
    std::vector<std::string> inputs;  // the files it was built from
    bool kept = false;  // in the result cache's folder (not this run's to remove)
  };
  struct FlagSet : Built {
    size_t files = 0;  // parses of the set: its files, and the likely siblings of a lone one
    const CompileJob* first = nullptr;  // the set's first job (the constructor's `jobs` only)
    std::map<std::string, Built> prefixes;  // by their include lines, one per line
  };
  const Toolchain& toolchain_;
  const bool skipHostBodies_;
  ResultCache* kept_;
  std::mutex& keptMutex_;  // the result cache is not thread-safe; prepare() may be called from threads
  std::map<std::string, FlagSet> sets_;
  struct FilePrefix {
    std::string lines;  // the headers' names, one per line
    size_t bytes = 0;   // the part of the file they take
  };
  std::map<std::string, FilePrefix> prefixOf_;  // a file's include prefix, by its set's key, `\0` and its absolute path

  // The prefix's PCH over the set's, built once (its path empty when it cannot be).
  const Built& prefixPch(const CompileJob& job, FlagSet& set, const std::string& prefix);
  // The set a prepared job's PCH belongs to, and the prefix's PCH when it is one (null: none).
  const FlagSet* setOf(const CompileJob& prepared, const Built** prefix = nullptr) const;
  // The set's PCH from an earlier run, when it is kept and none of its inputs changed.
  bool usePersistent(const CompileJob& job, FlagSet& set);
};

}  // namespace coalesce::analysis
