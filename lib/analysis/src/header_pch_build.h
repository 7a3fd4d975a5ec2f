// The precompiled headers a run builds for its files (header reuse, docs/architecture.md;
// docs/analysis-speed.md, "Include prefixes"):
//   - one of the CUDA headers every file is given before its first line (the forced
//     includes), per flag set: buildHeaderPch;
//   - one per *include prefix*, the leading `#include <x>` lines that several files of a
//     flag set begin with, built over the first and chained on it: buildIncludePrefixPch.
// On a tree of CUDA programs most of a file's parse is the headers it includes itself
// (cooperative_groups.h, the samples' helper headers, <iostream>...), not the forced ones:
// over the CUDA headers' PCH six CUDA samples still took 72 to 94 % of their whole
// parse. Files that begin with the same includes share them through the prefix's PCH.
//
// Why a parse over a prefix's PCH is the file's own parse: the file's first lines are exactly
// those includes (comments and blank lines apart), so the PCH holds what those lines make, in
// that order, after the forced includes, and the parse skips those lines' bytes as it skips a
// preamble's (PreprocessorOptions::PrecompiledPreambleBytes, `-preamble-bytes`: every location
// of the rest of the file unchanged). The build checks what that rests on, and gives no PCH
// otherwise:
//   - the build forces each header in with `-include x`, looked up first in the working
//     folder, then as `<x>` is: no file x in that folder, no `-iquote` or `-I-`;
//   - the job has no forced include of the user's own (those come before the file's lines);
//   - every file the PCH holds keeps its name (as preamble_cache.h: a `./` or relative name
//     would come back absolute and normalised, and the records' file names would change);
//   - no error, and none that CUDA defers in a function of the user's headers (Sema keeps
//     those, not the PCH: a file calling the function would not report them).
// The prefix may hold the user's headers (`-I` folders): a file parsed over it is walked as
// over a preamble (analyze.cpp, Consumer), their kernels and launches included.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}  // namespace clang

namespace coalesce::analysis {

struct CompileJob;
struct Toolchain;

// The PCH of `job`'s forced includes, built with its arguments over the empty source; nothing
// when the headers do not parse without errors or the frontend fails. `inputs` gets the
// files it read (result cache: a file parsed over the PCH depends on them too).
std::optional<std::string> buildHeaderPch(const CompileJob& job, const Toolchain& toolchain, bool skipHostBodies,
                                          std::vector<std::string>& inputs);

// The PCH of `headers` (names as in `#include <name>`, in order) over the CUDA headers' PCH
// `headerPch` of `job`'s flag set, chained on it; nothing when the checks above fail.
// `inputs` gets the files it read, `headerPch` left out.
std::optional<std::string> buildIncludePrefixPch(const CompileJob& job, const std::string& headerPch,
                                                 const std::vector<std::string>& headers, const Toolchain& toolchain,
                                                 bool skipHostBodies, std::vector<std::string>& inputs);

// A leading `#include <name>` line of a file: `end` is where what follows it starts (the
// next line's first token, comments skipped; the text's size at its end), a line's start.
struct AngleInclude {
  std::string name;
  size_t end = 0;
};
// The leading `#include <x>` lines of a file's text, up to the first line that is anything
// else (comments and blank lines skipped).
std::vector<AngleInclude> leadingAngleIncludes(const std::string& text);

// For each file, given its leading includes, how many of them its prefix group holds (0: none):
// the longest prefix at least `minFiles` files share, such that each group chosen serves at
// least `minFiles` files (a prefix's build costs about one and a half parses of its headers,
// each file over it saves about one).
std::vector<size_t> chooseIncludePrefixes(const std::vector<std::vector<std::string>>& prefixes, size_t minFiles);

// Whether every file the parse read keeps its name in a PCH (preamble_cache.h: the PCH
// writer stores names absolute and without `.` components), the main file left out.
bool pchKeepsFileNames(const clang::CompilerInstance& ci);

}  // namespace coalesce::analysis
