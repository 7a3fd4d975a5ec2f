// Real device-side parses with the frontend's command lines and overlay file system: against
// the installed CUDA (skipped, saying so, when there is none), with the built-in headers, and
// one case per compatibility-prelude entry showing the entry is what makes it parse.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "coalesce/analysis/builtin_files.h"
#include "coalesce/analysis/command_line.h"
#include "coalesce/analysis/cuda_toolchain.h"
#include "skip_test.h"
#include "temp_dir.h"

using namespace coalesce::analysis;
using Args = std::vector<std::string>;
namespace fs = std::filesystem;

namespace {

// ---- running one parse ---------------------------------------------------------------------

class OneJob : public clang::tooling::CompilationDatabase {
 public:
  explicit OneJob(clang::tooling::CompileCommand command) : command_(std::move(command)) {}
  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef) const override { return {command_}; }
  std::vector<std::string> getAllFiles() const override { return {command_.Filename}; }

 private:
  clang::tooling::CompileCommand command_;
};

class ErrorLog : public clang::DiagnosticConsumer {
 public:
  std::vector<std::string> messages;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    std::string where;
    if (info.hasSourceManager() && info.getLocation().isValid())
      where = info.getLocation().printToString(info.getSourceManager()) + ": ";
    messages.push_back(where + std::string(text));
  }
};

struct ParseResult {
  unsigned errors = 0;
  std::vector<std::string> messages;
  std::string summary() const {
    std::string s;
    for (size_t i = 0; i < messages.size() && i < 8; ++i) s += messages[i] + "\n";
    return s;
  }
};

struct ParseSetup {
  Args extraArgs;
  OverlayOptions overlay;
  std::function<void(Args&)> edit;  // changes the argument vector before the run
};

// Parses `source` as one job, with the action `factory` makes (syntax only by default).
ParseResult parse(const Toolchain& tc, const std::string& source, const ParseSetup& setup = {},
                  clang::tooling::FrontendActionFactory* factory = nullptr) {
  coalesce::test::TempDir dir;
  const std::string file = dir.write("snippet.cu", source);
  Args args = buildClangArguments(tc, {}, setup.extraArgs, file);
  if (setup.edit) setup.edit(args);
  OneJob db(clang::tooling::CompileCommand(dir.str(), file, args, ""));
  clang::tooling::ClangTool tool(db, {file}, std::make_shared<clang::PCHContainerOperations>(),
                                 makeOverlayFileSystem(tc, setup.overlay));
  ErrorLog log;
  tool.setDiagnosticConsumer(&log);
  auto syntaxOnly = clang::tooling::newFrontendActionFactory<clang::SyntaxOnlyAction>();
  tool.run(factory ? factory : syntaxOnly.get());
  return {log.getNumErrors(), log.messages};
}

void removeArgumentPair(Args& args, const std::string& option, const std::string& valuePart) {
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == option && args[i + 1].find(valuePart) != std::string::npos) {
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      return;
    }
  FAIL("no " + option + " " + valuePart + " in the arguments");
}

void removeArgument(Args& args, const std::string& option) {
  auto it = std::find(args.begin(), args.end(), option);
  if (it == args.end()) FAIL("no " + option + " in the arguments");
  args.erase(it);
}

bool haveRealCuda() { return fs::exists("/usr/local/cuda/include/cuda_runtime.h"); }

// The toolkit at /usr/local/cuda, found as the CLI finds it (no $CUDA_PATH in the way).
Toolchain realToolchain() {
  const Toolchain tc = detectToolchain(AnalysisRequest{}, ToolchainSearch{});
  REQUIRE_FALSE(tc.builtinCuda);
  return tc;
}

Toolchain builtinToolchain() {
  AnalysisRequest request;
  request.builtinCuda = true;
  return detectToolchain(request, ToolchainSearch{});
}

#define SKIP_WITHOUT_REAL_CUDA()                                                       \
  if (!haveRealCuda()) COALESCE_SKIP_TEST("no CUDA toolkit at /usr/local/cuda (these tests need the real one)")

#define CHECK_PARSES(result)      \
  do {                            \
    const auto& r_ = (result);    \
    INFO(r_.summary());           \
    CHECK(r_.errors == 0u);       \
  } while (0)

// ---- snippets ------------------------------------------------------------------------------

// What a typical file holds: kernels with shared memory, vector types, atomics, shuffles,
// templates, a constant array, and host code that allocates, launches and checks errors.
const char* const kTypicalFile = R"cu(
#include <cuda_runtime.h>
#include <cstdio>
#include <cassert>
#include <vector>
#include <algorithm>
struct Particle { float x, y, z; };
__constant__ float coeffs[16];
template <typename T, int TILE>
__global__ void transpose(T* out, const T* in, int n) {
  __shared__ T tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}
__global__ void __launch_bounds__(256) mix(float* a, const float4* v, Particle* p, double2* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  extern __shared__ float dyn[];
  if (i >= n) return;
  float4 q = v[i];
  dyn[threadIdx.x] = __ldg(a + i) + q.x + p[i].y + sqrtf(a[i]) + max(a[i], 1.0f) + min(i, 3) + coeffs[0];
  float s = dyn[threadIdx.x ^ 1];
  s += __shfl_down_sync(0xffffffffu, s, 1);
  atomicAdd(a, s); atomicMax((int*)a, 3); atomicCAS((int*)a, 1, 2); atomicAdd(&d[i].x, 1.0);
  unsigned m = __ballot_sync(0xffffffffu, s > 0);
  assert(i >= 0);
  printf("%d %u\n", i, m);
}
int main() {
  const int n = 1 << 20;
  float* a = nullptr; float4* v; Particle* p; double2* d;
  cudaMalloc(&a, n * sizeof(float)); cudaMalloc((void**)&v, n * sizeof(float4));
  cudaMalloc(&p, n * sizeof(Particle)); cudaMalloc(&d, n * sizeof(double2));
  std::vector<float> h(16, 1.0f);
  cudaMemcpyToSymbol(coeffs, h.data(), 16 * sizeof(float));
  dim3 block(256), grid((n + 255) / 256);
  cudaStream_t stream; cudaStreamCreate(&stream);
  mix<<<grid, block, 256 * sizeof(float), stream>>>(a, v, p, d, n);
  transpose<float, 32><<<dim3(32, 32), dim3(32, 32)>>>(a, a, 1024);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) printf("%s\n", cudaGetErrorString(err));
  cudaDeviceSynchronize();
  cudaFree(a);
  return 0;
}
)cu";

// One case per prelude entry: a small reproduction of what nvcc accepts and Clang rejects.
struct PreludeCase {
  const char* entry;  // COALESCE_NO_COMPAT_<entry> switches it off
  const char* source;
  bool cuda13Only;    // the entry answers a CUDA 13 removal: the built-in headers still have it
};
const PreludeCase kPreludeCases[] = {
    {"THREAD_API",
     "#include <cuda_runtime.h>\n"
     "int main() { cudaThreadSynchronize(); cudaThreadSetLimit(cudaLimitStackSize, 4096); return cudaThreadExit(); }\n",
     true},
    {"MEM_ADVICE_DEVICE",
     "#include <cuda_runtime.h>\n"
     "int main() { float* p; cudaMallocManaged(&p, 64);\n"
     "  cudaMemAdvise(p, 64, cudaMemAdviseSetReadMostly, 0); return cudaMemPrefetchAsync(p, 64, 0); }\n",
     true},
    {"NVCC_VERSION_MACROS",
     "#include <cuda_runtime.h>\n"
     "#if __CUDACC_VER_MAJOR__ < 9 || __CUDACC_VER_MINOR__ < 0 || __CUDACC_VER_BUILD__ < 0\n"
     "#error the pre-CUDA-9 path nvcc never takes\n"
     "#endif\n"
     "#if __CUDA_ARCH_LIST__ < 300\n"
     "#error no architecture\n"
     "#endif\n"
     "__global__ void k(float* a) { a[threadIdx.x] = 0.f; }\n",
     false},
    {"HOST_MINMAX",
     "#include <cuda_runtime.h>\n"
     "int main() { float f = max(1.0f, 2.0f); int i = min(3, 4); double d = max(1.0, 2.0f);\n"
     "  unsigned u = umin(1u, 2u); long long l = llmax(1ll, 2ll); return (int)(f + i + d + u + l); }\n",
     false},
    {"CACHE_HINTS",
     "#include <cuda_runtime.h>\n"
     "__global__ void k(const float* in, float4* v, float* out) {\n"
     "  int i = threadIdx.x; float4 q = __ldcg(v + i); __stcs(v + i, q);\n"
     "  out[i] = __ldcs(in + i) + __ldca(in + i) + __ldlu(in + i) + __ldcv(in + i); __stwt(out + i, 0.f); }\n",
     false},
    {"SURFACE_FUNCTIONS",
     "#include <cuda_runtime.h>\n"
     "__global__ void k(cudaSurfaceObject_t s) {\n"
     "  float v; surf2Dread(&v, s, 4 * threadIdx.x, 0); float w = surf2Dread<float>(s, 4 * threadIdx.x, 1);\n"
     "  surf2Dwrite(v + w, s, 4 * threadIdx.x, 0); surf1Dwrite(v, s, 4 * threadIdx.x);\n"
     "  surf3Dwrite(make_float4(v, v, v, v), s, 16 * threadIdx.x, 0, 0, cudaBoundaryModeZero); }\n",
     false},
    {"ASSUME",
     "#include <cuda_runtime.h>\n"
     "__global__ void k(float* a, int n) { __assume(n % 32 == 0); a[threadIdx.x] = n; }\n",
     false},
    {"IMPLICIT_INCLUDES",  // nvcc's cuda_runtime.h brings <stdio.h>, <time.h>, <assert.h>, <new>
     "__global__ void k(int* a) { assert(a != 0); a[threadIdx.x] = (int)clock(); }\n"
     "struct P { int v; };\n"
     "int main() { srand((unsigned)time(0)); char b[8]; P* p = new (b) P{1};\n"
     "  printf(\"%d %d\\n\", rand(), p->v); return 0; }\n",
     false},
    {"TEXTURE_REFERENCES",  // the texture reference API CUDA 12 removed
     "texture<float, 1, cudaReadModeElementType> t_in;\n"
     "texture<uchar4, 2, cudaReadModeNormalizedFloat> t_img;\n"
     "__global__ void k(float* out, float4* img, int4* g) {\n"
     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  out[i] = tex1Dfetch(t_in, i) + tex1D(t_in, i + 0.5f);\n"
     "  img[i] = tex2D(t_img, i + 0.5f, 0.5f); }\n"
     "int main() { float* d; size_t off; cudaMalloc(&d, 1024);\n"
     "  t_in.filterMode = cudaFilterModePoint; t_in.addressMode[0] = cudaAddressModeClamp;\n"
     "  cudaBindTexture(&off, t_in, d, 1024); k<<<4, 256>>>(d, 0, 0); return cudaUnbindTexture(t_in); }\n",
     false},
    {"REGISTER_PARAMS",
     "#include <cuda_runtime.h>\n"
     "__device__ __nv_register_params__ float twice(float x) { return 2 * x; }\n"
     "__global__ void k(float* a) { a[threadIdx.x] = twice(a[threadIdx.x]); }\n",
     false},
};

// ---- which function a call resolves to -------------------------------------------------------

struct CallTarget {
  std::string caller;
  bool device = false, host = false;
  std::string declaredIn;
};

class CallFinder : public clang::RecursiveASTVisitor<CallFinder> {
 public:
  CallFinder(clang::SourceManager& sm, std::vector<CallTarget>& out) : sm_(sm), out_(out) {}
  bool TraverseFunctionDecl(clang::FunctionDecl* fn) {
    caller_ = fn->getNameAsString();
    return RecursiveASTVisitor::TraverseFunctionDecl(fn);
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (!callee || callee->getNameAsString() != "max" || (caller_ != "k" && caller_ != "main")) return true;
    out_.push_back({caller_, callee->hasAttr<clang::CUDADeviceAttr>(), callee->hasAttr<clang::CUDAHostAttr>(),
                    std::string(sm_.getFilename(sm_.getSpellingLoc(callee->getLocation())))});
    return true;
  }

 private:
  clang::SourceManager& sm_;
  std::vector<CallTarget>& out_;
  std::string caller_;
};

class CallFinderAction : public clang::ASTFrontendAction {
 public:
  explicit CallFinderAction(std::vector<CallTarget>& out) : out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    struct Consumer : clang::ASTConsumer {
      Consumer(clang::SourceManager& sm, std::vector<CallTarget>& o) : sm_(sm), out_(o) {}
      void HandleTranslationUnit(clang::ASTContext& ctx) override { CallFinder(sm_, out_).TraverseDecl(ctx.getTranslationUnitDecl()); }
      clang::SourceManager& sm_;
      std::vector<CallTarget>& out_;
    };
    return std::make_unique<Consumer>(ci.getSourceManager(), out_);
  }

 private:
  std::vector<CallTarget>& out_;
};

class CallFinderFactory : public clang::tooling::FrontendActionFactory {
 public:
  std::vector<CallTarget> calls;
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<CallFinderAction>(calls); }
};

}  // namespace

// ---- (i) the installed CUDA -----------------------------------------------------------------

TEST_CASE("a typical file parses against the installed CUDA", "[parse][real-cuda]") {
  SKIP_WITHOUT_REAL_CUDA();
  CHECK_PARSES(parse(realToolchain(), kTypicalFile));
}

TEST_CASE("the texture_fetch_functions.h shim is what lets CUDA 13 parse", "[parse][real-cuda]") {
  SKIP_WITHOUT_REAL_CUDA();
  if (fs::exists("/usr/local/cuda/include/texture_fetch_functions.h")) {
    COALESCE_SKIP_TEST("this CUDA still ships texture_fetch_functions.h");
  }
  ParseSetup noShim;
  noShim.edit = [](Args& a) { removeArgumentPair(a, "-idirafter", "shim"); };
  const ParseResult r = parse(realToolchain(), "__global__ void k(float* a) { a[threadIdx.x] = 0; }\n", noShim);
  CHECK(r.errors > 0u);
  CHECK_THAT(r.summary(), Catch::Contains("texture_fetch_functions.h"));
}

TEST_CASE("CCCL headers come from CUDA 13's cccl folder", "[parse][real-cuda]") {
  SKIP_WITHOUT_REAL_CUDA();
  const Toolchain tc = realToolchain();
  if (!tc.hasCccl) {
    COALESCE_SKIP_TEST("this CUDA has no include/cccl folder");
  }
  const char* source =
      "#include <cuda/std/cstdint>\n#include <thrust/version.h>\n"
      "__global__ void k(cuda::std::uint32_t* a) { a[threadIdx.x] = THRUST_VERSION; }\n";
  CHECK_PARSES(parse(tc, source));
  ParseSetup noCccl;
  noCccl.edit = [](Args& a) { removeArgumentPair(a, "-isystem", "cccl"); };
  CHECK(parse(tc, source, noCccl).errors > 0u);
}

TEST_CASE("a toolkit with headers only (no bin/, no libdevice) is usable", "[parse][real-cuda]") {
  SKIP_WITHOUT_REAL_CUDA();
  coalesce::test::TempDir dir;
  fs::create_directory_symlink("/usr/local/cuda/include", dir.path() / "include");
  AnalysisRequest request;
  request.cudaPath = dir.str();
  const Toolchain tc = detectToolchain(request, ToolchainSearch{});
  REQUIRE_FALSE(tc.builtinCuda);
  CHECK_PARSES(parse(tc, kTypicalFile));
}

TEST_CASE("a project header named cuda.h on -I does not hide the toolkit's from Clang's wrapper",
          "[parse][real-cuda]") {
  // darknet keeps src/cuda.h and builds with -Isrc: nvcc never includes cuda.h on its own, but
  // Clang's runtime wrapper does, by quoted name, and found the project's file first.
  SKIP_WITHOUT_REAL_CUDA();
  coalesce::test::TempDir project;
  project.write("cuda.h", "#ifndef PROJECT_CUDA_H\n#define PROJECT_CUDA_H\n#define BLOCK 512\n#endif\n");
  ParseSetup withProject;
  withProject.extraArgs = {"-I" + project.str()};
  const char* source = "#include \"cuda.h\"\n__global__ void k(float* a) { a[blockIdx.x * BLOCK + threadIdx.x] = 0; }\n";
  CHECK_PARSES(parse(realToolchain(), source, withProject));
}

TEST_CASE("old host code reads cudaDeviceProp fields CUDA 13 removed", "[parse][real-cuda][prelude]") {
  SKIP_WITHOUT_REAL_CUDA();
  const char* source =
      "#include <cuda_runtime.h>\n#include <cstdio>\n"
      "int main() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
      "  printf(\"%d %d %d %d %d\", p.clockRate, p.memoryClockRate, p.deviceOverlap, p.computeMode,\n"
      "         p.kernelExecTimeoutEnabled); return p.major; }\n";
  CHECK_PARSES(parse(realToolchain(), source));
  ParseSetup unpatched;
  unpatched.overlay.legacyDevicePropFields = false;
  CHECK(parse(realToolchain(), source, unpatched).errors > 0u);
}

// ---- (ii) the built-in headers ----------------------------------------------------------------

TEST_CASE("a typical file parses with the built-in CUDA headers", "[parse][builtin]") {
  CHECK_PARSES(parse(builtinToolchain(), kTypicalFile));
}

TEST_CASE("built-in vector types have CUDA's sizes and alignments", "[parse][builtin]") {
  const char* source =
      "#include <cuda_fp16.h>\n"
      "static_assert(sizeof(float4) == 16 && alignof(float4) == 16, \"float4\");\n"
      "static_assert(sizeof(float2) == 8 && alignof(float2) == 8, \"float2\");\n"
      "static_assert(sizeof(float3) == 12 && alignof(float3) == 4, \"float3\");\n"
      "static_assert(sizeof(double2) == 16 && alignof(double2) == 16, \"double2\");\n"
      "static_assert(sizeof(int4) == 16 && sizeof(uchar4) == 4 && alignof(uchar4) == 4, \"int4/uchar4\");\n"
      "static_assert(sizeof(short2) == 4 && sizeof(longlong2) == 16 && sizeof(double4) == 32, \"others\");\n"
      "static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4, \"half\");\n"
      "static_assert(sizeof(dim3) == 12, \"dim3\");\n"
      "__global__ void k(float2* a) { float2 v = make_float2(1, 2); a[threadIdx.x] = v; dim3 t = threadIdx; (void)t; }\n";
  CHECK_PARSES(parse(builtinToolchain(), source));
}

TEST_CASE("built-in headers: cooperative groups, texture objects, the real headers' guards", "[parse][builtin]") {
  const char* source = R"cu(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
#include <cuda.h>
#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__) || !defined(__cuda_cuda_h__)
#error "user code tests these guards (helper_cuda.h does)"
#endif
namespace cg = cooperative_groups;
__global__ void reduce(const float* in, float* out, cudaTextureObject_t tex) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()] + tex1Dfetch<float>(tex, (int)block.thread_rank());
  for (int o = warp.size() / 2; o > 0; o /= 2) v += warp.shfl_down(v, o);
  v = cg::reduce(warp, v, cg::plus<float>());
  cg::sync(block);
  if (warp.thread_rank() == 0) atomicAdd(out + warp.meta_group_rank(), v);
  __half2 h = __floats2half2_rn(v, v); h += h; (void)h;
}
int main() {
  int mode = 0;  // what the samples' findCudaDevice() asks
  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);
  if (mode == cudaComputeModeProhibited) return 1;
  cudaArray_t array; cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMallocArray(&array, &desc, 64, 64);
  cudaResourceDesc res = {}; res.resType = cudaResourceTypeArray; res.res.array.array = array;
  cudaTextureDesc td = {}; td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex; cudaCreateTextureObject(&tex, &res, &td, nullptr);
  reduce<<<1, 256>>>(nullptr, nullptr, tex);
  cudaDestroyTextureObject(tex);
  return 0;
}
)cu";
  CHECK_PARSES(parse(builtinToolchain(), source));
}

TEST_CASE("errors beyond twenty do not end the parse", "[parse][builtin]") {
  // Error tolerance: a kernel after many host-side errors must still be reached.
  std::string source = "#include <cuda_runtime.h>\nvoid host() {\n";
  for (int i = 0; i < 25; ++i) source += "  undeclared_" + std::to_string(i) + "();\n";
  source += "}\n__global__ void k(float* a) { a[threadIdx.x] = last_error_here; }\n";
  const ParseResult r = parse(builtinToolchain(), source);
  CHECK(r.errors == 26u);
  CHECK_THAT(r.messages.back(), Catch::Contains("last_error_here"));
}

TEST_CASE("host code including <omp.h> parses through the stand-in", "[parse][builtin]") {
  // nvcc hands host code to GCC, whose omp.h Clang does not see.
  const char* source =
      "#include <cuda_runtime.h>\n#include <omp.h>\n"
      "__global__ void k(float* a) { a[threadIdx.x] = 1; }\n"
      "int main() { omp_set_num_threads(4); double t = omp_get_wtime();\n"
      "#pragma omp parallel\n  { int id = omp_get_thread_num(); (void)id; }\n  return (int)t; }\n";
  CHECK_PARSES(parse(builtinToolchain(), source));
  ParseSetup noShim;
  noShim.edit = [](Args& a) { removeArgumentPair(a, "-idirafter", "shim"); };
  const ParseResult r = parse(builtinToolchain(), source, noShim);
  CHECK(r.errors > 0u);
  CHECK_THAT(r.summary(), Catch::Contains("omp.h"));
}

TEST_CASE("a string literal glued to a macro name reads as two tokens, as nvcc reads it", "[parse][builtin]") {
  // "%d"FMT: C++11 lexes a user-defined-literal suffix; GCC and EDG warn and read two tokens.
  const char* source =
      "#define FMT \"%d\"\n"
      "__global__ void k(int* a) { printf(\"node \"FMT\" at \"FMT\"\\n\", a[threadIdx.x], 1); }\n";
  CHECK_PARSES(parse(builtinToolchain(), source));
  ParseSetup strict;
  strict.edit = [](Args& a) { removeArgument(a, "-Wno-reserved-user-defined-literal"); };
  const ParseResult r = parse(builtinToolchain(), source, strict);
  CHECK(r.errors > 0u);
  CHECK_THAT(r.summary(), Catch::Contains("invalid suffix on literal"));
}

// ---- (iii) the compatibility prelude ------------------------------------------------------------

TEST_CASE("each prelude entry makes its case parse, and the case fails without it", "[parse][prelude]") {
  std::vector<std::pair<std::string, Toolchain>> toolchains = {{"built-in", builtinToolchain()}};
  if (haveRealCuda())
    toolchains.emplace_back("CUDA at /usr/local/cuda", realToolchain());
  else
    WARN("no CUDA toolkit at /usr/local/cuda: prelude cases checked with the built-in headers only");

  for (const auto& [name, tc] : toolchains) {
    for (const PreludeCase& c : kPreludeCases) {
      if (c.cuda13Only && (tc.builtinCuda || tc.cudaVersion.empty() || std::stoi(tc.cudaVersion) < 13)) continue;
      INFO("entry " << c.entry << " with " << name);
      CHECK_PARSES(parse(tc, c.source));
      ParseSetup without;
      without.extraArgs = {std::string("-DCOALESCE_NO_COMPAT_") + c.entry};
      CHECK(parse(tc, c.source, without).errors > 0u);
    }
  }
}

TEST_CASE("the prelude leaves device calls on the device overloads", "[parse][prelude]") {
  // max(float, float) in a kernel must still be CUDA's __device__ function, while the host
  // call resolves to the prelude's __host__ one.
  const char* source =
      "#include <cuda_runtime.h>\n"
      "__global__ void k(float* a) { a[threadIdx.x] = max(a[threadIdx.x], 1.0f); }\n"
      "int main() { return (int)max(1.0f, 2.0f); }\n";
  std::vector<std::pair<std::string, Toolchain>> toolchains = {{"built-in", builtinToolchain()}};
  if (haveRealCuda()) toolchains.emplace_back("CUDA at /usr/local/cuda", realToolchain());
  for (const auto& [name, tc] : toolchains) {
    INFO(name);
    CallFinderFactory finder;
    CHECK_PARSES(parse(tc, source, {}, &finder));
    REQUIRE(finder.calls.size() == 2);
    const auto& inKernel = finder.calls[0].caller == "k" ? finder.calls[0] : finder.calls[1];
    const auto& inHost = finder.calls[0].caller == "k" ? finder.calls[1] : finder.calls[0];
    CHECK(inKernel.device);
    CHECK_FALSE(inKernel.host);
    CHECK(inKernel.declaredIn != preludePath());
    CHECK(inHost.host);
    CHECK_FALSE(inHost.device);
    CHECK(inHost.declaredIn == preludePath());
  }
}
