// The host summaries of a run's sibling files, shared by the run's workers (issue 16;
// docs/block-shapes.md, "Launches from another file"). Every file of a folder that asks for
// the rest of its program (sibling_files.h) used to parse every sibling itself: a folder of N
// asking files cost N x (N - 1) parses (cuda-samples' eigenvalues, four .cu files: 4.3 s of
// CPU without the siblings, 13.8 s with them). A run now keeps each sibling's HostSummary,
// and the files its parse read, in a folder of its own (analyze.cpp makes it, when the run
// parses more than one file, and removes it at the end): the first worker to need a sibling
// parses it, the others read what it wrote. A file the run analyses is itself a sibling of the
// others: its worker puts the summary of its own parse there (analyze.cpp, before the
// analysis), so that a folder of N files analysed together and M other sources costs N + M
// parses, not N x (N + M - 1) more.
//
// A summary is keyed on the sibling's exact parse: its command line and working folder (a
// file's contents do not change during a run). Workers are forked processes or threads, so
// a sibling being parsed by one is claimed in the folder (its process id in a claim file):
// another worker that needs it waits for the summary, or parses it itself when the claimant
// has died (a crash, a time-out) or takes longer than kSiblingWaitSeconds.
#pragma once

#include <clang/Basic/FileManager.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "program_facts.h"

namespace coalesce::analysis {

struct SiblingSummary {
  HostSummary summary;
  std::vector<std::string> inputs;  // the files its parse read (absolute): the result cache checks them
};

class SiblingSummaries {
 public:
  // `folder` exists and is the run's own.
  explicit SiblingSummaries(std::string folder) : folder_(std::move(folder)) {}

  // The key of one sibling's parse.
  static std::string keyOf(const std::vector<std::string>& arguments, const std::string& directory);

  std::optional<SiblingSummary> load(const std::string& key) const;
  // Whether this worker may parse the sibling: no other has claimed it.
  bool claim(const std::string& key) const;
  // Whether the sibling's claimant is still at work (its process alive).
  bool claimHeld(const std::string& key) const;
  void store(const std::string& key, const SiblingSummary& s) const;
  // How many siblings the run's workers claimed (parsed once each, then shared).
  size_t claimed() const;

  // The text a summary is kept as, and back (nullopt: not one).
  static std::string toText(const SiblingSummary& s);
  static std::optional<SiblingSummary> fromText(const std::string& text);

 private:
  std::string folder_;
  std::string path(const std::string& key, const char* suffix) const { return folder_ + "/" + key + suffix; }
};

// Summaries kept between runs in the result cache's folder (ResultCache::loadSibling,
// storeSibling; docs/cache.md), keyed on the sibling's parse (its command line but the
// CUDA headers' PCH, its folder, the tool) and used only while every file the parse read is
// unchanged: a run that parses one file of a folder does not parse its siblings again.
struct KeptSiblingSummaries {
  std::function<std::optional<SiblingSummary>(const std::vector<std::string>& arguments, const std::string& directory)> load;
  std::function<void(const std::vector<std::string>& arguments, const std::string& directory, const SiblingSummary&)> store;
};

// The files a parse read through a FileManager, as the result cache lists them (analyze.cpp).
using FilesRead = std::function<std::vector<std::string>(const clang::FileManager&)>;

// Where a sibling's summary may be found before it is parsed (sibling_files.h).
struct SiblingSources {
  const SiblingSummaries* run = nullptr;       // the run's shared summaries
  const KeptSiblingSummaries* kept = nullptr;  // those kept between runs
  FilesRead filesRead;                         // required with either
  size_t* keptRead = nullptr;                  // counts the summaries taken from `kept`
};

}  // namespace coalesce::analysis
