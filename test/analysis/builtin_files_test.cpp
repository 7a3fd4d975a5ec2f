// The embedded files, the cudaDeviceProp patch, and the overlay file system.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "coalesce/analysis/builtin_files.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "temp_dir.h"

using namespace coalesce::analysis;
namespace fs = std::filesystem;

namespace {

std::optional<std::string> readThrough(llvm::vfs::FileSystem& vfs, const std::string& path) {
  auto buffer = vfs.getBufferForFile(path);
  if (!buffer) return std::nullopt;
  return (*buffer)->getBuffer().str();
}

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

Toolchain builtinToolchain() {
  Toolchain tc;
  tc.builtinCuda = true;
  return tc;
}

}  // namespace

TEST_CASE("the embedded files are all there, once each, sorted", "[builtin_files]") {
  const auto& files = builtinFiles();
  std::set<std::string_view> paths;
  for (const auto& f : files) paths.insert(f.path);
  CHECK(paths.size() == files.size());
  CHECK(std::is_sorted(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; }));
  for (const char* p : {"shim/texture_fetch_functions.h", "prelude/coalesce_prelude.h", "cuda/include/cuda_runtime.h",
                        "cuda/include/cuda.h", "cuda/include/cuda_fp16.h", "cuda/include/crt/sm_70_rt.hpp"})
    CHECK(paths.count(p) == 1);
  // The prelude is the file as written, not a truncated copy.
  const auto prelude = std::find_if(files.begin(), files.end(), [](const auto& f) { return f.path == "prelude/coalesce_prelude.h"; });
  CHECK(prelude->contents.find("#endif /* COALESCE_PRELUDE_H */") != std::string_view::npos);
}

TEST_CASE("missing cudaDeviceProp fields are appended on the closing line", "[builtin_files][device_prop]") {
  const std::string source =
      "#pragma once\n"
      "struct __device_builtin__ cudaDeviceProp\n"
      "{\n"
      "    char name[256];\n"
      "    int computeMode; /**< kept by this toolkit */\n"
      "    int reserved[56];\n"
      "};\n"
      "int after;\n";
  const auto patched = addLegacyDevicePropFields(source);
  REQUIRE(patched);
  CHECK(lines(*patched) == lines(source));  // no line moves, so diagnostics keep their lines
  for (const char* f : {"int clockRate;", "int memoryClockRate;", "int deviceOverlap;", "int kernelExecTimeoutEnabled;"})
    CHECK_THAT(*patched, Catch::Contains(f));
  CHECK(patched->find("int computeMode;") == patched->rfind("int computeMode;"));  // not added twice
  CHECK(patched->find("int clockRate;") < patched->find("};\nint after;"));
}

TEST_CASE("no patch when nothing is missing or there is no cudaDeviceProp", "[builtin_files][device_prop]") {
  CHECK_FALSE(addLegacyDevicePropFields(
      "struct cudaDeviceProp { int clockRate; int deviceOverlap; int kernelExecTimeoutEnabled; int computeMode; "
      "int maxTexture1DLinear; int memoryClockRate; int singleToDoublePrecisionPerfRatio; "
      "int cooperativeMultiDeviceLaunch; };"));
  CHECK_FALSE(addLegacyDevicePropFields("struct other { int x; };"));
  CHECK_FALSE(addLegacyDevicePropFields(""));
}

TEST_CASE("the overlay serves the built-in files over the real file system", "[builtin_files][overlay]") {
  coalesce::test::TempDir dir;
  const std::string real = dir.write("real.txt", "on disk");
  auto vfs = makeOverlayFileSystem(builtinToolchain());

  const auto prelude = readThrough(*vfs, preludePath());
  REQUIRE(prelude);
  CHECK_THAT(*prelude, Catch::Contains("COALESCE_PRELUDE_H"));
  CHECK(readThrough(*vfs, shimIncludeDir() + "/texture_fetch_functions.h"));
  CHECK(readThrough(*vfs, builtinCudaIncludeDir() + "/cuda_runtime.h"));
  CHECK(readThrough(*vfs, real) == std::optional<std::string>("on disk"));
  CHECK_FALSE(fs::exists(std::string(kBuiltinRoot)));  // nothing was written to disk
}

TEST_CASE("setting the overlay's working directory leaves the process's alone", "[builtin_files][overlay]") {
  // Jobs run in parallel, each with its own working directory.
  coalesce::test::TempDir dir;
  dir.write("here.txt", "x");
  const fs::path before = fs::current_path();
  auto vfs = makeOverlayFileSystem(builtinToolchain());
  REQUIRE_FALSE(vfs->setCurrentWorkingDirectory(dir.str()));
  CHECK(fs::current_path() == before);
  CHECK(readThrough(*vfs, "here.txt") == std::optional<std::string>("x"));
}

TEST_CASE("the overlay can start in the job's directory", "[builtin_files][overlay]") {
  coalesce::test::TempDir dir;
  dir.write("build/k.cu", "kernel");
  OverlayOptions options;
  options.workingDirectory = dir.str("build");
  auto vfs = makeOverlayFileSystem(builtinToolchain(), options);
  CHECK(readThrough(*vfs, "k.cu") == std::optional<std::string>("kernel"));
  CHECK(readThrough(*vfs, "../build/k.cu") == std::optional<std::string>("kernel"));
  CHECK_FALSE(readThrough(*makeOverlayFileSystem(builtinToolchain()), "k.cu"));
}

TEST_CASE("the overlay serves a toolkit's driver_types.h with the removed fields", "[builtin_files][overlay]") {
  coalesce::test::TempDir dir;
  dir.write("cuda/include/driver_types.h", "struct __device_builtin__ cudaDeviceProp\n{\n  int major;\n};\n");
  Toolchain tc;
  tc.cudaPath = dir.str("cuda");
  const std::string path = dir.str("cuda/include/driver_types.h");

  const auto patched = readThrough(*makeOverlayFileSystem(tc), path);
  REQUIRE(patched);
  CHECK_THAT(*patched, Catch::Contains("int clockRate;"));

  OverlayOptions off;
  off.legacyDevicePropFields = false;
  const auto plain = readThrough(*makeOverlayFileSystem(tc, off), path);
  REQUIRE(plain);
  CHECK(plain->find("clockRate") == std::string::npos);
}

TEST_CASE("a toolkit without bin/ or libdevice gets empty stand-ins, a complete one is left alone",
          "[builtin_files][overlay]") {
  // Clang's driver refuses a toolkit lacking either; header-only CUDA packages lack both.
  coalesce::test::TempDir dir;
  dir.write("headers-only/include/cuda_runtime.h", "");
  dir.write("full/include/cuda_runtime.h", "");
  dir.write("full/bin/nvcc", "");
  dir.write("full/nvvm/libdevice/libdevice.10.bc", "real bitcode");

  Toolchain headersOnly;
  headersOnly.cudaPath = dir.str("headers-only");
  auto vfs = makeOverlayFileSystem(headersOnly);
  CHECK(vfs->exists(dir.str("headers-only/bin")));
  CHECK(readThrough(*vfs, dir.str("headers-only/nvvm/libdevice/libdevice.10.bc")) == std::optional<std::string>(""));
  CHECK_FALSE(fs::exists(dir.path() / "headers-only" / "bin"));

  Toolchain full;
  full.cudaPath = dir.str("full");
  CHECK(readThrough(*makeOverlayFileSystem(full), dir.str("full/nvvm/libdevice/libdevice.10.bc")) ==
        std::optional<std::string>("real bitcode"));
}

TEST_CASE("the wrapper's quoted toolkit headers get forwarders beside the wrapper", "[builtin_files][overlay]") {
  // Clang's CUDA wrapper includes "cuda.h" by quoted name: a forwarder in its own folder is
  // found before any project folder on -I (darknet's src/cuda.h), and names the toolkit's file.
  coalesce::test::TempDir dir;
  dir.write("clang/include/__clang_cuda_runtime_wrapper.h",
            "#include \"cuda.h\"\n#include \"__clang_cuda_builtin_vars.h\"\n#include \"crt/host_runtime.h\"\n"
            "#include \"texture_fetch_functions.h\"\n");
  dir.write("clang/include/__clang_cuda_builtin_vars.h", "clang's own");
  dir.write("cuda/include/cuda.h", "#define CUDA_VERSION 13000\n");
  dir.write("cuda/include/crt/host_runtime.h", "");
  dir.write("cuda/include/cuda_runtime.h", "");
  Toolchain tc;
  tc.resourceDir = dir.str("clang");
  tc.cudaPath = dir.str("cuda");
  auto vfs = makeOverlayFileSystem(tc);
  CHECK(readThrough(*vfs, dir.str("clang/include/cuda.h")) ==
        std::optional<std::string>("#include \"" + dir.str("cuda/include/cuda.h") + "\"\n"));
  CHECK(readThrough(*vfs, dir.str("clang/include/crt/host_runtime.h")) ==
        std::optional<std::string>("#include \"" + dir.str("cuda/include/crt/host_runtime.h") + "\"\n"));
  CHECK(readThrough(*vfs, dir.str("clang/include/__clang_cuda_builtin_vars.h")) ==
        std::optional<std::string>("clang's own"));                                    // Clang's file stays
  CHECK_FALSE(readThrough(*vfs, dir.str("clang/include/texture_fetch_functions.h")));  // not in the toolkit
  CHECK_FALSE(fs::exists(dir.path() / "clang" / "include" / "cuda.h"));                // nothing written
  // Served from memory: not an input of a cached result or a depfile (parse_inputs.cpp).
  CHECK(isWrapperForwarder(dir.str("clang/include/cuda.h")));
  CHECK_FALSE(isWrapperForwarder(dir.str("cuda/include/cuda.h")));
}

// The real files are read through nvccSpellings (builtin_files.cpp, SpellingsFile) when their
// text is asked for: a source file gets nvcc's spellings rewritten, a binary one (a NUL byte
// near its start: the precompiled headers, read through the same file system) comes back byte
// for byte, and a file opened for its status alone reports the real size.
TEST_CASE("the overlay rewrites nvcc's spellings in source files and leaves binary files as they are",
          "[builtin_files][overlay]") {
  coalesce::test::TempDir dir;
  const std::string source = "__shared__ alignas(16) float t[4];\n";
  std::string binary = std::string("CPCH") + '\0' + "\x01" + source;
  dir.write("k.cu", source);
  dir.write("h.pch", binary);
  auto vfs = makeOverlayFileSystem(builtinToolchain());
  const auto rewritten = readThrough(*vfs, dir.str("k.cu"));
  REQUIRE(rewritten);
  CHECK(*rewritten == "alignas(16) __shared__ float t[4];\n");
  CHECK(readThrough(*vfs, dir.str("h.pch")) == std::optional<std::string>(binary));
  auto file = vfs->openFileForRead(dir.str("k.cu"));
  REQUIRE(file);
  const auto status = (*file)->status();
  REQUIRE(status);
  CHECK(status->getSize() == source.size());
}
