// Header reuse (docs/architecture.md, "Why it can be faster than Clang's own parse"): the
// records of a run are the same, field for field, whether the files share one precompiled
// header of the CUDA headers or each parses them itself.
// (No timing here: bench/run_bench.py measures the speed.)
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <optional>

#include "temp_dir.h"
#include "corpus.h"
#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/worker.h"  // recordsToJson: every field of every record

namespace fs = std::filesystem;
using namespace coalesce;

namespace {

// Temporary files of the run go to a folder of the test's own ($TMPDIR), so that the test
// can see the precompiled header while files are analysed, and that none is left after.
struct Observed {
  AnalysisResult result;
  size_t pchSeenWhileRunning = 0;  // most headers files seen at once, from the progress callback
  size_t prefixesSeenWhileRunning = 0;  // the same, of include prefixes' PCHs (header_pch_build.h)
  size_t leftAfter = 0;
};

size_t countPch(const fs::path& dir, const char* prefix = "coalesce-lint-headers") {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) ++n;
  return n;
}
constexpr const char* kIncludePrefixPch = "coalesce-lint-include-prefix";

Observed run(analysis::AnalysisRequest request, bool reuse) {
  test::TempDir tmp;
  const char* old = getenv("TMPDIR");
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  setenv("TMPDIR", tmp.str().c_str(), 1);
  Observed o;
  request.reuseHeaders = reuse;
  request.progress = [&](const std::string&, size_t, size_t) {
    o.pchSeenWhileRunning = std::max(o.pchSeenWhileRunning, countPch(tmp.path()));
    o.prefixesSeenWhileRunning = std::max(o.prefixesSeenWhileRunning, countPch(tmp.path(), kIncludePrefixPch));
  };
  o.result = analysis::analyze(request);
  o.leftAfter = countPch(tmp.path()) + countPch(tmp.path(), kIncludePrefixPch);
  if (saved) setenv("TMPDIR", saved->c_str(), 1);
  else unsetenv("TMPDIR");
  return o;
}

// What differs between runs with and without the header cache, beyond what must (empty
// when nothing does): the PCHs seen while running and left after, and every record field.
std::vector<std::string> differencesWithAndWithout(const analysis::AnalysisRequest& request, size_t expectedPchs) {
  const Observed with = run(request, true);
  const Observed without = run(request, false);
  std::vector<std::string> out;
  if (with.pchSeenWhileRunning != expectedPchs)
    out.push_back("PCHs seen while running: " + std::to_string(with.pchSeenWhileRunning) + ", expected " +
                  std::to_string(expectedPchs));
  if (without.pchSeenWhileRunning != 0) out.push_back("a PCH was built with the cache off");
  if (with.leftAfter != 0) out.push_back(std::to_string(with.leftAfter) + " PCHs left after the run");
  if (with.result.files.empty()) out.push_back("no file in the run");
  if (with.result.accesses.size() != without.result.accesses.size())
    out.push_back("accesses: " + std::to_string(with.result.accesses.size()) + " with, " +
                  std::to_string(without.result.accesses.size()) + " without");
  if (analysis::recordsToJson(with.result) != analysis::recordsToJson(without.result))
    out.push_back("the records differ (field for field, doubles by their bits)");
  return out;
}

}  // namespace

TEST_CASE("header cache: kernels/examples and test/analysis/golden/inputs, same records with and without") {
  analysis::AnalysisRequest request;
  request.inputs = test::examplesAndInputs();
  request.jobs = 2;
  CHECK(differencesWithAndWithout(request, 1) == std::vector<std::string>{});
}

TEST_CASE("header cache: forced includes of the user, templates of the headers, errors, one file") {
  test::TempDir dir;
  // A header the user force-includes, with a kernel and a template of its own: it is
  // parsed with each file, after the PCH, and its kernel is analysed as without a PCH.
  const std::string forced = dir.write("include/forced.cuh", R"(#pragma once
template <typename T> __device__ T twice(T v) { return v + v; }
__global__ void in_forced_header(float* p) { p[threadIdx.x * 2] = 1.0f; }
)");
  dir.write("a.cu", R"(#include <cuda_runtime.h>
#include <cstdint>
#include <limits>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <int S> __global__ void strided(float* p) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i * S] = twice(std::numeric_limits<float>::epsilon()) + float(cg::this_thread_block().thread_rank());
}
void go(float* p) { strided<4><<<8, 128>>>(p); strided<1><<<8, 64>>>(p); in_forced_header<<<1, 32>>>(p); }
)");
  dir.write("b.cu", R"(#include <cuda_runtime.h>
struct P { float x, y, z; };
__device__ float pick(const P& p) { return p.y; }
__global__ void aos(const P* in, float* out) { out[threadIdx.x] = pick(in[threadIdx.x]); }
__global__ void broken(float* p) { p[threadIdx.x] = undeclared_name; }  // a Clang error, kept per file
void go(const P* in, float* out) { aos<<<1, 256>>>(in, out); }
)");
  dir.write("c.cu", R"(#include <cuda_runtime.h>
extern "C" { __global__ void c_linkage(double* d) { d[threadIdx.x + 3] = 0.0; } }
namespace ns { namespace inner { __global__ void deep(int* q) { q[threadIdx.x * 32] = 1; } } }
void go(double* d, int* q) { c_linkage<<<2, 96>>>(d); ns::inner::deep<<<1, 32>>>(q); }
)");
  analysis::AnalysisRequest request;
  request.inputs = {dir.str()};
  request.extraArgs = {"-include", forced, "-DUNUSED_FLAG=1"};
  CHECK(differencesWithAndWithout(request, 1) == std::vector<std::string>{});

  // One file: no PCH is built (it would cost more than it saves).
  analysis::AnalysisRequest single;
  single.inputs = {dir.str("c.cu")};
  CHECK(differencesWithAndWithout(single, 0) == std::vector<std::string>{});

  // One file of a program whose other .cu files are parsed for its launches (sibling_files.cpp)
  // parses the headers once per file: the PCH is built, and the siblings are parsed over it
  // (session 32; Rodinia's hybridsort/mergesort.cu parsed them four times).
  test::TempDir program;
  program.write("kernel.cu", "#include <cuda_runtime.h>\n__global__ void scale(float* p, int s) { p[threadIdx.x * s] = 1.0f; }\n");
  program.write("main.cu", "#include <cuda_runtime.h>\n__global__ void scale(float* p, int s);\n"
                           "int main() { float* p = nullptr; scale<<<4, 128>>>(p, 2); return 0; }\n");
  program.write("other.cu", "#include <cuda_runtime.h>\n__global__ void zero(float* p) { p[threadIdx.x] = 0; }\n"
                            "void clear(float* p) { zero<<<2, 64>>>(p); }\n");
  analysis::AnalysisRequest lone;
  lone.inputs = {program.str("kernel.cu")};
  CHECK(differencesWithAndWithout(lone, 1) == std::vector<std::string>{});
  // A folder of several programs (two mains) reads no sibling: no PCH for one of its files.
  program.write("second_main.cu", "int main() { return 1; }\n");
  CHECK(differencesWithAndWithout(lone, 0) == std::vector<std::string>{});
}

TEST_CASE("header cache: one PCH per flag set (compile database with two sets of flags)") {
  test::TempDir dir;
  const char* kernel = R"(#include <cuda_runtime.h>
__global__ void k(float* p) { p[threadIdx.x * STRIDE] = 0.0f; }
void go(float* p) { k<<<4, 128>>>(p); }
)";
  for (const char* name : {"s1a.cu", "s1b.cu", "s2a.cu", "s2b.cu"}) dir.write(name, kernel);
  std::string db = "[";
  for (const char* name : {"s1a.cu", "s1b.cu", "s2a.cu", "s2b.cu"}) {
    const std::string stride = std::string(name).substr(1, 1);
    db += std::string(db.size() > 1 ? "," : "") + R"({"directory": ")" + dir.str() + R"(", "file": ")" + name +
          R"(", "command": "nvcc -DSTRIDE=)" + stride + " -c " + name + R"("})";
  }
  dir.write("compile_commands.json", db + "]");
  analysis::AnalysisRequest request;
  request.buildDir = dir.str();
  CHECK(differencesWithAndWithout(request, 2) == std::vector<std::string>{});
}

TEST_CASE("header cache: errors Clang defers until a function is emitted for the device, as without") {
  // Over the PCH the headers' own roots of deferred diagnostics are not read back
  // (lib/analysis/src/header_deferred_diags.h); the file's are, and the walk from them enters
  // what they call.
  test::TempDir dir;
  dir.write("deferred.cu", R"(#include <cuda_runtime.h>
int host_only(int v) { return v + 1; }
__host__ __device__ int both(int v) { return host_only(v); }  // an error only once emitted for the device
__global__ void calls_host(int* q) { q[threadIdx.x] = both(threadIdx.x); }
void go(int* q) { calls_host<<<1, 32>>>(q); }
)");
  dir.write("clean.cu", R"(#include <cuda_runtime.h>
__global__ void fine(int* q) { q[threadIdx.x] = 1; }
void go2(int* q) { fine<<<1, 32>>>(q); }
)");
  analysis::AnalysisRequest request;
  request.inputs = {dir.str()};
  CHECK(differencesWithAndWithout(request, 1) == std::vector<std::string>{});
  const Observed with = run(request, true);
  const std::string json = analysis::recordsToJson(with.result);
  CHECK(json.find("host_only") != std::string::npos);  // the deferred error is reported
}

TEST_CASE("header cache: files that begin with the same includes share their prefix's PCH, as without") {
  // Three files begin with the same `#include <x>` lines, a user header among them (an -I
  // folder) with a kernel, a device function and a launch of its own: the prefix gets a PCH
  // over the CUDA headers' one (header_pch_build.h), and every record is the same as each
  // file's parse without any PCH. The fourth file's prefix is its own.
  test::TempDir dir;
  const std::string header = R"(#pragma once
#include <cuda_runtime.h>
__device__ inline float scaled(float v, int s) { return v * s; }
__global__ void in_prefix_header(float* p, int s) { p[threadIdx.x * s] = scaled(1.0f, s); }
inline void launch_from_header(float* p) { in_prefix_header<<<2, 64>>>(p, 3); }
int host_in_header(int v) { return v + 1; }
)";
  dir.write("include/prefix_lib.cuh", header);
  const char* prefix = "// leading comment\n#include <prefix_lib.cuh>\n\n#include <vector>  // trailing\n#include <map>\n#include <string>\n";
  auto writeFiles = [&](const std::string& call) {
    for (const char* name : {"a.cu", "b.cu", "c.cu"}) {
      const std::string kernel = std::string(name).substr(0, 1);
      dir.write(name, std::string(prefix) + "__global__ void k_" + kernel + "(float* p, int* q) { p[threadIdx.x * 2] = " +
                          "scaled(1.0f, 2); q[threadIdx.x] = " + call + "; }\nvoid go_" + kernel +
                          "(float* p, int* q) { std::vector<int> v(4); k_" + kernel +
                          "<<<1, 128>>>(p, q); launch_from_header(p); }\n");
    }
  };
  writeFiles("1");
  dir.write("d.cu", "#include <cuda_runtime.h>\n__global__ void alone(float* p) { p[threadIdx.x + 1] = 0; }\n"
                    "void go_d(float* p) { alone<<<1, 32>>>(p); }\n");
  analysis::AnalysisRequest request;
  request.inputs = {dir.str()};
  request.extraArgs = {"-I" + dir.str("include")};
  for (const bool inProcess : {false, true}) {
    request.isolateFiles = !inProcess;
    CHECK(differencesWithAndWithout(request, 1) == std::vector<std::string>{});
    const Observed with = run(request, true);
    CHECK(with.prefixesSeenWhileRunning == 1);
    CHECK(analysis::recordsToJson(with.result).find("in_prefix_header") != std::string::npos);  // walked
  }

  // A `__host__ __device__` function of the header that calls a host one is an error only once
  // a kernel calls it, which Sema remembers and a PCH does not: no prefix PCH, and the error
  // is reported as without one.
  dir.write("include/prefix_lib.cuh",
            header + "__host__ __device__ inline int both_in_header(int v) { return host_in_header(v); }\n");
  writeFiles("both_in_header(1)");
  CHECK(differencesWithAndWithout(request, 1) == std::vector<std::string>{});
  const Observed refused = run(request, true);
  CHECK(refused.prefixesSeenWhileRunning == 0);
  CHECK(analysis::recordsToJson(refused.result).find("host_in_header") != std::string::npos);
}
