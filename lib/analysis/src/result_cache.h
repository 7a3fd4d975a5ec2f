// The result cache between runs (docs/cache.md): one entry per translation unit, holding its
// records and the files its parse read with their contents' hashes, under a key made of
// everything else that can change the records. ccache's "direct mode" is the model: the key
// covers what is known before the parse (the tool, Clang, the arguments, the analysis
// options, the file's own contents); the entry lists what the parse read, and is used only
// if every one of those files still has the contents it had.
//
// Entries are written to a temporary file and renamed into place, so a reader sees a whole
// entry or none, and concurrent runs sharing the folder never see each other's halves. An
// entry that cannot be read, is cut short, is of another format or belongs to another key
// is a miss, and the fresh result replaces it. The folder is kept under a size: the least
// recently used entries (by modification time, which a hit renews) go first.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <llvm/Support/BLAKE3.h>
#include <llvm/Support/JSON.h>

#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/command_line.h"
#include "sibling_summaries.h"
#include "sibling_text.h"
#include "worker_process.h"

namespace coalesce::analysis {

// The contents of files, hashed (BLAKE3, 128 bits, as hex) at most once per run.
class FileHashes {
 public:
  // nullopt when the file cannot be read.
  const std::optional<std::string>& of(const std::string& path);

 private:
  std::map<std::string, std::optional<std::string>> memo_;
};

// Identifies the program and the Clang it runs: this executable (path, size, modification
// time), the Clang version, the cache's format. Part of every key.
std::string toolIdentity();

// A BLAKE3 hash of length-prefixed parts, as hex (`bytes` of it).
class KeyBuilder {
 public:
  KeyBuilder& add(std::string_view part);
  std::string hex();

 private:
  llvm::BLAKE3 hasher_;
};

class ResultCache {
 public:
  // `dir` is created if needed; when it cannot be, the cache is unusable (problem() says
  // why) and the caller analyses without it.
  ResultCache(const std::string& dir, uint64_t maxBytes);

  bool usable() const { return problem_.empty(); }
  const std::string& problem() const { return problem_; }
  FileHashes& hashes() { return hashes_; }

  // The key of a job's records; empty when its file cannot be read (never cached).
  std::string keyOf(const CompileJob& job, const AnalysisRequest& request);

  // The records stored under `key`, if every file they were computed from is unchanged and
  // the file's folder still gives the same siblings as its program (sibling_text.h).
  std::optional<WorkerOutcome> lookup(const std::string& key);

  // Stores a fresh outcome, its parse having read `inputs` (absolute paths). Not stored
  // when one of them cannot be read or changed after this run started (its records may
  // mix two versions). Call it once every parse of the run is over (each file's time stamp
  // is looked at once). Returns whether an entry was written.
  bool store(const std::string& key, const WorkerOutcome& outcome, const std::vector<std::string>& inputs);

  // Removes the least recently used entries while the folder holds more than its size,
  // and temporary files that a killed run left behind.
  void trim();

  // The file of a key (for the tests).
  std::string entryPath(const std::string& key) const;

  // ---- the precompiled header of a flag set (header_cache.h), kept between runs
  // Its key: the tool, the flag set (working directory and arguments but the file), whether
  // host bodies are skipped, the parse environment.
  std::string pchKey(const std::string& flagSet, bool skipHostBodies);
  // The key of a file's preamble PCH (preamble_cache.h): as pchKey's, and what the preamble
  // holds (`identity`). Kept as the flag set's PCH is (pchPath, pchInputs, storePch).
  std::string preambleKey(const std::string& flagSet, bool skipHostBodies, const std::string& identity);
  std::string pchPath(const std::string& key) const;
  // The files the stored PCH of `key` was built from, when it is there and none of them
  // changed; a hit renews it.
  std::optional<std::vector<std::string>> pchInputs(const std::string& key);
  // Stores a PCH built from `inputs`; returns its path, or "" when it was not stored.
  std::string storePch(const std::string& key, const std::string& data, const std::vector<std::string>& inputs);

  // ---- sibling summaries kept between runs (sibling_summaries.h, KeptSiblingSummaries):
  // keyed on the tool, the sibling's parse (its command line but a kept CUDA headers' PCH
  // before its file, with which or without which its summary is the same, and its working
  // folder), whether host bodies are skipped and the parse environment; used while every file
  // the parse read (and the kept PCH's own inputs) is unchanged.
  std::optional<SiblingSummary> loadSibling(const std::vector<std::string>& arguments, const std::string& directory,
                                            bool skipHostBodies);
  // Returns whether it was stored (not when a file it read changed during the run, or when
  // it was parsed over a PCH that is not kept).
  bool storeSibling(const std::vector<std::string>& arguments, const std::string& directory, bool skipHostBodies,
                    const SiblingSummary& summary);

  // loadSibling and storeSibling for the workers, under `mutex` (threads share this cache).
  KeptSiblingSummaries keptSiblings(std::mutex& mutex, bool skipHostBodies);

  // Writes `text` to `path` atomically: a temporary file in the same folder, renamed over it.
  static bool writeAtomically(const std::string& path, const std::string& text);

 private:
  // The files' hashes as an entry lists them; nullopt when one cannot be read or changed
  // after this run started. `afterParses`: every parse of the run is over, so a file's time
  // stamp looked at once stands for all the entries that list it.
  std::optional<llvm::json::Array> listed(const std::vector<std::string>& inputs, bool afterParses);
  // Whether every [path, hash] pair of `inputs` still holds; the paths into `files`.
  bool unchanged(const llvm::json::Array* inputs, std::vector<std::string>& files);
  std::string siblingPath(const std::string& key) const;
  // The key of a sibling's summary; `pch`: the kept PCH its arguments name, if any.
  std::string siblingKey(const std::vector<std::string>& arguments, const std::string& directory, bool skipHostBodies,
                         std::string* pch);
  // A header line and a body, as an entry and a kept sibling summary are written.
  bool storeEntry(const std::string& path, const std::string& format, const std::string& key,
                  const std::vector<std::string>& inputs, bool afterParses, const std::string& body);
  // The text at `path` and the offset of its body, when its header line is of `format` and
  // `key` and lists inputs that are all unchanged (their paths into `files`).
  std::optional<std::pair<std::string, size_t>> readEntry(const std::string& path, const std::string& format,
                                                          const std::string& key, std::vector<std::string>& files);

  std::string root_;  // <dir>/results-v1
  std::string pchRoot_;  // <dir>/pch-v1
  std::string dir_;
  uint64_t maxBytes_;
  std::string problem_;
  std::string tool_;
  FileHashes hashes_;
  SiblingTexts siblingTexts_;  // lookup()'s check of the siblings, each file read once per run
  std::map<std::string, bool> changedDuringRun_;  // listed()'s look at each file, once per run
  std::filesystem::file_time_type started_;
};

}  // namespace coalesce::analysis
