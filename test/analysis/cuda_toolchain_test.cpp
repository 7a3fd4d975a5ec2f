// CUDA detection against fake toolkit trees, and the GPU architecture handed to Clang.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "coalesce/analysis/cuda_toolchain.h"
#include "skip_test.h"
#include "temp_dir.h"

using namespace coalesce::analysis;
namespace fs = std::filesystem;

namespace {

// A toolkit as far as detection looks: include/cuda_runtime.h, plus what is asked for.
std::string fakeCuda(const coalesce::test::TempDir& dir, const std::string& name, const std::string& cudaH,
                     bool cccl) {
  dir.write(name + "/include/cuda_runtime.h", "/* fake */\n");
  if (!cudaH.empty()) dir.write(name + "/include/cuda.h", cudaH);
  if (cccl) fs::create_directories(dir.path() / name / "include" / "cccl" / "cub");
  return dir.str(name);
}

ToolchainSearch nowhere() {
  ToolchainSearch s;
  s.defaultCudaPath = "/nonexistent/cuda";
  return s;
}

}  // namespace

TEST_CASE("a toolkit named by --cuda-path: version from cuda.h, CCCL folder found", "[toolchain]") {
  coalesce::test::TempDir dir;
  const std::string root = fakeCuda(dir, "cuda-13.0", "#pragma once\n#define CUDA_VERSION 13000\n", true);
  AnalysisRequest request;
  request.cudaPath = root;
  const Toolchain tc = detectToolchain(request, nowhere());
  CHECK_FALSE(tc.builtinCuda);
  REQUIRE(tc.cudaPath);
  CHECK(*tc.cudaPath == root);
  CHECK(tc.cudaVersion == "13.0");
  CHECK(tc.hasCccl);
  CHECK(tc.notes.empty());

  request.cudaPath = root + "/./";  // spelled loosely, kept in one spelling
  CHECK(*detectToolchain(request, nowhere()).cudaPath == root);
}

TEST_CASE("the CUDA version is read from cuda.h, version.json or version.txt", "[toolchain]") {
  coalesce::test::TempDir dir;
  CHECK(readCudaVersion(fakeCuda(dir, "a", "#define CUDA_VERSION 12040\n", false)) == "12.4");
  const std::string json = fakeCuda(dir, "b", "", false);
  dir.write("b/version.json", R"({ "cuda" : { "name" : "CUDA SDK", "version" : "12.6.3" }, "cuda_cudart" : { "version" : "12.6.77" } })");
  CHECK(readCudaVersion(json) == "12.6");
  const std::string txt = fakeCuda(dir, "c", "", false);
  dir.write("c/version.txt", "CUDA Version 11.0.228\n");
  CHECK(readCudaVersion(txt) == "11.0");
  CHECK(readCudaVersion(dir.str("none")).empty());
}

TEST_CASE("search order: --cuda-path, then $CUDA_PATH, then the default, then built-in", "[toolchain]") {
  coalesce::test::TempDir dir;
  const std::string env = fakeCuda(dir, "env", "#define CUDA_VERSION 12080\n", false);
  const std::string def = fakeCuda(dir, "default", "#define CUDA_VERSION 13000\n", true);

  AnalysisRequest request;
  request.cudaPath = dir.str("typo");
  ToolchainSearch search;
  search.cudaPathEnv = env;
  search.defaultCudaPath = def;

  SECTION("a wrong --cuda-path falls through to $CUDA_PATH, and says so") {
    const Toolchain tc = detectToolchain(request, search);
    CHECK(*tc.cudaPath == env);
    CHECK(tc.cudaVersion == "12.8");
    CHECK_FALSE(tc.hasCccl);
    REQUIRE(tc.notes.size() == 1);
    CHECK_THAT(tc.notes[0], Catch::Contains(dir.str("typo")) && Catch::Contains("--cuda-path"));
  }
  SECTION("then the default location") {
    search.cudaPathEnv = dir.str("also-missing");
    const Toolchain tc = detectToolchain(request, search);
    CHECK(*tc.cudaPath == def);
    CHECK(tc.notes.size() == 2);
  }
  SECTION("no toolkit anywhere: built-in headers") {
    request.cudaPath.reset();
    search.cudaPathEnv.reset();
    search.defaultCudaPath = dir.str("gone");
    const Toolchain tc = detectToolchain(request, search);
    CHECK(tc.builtinCuda);
    CHECK_FALSE(tc.cudaPath);
    CHECK_FALSE(tc.cudaVersion.empty());
    REQUIRE(tc.notes.size() == 1);
    CHECK_THAT(tc.notes[0], Catch::Contains("built-in"));
  }
  SECTION("--builtin-cuda wins over an installed toolkit") {
    request.builtinCuda = true;
    const Toolchain tc = detectToolchain(request, search);
    CHECK(tc.builtinCuda);
    CHECK_FALSE(tc.cudaPath);
    CHECK(tc.notes.empty());
  }
}

TEST_CASE("the resource directory holds Clang's CUDA wrapper", "[toolchain]") {
  const Toolchain tc = detectToolchain(AnalysisRequest{}, nowhere());
  CHECK(fs::exists(fs::path(tc.resourceDir) / "include" / "__clang_cuda_runtime_wrapper.h"));
}

TEST_CASE("GPU architectures Clang 19 does not know are parsed as sm_90", "[toolchain][arch]") {
  std::vector<std::string> notes;
  CHECK(clangGpuArch("sm_86", notes) == "sm_86");
  CHECK(clangGpuArch("sm_90a", notes) == "sm_90a");
  CHECK(clangGpuArch("compute_80", notes) == "sm_80");
  CHECK(notes.empty());
  CHECK(clangGpuArch("sm_100", notes) == "sm_90");
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Contains("sm_100"));
  CHECK(clangGpuArch("sm_120a", notes) == "sm_90");
  CHECK(clangGpuArch("banana", notes) == "sm_90");
  CHECK(notes.size() == 3);

  AnalysisRequest request;
  request.gpuArch = "sm_100";
  CHECK(detectToolchain(request, nowhere()).gpuArch == "sm_90");
}

TEST_CASE("the installed toolkit is found at /usr/local/cuda", "[toolchain][real-cuda]") {
  if (!fs::exists("/usr/local/cuda/include/cuda_runtime.h")) COALESCE_SKIP_TEST("no CUDA toolkit at /usr/local/cuda");
  ToolchainSearch search;  // the real default, no $CUDA_PATH
  const Toolchain tc = detectToolchain(AnalysisRequest{}, search);
  CHECK_FALSE(tc.builtinCuda);
  CHECK(*tc.cudaPath == "/usr/local/cuda");
  CHECK(tc.cudaVersion == readCudaVersion("/usr/local/cuda"));
  CHECK_FALSE(tc.cudaVersion.empty());
  CHECK(tc.hasCccl == fs::is_directory("/usr/local/cuda/include/cccl"));
}
