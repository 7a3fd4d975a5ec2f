#include "paths.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace coalesce::report::detail {

std::string normalisePath(std::string_view path) {
  llvm::SmallString<256> p(llvm::StringRef(path.data(), path.size()));
  llvm::sys::path::native(p, llvm::sys::path::Style::posix);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
  return std::string(p.str());
}

bool isSystemPath(std::string_view p) {
  for (std::string_view prefix : {"/usr/", "/opt/"})
    if (p.substr(0, prefix.size()) == prefix) return true;
  return p.find("/cuda/include/") != std::string_view::npos;
}

std::string absolutePath(std::string_view path, std::string_view base) {
  llvm::SmallString<256> p(llvm::StringRef(path.data(), path.size()));
  if (!llvm::sys::path::is_absolute(p)) {
    llvm::SmallString<256> dir;
    if (base.empty())
      llvm::sys::fs::current_path(dir);
    else
      dir = llvm::StringRef(base.data(), base.size());
    llvm::sys::path::append(dir, p);
    p = dir;
  }
  return normalisePath(p.str());
}

}  // namespace coalesce::report::detail
