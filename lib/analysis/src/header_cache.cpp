// The run's precompiled headers, one per flag set and one per shared include prefix (header_cache.h).
#include "header_cache.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Signals.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#if defined(__GLIBC__)
#include <malloc.h>  // malloc_trim
#endif

#include "coalesce/analysis/analyze.h"
#include "command_line_text.h"
#include "header_pch_build.h"
#include "result_cache.h"
#include "sibling_text.h"

namespace coalesce::analysis {

namespace {

// Files of a set that must begin with the same includes for their prefix to get a PCH: its
// build costs about one and a half parses of those headers (a chained PCH written), and each
// file parsed over it saves about one (docs/analysis-speed.md, "Include prefixes").
constexpr size_t kFilesPerPrefix = 3;

std::string writeTemporary(const std::string& data, const char* prefix) {
  int fd = -1;
  llvm::SmallString<256> path;
  if (llvm::sys::fs::createTemporaryFile(prefix, "pch", fd, path)) return {};
  llvm::sys::RemoveFileOnSignal(path);
  llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
  out << data;
  out.close();
  if (out.has_error()) {
    out.clear_error();
    llvm::sys::fs::remove(path);
    llvm::sys::DontRemoveFileOnSignal(path);
    return {};
  }
  return std::string(path);
}

std::string mainPathOf(const CompileJob& job) {
  return std::filesystem::path(cmdline::absoluteIn(job.directory, job.arguments.back())).lexically_normal().string();
}

// The build's AST is gone: give its pages back, so that they do not stay in this process's
// footprint while the files are analysed (here or in workers).
void trimAfterBuild() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace

HeaderCache::HeaderCache(const std::vector<const CompileJob*>& jobs, const Toolchain& toolchain,
                         const AnalysisRequest& request, ResultCache* kept, std::mutex& keptMutex)
    : toolchain_(toolchain), skipHostBodies_(request.skipSystemHostBodies), kept_(kept), keptMutex_(keptMutex) {
  if (!request.reuseHeaders) return;
  std::map<std::string, std::vector<const CompileJob*>> members;
  for (const CompileJob* each : jobs) {
    const CompileJob& job = *each;
    const bool ownPch = std::any_of(job.arguments.begin(), job.arguments.end(), [](const std::string& a) {
      return llvm::StringRef(a).starts_with(kIncludePch);
    });
    if (!ownPch && !job.arguments.empty()) {
      const std::string key = flagSetKey(job);
      FlagSet& set = sets_[key];
      if (set.files++ == 0) set.first = &job;
      members[key].push_back(&job);
    }
  }
  // A set of one file still parses the CUDA headers more than once when the file's siblings
  // are parsed too (their .cu ones with its flags, sibling_files.cpp): without a kept PCH,
  // one more parse of the set makes the PCH worth its build. Rodinia's hybridsort/mergesort.cu
  // alone parsed the headers four times (docs/analysis-speed.md, "session 32").
  if (!kept_ && request.readSiblingFiles) {
    SiblingTexts texts;
    for (auto& [key, set] : sets_)
      if (set.files == 1)
        set.files += texts.likelyCudaSiblingParses(cmdline::absoluteIn(set.first->directory, set.first->file));
  }
  // Include prefixes (header_pch_build.h), per set: its files' leading includes, read as text
  // (a file served from memory, a fix-it's copy, is left out: its text is not the file's).
  // Not with the result cache: its sets' PCHs are kept ones (header_cache.h).
  if (kept_) return;
  for (const auto& [key, jobsOfSet] : members) {
    if (jobsOfSet.size() < kFilesPerPrefix) continue;
    std::vector<std::vector<AngleInclude>> lines;
    std::vector<std::vector<std::string>> prefixes;
    std::vector<std::string> paths;
    for (const CompileJob* job : jobsOfSet) {
      paths.push_back(mainPathOf(*job));
      auto text = request.replacedFiles.count(paths.back()) ? nullptr : llvm::MemoryBuffer::getFile(paths.back());
      lines.push_back(text && *text ? leadingAngleIncludes((*text)->getBuffer().str()) : std::vector<AngleInclude>{});
      prefixes.emplace_back();
      for (const AngleInclude& line : lines.back()) prefixes.back().push_back(line.name);
    }
    const std::vector<size_t> chosen = chooseIncludePrefixes(prefixes, kFilesPerPrefix);
    for (size_t i = 0; i < paths.size(); ++i) {
      if (chosen[i] == 0) continue;
      FilePrefix& own = prefixOf_[key + std::string("\0", 1) + paths[i]];
      for (size_t n = 0; n < chosen[i]; ++n) own.lines.append(prefixes[i][n]).push_back('\n');
      own.bytes = lines[i][chosen[i] - 1].end;
      sets_[key].prefixes[own.lines];
    }
  }
}

HeaderCache::~HeaderCache() {
  auto remove = [](const Built& built) {
    if (built.path.empty() || built.kept) return;
    llvm::sys::fs::remove(built.path);
    llvm::sys::DontRemoveFileOnSignal(built.path);
  };
  for (auto& [key, set] : sets_) {
    remove(set);
    for (const auto& [prefix, built] : set.prefixes) remove(built);
  }
}

CompileJob HeaderCache::prepare(const CompileJob& job) {
  auto it = sets_.find(flagSetKey(job));
  if (it == sets_.end() || it->second.files < (kept_ ? 1u : 2u)) return job;
  FlagSet& set = it->second;
  std::call_once(set.once, [&] {
    if (kept_ && usePersistent(job, set)) return;
    if (auto pch = buildHeaderPch(job, toolchain_, skipHostBodies_, set.inputs)) {
      if (kept_) {
        std::lock_guard<std::mutex> lock(keptMutex_);
        set.path = kept_->storePch(kept_->pchKey(flagSetKey(job), skipHostBodies_), *pch, set.inputs);
        set.kept = !set.path.empty();
      }
      if (set.path.empty()) set.path = writeTemporary(*pch, "coalesce-lint-headers");
    }
    trimAfterBuild();
  });
  if (set.path.empty()) return job;
  CompileJob out = job;
  if (auto prefix = prefixOf_.find(it->first + std::string("\0", 1) + mainPathOf(job));
      prefix != prefixOf_.end())
    if (const Built& built = prefixPch(job, set, prefix->second.lines); !built.path.empty()) {
      // The prefix's lines are the PCH's: skipped, as a preamble's are (header_pch_build.h).
      out.arguments.insert(out.arguments.end() - 1, {kXclang, kPreambleBytes + std::to_string(prefix->second.bytes) + ",1",
                                                     kIncludePch, built.path});
      return out;
    }
  out.arguments.insert(out.arguments.end() - 1, {kIncludePch, set.path});
  return out;
}

const HeaderCache::Built& HeaderCache::prefixPch(const CompileJob& job, FlagSet& set, const std::string& prefix) {
  auto found = set.prefixes.find(prefix);  // made by the constructor: no insertion while others read
  Built& built = found->second;
  std::call_once(built.once, [&] {
    std::vector<std::string> headers;
    for (llvm::StringRef rest = prefix; !rest.empty();) {
      auto [line, after] = rest.split('\n');
      headers.push_back(line.str());
      rest = after;
    }
    std::vector<std::string> inputs;
    std::optional<std::string> pch = buildIncludePrefixPch(job, set.path, headers, toolchain_, skipHostBodies_, inputs);
    // A prefix that adds little to the set's PCH (at most 5 % of its bytes: <stdio.h> and the
    // like, which the CUDA headers mostly hold already) saves less than reading a second PCH
    // costs: its files are parsed over the set's alone (as preamble_cache.cpp's addsLittle).
    std::error_code ec;
    const uintmax_t base = std::filesystem::file_size(set.path, ec);
    if (pch && !ec && pch->size() > base / 20) {
      built.path = writeTemporary(*pch, "coalesce-lint-include-prefix");
      built.inputs = set.inputs;
      built.inputs.insert(built.inputs.end(), inputs.begin(), inputs.end());
    }
    trimAfterBuild();
  });
  return built;
}

const HeaderCache::FlagSet* HeaderCache::setOf(const CompileJob& prepared, const Built** prefix) const {
  if (prefix) *prefix = nullptr;
  if (!usesHeaderPch(prepared)) return nullptr;
  auto it = sets_.find(flagSetKey(withoutHeaderPch(prepared)));
  if (it == sets_.end()) return nullptr;
  const std::string& path = prepared.arguments[prepared.arguments.size() - 2];
  if (prefix && path != it->second.path)
    for (const auto& [lines, built] : it->second.prefixes)
      if (built.path == path) *prefix = &built;
  return &it->second;
}

std::vector<std::string> HeaderCache::inputsOf(const CompileJob& prepared) const {
  const Built* prefix = nullptr;
  const FlagSet* set = setOf(prepared, &prefix);
  return prefix ? prefix->inputs : set ? set->inputs : std::vector<std::string>{};
}

std::string HeaderCache::chainBaseOf(const CompileJob& prepared) const {
  const Built* prefix = nullptr;
  const FlagSet* set = setOf(prepared, &prefix);
  return prefix && set ? set->path : std::string();
}

std::vector<std::string> HeaderCache::overChainBase(const CompileJob& prepared, const std::string& chainBase) {
  if (chainBase.empty() || !skipsIncludePrefix(prepared)) return prepared.arguments;
  std::vector<std::string> out = withoutHeaderPch(prepared).arguments;
  out.insert(out.end() - 1, {kIncludePch, chainBase});
  return out;
}

void HeaderCache::forget(const CompileJob& prepared) {
  const FlagSet* set = setOf(prepared);
  if (!set || !set->kept) return;
  llvm::sys::fs::remove(set->path + "inputs");
  llvm::sys::fs::remove(set->path);
}

void HeaderCache::disownInChild() {
  for (auto& [key, set] : sets_) {
    if (!set.path.empty() && !set.kept) llvm::sys::DontRemoveFileOnSignal(set.path);
    for (const auto& [prefix, built] : set.prefixes)
      if (!built.path.empty()) llvm::sys::DontRemoveFileOnSignal(built.path);
  }
}

bool HeaderCache::usePersistent(const CompileJob& job, FlagSet& set) {
  std::lock_guard<std::mutex> lock(keptMutex_);
  const std::string key = kept_->pchKey(flagSetKey(job), skipHostBodies_);
  std::optional<std::vector<std::string>> inputs = kept_->pchInputs(key);
  if (!inputs) return false;
  set.path = kept_->pchPath(key);
  set.inputs = std::move(*inputs);
  set.kept = true;
  return true;
}

}  // namespace coalesce::analysis
