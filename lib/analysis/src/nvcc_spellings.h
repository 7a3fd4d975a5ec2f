// Spellings nvcc's front end accepts and Clang's does not, rewritten as a file is read
// (builtin_files.cpp, NvccSpellingsFileSystem) so that the code parses as nvcc builds it.
// Every rewrite keeps the text's length and its line breaks where they were: the locations
// the analysis reports stay those of the user's file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace coalesce::analysis {

// `__shared__ alignas(16) float t[..]` -> `alignas(16) __shared__ float t[..]`.
std::optional<std::string> alignasFirst(std::string_view text);

// A launch written with spaces inside its brackets, `k << < grid, block >> > (args)` (Rodinia's
// particlefilter): Clang's lexer knows `<<<` and `>>>` only unbroken, so the launch, and with
// it the host function around it, fails to parse. Rewritten `k <<< grid, block >>> (args)`.
std::optional<std::string> joinedLaunchBrackets(std::string_view text);

// `const __restrict__ T *p` -> `const T *__restrict__ p` (nvcc reads the qualifier as the
// pointer's; Clang rejects a restrict on a non-pointer type).
std::optional<std::string> restrictAfterStar(std::string_view text);

// `asm("mov.u32 %0, %laneid;" : "=r"(id))` -> `asm("mov.u32 %0,%%laneid;" : "=r"(id))`: a
// PTX register's lone `%` in the template of an asm statement with operands.
std::optional<std::string> doubledAsmPercents(std::string_view text);

// Each, in turn; nullopt when none changed anything.
std::optional<std::string> nvccSpellings(std::string_view text);

}  // namespace coalesce::analysis
