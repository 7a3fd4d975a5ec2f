// Finding the CUDA toolkit (or deciding to do without one) and a GPU target Clang accepts.
#include "coalesce/analysis/cuda_toolchain.h"

#include <algorithm>
#include <iterator>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string_view>

namespace coalesce::analysis {
namespace fs = std::filesystem;

namespace {

// The level the built-in headers imitate (resources/cuda/include/cuda_runtime.h).
constexpr std::string_view kBuiltinCudaVersion = "12.8";

// NVIDIA targets Clang 19 accepts for --cuda-gpu-arch (clang/Basic/Cuda.h of that release).
constexpr std::string_view kClangArchs[] = {
    "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61",
    "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// "13000" -> "13.0", as CUDA encodes it (major * 1000 + minor * 10).
std::string versionFromNumber(long number) {
  return std::to_string(number / 1000) + "." + std::to_string((number % 1000) / 10);
}

// A toolkit is usable when its runtime header is there: that is what every .cu includes.
bool looksLikeCuda(const std::string& root) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(root) / "include" / "cuda_runtime.h", ec);
}

}  // namespace

std::string readCudaVersion(const std::string& cudaRoot) {
  const fs::path root(cudaRoot);
  std::smatch m;
  const std::string cudaH = readFile(root / "include" / "cuda.h");
  static const std::regex kCudaVersion(R"(#\s*define\s+CUDA_VERSION\s+(\d+))");
  if (std::regex_search(cudaH, m, kCudaVersion)) return versionFromNumber(std::stol(m[1].str()));

  // version.json (CUDA 11.1+): {"cuda" : {"name" : "CUDA SDK", "version" : "12.4.1"}, ...}
  const std::string json = readFile(root / "version.json");
  static const std::regex kJsonVersion(R"re("cuda"\s*:\s*\{[^}]*"version"\s*:\s*"(\d+)\.(\d+))re");
  if (std::regex_search(json, m, kJsonVersion)) return m[1].str() + "." + m[2].str();

  // version.txt (CUDA 11.0 and older): "CUDA Version 10.2.89"
  const std::string txt = readFile(root / "version.txt");
  static const std::regex kTxtVersion(R"(CUDA Version\s+(\d+)\.(\d+))");
  if (std::regex_search(txt, m, kTxtVersion)) return m[1].str() + "." + m[2].str();
  return {};
}

std::string clangGpuArch(const std::string& requested, std::vector<std::string>& notes) {
  std::string arch = requested;
  if (arch.rfind("compute_", 0) == 0) arch = "sm_" + arch.substr(8);  // a virtual arch names the same target
  if (std::find(std::begin(kClangArchs), std::end(kClangArchs), arch) != std::end(kClangArchs)) return arch;

  static const std::regex kSm(R"(sm_(\d+)[af]?)");
  std::smatch m;
  if (std::regex_match(arch, m, kSm) && std::stoi(m[1].str()) > 90) {
    notes.push_back("Clang 19 does not know " + requested +
                    "; its files are parsed as for sm_90 (__CUDA_ARCH__ 900).");
    return "sm_90";
  }
  notes.push_back("unknown GPU architecture '" + requested + "'; parsing as for sm_90.");
  return "sm_90";
}

Toolchain detectToolchain(const AnalysisRequest& request) {
  ToolchainSearch search;
  if (const char* env = std::getenv("CUDA_PATH"); env && *env) search.cudaPathEnv = env;
  return detectToolchain(request, search);
}

Toolchain detectToolchain(const AnalysisRequest& request, const ToolchainSearch& search) {
  Toolchain tc;
  tc.resourceDir = COALESCE_CLANG_RESOURCE_DIR;
  tc.gpuArch = clangGpuArch(request.gpuArch.empty() ? "sm_90" : request.gpuArch, tc.notes);

  if (!request.builtinCuda) {
    // Tried in order; a place the user named that holds no toolkit is reported, so a
    // mistyped --cuda-path does not pass unnoticed when another toolkit is used instead.
    std::vector<std::pair<std::string, std::string>> candidates;  // path, where it came from
    if (request.cudaPath) candidates.emplace_back(*request.cudaPath, "--cuda-path");
    if (search.cudaPathEnv) candidates.emplace_back(*search.cudaPathEnv, "$CUDA_PATH");
    candidates.emplace_back(search.defaultCudaPath, "the default location");
    for (const auto& [path, origin] : candidates) {
      if (looksLikeCuda(path)) {
        // One spelling: Clang and the overlay build paths inside the toolkit from it.
        std::string clean = fs::path(path).lexically_normal().string();
        while (clean.size() > 1 && clean.back() == '/') clean.pop_back();
        tc.cudaPath = clean;
        tc.cudaVersion = readCudaVersion(path);
        std::error_code ec;
        tc.hasCccl = fs::is_directory(fs::path(path) / "include" / "cccl", ec);
        return tc;
      }
      if (origin != "the default location")
        tc.notes.push_back("no CUDA toolkit at " + path + " (" + origin + "): include/cuda_runtime.h is missing.");
    }
    tc.notes.push_back("no CUDA toolkit found; using coalesce-lint's built-in CUDA headers.");
  }
  tc.builtinCuda = true;
  tc.cudaVersion = std::string(kBuiltinCudaVersion);
  return tc;
}

}  // namespace coalesce::analysis
