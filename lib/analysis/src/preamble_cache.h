// The preamble of a file, precompiled and kept between runs (docs/analysis-speed.md,
// docs/cache.md): what clangd keeps per file, for a run that parses the file again.
//
// A file's preamble is its leading block of preprocessor directives (Clang's
// ComputePreambleBounds: `#include`, `#define`, `#if`..., up to the first token of code). On
// a tree of CUDA programs that block is most of a file's parse: the CUDA headers (the forced
// includes), then the host headers the file includes itself (<stdio.h>, <string>, the
// samples' helper headers). Clang's PrecompiledPreamble builds a PCH of it; the next parse
// of the file skips those bytes and reads the PCH instead (PreprocessorOptions::
// PrecompiledPreambleBytes), with every source location unchanged: the PCH keeps the
// preamble's locations, and the parse starts at the same offset of the same file.
//
// Kept in the result cache's PCH folder (ResultCache::storePch: written atomically, listed
// with the files it read and their contents' hashes, evicted with the other entries) under
// a key made of the tool, the flag set, whether host bodies are skipped, and the preamble's
// directives. Files whose preambles hold the same directives share one entry whatever their
// comments and blank lines (the samples of a tree, which include the same headers), unless
// the directives can depend on where the file is:
//   - a quoted `#include "x"` is looked up first in the file's own folder: the folder joins
//     the key;
//   - any directive but `#include <x>` / `#include "x"` (a `#define`, `#if`, `#pragma`...):
//     the preamble's exact text and the file's path join the key, so that every location
//     the PCH holds of the file's own text is the file's.
// A preamble whose build reports an error (a missing header) is kept as "none" (an empty
// PCH), so that later runs parse the file whole at once: the errors are then reported by
// the file's own parse, as without a preamble.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "parse_inputs.h"  // isHostOnlySystemHeaderFunction, filesReadBy

namespace clang {
class CompilerInvocation;
class Decl;
class FileManager;
}  // namespace clang

namespace coalesce::analysis {

class ResultCache;
struct CompileJob;

// A preamble PCH the file is to be parsed over.
struct PreambleUse {
  std::string path;  // the PCH, in the cache's folder
  unsigned bytes = 0;  // the preamble's size in this file
  bool endsAtStartOfLine = false;
  std::vector<std::string> inputs;  // the files it was built from (the file itself left out)
  // The file whose preamble it is (the PCH's original file), which a parse over it opens: when
  // it is another file sharing the directives, it is not among the parse's inputs.
  std::string builtFrom;
};

// The directives of a preamble's text as the key sees them (above); `quotedInclude` and
// `onlyIncludes` say what the text holds. Exposed for the tests.
struct PreambleDirectives {
  std::string text;  // one line per directive, comments and blank lines left out
  bool quotedInclude = false;
  bool onlyIncludes = true;
};
PreambleDirectives preambleDirectives(const std::string& preambleText);

class PreambleCache {
 public:
  // `mutex` guards `kept` (not thread-safe), shared with the header PCH's users.
  // `build`: build and keep the preambles that are not kept yet; off: only use those kept.
  // `onFirstRun`: build a file's preamble on its first miss; off: on its second, the first
  // leaving a mark (AnalysisRequest::preambleOnFirstRun).
  PreambleCache(ResultCache& kept, std::mutex& mutex, bool skipHostBodies, bool build, bool onFirstRun)
      : kept_(kept), mutex_(mutex), skipHostBodies_(skipHostBodies), build_(build), onFirstRun_(onFirstRun) {}

  // Sets `invocation` (the job's, after the driver) to parse its file over the file's kept
  // preamble, building and keeping it first when there is none; nullopt (invocation
  // unchanged) when the file has no preamble, its preamble does not build cleanly, or it is
  // not kept and this run does not build, or this is the file's first run (`onFirstRun` off).
  // `files`: the job's file manager (its file system finds the built-in headers).
  std::optional<PreambleUse> apply(clang::CompilerInvocation& invocation, clang::FileManager& files,
                                   const CompileJob& job);

  // A kept preamble a file could not be parsed over: removed (the next run builds it again).
  void forget(const PreambleUse& use);

 private:
  ResultCache& kept_;
  std::mutex& mutex_;
  const bool skipHostBodies_;
  const bool build_;
  const bool onFirstRun_;

  // True the first time a file (`mainPath`, under `flagSet`) asks for a preamble of these
  // directives: it leaves a mark (an empty entry of the PCH folder) and builds nothing.
  bool firstAsk(const std::string& flagSet, const std::string& identity, const std::string& mainPath);
  // True when a preamble of `preambleBytes` would add little to the flag set's kept PCH of the
  // CUDA headers (at most 5 % more bytes): parsing the file over that PCH costs less.
  bool addsLittle(const std::string& flagSet, size_t preambleBytes);
};

}  // namespace coalesce::analysis
