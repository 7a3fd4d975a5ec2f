// The per-translation-unit result the compiler launcher writes next to each object
// (docs/ci.md), and `merge` reads back: the records of one file, in the worker's exact wire
// format (worker.h), under a one-line header saying what they are.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "coalesce/records/records.h"

namespace coalesce::analysis {

struct ResultFile {
  std::string arch;                 // the architecture the figures are for ("sm_90")
  std::string source;               // the translation unit, as the compile command names it
  AnalysisResult records;
  std::vector<std::string> inputs;  // the files its parse read (absolute), for depfiles
};

// Written to a temporary file beside `path` and renamed over it: a concurrent reader (or a
// build interrupted midway) sees the old file or the new one, never half of one.
bool writeResultFile(const std::string& path, const ResultFile& result, std::string& error);

// nullopt with `error` (one line, naming the file) when it cannot be read or is not one.
std::optional<ResultFile> readResultFile(const std::string& path, std::string& error);

// Writes `text` to `path` atomically (as above); false when it could not.
bool writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace coalesce::analysis
