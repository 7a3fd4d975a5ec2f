// The result cache between runs (result_cache.h says how it works; docs/cache.md for users).
#include "result_cache.h"

#include <clang/Basic/Version.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <fcntl.h>  // AT_FDCWD
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "command_line_text.h"

namespace coalesce::analysis {

namespace fs = std::filesystem;
namespace json = llvm::json;

namespace {

// The entry format. A new one lives in a folder of its own, so that two versions of the
// tool sharing a cache folder never read each other's entries.
constexpr const char* kEntryFormat = "coalesce-lint-cache/1";
constexpr const char* kEntriesFolder = "results-v1";
constexpr const char* kPchFormat = "coalesce-lint-pch/1";
constexpr const char* kPchFolder = "pch-v1";
constexpr const char* kPreambleFormat = "coalesce-lint-preamble/1";
constexpr const char* kSiblingFormat = "coalesce-lint-sibling/1";
constexpr const char* kTemporaryPrefix = "tmp.";

std::string toHex(llvm::ArrayRef<uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::optional<std::string> readWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

// Environment variables that change what Clang's header search finds.
constexpr const char* kParseEnvironment[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"};

}  // namespace

std::string defaultCacheDir() {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? v : "";
  };
  if (std::string d = env("COALESCE_LINT_CACHE_DIR"); !d.empty()) return d;
  // XDG base directories: a relative $XDG_CACHE_HOME is invalid and ignored.
  if (std::string x = env("XDG_CACHE_HOME"); !x.empty() && x.front() == '/') return x + "/coalesce-lint";
  if (std::string h = env("HOME"); !h.empty()) return h + "/.cache/coalesce-lint";
  return {};
}

const std::optional<std::string>& FileHashes::of(const std::string& path) {
  auto [it, inserted] = memo_.try_emplace(path);
  if (!inserted) return it->second;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) return it->second;
  llvm::BLAKE3 hasher;
  hasher.update((*buffer)->getBuffer());
  it->second = toHex(hasher.final<16>());
  return it->second;
}

KeyBuilder& KeyBuilder::add(std::string_view part) {
  // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
  const uint64_t size = part.size();
  hasher_.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(&size), sizeof size));
  hasher_.update(llvm::StringRef(part.data(), part.size()));
  return *this;
}

std::string KeyBuilder::hex() { return toHex(hasher_.final<32>()); }

std::string toolIdentity() {
  std::string id = kEntryFormat;
  id += '\n';
  id += clang::getClangFullVersion();
  // A rebuilt tool may analyse differently even under the same version number: its binary
  // is part of the key (as ccache's compiler_check = mtime).
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  struct stat st {};
  if (n > 0 && stat(std::string(exe, static_cast<size_t>(n)).c_str(), &st) == 0) {
    id += '\n';
    id.append(exe, static_cast<size_t>(n));
    id += '\n' + std::to_string(st.st_size) + ' ' + std::to_string(st.st_mtim.tv_sec) + '.' +
          std::to_string(st.st_mtim.tv_nsec);
  } else {
    id += "\nunknown executable";
  }
  return id;
}

namespace {
// The folder as an absolute path: a file parsed over a kept PCH is given the PCH by this path,
// and filesReadBy (analyze.cpp) leaves the PCH out of the entry's inputs by comparing it with
// the path Clang opened, which is absolute. Under a relative folder (`--cache-dir cache`) every
// entry listed the PCH itself, whose time stamp each run renews (pchInputs): as a file changed
// during the run, no entry was ever stored.
std::string absoluteFolder(const std::string& dir) {
  std::error_code ec;
  const fs::path p = fs::absolute(dir, ec);
  return ec ? dir : p.lexically_normal().string();
}
}  // namespace

ResultCache::ResultCache(const std::string& dir, uint64_t maxBytes)
    : root_((fs::path(absoluteFolder(dir)) / kEntriesFolder).string()),
      pchRoot_((fs::path(absoluteFolder(dir)) / kPchFolder).string()),
      dir_(dir),
      maxBytes_(maxBytes),
      tool_(toolIdentity()) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (!ec) fs::create_directories(pchRoot_, ec);
  if (ec) {
    problem_ = dir + ": cannot use the result cache folder: " + ec.message();
    return;
  }
  if (access(root_.c_str(), R_OK | W_OK | X_OK) != 0) {
    problem_ = dir + ": cannot use the result cache folder: not writable";
    return;
  }
  // Backup and archiving tools skip a folder holding this file (bford.info/cachedir).
  const fs::path tag = fs::path(dir) / "CACHEDIR.TAG";
  if (!fs::exists(tag, ec))
    writeAtomically(tag.string(),
                    "Signature: 8a477f597d28d172789f06886806bc55\n"
                    "# This file is a cache directory tag created by coalesce-lint (docs/cache.md).\n");
  // Taken from the file system's own clock, as the modification times it is compared with.
  const fs::path probe = fs::path(root_) / (kTemporaryPrefix + std::to_string(getpid()) + ".clock");
  if (writeAtomically(probe.string(), "")) {
    started_ = fs::last_write_time(probe, ec);
    fs::remove(probe, ec);
  } else {
    started_ = fs::file_time_type::clock::now();
  }
}

std::string ResultCache::entryPath(const std::string& key) const {
  return (fs::path(root_) / key.substr(0, 2) / (key.substr(2) + ".entry")).string();
}

std::string ResultCache::keyOf(const CompileJob& job, const AnalysisRequest& request) {
  const std::string main = cmdline::absoluteIn(job.directory, job.arguments.back());
  const std::optional<std::string>& contents = hashes_.of(main);
  if (!contents) return {};
  KeyBuilder key;
  key.add(tool_).add(job.file).add(job.directory).add(main).add(*contents);
  key.add(std::to_string(job.arguments.size()));
  for (const std::string& a : job.arguments) key.add(a);
  for (const char* var : kParseEnvironment) {
    const char* v = std::getenv(var);
    key.add(var).add(v ? v : "<unset>");
  }
  // The analysis options that shape records; the ones that change only speed
  // (reuseHeaders, keepPreambles, skipSystemHostBodies, isolateFiles, jobs) are left out, so that a run
  // with them reuses the entries of a run without (their records are equal: tested).
  key.add(request.gpuArch);
  if (request.blockDim)
    key.add(std::to_string(request.blockDim->x) + 'x' + std::to_string(request.blockDim->y) + 'x' +
            std::to_string(request.blockDim->z));
  else
    key.add("<no block>");
  for (const auto& [name, value] : request.assumedValues) key.add(name).add(std::to_string(value));
  key.add("max instantiations " + std::to_string(request.maxInstantiations));
  key.add(request.readSiblingFiles ? "<sibling files>" : "<no sibling files>");  // sibling_files.h
  // Launches recorded by verify (--launch-info) replace guesses: every field counts.
  for (const RecordedLaunch& r : request.recordedLaunches) {
    key.add(r.kernel).add(std::to_string(r.grid.x) + 'x' + std::to_string(r.grid.y) + 'x' + std::to_string(r.grid.z));
    key.add(std::to_string(r.block.x) + 'x' + std::to_string(r.block.y) + 'x' + std::to_string(r.block.z));
    for (const auto& arg : r.args) key.add(std::string(arg.begin(), arg.end()));
    key.add(r.source).add(std::to_string(r.launches));
  }
  return key.hex();
}

std::optional<std::pair<std::string, size_t>> ResultCache::readEntry(const std::string& path, const std::string& format,
                                                                     const std::string& key,
                                                                     std::vector<std::string>& files) {
  std::optional<std::string> text = readWhole(path);
  if (!text) return std::nullopt;
  const size_t newline = text->find('\n');
  if (newline == std::string::npos) return std::nullopt;
  auto header = json::parse(llvm::StringRef(text->data(), newline));
  if (!header) {
    llvm::consumeError(header.takeError());
    return std::nullopt;
  }
  const json::Object* h = header->getAsObject();
  if (!h || h->getString("format") != format || h->getString("key") != key) return std::nullopt;
  if (!unchanged(h->getArray("inputs"), files)) return std::nullopt;
  return std::make_pair(std::move(*text), newline + 1);
}

std::optional<WorkerOutcome> ResultCache::lookup(const std::string& key) {
  const std::string path = entryPath(key);
  std::vector<std::string> files;
  const auto entry = readEntry(path, kEntryFormat, key, files);
  if (!entry) return std::nullopt;
  WorkerOutcome outcome;
  if (!outcomeFromWire(std::string_view(entry->first).substr(entry->second), outcome).empty()) return std::nullopt;
  // Siblings read as text only (sibling_text.h): the folder must still give the same program.
  if (!siblingTexts_.holds(outcome.siblings)) return std::nullopt;
  outcome.inputs = std::move(files);
  outcome.cacheable = true;
  outcome.siblingsKept = 0;  // this run took nothing from the folder for it
  // A hit makes the entry the most recently used (trim() removes the oldest first).
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return outcome;
}

bool ResultCache::unchanged(const json::Array* inputs, std::vector<std::string>& files) {
  if (!inputs) return false;
  for (const json::Value& v : *inputs) {
    const json::Array* pair = v.getAsArray();
    if (!pair || pair->size() != 2) return false;
    auto file = (*pair)[0].getAsString();
    auto hash = (*pair)[1].getAsString();
    if (!file || !hash) return false;
    const std::optional<std::string>& now = hashes_.of(file->str());
    if (!now || *now != *hash) return false;  // a file the parse read has changed
    files.push_back(file->str());
  }
  return true;
}

std::optional<json::Array> ResultCache::listed(const std::vector<std::string>& inputs, bool afterParses) {
  json::Array out;
  for (const std::string& file : inputs) {
    const std::optional<std::string>& hash = hashes_.of(file);
    if (!hash) return std::nullopt;
    // Changed while this run was parsing: the records may be of the old contents, the
    // hash is of the new ones. Stores come after every parse of the run, so one look per
    // file and run is enough (a tree's files share most of their headers).
    auto changed = [&] {
      std::error_code ec;
      const auto modified = fs::last_write_time(file, ec);
      return ec || modified > started_;
    };
    if (!afterParses) {
      if (changed()) return std::nullopt;
    } else {
      auto [it, first] = changedDuringRun_.try_emplace(file, true);
      if (first) it->second = changed();
      if (it->second) return std::nullopt;
    }
    out.push_back(json::Array{file, *hash});
  }
  return out;
}

bool ResultCache::storeEntry(const std::string& path, const std::string& format, const std::string& key,
                             const std::vector<std::string>& inputs, bool afterParses, const std::string& body) {
  std::optional<json::Array> files = listed(inputs, afterParses);
  if (!files) return false;
  std::error_code ec;
  json::Object header{{"format", format}, {"key", key}, {"inputs", std::move(*files)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(header)) << '\n' << body;
  os.flush();
  fs::create_directories(fs::path(path).parent_path(), ec);
  return !ec && writeAtomically(path, text);
}

bool ResultCache::store(const std::string& key, const WorkerOutcome& outcome, const std::vector<std::string>& inputs) {
  return storeEntry(entryPath(key), kEntryFormat, key, inputs, /*afterParses=*/true, outcomeToWire(outcome));
}

// ---- sibling summaries kept between runs ----------------------------------------------------

std::string ResultCache::siblingKey(const std::vector<std::string>& arguments, const std::string& directory,
                                    bool skipHostBodies, std::string* pch) {
  // A kept PCH of the CUDA headers just before the file (header_cache.h, HeaderCache::prepare)
  // changes the parse's speed, not what it finds in the user's code: left out, so that a
  // summary made over it serves a parse without it and back. Its inputs are the entry's.
  std::vector<std::string> args = arguments;
  const size_t n = args.size();
  if (n >= 3 && args[n - 3] == "-include-pch" && llvm::StringRef(args[n - 2]).starts_with(pchRoot_ + "/")) {
    if (pch) *pch = args[n - 2];
    args.erase(args.end() - 3, args.end() - 1);
  }
  KeyBuilder key;
  key.add(kSiblingFormat).add(tool_).add(SiblingSummaries::keyOf(args, directory));
  key.add(skipHostBodies ? "skip host bodies" : "full parse");
  for (const char* var : kParseEnvironment) {
    const char* v = std::getenv(var);
    key.add(var).add(v ? v : "<unset>");
  }
  return key.hex();
}

std::string ResultCache::siblingPath(const std::string& key) const {
  return (fs::path(root_) / key.substr(0, 2) / (key.substr(2) + ".sibling")).string();
}

std::optional<SiblingSummary> ResultCache::loadSibling(const std::vector<std::string>& arguments,
                                                       const std::string& directory, bool skipHostBodies) {
  const std::string key = siblingKey(arguments, directory, skipHostBodies, nullptr);
  const std::string path = siblingPath(key);
  std::vector<std::string> files;
  const auto entry = readEntry(path, kSiblingFormat, key, files);
  if (!entry) return std::nullopt;
  std::optional<SiblingSummary> s = SiblingSummaries::fromText(entry->first.substr(entry->second));
  if (!s) return std::nullopt;
  s->inputs = std::move(files);  // the kept PCH's inputs included: the asking file's entry lists them
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return s;
}

bool ResultCache::storeSibling(const std::vector<std::string>& arguments, const std::string& directory,
                               bool skipHostBodies, const SiblingSummary& summary) {
  std::string pch;
  const std::string key = siblingKey(arguments, directory, skipHostBodies, &pch);
  std::vector<std::string> inputs = summary.inputs;
  if (!pch.empty() || (arguments.size() >= 3 && arguments[arguments.size() - 3] == "-include-pch")) {
    // Parsed over the CUDA headers' PCH: what that was built from is an input too (unknown
    // for a PCH that is not kept: nothing stored).
    const std::optional<std::string> meta = pch.empty() ? std::nullopt : readWhole(pch + "inputs");
    if (!meta) return false;
    auto parsed = json::parse(*meta);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      return false;
    }
    const json::Object* h = parsed->getAsObject();
    const json::Array* listed = h ? h->getArray("inputs") : nullptr;
    if (!listed) return false;
    for (const json::Value& v : *listed) {
      const json::Array* pair = v.getAsArray();
      auto file = pair && !pair->empty() ? (*pair)[0].getAsString() : std::nullopt;
      if (!file) return false;
      inputs.push_back(file->str());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  SiblingSummary body = summary;
  body.inputs.clear();  // listed in the header, with their hashes
  return storeEntry(siblingPath(key), kSiblingFormat, key, inputs, /*afterParses=*/false, SiblingSummaries::toText(body));
}

std::string ResultCache::pchKey(const std::string& flagSet, bool skipHostBodies) {
  KeyBuilder key;
  key.add(kPchFormat).add(tool_).add(flagSet).add(skipHostBodies ? "skip host bodies" : "full parse");
  for (const char* var : kParseEnvironment) {
    const char* v = std::getenv(var);
    key.add(var).add(v ? v : "<unset>");
  }
  return key.hex();
}

std::string ResultCache::preambleKey(const std::string& flagSet, bool skipHostBodies, const std::string& identity) {
  KeyBuilder key;
  key.add(kPreambleFormat).add(pchKey(flagSet, skipHostBodies)).add(identity);
  return key.hex();
}

std::string ResultCache::pchPath(const std::string& key) const { return (fs::path(pchRoot_) / (key + ".pch")).string(); }

std::optional<std::vector<std::string>> ResultCache::pchInputs(const std::string& key) {
  const std::string meta = pchPath(key) + "inputs";
  const std::optional<std::string> text = readWhole(meta);
  if (!text) return std::nullopt;
  auto parsed = json::parse(*text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  const json::Object* h = parsed->getAsObject();
  if (!h || h->getString("format") != kPchFormat || h->getString("key") != key) return std::nullopt;
  std::vector<std::string> files;
  std::error_code ec;
  if (!unchanged(h->getArray("inputs"), files) || !fs::is_regular_file(pchPath(key), ec)) return std::nullopt;
  utimensat(AT_FDCWD, pchPath(key).c_str(), nullptr, 0);
  utimensat(AT_FDCWD, meta.c_str(), nullptr, 0);
  return files;
}

std::string ResultCache::storePch(const std::string& key, const std::string& data,
                                  const std::vector<std::string>& inputs) {
  std::optional<json::Array> files = listed(inputs, /*afterParses=*/false);
  if (!files) return {};
  // The PCH first, then what it was built from: a reader that finds the second finds the first.
  const std::string path = pchPath(key);
  if (!writeAtomically(path, data)) return {};
  json::Object meta{{"format", kPchFormat}, {"key", key}, {"inputs", std::move(*files)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(meta));
  os.flush();
  return writeAtomically(path + "inputs", text) ? path : std::string();
}

KeptSiblingSummaries ResultCache::keptSiblings(std::mutex& mutex, bool skipHostBodies) {
  return KeptSiblingSummaries{
      [this, &mutex, skipHostBodies](const std::vector<std::string>& arguments, const std::string& directory) {
        std::lock_guard<std::mutex> lock(mutex);
        return loadSibling(arguments, directory, skipHostBodies);
      },
      [this, &mutex, skipHostBodies](const std::vector<std::string>& arguments, const std::string& directory,
                                     const SiblingSummary& s) {
        std::lock_guard<std::mutex> lock(mutex);
        storeSibling(arguments, directory, skipHostBodies, s);
      }};
}

bool ResultCache::writeAtomically(const std::string& path, const std::string& text) {
  static std::atomic<unsigned> counter{0};
  std::random_device random;
  const fs::path target(path);
  const fs::path temporary = target.parent_path() / (kTemporaryPrefix + std::to_string(getpid()) + "." +
                                                     std::to_string(counter++) + "." + std::to_string(random()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!(out << text) || !out.flush()) {
      std::error_code ec;
      fs::remove(temporary, ec);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) fs::remove(temporary, ec);
  return !ec;
}

void ResultCache::trim() {
  struct Entry {
    fs::file_time_type modified;
    uintmax_t size;
    fs::path path;
  };
  std::vector<Entry> entries;
  uintmax_t total = 0;
  const auto now = fs::file_time_type::clock::now();
  auto note = [&](const fs::directory_entry& file) {
    std::error_code ec;
    if (!file.is_regular_file(ec)) return;
    const std::string name = file.path().filename().string();
    const auto modified = file.last_write_time(ec);
    if (ec) return;
    if (name.rfind(kTemporaryPrefix, 0) == 0) {
      // Left by a run that was killed while writing; one being written now is younger.
      if (now - modified > std::chrono::hours(1)) fs::remove(file.path(), ec);
      return;
    }
    const auto extension = file.path().extension();
    if (extension != ".entry" && extension != ".sibling" && extension != ".pch" && extension != ".pchinputs")
      return;  // not ours
    const uintmax_t size = file.file_size(ec);
    if (ec) return;
    total += size;
    entries.push_back({modified, size, file.path()});
  };
  for (const std::string& folder : {root_, pchRoot_}) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) note(*it);
  }
  if (total <= maxBytes_) return;
  // Down to 90 % of the bound, so that the next runs do not each remove one entry.
  const uintmax_t goal = maxBytes_ / 10 * 9;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.modified < b.modified; });
  for (const Entry& e : entries) {
    if (total <= goal) break;
    std::error_code ec;
    if (fs::remove(e.path, ec)) total -= e.size;
  }
}

}  // namespace coalesce::analysis
