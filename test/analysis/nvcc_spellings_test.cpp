// Spellings nvcc accepts and Clang does not, rewritten as files are read
// (lib/analysis/src/nvcc_spellings.cpp): the rewrite itself, and a launch written with
// spaced brackets followed end to end.
#include <catch2/catch.hpp>

#include <algorithm>

#include "nvcc_spellings.h"
#include "temp_dir.h"
#include "coalesce/analysis/analyze.h"

using namespace coalesce;

TEST_CASE("spaced launch brackets are joined, length and line breaks kept", "[nvcc_spellings]") {
  const std::string in = "  k << < grid, block >> > (a, b);\n  m<<<1, 2>>>(c);\n  q <<\n<g, dim3(2, 2) >>\n> (d);\n";
  const auto out = analysis::joinedLaunchBrackets(in);
  REQUIRE(out);
  CHECK(*out == "  k <<<  grid, block >>>  (a, b);\n  m<<<1, 2>>>(c);\n  q <<<\ng, dim3(2, 2) >>>\n (d);\n");
  CHECK(out->size() == in.size());
  CHECK(std::count(out->begin(), out->end(), '\n') == std::count(in.begin(), in.end(), '\n'));
}

TEST_CASE("what is not a launch keeps its brackets", "[nvcc_spellings]") {
  // An operator template's explicit arguments; shifts; a template argument list after a shift.
  CHECK_FALSE(analysis::joinedLaunchBrackets("friend std::ostream& operator<< <>(std::ostream&, const X&);"));
  CHECK_FALSE(analysis::joinedLaunchBrackets("int a = b << 2; int c = d >> 1;"));
  CHECK_FALSE(analysis::joinedLaunchBrackets("x << <3>;"));  // no closing brackets before the `;`
  CHECK_FALSE(analysis::nvccSpellings("k<<<1, 32>>>(p);"));
}

TEST_CASE("a kernel launched with spaced brackets gets its launch's block", "[nvcc_spellings]") {
  test::TempDir dir;
  analysis::AnalysisRequest request;
  request.inputs = {dir.write("k.cu", R"(
__global__ void k(float* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 0.0f; }
void run(float* p, int n) {
  int threads = 128;
  k << < (n + threads - 1) / threads, threads >> > (p, n);
}
)")};
  request.jobs = 1;
  const AnalysisResult r = analysis::analyze(request);
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].hostErrors == 0);
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.kernels[0].block.source == BlockSource::Launch);
  CHECK(r.kernels[0].block.dim.x == 128);
}

TEST_CASE("a restrict written before the pointee's type moves behind the star", "[nvcc_spellings]") {
  const std::string in = "void k(const __restrict__ IndexT *rows, const __restrict float*x, ns::T* __restrict__ ok,\n"
                         "       __restrict__ const int *skip, int *__restrict__ y) {}";
  const auto out = analysis::restrictAfterStar(in);
  REQUIRE(out);
  CHECK(*out == "void k(const IndexT *__restrict__ rows, const float*__restrict x, ns::T* __restrict__ ok,\n"
                "       __restrict__ const int *skip, int *__restrict__ y) {}");
  CHECK(out->size() == in.size());
  CHECK_FALSE(analysis::restrictAfterStar("float* __restrict__ a, int* __restrict__ b"));
  CHECK_FALSE(analysis::restrictAfterStar("const __restrict__\nT *p"));  // the type on another line: left
}

TEST_CASE("a kernel whose pointer is restricted before its type is analysed", "[nvcc_spellings]") {
  test::TempDir dir;
  analysis::AnalysisRequest request;
  request.inputs = {dir.write("k.cu", R"(
typedef int IndexT;
__global__ void k(int m, const __restrict__ IndexT *rows, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) out[i] = rows[i];
}
void run(const IndexT* rows, float* out, int m) { k<<<(m + 127) / 128, 128>>>(m, rows, out); }
)")};
  request.jobs = 1;
  const AnalysisResult r = analysis::analyze(request);
  REQUIRE(r.files.size() == 1);
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.kernels[0].status == Status::Analysed);
  CHECK(r.kernels[0].block.dim.x == 128);
  const auto restricted = std::count_if(r.pointerParams.begin(), r.pointerParams.end(),
                                        [](const PointerParam& p) { return p.name == "rows" && p.isRestrict; });
  CHECK(restricted == 1);
}

TEST_CASE("an alignment specifier after a memory-space keyword moves before it, and only then", "[nvcc_spellings]") {
  const std::string in = "__shared__  alignas(alignof(float4)) float As[4][16];\n";
  const auto out = analysis::alignasFirst(in);
  REQUIRE(out);
  CHECK(*out == "alignas(alignof(float4))  __shared__ float As[4][16];\n");
  // Already in Clang's order, or an `alignas` no keyword precedes (the toolkit's cuda.h, read
  // for every file): nothing to rewrite, and no copy.
  CHECK_FALSE(analysis::alignasFirst("alignas(16) __shared__ float a[4];\nstruct alignas(8) S { int x; };\n"));
  CHECK_FALSE(analysis::alignasFirst("int x = 1 << 4; // alignas\n"));
}

TEST_CASE("a PTX register's lone percent in an asm template is doubled, length kept", "[nvcc_spellings]") {
  const std::string in = "  asm(\"mov.u32 %0, %laneid;\" : \"=r\"(ret));\n  asm volatile (\"mov.u32 %0, %%smid;\" : \"=r\"(s));\n";
  const auto out = analysis::doubledAsmPercents(in);
  REQUIRE(out);
  CHECK(*out == "  asm(\"mov.u32 %0,%%laneid;\" : \"=r\"(ret));\n  asm volatile (\"mov.u32 %0, %%smid;\" : \"=r\"(s));\n");
  CHECK(out->size() == in.size());
  // Two registers in a string split over lines: a blank per register, each line its own length.
  const std::string two = "__asm__ __volatile__(\"mov.u64 %0, %globaltimer;\"\n  \"add.u32 %1, %clock, 1;\" : \"=l\"(t), \"=r\"(c));";
  const auto both = analysis::doubledAsmPercents(two);
  REQUIRE(both);
  CHECK(*both == "__asm__ __volatile__(\"mov.u64 %0,%%globaltimer;\"\n  \"add.u32 %1,%%clock, 1;\" : \"=l\"(t), \"=r\"(c));");
  CHECK(both->find('\n') == two.find('\n'));
  // Without operands `%` is literal to Clang too; an operand and `%%` stay; a name not asm.
  CHECK_FALSE(analysis::doubledAsmPercents("asm(\"exit %laneid;\");"));
  CHECK_FALSE(analysis::doubledAsmPercents("asm(\"mov.u32 %0, %1;\" : \"=r\"(a) : \"r\"(b));"));
  CHECK_FALSE(analysis::doubledAsmPercents("int basm = x % y; plasma(\"%d\" : 1);"));
  CHECK_FALSE(analysis::doubledAsmPercents("asm(\"mov.u32\\t%0,%laneid;\" : \"=r\"(ret));"));  // no blank to lose
}

TEST_CASE("a lane index read through `%laneid` with one percent is a lane index", "[nvcc_spellings]") {
  test::TempDir dir;
  analysis::AnalysisRequest request;
  request.inputs = {dir.write("k.cu", R"(
__device__ __forceinline__ unsigned laneId() {
  unsigned ret;
  asm("mov.u32 %0, %laneid;" : "=r"(ret));
  return ret;
}
__global__ void k(float* p) { p[blockIdx.x * 32 + laneId()] = 0.0f; }
void run(float* p) { k<<<64, 32>>>(p); }
)")};
  request.jobs = 1;
  const AnalysisResult r = analysis::analyze(request);
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].status == Status::Analysed);
  CHECK(r.files[0].error.empty());
  REQUIRE(r.accesses.size() == 1);
  CHECK(r.accesses[0].kernel == "k");
}
