// Hints for files that fail on names their build defines: real code leaves BLOCK_SIZE,
// WARP_SIZE or a `dfloat` typedef to -D flags, and the error alone does not say which flag.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernel_analyzer.h"

namespace coalesce::analysis {

// Names the errors say are undeclared (`use of undeclared identifier 'BLOCK_SIZE'`, `unknown
// type name 'dfloat'`), in order, once each.
std::vector<std::string> undeclaredNames(const std::vector<TranslationUnitOptions::ErrorSpot>& errors);

// "; if the build defines 'dfloat' and 'BLOCK_SIZE', pass them after -- (coalesce-lint FILE --
// -DBLOCK_SIZE=...)", or nothing when `names` is empty.
std::string buildDefinesHint(const std::vector<std::string>& names);

// A header that declares one of `names`, included by a file the parse read only under an
// `#ifdef MACRO` (or `#if defined(MACRO)`) the build left undefined: ASTRA's
// gpu_fft_wrapper.h includes <cufft.h> under `#ifdef ASTRA_BUILDING_CUDA`, and without that
// flag every use of `cufftComplex` fails, where -DcufftComplex=... (the plain hint) would not
// help. Found by a line-based scan of `filesRead` (conditions other than one `defined` are
// not evaluated), the header looked up in `includeDirs` then beside its includer and taken
// only when the parse did not read it and its text names the undeclared name as a word.
struct GuardedInclude {
  std::string name;      // the undeclared name
  std::string header;    // as the directive spells it: <cufft.h>
  std::string includer;  // the file whose directive is skipped
  unsigned line = 0;     // of the directive
  std::string macro;     // ASTRA_BUILDING_CUDA
};
std::optional<GuardedInclude> guardedIncludeOf(const std::vector<std::string>& names,
                                               const std::vector<std::string>& filesRead,
                                               const std::vector<std::string>& includeDirs);

// The folders a command line searches for headers: -I, -isystem, -iquote, -idirafter
// (joined or apart) and --cuda-path's include folder, absolute against `directory`.
std::vector<std::string> headerSearchDirs(const std::vector<std::string>& arguments, const std::string& directory);

// "; 'cufftComplex' is declared in <cufft.h>, which gpu_fft_wrapper.h:5 includes only when
// `ASTRA_BUILDING_CUDA` is defined: if the build defines it, pass it after -- (coalesce-lint
// FILE -- -DASTRA_BUILDING_CUDA)"; buildDefinesHint(names) when nothing is found.
std::string undeclaredNamesHint(const std::vector<std::string>& names, const std::vector<std::string>& filesRead,
                                const std::vector<std::string>& includeDirs);

}  // namespace coalesce::analysis
