// A fresh directory per test, removed afterwards, for config lookup and baseline files.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace coalesce::test {

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("coalesce-report-test-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& relative = "") const { return (path_ / relative).string(); }
  std::string write(const std::string& relative, const std::string& text) const {
    const auto p = path_ / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace coalesce::test
