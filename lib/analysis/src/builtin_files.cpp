// The embedded files and the in-memory overlay that serves them.
#include "coalesce/analysis/builtin_files.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "nvcc_spellings.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace coalesce::analysis {
namespace fs = std::filesystem;

namespace {

// Generated at build time by resources/embed.cmake from lib/analysis/resources/.
const BuiltinFile kEmbedded[] = {
#include "coalesce_builtin_resources.inc"
};

// Fields of cudaDeviceProp up to CUDA 12 that CUDA 13 dropped (all int).
constexpr std::string_view kLegacyDevicePropFields[] = {
    "clockRate",     "deviceOverlap",  "kernelExecTimeoutEnabled",         "computeMode",
    "maxTexture1DLinear", "memoryClockRate", "singleToDoublePrecisionPerfRatio", "cooperativeMultiDeviceLaunch"};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The patched driver_types.h of a toolkit, computed once per path: every job builds an overlay.
std::optional<std::string> patchedDriverTypes(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::optional<std::string>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(path);
  if (it == cache.end()) it = cache.emplace(path, addLegacyDevicePropFields(readFile(path))).first;
  return it->second;
}

void addFile(llvm::vfs::InMemoryFileSystem& memory, const std::string& path, std::string_view contents) {
  memory.addFile(path, /*ModificationTime=*/0,
                 llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(contents.data(), contents.size()), path));
}

// A real file whose text is read through nvccSpellings when, and only when, Clang asks for it:
// many opens are for a file's status alone (FileManager's stat of a header, the PCH's own
// lookup), and the precompiled headers themselves are read through this file system too. A
// binary file (a NUL byte among its first bytes: the header PCH of many megabytes, read two
// times per translation unit) is served as read; a source file that needs no rewrite keeps the
// buffer it was read into. Before this, every open read the whole file, searched it for each
// spelling, and read it a second time when nothing changed: a tenth of Rodinia's tree CPU
// (docs/analysis-speed.md, "Session 25").
class SpellingsFile : public llvm::vfs::File {
 public:
  explicit SpellingsFile(std::unique_ptr<llvm::vfs::File> inner) : inner_(std::move(inner)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return inner_->status(); }
  llvm::ErrorOr<std::string> getName() override { return inner_->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t fileSize,
                                                               bool requiresNullTerminator, bool isVolatile) override {
    auto buffer = inner_->getBuffer(name, fileSize, requiresNullTerminator, isVolatile);
    if (!buffer) return buffer;
    const llvm::StringRef text = (*buffer)->getBuffer();
    if (text.take_front(kBinaryProbe).contains('\0')) return buffer;
    std::optional<std::string> patched = nvccSpellings(std::string_view(text.data(), text.size()));
    if (!patched) return buffer;
    return llvm::MemoryBuffer::getMemBufferCopy(*patched, name);
  }
  std::error_code close() override { return inner_->close(); }

 private:
  static constexpr size_t kBinaryProbe = 4096;
  std::unique_ptr<llvm::vfs::File> inner_;
};

// The real files, each read through nvccSpellings (nvcc_spellings.h; the toolkit's headers
// have none: they come back as they are, at the cost of a search for each spelling).
class NvccSpellingsFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    auto file = ProxyFileSystem::openFileForRead(path);
    if (!file) return file;
    return std::unique_ptr<llvm::vfs::File>(std::make_unique<SpellingsFile>(std::move(*file)));
  }
};

// The quoted includes of Clang's CUDA runtime wrapper that the toolkit provides, read once per
// (resource folder, toolkit). The wrapper includes "cuda.h", "cuda_runtime.h" and co. by quoted
// name, so a project folder on -I with a header of the same name (darknet's own src/cuda.h)
// would be found before the toolkit's, and the wrapper then stops at "cuda.h did not define
// CUDA_VERSION". nvcc has no such wrapper: its force-included cuda_runtime.h never includes
// cuda.h. Each name gets a one-line forwarder beside the wrapper, which a quoted include finds
// first (the includer's folder), naming the toolkit's file by its absolute path.
std::mutex forwardersMutex;
std::set<std::string>& forwarderPaths() {
  static std::set<std::string> paths;  // every forwarder an overlay of this process serves
  return paths;
}

std::vector<std::string> wrapperIncludesFromToolkit(const std::string& resourceDir, const std::string& cudaPath) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, std::vector<std::string>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto [it, added] = cache.try_emplace({resourceDir, cudaPath});
  if (!added) return it->second;
  const fs::path include = fs::path(resourceDir) / "include";
  const std::string wrapper = readFile((include / "__clang_cuda_runtime_wrapper.h").string());
  std::set<std::string> names;
  for (size_t at = wrapper.find("#include \""); at != std::string::npos; at = wrapper.find("#include \"", at + 1)) {
    const size_t begin = at + 10, end = wrapper.find('"', begin);
    if (end == std::string::npos) break;
    names.insert(wrapper.substr(begin, end - begin));
  }
  std::error_code ec;
  for (const std::string& name : names)
    if (!fs::exists(include / name, ec) && fs::is_regular_file(fs::path(cudaPath) / "include" / name, ec))
      it->second.push_back(name);
  return it->second;
}

}  // namespace

const std::vector<BuiltinFile>& builtinFiles() {
  static const std::vector<BuiltinFile> files = [] {
    std::vector<BuiltinFile> v(std::begin(kEmbedded), std::end(kEmbedded));
    std::sort(v.begin(), v.end(), [](const BuiltinFile& a, const BuiltinFile& b) { return a.path < b.path; });
    return v;
  }();
  return files;
}

std::string builtinPath(std::string_view relative) {
  return std::string(kBuiltinRoot) + "/" + std::string(relative);
}
std::string shimIncludeDir() { return builtinPath("shim"); }
std::string builtinCudaRoot() { return builtinPath("cuda"); }
std::string builtinCudaIncludeDir() { return builtinPath("cuda/include"); }
std::string preludePath() { return builtinPath("prelude/coalesce_prelude.h"); }
std::string headerCacheSourcePath() { return builtinPath("header-cache/empty.cu"); }

bool isWrapperForwarder(const std::string& path) {
  const std::lock_guard<std::mutex> lock(forwardersMutex);
  return forwarderPaths().count(path) > 0;
}

namespace {

// Plain scanning rather than std::regex, which took some 10 ms over driver_types.h in
// every process (every file, with worker processes): a tenth of a file parsed over the
// shared precompiled headers (docs/architecture.md). Same matches as the patterns in the comments.
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// At `at`: `word` then at least one (plus=true) or any number of spaces; the position after them.
std::optional<size_t> wordThenSpaces(std::string_view text, size_t at, std::string_view word, bool plus) {
  if (text.substr(at, word.size()) != word) return std::nullopt;
  size_t i = at + word.size();
  const size_t first = i;
  while (i < text.size() && isSpace(text[i])) ++i;
  if (plus && i == first) return std::nullopt;
  return i;
}

// The position of the `{` of the first match of struct\s+(__device_builtin__\s+)?cudaDeviceProp\s*\{
std::optional<size_t> findDevicePropBrace(std::string_view text) {
  for (size_t at = text.find("struct"); at != std::string_view::npos; at = text.find("struct", at + 1)) {
    const auto afterStruct = wordThenSpaces(text, at, "struct", true);
    if (!afterStruct) continue;
    std::vector<size_t> names = {*afterStruct};
    if (auto afterBuiltin = wordThenSpaces(text, *afterStruct, "__device_builtin__", true))
      names.insert(names.begin(), *afterBuiltin);
    for (size_t name : names) {
      const auto brace = wordThenSpaces(text, name, "cudaDeviceProp", false);
      if (brace && *brace < text.size() && text[*brace] == '{') return *brace;
    }
  }
  return std::nullopt;
}

// \bword\b somewhere in text.
bool containsWord(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool startsWord = at == 0 || !isWordChar(text[at - 1]);
    const bool endsWord = at + word.size() == text.size() || !isWordChar(text[at + word.size()]);
    if (startsWord && endsWord) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> addLegacyDevicePropFields(std::string_view source) {
  std::string text(source);
  const std::optional<size_t> brace = findDevicePropBrace(text);
  if (!brace) return std::nullopt;

  // The body has no nested braces in any CUDA release, but count them anyway.
  const size_t open = *brace;
  size_t close = std::string::npos;
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string::npos) return std::nullopt;

  const std::string body = text.substr(open, close - open);
  std::string added;
  for (std::string_view field : kLegacyDevicePropFields)
    if (!containsWord(body, field)) added += " int " + std::string(field) + ";";
  if (added.empty()) return std::nullopt;
  text.insert(close, " /* coalesce-lint: fields removed in CUDA 13 */" + added + " ");
  return text;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeOverlayFileSystem(const Toolchain& toolchain,
                                                                       const OverlayOptions& options) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const BuiltinFile& file : builtinFiles()) addFile(*memory, builtinPath(file.path), file.contents);
  addFile(*memory, headerCacheSourcePath(), "");
  if (options.replacedFiles)
    for (const auto& [path, contents] : *options.replacedFiles) addFile(*memory, path, contents);

  if (toolchain.cudaPath && options.legacyDevicePropFields) {
    // Served at the toolkit's own path, so every route to the header (the wrapper's search,
    // cuda_runtime.h's relative include) reaches the same patched copy.
    llvm::SmallString<256> path(*toolchain.cudaPath);
    llvm::sys::path::append(path, "include", "driver_types.h");
    if (auto patched = patchedDriverTypes(std::string(path))) addFile(*memory, std::string(path), *patched);
  }

  if (toolchain.cudaPath) {
    // Clang accepts a toolkit only with bin/ and nvvm/libdevice/libdevice.10.bc. A syntax-only
    // pass reads neither, so trees without them (header-only packages) get empty stand-ins.
    // (-nocudalib would spare the libdevice check but also stops the driver from telling the
    // parser the CUDA version, and `<<<>>>` then looks for the pre-9.2 launch API.)
    const fs::path root(*toolchain.cudaPath);
    std::error_code ec;
    if (!fs::is_directory(root / "bin", ec)) addFile(*memory, (root / "bin" / ".coalesce-placeholder").string(), "");
    const fs::path libdevice = root / "nvvm" / "libdevice" / "libdevice.10.bc";
    if (!fs::exists(libdevice, ec)) addFile(*memory, libdevice.string(), "");
    for (const std::string& name : wrapperIncludesFromToolkit(toolchain.resourceDir, *toolchain.cudaPath)) {
      const std::string at = (fs::path(toolchain.resourceDir) / "include" / name).string();
      addFile(*memory, at, "#include \"" + (root / "include" / name).string() + "\"\n");
      const std::lock_guard<std::mutex> lock(forwardersMutex);
      forwarderPaths().insert(at);
    }
  }

  // A physical file system of its own rather than the process-wide one: Clang tools set the
  // working directory of the file system per job, and on the shared one that is a chdir()
  // for the whole process, which concurrent jobs would fight over.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real(llvm::vfs::createPhysicalFileSystem().release());
  auto physical = llvm::makeIntrusiveRefCnt<NvccSpellingsFileSystem>(real);
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(physical);
  overlay->pushOverlay(memory);
  if (!options.workingDirectory.empty()) overlay->setCurrentWorkingDirectory(options.workingDirectory);
  return overlay;
}

}  // namespace coalesce::analysis
