// Speed (docs/architecture.md, "Why it can be faster than Clang's own parse"): skipping
// the bodies of host functions declared in system headers
// (AnalysisRequest::skipSystemHostBodies, on by default) changes no record, field for
// field, over every example and red-team input, and over code that leans on the headers:
// templates of the C++ library and of the CUDA headers used in kernels and host code.
// (No timing here: bench/run_bench.py measures the speed.)
#include <catch2/catch.hpp>

#include <filesystem>

#include "temp_dir.h"
#include "corpus.h"
#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/worker.h"  // recordsToJson: every field of every record

namespace fs = std::filesystem;
using namespace coalesce;

namespace {

// What differs between runs with and without skipping, both with and without the shared
// header PCH (its build skips the same bodies): empty when nothing does.
std::vector<std::string> differencesWithAndWithoutSkipping(analysis::AnalysisRequest request) {
  std::vector<std::string> out;
  for (bool reuse : {true, false}) {
    const std::string mode = reuse ? "header cache on: " : "header cache off: ";
    request.reuseHeaders = reuse;
    request.skipSystemHostBodies = true;
    const AnalysisResult skipped = analysis::analyze(request);
    request.skipSystemHostBodies = false;
    const AnalysisResult full = analysis::analyze(request);
    if (full.files.empty()) out.push_back(mode + "no file in the run");
    for (const auto& f : skipped.files)
      if (f.status != Status::Analysed) out.push_back(mode + f.path + " not analysed: " + f.error);
    if (skipped.accesses.size() != full.accesses.size())
      out.push_back(mode + "accesses: " + std::to_string(skipped.accesses.size()) + " skipping, " +
                    std::to_string(full.accesses.size()) + " parsing everything");
    if (analysis::recordsToJson(skipped) != analysis::recordsToJson(full))
      out.push_back(mode + "the records differ (field for field, doubles by their bits)");
  }
  return out;
}

}  // namespace

TEST_CASE("skipping system-header host bodies: kernels/examples and test/analysis/golden/inputs, same records") {
  analysis::AnalysisRequest request;
  request.inputs = test::examplesAndInputs();
  request.jobs = 2;
  CHECK(differencesWithAndWithoutSkipping(request) == std::vector<std::string>{});
}

TEST_CASE("skipping system-header host bodies: library templates in kernels and host code, same records") {
  test::TempDir dir;
  // Device code that instantiates header templates (cooperative groups, cuda::std, the
  // numeric limits, a CUDA vector type helper), host code that instantiates host ones
  // (std::vector, std::sort, std::max) around the launches the analysis must still find.
  dir.write("a.cu", R"(#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda/std/utility>
#include <algorithm>
#include <limits>
#include <vector>
namespace cg = cooperative_groups;
template <typename T> __global__ void scale(T* p, int n) {
  auto block = cg::this_thread_block();
  unsigned i = blockIdx.x * blockDim.x + block.thread_rank();
  cuda::std::pair<int, int> st{static_cast<int>(i), 3};
  if (i < n) p[st.first * st.second] *= std::numeric_limits<T>::max() > T(0) ? T(2) : T(1);
}
__global__ void pairs(float2* q) { q[threadIdx.x * 2] = make_float2(1.0f, 2.0f); }
void go(float* p, float2* q, int n) {
  std::vector<int> sizes{n, 2 * n};
  std::sort(sizes.begin(), sizes.end());
  const int threads = std::max(64, sizes.front() % 256);
  scale<float><<<(n + 127) / 128, 128>>>(p, n);
  scale<double><<<1, threads>>>(reinterpret_cast<double*>(p), n);
  pairs<<<1, 64>>>(q);
}
)");
  dir.write("b.cu", R"(#include <cuda_runtime.h>
#include <cstdio>
#include <cmath>
__device__ float f(float x) { return sqrtf(x) + fmaxf(x, 1.0f); }
__global__ void col(const float* in, float* out, int w) {
  out[threadIdx.x * w] = f(in[threadIdx.x]) + __ldg(&in[threadIdx.x * 3]);
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  col<<<1, 96>>>(in, out, 33);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
)");
  analysis::AnalysisRequest request;
  request.inputs = {dir.str()};
  CHECK(differencesWithAndWithoutSkipping(request) == std::vector<std::string>{});
}
