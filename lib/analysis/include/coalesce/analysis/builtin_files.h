// Files the analysis needs that are not on disk: the empty texture_fetch_functions.h Clang 19
// asks for, the minimal CUDA SDK used when no toolkit is installed, the compatibility prelude,
// and a patched driver_types.h. They live in an in-memory file system overlaid on the real
// one, so the tool never writes into the user's tree and needs no temporary files.
#pragma once

#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "llvm/ADT/IntrusiveRefCntPtr.h"

#include "coalesce/analysis/cuda_toolchain.h"

namespace llvm::vfs {
class FileSystem;
}

namespace coalesce::analysis {

// The folder the built-in files appear under. Nothing exists there on disk; the name only
// has to be one no real include path uses.
inline constexpr std::string_view kBuiltinRoot = "/__coalesce_builtin__";

struct BuiltinFile {
  std::string_view path;      // relative to lib/analysis/resources/, e.g. "shim/texture_fetch_functions.h"
  std::string_view contents;
};
// Every embedded file, sorted by path.
const std::vector<BuiltinFile>& builtinFiles();

std::string builtinPath(std::string_view relative);  // kBuiltinRoot + "/" + relative
std::string shimIncludeDir();                        // holds texture_fetch_functions.h
std::string builtinCudaRoot();                       // the built-in "toolkit" (no bin/: Clang ignores it)
std::string builtinCudaIncludeDir();                 // its include/ (cuda_runtime.h, cuda.h, ...)
std::string preludePath();                           // the compatibility prelude
// An empty CUDA source that every overlay serves: the precompiled header of a run's forced
// includes is built over it (header reuse, docs/architecture.md; analyze.cpp), and a PCH is valid only
// where the source it was built from can be found.
std::string headerCacheSourcePath();
// Whether `path` is one of the one-line forwarders the overlay serves beside Clang's CUDA
// wrapper (makeOverlayFileSystem): served from memory, like the built-in files, so not an
// input of a cached result or a depfile (the toolkit file it names is).
bool isWrapperForwarder(const std::string& path);

// CUDA 13 removed fields of cudaDeviceProp that old host code still reads (clockRate,
// memoryClockRate, computeMode, ...). A struct cannot be reopened from the prelude, so the
// frontend serves a copy of driver_types.h with the missing ones appended, on the line of the
// closing brace so no line number moves. nullopt when nothing is missing or the struct is
// not found.
std::optional<std::string> addLegacyDevicePropFields(std::string_view driverTypesSource);

struct OverlayOptions {
  bool legacyDevicePropFields = true;  // serve the patched driver_types.h (tests turn it off)
  // The job's directory: Clang's driver checks the input file through the file system, so a
  // file given relative to CompileJob::directory is found only if the file system starts
  // there (ClangTool sets it itself; a bare ToolInvocation does not). Empty: the process's.
  std::string workingDirectory;
  // Files served from memory over the real ones, by absolute path (AnalysisRequest::replacedFiles).
  const std::map<std::string, std::string>* replacedFiles = nullptr;
};

// The real file system with the built-in files on top. Make one per job (or per thread): it
// carries its own working directory, which Clang tools set to the job's directory.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeOverlayFileSystem(const Toolchain& toolchain,
                                                                       const OverlayOptions& options = {});

}  // namespace coalesce::analysis
