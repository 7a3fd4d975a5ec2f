// Which CUDA headers and GPU target the device-side parse uses. No Clang types here: the
// answer is plain data that command_line.h turns into arguments.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "coalesce/analysis/analyze.h"

namespace coalesce::analysis {

struct Toolchain {
  std::string resourceDir;              // Clang's resource directory (CUDA wrapper headers)
  std::optional<std::string> cudaPath;  // the toolkit parsed against; empty in built-in mode
  std::string cudaVersion;              // "13.0"; in built-in mode the level the headers imitate
  bool builtinCuda = false;             // -nocudainc and the in-memory CUDA headers
  std::string gpuArch = "sm_90";        // --cuda-gpu-arch, always one Clang 19 accepts
  bool hasCccl = false;                 // <cuda>/include/cccl exists (CUDA 13 moved CCCL there)
  std::vector<std::string> notes;       // sentences for the user: why built-in mode, arch changes
};

// Where to look, made explicit so tests can point at fake trees instead of the environment.
struct ToolchainSearch {
  std::optional<std::string> cudaPathEnv;     // $CUDA_PATH
  std::string defaultCudaPath = "/usr/local/cuda";
};

// Finds CUDA at request.cudaPath, else $CUDA_PATH, else /usr/local/cuda; falls back to the
// built-in headers when none holds include/cuda_runtime.h, or when request.builtinCuda.
Toolchain detectToolchain(const AnalysisRequest& request);
Toolchain detectToolchain(const AnalysisRequest& request, const ToolchainSearch& search);

// "13.0" from include/cuda.h (CUDA_VERSION), else version.json, else version.txt; "" if none.
std::string readCudaVersion(const std::string& cudaRoot);

// The architecture to hand Clang 19 for the requested one ("sm_90" for "sm_100", with a note;
// "compute_80" becomes "sm_80"). Clang rejects architectures it does not know, which would
// fail every file, while the parse itself only needs a close enough __CUDA_ARCH__.
std::string clangGpuArch(const std::string& requested, std::vector<std::string>& notes);

}  // namespace coalesce::analysis
