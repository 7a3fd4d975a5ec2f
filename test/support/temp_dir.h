// A fresh folder under the temporary directory for one test, removed with everything in
// it afterwards. The one helper of its kind for every test directory.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace coalesce::test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "coalesce-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string str(const std::string& relative = "") const {
    return relative.empty() ? path_.string() : (path_ / relative).string();
  }

  // Writes `text` to `relative`, creating the folders on the way; returns the full path.
  std::string write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path full = path_ / relative;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full, std::ios::binary) << text;
    return full.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace coalesce::test
