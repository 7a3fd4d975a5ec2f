// Diff-aware gating (docs/ci.md): the lines a unified diff adds or changes, per file, as
// clang-tidy-diff reads them. Findings elsewhere are dropped by the filter stage
// (filter.h), and the analysis parses only the files the diff reaches (analyze.h,
// AnalysisRequest::onlyFilesReaching).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "coalesce/report/result.h"

namespace coalesce::report {

class ChangedLines {
 public:
  // Whether `line` of `path` (as a finding names it: relative to the current directory,
  // or absolute) is one the diff adds or changes.
  bool contains(const std::string& path, unsigned line) const;
  // The files the diff leaves with at least one line (absolute, symbolic links resolved).
  std::vector<std::string> files() const;
  size_t fileCount() const { return ranges_.size(); }

  // Adds lines first..last of `absolutePath`.
  void add(const std::string& absolutePath, unsigned first, unsigned last);
  // Adds many [first, last] ranges of one file at once (the parser below: one look at the
  // file system and one sort per file, however many lines a diff adds).
  void add(const std::string& absolutePath, std::vector<std::pair<unsigned, unsigned>> ranges);

 private:
  // Canonical path -> sorted, disjoint [first, last] ranges.
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> ranges_;
};

// Reads a unified diff (`git diff`, with or without context lines, `diff -u`). The new side's
// name is taken from each "+++ " line: git's "b/" prefix is removed when the "--- " line has
// git's "a/" (or is /dev/null), a tab and what follows it (diff -u's time stamp) are cut,
// git's quoted names are unquoted; relative names are resolved against `root`. Lines
// marked '+' are the changed ones; a hunk that only deletes changes none. `source` names the
// diff in errors ("diff.patch", "git diff main"); a hunk header that cannot be read, or a
// hunk that ends early, is an error naming the line.
Result<ChangedLines> parseUnifiedDiff(std::string_view diff, const std::string& root, const std::string& source);

// The canonical spelling ChangedLines compares: absolute against the current directory,
// normalised, symbolic links resolved.
std::string canonicalFilePath(const std::string& path);

}  // namespace coalesce::report
