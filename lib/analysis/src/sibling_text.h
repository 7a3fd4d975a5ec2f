// Which files beside the analysed one belong to its program, read as text only (no parse):
// the folder's source files, whether one `main` is defined among them, and which siblings
// define one of the file's own functions (another version of it, linked instead). Used by
// sibling_files.cpp when the analysis asks for the rest of the program, and by the result
// cache (result_cache.cpp) before it reuses a result that asked: a sibling added or removed,
// or edited so that it starts or stops defining `main` or one of those functions, changes
// which siblings are the program's, so the result too (issue 16). No Clang here.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace coalesce::analysis {

// What a file's result took from its folder as text, to be checked again (SiblingTexts::holds).
// Travels with the worker's outcome and lives in its cache entry (worker_protocol.cpp).
struct SiblingCheck {
  bool asked = false;                // the analysis asked for the program's facts: else nothing to check
  std::string file;                  // the analysed file (absolute)
  bool fileDefinesMain = false;      // from the file's own parse
  std::vector<std::string> linked;   // the file's own linked definitions (sibling_files.cpp)
  // Source files of the file's folder that its own parse read (`#include "kernel.cu"`,
  // absolute): their code is in its AST already, so they are not read again.
  std::vector<std::string> included;
  bool oneProgram = false;           // exactly one `main` among the file and its siblings
  // The siblings taken as the program's, in order: with one `main`, the folder's; with none
  // (a library's folder), those that launch one of the file's kernels (its text's, and
  // `linked`), or where none does, the parent folder's files that launch them or call one of
  // the file's linked functions (its driver); else none.
  std::vector<std::string> read;
};

// The folder's text tests, each file read once per object (a run checks many entries of one
// folder). Not thread-safe.
class SiblingTexts {
 public:
  // The sibling files of `file` (absolute), in order: at most kMaxSiblingFiles source files of
  // its folder, none larger than kMaxSiblingBytes, the file itself left out.
  std::vector<std::string> siblingsOf(const std::string& file);
  // Whether `path` defines `main` (its text).
  bool definesMain(const std::string& path);
  // Whether `path` defines one of `names` (its text).
  bool definesAnyOf(const std::string& path, const std::vector<std::string>& names);
  // Whether `path` launches (`name<<<`) one of `names` (its text).
  bool launchesAnyOf(const std::string& path, const std::vector<std::string>& names);
  // Whether `path` calls (or declares, without defining) one of `names` (its text).
  bool callsAnyOf(const std::string& path, const std::vector<std::string>& names);

  // Fills `check`'s oneProgram and read for its file, fileDefinesMain, linked and included.
  void choose(SiblingCheck& check);
  // Before `file` (absolute) is parsed: how many of its siblings the analysis is likely to
  // parse with the file's own flags (the .cu ones choose() would read), from the texts alone:
  // its quoted includes as written, and no linked definitions (those come from the parse, and
  // only take siblings away); none for a file that defines `main` or has no `__global__`
  // in it or in what it includes (its analysis rarely or never asks for its siblings). What the header PCH's decision counts
  // (header_cache.h, HeaderCache): a one-file run whose siblings are parsed too parses the CUDA
  // headers as often.
  size_t likelyCudaSiblingParses(const std::string& file);
  // Whether the folder still gives `check`'s choice.
  bool holds(const SiblingCheck& check);

 private:
  struct Entry {
    std::string path;
    uint64_t device = 0, inode = 0;  // to leave the file itself out as fs::equivalent does
  };
  std::map<std::string, std::vector<Entry>> folders_;  // a folder's source files, sorted
  std::map<std::string, bool> mains_;
  std::map<std::string, std::string> texts_;  // read when a test needs the text again
  std::map<std::string, std::vector<std::string>> kernelNames_;  // textKernelNames, per file
  const std::string& textOf(const std::string& path);
  // The source files of `folder`, sorted: at most kMaxSiblingBytes each, read once per object.
  const std::vector<Entry>& sourcesIn(const std::string& folder);
  // The kernels `path`'s text defines (textKernelNames), read once per file.
  const std::vector<std::string>& kernelNamesOf(const std::string& path);
};

// The text tests themselves (exposed for the tests).
bool textDefinesMain(const std::string& text);
bool textDefinesFunction(const std::string& text, const std::string& name);
bool textLaunchesKernel(const std::string& text, const std::string& name);
bool textCallsFunction(const std::string& text, const std::string& name);
std::vector<std::string> textKernelNames(const std::string& text);
std::vector<std::string> quotedIncludes(const std::string& text);

}  // namespace coalesce::analysis
