// From what the user gave (files, directories, a compile_commands.json, extra arguments) to
// one Clang command line per file for the device-side parse. Everything before the AST.
// No Clang types here: jobs and records are plain data (builtin_files.h adds the overlay
// file system every job runs on).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/builtin_files.h"  // makeOverlayFileSystem, for running the jobs
#include "coalesce/analysis/cuda_toolchain.h"
#include "coalesce/records/records.h"

namespace coalesce::analysis {

struct CompileJob {
  std::string file;                    // as given on the command line or in the database
  std::string directory;               // working directory of the job (file and paths are relative to it)
  std::vector<std::string> arguments;  // full argv, [0] = "clang++", the file last
};

// The arguments but the file, and where they run: the key of a job's flag set, which the
// CUDA headers' PCH and the preambles (preamble_cache.cpp) are kept under.
std::string flagSetKey(const CompileJob& job);

// Jobs for every input file; inputs that cannot be turned into a job are appended to
// `failures` (status Failed, one-line error). An input that another input includes (and
// that the database, if any, does not list) gets no job of its own: its record, appended to
// `failures` too, has status Analysed and a note naming the includer it is parsed with. With request.buildDir set and no inputs, every
// CUDA entry of the database becomes a job; with inputs, each file takes its database entry
// (or, when it has none, the flags of the database entry nearest to it in the tree). A
// database that cannot be loaded is one failure for its path and no job at all: parsing with
// the wrong flags would give confident wrong answers.
std::vector<CompileJob> collectJobs(const AnalysisRequest& request, const Toolchain& toolchain,
                                    std::vector<FileRecord>& failures);

// Diff-aware runs (AnalysisRequest::onlyFilesReaching): the jobs whose file is one of
// `paths` or reaches one of them through #include, followed as inputsIncludedByOthers
// follows them (textually, conditional compilation not evaluated, the -I and -iquote
// folders of each job's arguments). `left` counts the jobs dropped. Of `notes`, the records
// of inputs another input includes (status Analysed, collectJobs), those of files that are
// not among `paths` are dropped too; failures stay.
std::vector<CompileJob> jobsReaching(std::vector<CompileJob> jobs, const std::vector<std::string>& paths,
                                     size_t& left, std::vector<FileRecord>& notes);

// ---- the steps collectJobs is made of (public for the tests) ------------------------------

// (a) Files as given; directories searched recursively for .cu and .cuh (sorted, each file
// once, symbolic-link loops followed once, build folders `CMakeFiles` and hidden folders
// skipped). Missing or unreadable entries become failures.
struct ExpandedInputs {
  std::vector<std::string> files;
  std::vector<FileRecord> failures;
};
ExpandedInputs expandInputs(const std::vector<std::string>& inputs);

// (a') Inputs that another input #includes. Rodinia-style code does `#include "kernel.cu"`
// in main.cu and compiles main.cu alone: kernel.cu is not a translation unit of the build,
// fails on its own for want of what main.cu defines before including it, and its kernels
// are parsed as part of main.cu anyway. Each #include of each input (both spellings, looked
// up as Clang does: next to the including file for "name", in `includeDirs`, the -I/-iquote
// folders of the run, and for <name> found nowhere else next to the includer, which Clang
// includes after an error) is
// followed, through headers that are not inputs too; an input reached from another input
// that nothing includes is mapped to that includer (the first in input order). Conditional
// compilation is not evaluated. Inputs that include each other in a cycle with no outside
// includer are left alone.
std::map<std::string, std::string> inputsIncludedByOthers(const std::vector<std::string>& files,
                                                          const std::vector<std::string>& includeDirs);

// (b) compile_commands.json from a build folder (or the path of the file itself); its entries
// are DatabaseEntry records (analyze.h).
struct CompilationDatabase {
  std::string path;                      // the compile_commands.json read
  std::vector<DatabaseEntry> entries;    // in file order
  std::string error;                     // one line; empty when loaded
};
CompilationDatabase loadCompilationDatabase(const std::string& buildDirOrFile);

// (c) A database command line reduced to the flags that shape what the parser sees
// (-I, -isystem, -iquote, -idirafter, -D, -U, -include, -imacros, -std, relocatable device
// code), with nvcc spellings translated to Clang's and relative paths made absolute against
// `directory`. Everything else is dropped and listed in `dropped`: code generation, output,
// dependency files, host-compiler and device-linker options, GPU targets (the analysis sets
// its own), and whatever is not known.
enum class CompilerFamily { Nvcc, ClangOrGcc };
CompilerFamily compilerFamily(const std::vector<std::string>& commandLine);
struct TranslatedFlags {
  std::vector<std::string> kept;
  std::vector<std::string> dropped;
  std::string error;  // e.g. an --options-file that cannot be read; empty when fine
};
TranslatedFlags translateCompileCommand(const std::vector<std::string>& commandLine, const std::string& directory);

// (d) The final argv for one file: clang++ in device-only syntax-only CUDA mode for the
// toolchain, the shim, the CCCL folder, the built-in headers or the toolkit, the prelude,
// the noise silencers, then the translated flags, then the user's extra arguments, then the file.
std::vector<std::string> buildClangArguments(const Toolchain& toolchain, const std::vector<std::string>& flags,
                                             const std::vector<std::string>& extraArgs, const std::string& file);

}  // namespace coalesce::analysis
