// Finds and caches the configuration of each file: the nearest `.coalesce-lint.yaml`
// from its directory upward (or the explicit file), then the command-line values.
#include <map>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include "coalesce/report/config.h"
#include "paths.h"

namespace coalesce::report {

std::optional<std::string> findConfigFile(const std::string& path) {
  llvm::SmallString<256> dir(detail::absolutePath(path));
  if (!llvm::sys::fs::is_directory(dir)) llvm::sys::path::remove_filename(dir, llvm::sys::path::Style::posix);
  while (!dir.empty()) {
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, kConfigFileName);
    if (llvm::sys::fs::is_regular_file(candidate)) return std::string(candidate.str());
    // parent_path is a prefix of dir (a view into it): shrink rather than assign to itself.
    const size_t parent = llvm::sys::path::parent_path(dir, llvm::sys::path::Style::posix).size();
    if (parent == 0 || parent == dir.size()) break;
    dir.resize(parent);
  }
  return std::nullopt;
}

struct ConfigProvider::Cache {
  std::map<std::string, std::optional<std::string>> fileOfDirectory;  // dir -> config file
  std::map<std::string, Result<Config>> configOfFile;                 // "" when none applies
};

ConfigProvider::ConfigProvider(std::optional<std::string> explicitFile, Options overrides)
    : explicitFile_(std::move(explicitFile)), overrides_(std::move(overrides)), cache_(std::make_unique<Cache>()) {}

ConfigProvider::~ConfigProvider() = default;

Result<const Config*> ConfigProvider::configFor(const std::string& path) {
  std::optional<std::string> file = explicitFile_;
  if (!file) {
    llvm::SmallString<256> dir(detail::absolutePath(path));
    if (!llvm::sys::fs::is_directory(dir)) llvm::sys::path::remove_filename(dir, llvm::sys::path::Style::posix);
    auto [it, inserted] = cache_->fileOfDirectory.try_emplace(std::string(dir.str()));
    if (inserted) it->second = findConfigFile(std::string(dir.str()));
    file = it->second;
  }
  const std::string key = file.value_or("");
  auto it = cache_->configOfFile.find(key);
  if (it == cache_->configOfFile.end()) {
    Options layered;
    std::string source = "defaults";
    if (file) {
      Result<Options> loaded = loadConfigFile(*file);
      if (!loaded) {
        it = cache_->configOfFile.emplace(key, loaded.error()).first;
        return it->second.error();
      }
      layered = *loaded;
      source += " < " + *file;
    }
    layered.mergeFrom(overrides_);
    if (!overrides_.empty()) source += " < command line";
    it = cache_->configOfFile.emplace(key, Config::resolve(layered, source)).first;
  }
  if (!it->second) return it->second.error();
  return &*it->second;
}

}  // namespace coalesce::report
