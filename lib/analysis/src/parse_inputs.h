// What a parse skips and what it read, for every parse the analysis makes: its own
// (analyze.cpp), a preamble's build (preamble_cache.cpp), a sibling file's (sibling_files.cpp).
#pragma once

#include <string>
#include <vector>

// Declared only: a test includes this (through preamble_cache.h) without Clang's headers.
namespace clang {
class Decl;
class FileManager;
}  // namespace clang

namespace coalesce::analysis {

// A function (or function template) declared in a system header.
bool isSystemHeaderFunction(const clang::Decl* d);
// The bodies a parse skips: host functions of the system headers (parse_inputs.cpp says why).
bool isHostOnlySystemHeaderFunction(const clang::Decl* d);
// The files a parse read, absolute, the built-in in-memory ones and `ownPch` left out (the
// result cache's inputs, result_cache.h).
std::vector<std::string> filesReadBy(const clang::FileManager& files, const std::string& directory,
                                     const std::string& ownPch);

}  // namespace coalesce::analysis
