// Values from the rest of a program's host code (sibling_files.cpp, program_facts.cpp;
// docs/block-shapes.md "Launches from another file"): the analysed .cu launches from a wrapper
// that only another file of its folder calls, or with a struct member only another file sets.
// Each case is written so that the figure differs from the one the unknown value gives.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyse_kernels_file.h"
#include "temp_dir.h"
#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/worker.h"  // recordsToJson: every field of every record

using namespace coalesce;

namespace {

// The kernels: `in[threadIdx.x + shift]` is 5 sectors for a shift of 1 float, 4 for the
// assumed 4096; `b[threadIdx.x + 7]` through a pointer 4 bytes past its allocation starts on
// a sector (4), 28 bytes past an aligned one (5) else.
constexpr const char* kKernels = R"(
#include "net.h"
__global__ void shifted(const float* in, float* out, int shift) { out[threadIdx.x] = in[threadIdx.x + shift]; }
__global__ void fromB(const float* b, float* out) { out[threadIdx.x] = b[threadIdx.x + 7]; }
void train(NET* net, const float* in, float* out) {
  int hid;
  hid = net->hidden_n;
  shifted<<<64, 32>>>(in, out, hid);
}
void step(const float* in, float* out, int shift) { shifted<<<64, 32>>>(in, out, shift); }
void useInput(const struct Input* input, float* out) { fromB<<<64, 32>>>(input->b, out); }
)";

constexpr const char* kHeader = R"(
typedef struct { int input_n; int hidden_n; } NET;
struct Input { float* raw; float* b; };
#ifdef __cplusplus
extern "C" {
#endif
void train(NET* net, const float* in, float* out);
void step(const float* in, float* out, int shift);
void useInput(const struct Input* input, float* out);
#ifdef __cplusplus
}
#endif
)";

// The program's C driver: bpnn_create's chain of parameters down to the member (Rodinia's
// backprop), a reader never called that would give another value, a wrapper called with a
// constant, and a pointer member set 1 float past another (the samples' eigenvalues).
constexpr const char* kDriver = R"(
#include <stdlib.h>
#include "net.h"
static NET* internalCreate(int n_in, int n_hidden) {
  NET* n = (NET*)malloc(sizeof(NET));
  n->input_n = n_in;
  n->hidden_n = n_hidden;
  return n;
}
NET* create(int n_in, int n_hidden) { return internalCreate(n_in, n_hidden); }
NET* readNet(int fd) { int h = fd * 3; return internalCreate(4, h); }
void initInput(struct Input* input) {
  input->raw = (float*)malloc(4096);
  input->b = input->raw + 1;
}
void freeInput(struct Input* input) { free(input->raw); input->b = NULL; }
int main(int argc, char** argv) {
  struct Input input;
  float* out = 0;
  NET* net = create(argc, 1);
  train(net, 0, out);
  step(0, out, 1);
  initInput(&input);
  useInput(&input, out);
  freeInput(&input);
  return 0;
}
)";

double loadSectors(const AnalysisResult& r, const std::string& kernel, const std::string& expression) {
  for (const AccessSite& a : r.accesses)
    if (a.kernel == kernel && a.expression == expression && a.access.kind == model::AccessKind::Load) {
      INFO(kernel << " " << expression);
      REQUIRE(a.figures.global);
      return a.figures.global->aligned.sectorsPerRequest;
    }
  FAIL("no load " << expression << " in " << kernel);
  return 0;
}

using test::analyseKernels;

}  // namespace

TEST_CASE("sibling files: a wrapper's argument and a member set in the program's C driver") {
  test::TempDir dir;
  dir.write("net.h", kHeader);
  dir.write("kernels.cu", kKernels);
  dir.write("driver.c", kDriver);
  const AnalysisResult r = analyseKernels(dir);
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].status == Status::Analysed);
  // hid = net->hidden_n: 1 through create -> internalCreate; readNet's 3*fd never runs.
  // step's shift: main calls it with 1. Both launches of `shifted` read in[threadIdx.x + 1].
  CHECK(loadSectors(r, "shifted", "in[threadIdx.x + shift]") == Approx(5));
  // input->b lies 4 bytes past its allocation (b = raw + 1; the NULL of freeInput is no pointer).
  CHECK(loadSectors(r, "fromB", "b[threadIdx.x + 7]") == Approx(4));

  // Off (--no-sibling-files): the values are unknown again.
  const AnalysisResult off = analyseKernels(dir, false);
  CHECK(loadSectors(off, "shifted", "in[threadIdx.x + shift]") == Approx(4));
  CHECK(loadSectors(off, "fromB", "b[threadIdx.x + 7]") == Approx(5));
}

TEST_CASE("sibling files: a folder with two mains is two programs, and none of its siblings is read") {
  test::TempDir dir;
  dir.write("net.h", kHeader);
  dir.write("kernels.cu", kKernels);
  dir.write("driver.c", kDriver);
  dir.write("other.c", "#include \"net.h\"\nint main(void) { step(0, 0, 2); return 0; }\n");
  const AnalysisResult r = analyseKernels(dir);
  CHECK(loadSectors(r, "shifted", "in[threadIdx.x + shift]") == Approx(4));
  CHECK(loadSectors(r, "fromB", "b[threadIdx.x + 7]") == Approx(5));
}

TEST_CASE("sibling files: calls that disagree give each value a launch of its own") {
  test::TempDir dir;
  dir.write("net.h", kHeader);
  dir.write("kernels.cu", kKernels);
  dir.write("driver.c", R"(
#include "net.h"
int main(int argc, char** argv) { step(0, 0, 1); step(0, 0, 8); return 0; }
)");
  const AnalysisResult r = analyseKernels(dir);
  // step's shift takes 1 and 8 (ProgramFacts::parameterRuns): a launch each, 5 and 4 sectors.
  // train's launch (a pointer parameter only: no count of its runs asked of the program) has
  // hidden_n unknown (4 at the assumed 4096), so the three are not mixed: the worst, 5. Before,
  // calls that disagreed left the shift unknown: 4.
  CHECK(loadSectors(r, "shifted", "in[threadIdx.x + shift]") == Approx(5));
}

// A host loop over sizes in another file (the CUDA samples' scan: main.cpp's `for (uint
// arrayLength = MIN_SHORT_ARRAY_SIZE; arrayLength <= MAX_SHORT_ARRAY_SIZE; arrayLength <<= 1)`
// around a wrapper of scan.cu, its bounds `extern const` globals scan.cu defines): each value
// of the counter is a launch of its own, and, each launch's runs per run of the program being
// known, the figures are their mix weighted by requests, as the H200's counters add them up.
// `in[threadIdx.x * s]` reads 4, 8, 16 sectors for s = 1, 2, 4 (10 calls each), and `once`'s
// launch, 30 calls with s = 8, 32: (10 * 4 + 10 * 8 + 10 * 16 + 30 * 32) / 60 = 20.67 per
// request (the worst, 32; the loop's first value alone, 4). Every launch has the grid 64
// (`once`'s through its parameter, which the program always calls with 64).
TEST_CASE("sibling files: a host loop's values in another file are launches mixed by their runs") {
  test::TempDir dir;
  dir.write("kernels.cu", R"(
extern "C" const int MIN_STRIDE = 1;
__global__ void strided(const float* in, float* out, int s) { out[threadIdx.x] = in[threadIdx.x * s]; }
void sweep(const float* in, float* out, int s) { strided<<<64, 32>>>(in, out, s); }
void once(const float* in, float* out, int blocks) { strided<<<blocks, 32>>>(in, out, 8); }
)");
  dir.write("driver.cpp", R"(
extern "C" const int MIN_STRIDE;
void sweep(const float* in, float* out, int s);
void once(const float* in, float* out, int blocks);
int main() {
  const int repeats = 10;
  for (int s = MIN_STRIDE; s <= 4; s <<= 1)
    for (int r = 0; r < repeats; ++r) sweep(0, 0, s);
  for (int r = 0; r < 30; ++r) once(0, 0, 64);
  return 0;
}
)");
  const AnalysisResult r = analyseKernels(dir);
  CHECK(loadSectors(r, "strided", "in[threadIdx.x * s]") == Approx(1240.0 / 60));
  // A loop whose count the program does not show (`n` read at run time) leaves the runs
  // unknown: the worst launch, as before.
  dir.write("driver.cpp", R"(
extern "C" const int MIN_STRIDE;
void sweep(const float* in, float* out, int s);
void once(const float* in, float* out, int blocks);
int main(int argc, char** argv) {
  for (int s = MIN_STRIDE; s <= 4; s <<= 1) sweep(0, 0, s);
  for (int r = 0; r < argc; ++r) once(0, 0, 64);
  return 0;
}
)");
  const AnalysisResult unknown = analyseKernels(dir);
  CHECK(loadSectors(unknown, "strided", "in[threadIdx.x * s]") == Approx(32));
}

// Issue 16: a folder whose files all ask for the rest of the program used to parse every
// sibling once per asking file (N x (N - 1) parses). A run shares each sibling's summary
// between its workers (lib/analysis/src/sibling_summaries.h), in worker processes and on
// threads alike, and each file's values and files read are what its own parses gave: four
// summaries (each .cu file's own parse, stored for the others, and the driver's), not nine
// parses. (The three .cu files define the same functions, so since the next test's rule
// they are versions of each other and read none of each other; the driver is read once.)
TEST_CASE("sibling files: a run parses each sibling once, whichever of its files asks") {
  test::TempDir dir;
  dir.write("net.h", kHeader);
  dir.write("driver.c", kDriver);
  const std::vector<std::string> cus = {"kernels.cu", "more.cu", "third.cu"};
  for (const std::string& cu : cus) dir.write(cu, kKernels);
  for (const bool isolate : {true, false})
    for (const unsigned jobs : {1u, 2u}) {
      INFO("worker processes " << isolate << ", jobs " << jobs);
      analysis::AnalysisRequest request;
      for (const std::string& cu : cus) request.inputs.push_back(dir.str(cu));
      request.jobs = jobs;
      request.isolateFiles = isolate;
      request.reportFilesRead = true;
      analysis::AnalysisStats stats;
      const AnalysisResult r = analysis::analyze(request, &stats);
      REQUIRE(r.files.size() == 3);
      CHECK(stats.siblingParses == 4);
      for (const std::string& cu : cus) {
        INFO(cu);
        AnalysisResult one;
        for (const AccessSite& a : r.accesses)
          if (a.loc.file.ends_with("/" + cu)) one.accesses.push_back(a);
        CHECK(loadSectors(one, "shifted", "in[threadIdx.x + shift]") == Approx(5));
        CHECK(loadSectors(one, "fromB", "b[threadIdx.x + 7]") == Approx(4));
        // The driver is among the files each one's result rests on, parsed here or not.
        const auto read = std::find_if(stats.filesRead.begin(), stats.filesRead.end(),
                                       [&](const auto& f) { return f.first.ends_with("/" + cu); });
        REQUIRE(read != stats.filesRead.end());
        CHECK(std::count(read->second.begin(), read->second.end(), dir.str("driver.c")) == 1);
      }
    }
}

// A sibling that defines a function the analysed file defines too is another version of it,
// linked instead of it (gardenia's bfs/: a dozen files define `BFSSolver` beside one main.cc):
// not part of the program, so not read. Read, its `train` would call step with 8 and leave
// the shift unknown (4 sectors); unread, main's 1 gives 5.
TEST_CASE("sibling files: another version of the file's own functions is not part of its program") {
  test::TempDir dir;
  dir.write("net.h", kHeader);
  dir.write("kernels.cu", kKernels);
  dir.write("driver.c", kDriver);
  dir.write("alternative.cu", R"(
#include "net.h"
void train(NET* net, const float* in, float* out)
{
  step(in, out, 8);
}
)");
  const AnalysisResult r = analyseKernels(dir);
  CHECK(loadSectors(r, "shifted", "in[threadIdx.x + shift]") == Approx(5));
  CHECK(loadSectors(r, "fromB", "b[threadIdx.x + 7]") == Approx(4));
}

// ---- with the result cache (docs/cache.md, "Sibling files") --------------------------------

namespace {

struct CachedRun {
  AnalysisResult result;
  analysis::AnalysisStats stats;
};

CachedRun analyseCached(const test::TempDir& dir, const test::TempDir& cache, bool isolate = true) {
  analysis::AnalysisRequest request;
  request.inputs = {dir.str("kernels.cu")};
  request.jobs = 1;
  request.isolateFiles = isolate;
  request.cacheDir = cache.str("cache");
  CachedRun r;
  r.result = analysis::analyze(request, &r.stats);
  return r;
}

}  // namespace

// Issue 16: which siblings are the program's is decided from their texts (a `main`, another
// version of the file's functions: lib/analysis/src/sibling_text.h), and a sibling not parsed
// is not among the files the parse read. A cached result is checked against the folder again:
// a sibling that appears, starts or stops defining `main`, or stops being another version of
// the file, re-analyses it; a change the choice does not see keeps the hit.
TEST_CASE("sibling files: a cached result sees the folder's siblings change what the program is") {
  for (const bool isolate : {true, false}) {
    INFO("worker processes " << isolate);
    test::TempDir dir, cache;
    dir.write("net.h", kHeader);
    dir.write("kernels.cu", kKernels);
    dir.write("driver.c", kDriver);
    CachedRun first = analyseCached(dir, cache, isolate);
    CHECK(first.stats.cacheStored == 1);
    CHECK(loadSectors(first.result, "shifted", "in[threadIdx.x + shift]") == Approx(5));

    // A second main: two programs, no sibling read (the unknown shift's 4 sectors).
    dir.write("other.c", "#include \"net.h\"\nint main(void) { step(0, 0, 2); return 0; }\n");
    CachedRun twoMains = analyseCached(dir, cache, isolate);
    CHECK(twoMains.stats.cacheHits == 0);
    CHECK(loadSectors(twoMains.result, "shifted", "in[threadIdx.x + shift]") == Approx(4));

    // A third file without main: still not one program, the entry holds.
    dir.write("notes.c", "static int unused(void) { return 0; }\n");
    CachedRun third = analyseCached(dir, cache, isolate);
    CHECK(third.stats.cacheHits == 1);
    CHECK(loadSectors(third.result, "shifted", "in[threadIdx.x + shift]") == Approx(4));

    // other.c stops defining main: one program again, and its hidden_n = 2 and step(.., 2) (a
    // root: its address is taken) disagree with main's 1 for both launches.
    dir.write("other.c", "#include \"net.h\"\nvoid other(NET* n) { n->hidden_n = 2; step(0, 0, 2); }\n"
                         "void (*hook)(NET*) = other;\n");
    CachedRun oneMain = analyseCached(dir, cache, isolate);
    CHECK(oneMain.stats.cacheHits == 0);
    // 1 and 2 disagree: a launch each (session 12, docs/block-shapes.md), the worst is shift 1's.
    CHECK(loadSectors(oneMain.result, "shifted", "in[threadIdx.x + shift]") == Approx(5));
    std::filesystem::remove(dir.str("other.c"));
    CachedRun removed = analyseCached(dir, cache, isolate);
    CHECK(removed.stats.cacheHits == 0);
    CHECK(loadSectors(removed.result, "shifted", "in[threadIdx.x + shift]") == Approx(5));

    // Another version of the file's `train` (sets hidden_n and calls step with 8) is not read;
    // renamed, it is part of the program: its 8s and main's 1s give a launch each.
    dir.write("alternative.cu", "#include \"net.h\"\nvoid train(NET* net, const float* in, float* out)\n{\n"
                                "  net->hidden_n = 8;\n  step(in, out, 8);\n}\nvoid (*hook)(NET*, const float*, float*) = train;\n");
    CachedRun version = analyseCached(dir, cache, isolate);
    CHECK(version.stats.cacheHits == 1);
    CHECK(loadSectors(version.result, "shifted", "in[threadIdx.x + shift]") == Approx(5));
    dir.write("alternative.cu",
              "#include \"net.h\"\nvoid retrain(NET* net, const float* in, float* out)\n{\n  net->hidden_n = 8;\n"
              "  step(in, out, 8);\n}\n"
              "void (*hook)(NET*, const float*, float*) = retrain;\n");
    CachedRun part = analyseCached(dir, cache, isolate);
    CHECK(part.stats.cacheHits == 0);
    CHECK(loadSectors(part.result, "shifted", "in[threadIdx.x + shift]") == Approx(5));  // 1 and 8: a launch each
    CHECK(analysis::recordsToJson(part.result) == analysis::recordsToJson(analyseKernels(dir)));
  }
}

// Issue 16: a sibling's summary is kept in the result cache's folder, keyed on its parse and
// checked against every file it read: the next run that analyses a file of the folder (the
// file edited, its entry a miss) takes it from there instead of parsing the sibling, with the
// values a fresh run finds; an edited sibling is parsed again.
TEST_CASE("sibling files: a sibling's summary is kept between runs until the sibling changes") {
  for (const bool isolate : {true, false}) {
    INFO("worker processes " << isolate);
    test::TempDir dir, cache;
    dir.write("net.h", kHeader);
    dir.write("kernels.cu", kKernels);
    dir.write("driver.c", kDriver);
    CachedRun first = analyseCached(dir, cache, isolate);
    CHECK(first.stats.siblingsFromCache == 0);
    CHECK(loadSectors(first.result, "fromB", "b[threadIdx.x + 7]") == Approx(4));

    dir.write("kernels.cu", std::string(kKernels) + "// edited\n");
    CachedRun edited = analyseCached(dir, cache, isolate);
    CHECK(edited.stats.cacheHits == 0);
    CHECK(edited.stats.siblingsFromCache == 1);
    CHECK(loadSectors(edited.result, "shifted", "in[threadIdx.x + shift]") == Approx(5));
    CHECK(loadSectors(edited.result, "fromB", "b[threadIdx.x + 7]") == Approx(4));
    CHECK(analysis::recordsToJson(edited.result) == analysis::recordsToJson(analyseKernels(dir)));

    // The driver now creates the net with 8 hidden and steps by 8: both launches aligned.
    std::string driver = kDriver;
    driver.replace(driver.find("create(argc, 1)"), 15, "create(argc, 8)");
    driver.replace(driver.find("step(0, out, 1)"), 15, "step(0, out, 8)");
    dir.write("driver.c", driver);
    dir.write("kernels.cu", std::string(kKernels) + "// edited again\n");
    CachedRun changed = analyseCached(dir, cache, isolate);
    CHECK(changed.stats.siblingsFromCache == 0);
    CHECK(loadSectors(changed.result, "shifted", "in[threadIdx.x + shift]") == Approx(4));
    CHECK(analysis::recordsToJson(changed.result) == analysis::recordsToJson(analyseKernels(dir)));
  }
}

namespace {

const KernelRecord& kernelNamed(const AnalysisResult& r, const std::string& name) {
  for (const KernelRecord& k : r.kernels)
    if (k.name == name && k.launchesPerRun > 0) return k;
  FAIL("no launched kernel " << name);
  return r.kernels.front();
}

const AccessSite& accessOf(const AnalysisResult& r, const std::string& kernel) {
  for (const AccessSite& a : r.accesses)
    if (a.kernel == kernel && a.launchRequests > 0) return a;
  FAIL("no access counted in " << kernel);
  return r.accesses.front();
}

// Rodinia kmeans' shape (docs/findings.md, "Levels"; session 13): a one-off setup launched
// through a wrapper the driver calls once per round, an iterative kernel through a wrapper it
// calls in a `do ... while` of unknown count, the rounds a run-time option at its default (1,
// changed only under getopt). The .cu file calls neither wrapper: until session 13 both ran
// once per run, so the setup weighed as much as the loop.
constexpr const char* kRoundKernels = R"(
__global__ void setupK(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x * 33]; }
__global__ void stepK(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x]; }
extern "C" void allocate(const float* in, float* out) { setupK<<<64, 32>>>(in, out); }
extern "C" float iterate(const float* in, float* out) { stepK<<<64, 32>>>(in, out); return 0.5f; }
)";

std::string roundDriver(const std::string& roundsSetting) {
  return R"(
#include <stdlib.h>
#include <unistd.h>
void allocate(const float* in, float* out);
float iterate(const float* in, float* out);
static void cluster(int minK, int maxK, int rounds) {
  int k, i;
  for (k = minK; k <= maxK; k++) {
    allocate(0, 0);
    for (i = 0; i < rounds; i++) {
      float delta;
      int loop = 0;
      do {
        delta = iterate(0, 0);
      } while (delta > 0.001f && loop++ < 500);
    }
  }
}
int main(int argc, char** argv) {
  int opt;
  int minK = 5, maxK = 5;
  )" + roundsSetting + R"(
  while ((opt = getopt(argc, argv, "m:n:l:")) != -1) {
    switch (opt) {
      case 'm': maxK = atoi(optarg); break;
      case 'n': minK = atoi(optarg); break;
      case 'l': rounds = atoi(optarg); break;
    }
  }
  cluster(minK, maxK, rounds);
  return 0;
}
)";
}

}  // namespace

TEST_CASE("sibling files: the loops around a wrapper's calls in another file count its launches") {
  test::TempDir dir;
  dir.write("kernels.cu", kRoundKernels);
  dir.write("driver.c", roundDriver("int rounds = 1;"));
  const AnalysisResult r = analyseKernels(dir);
  // The k loop runs once (5 to 5) and so do the rounds (1): the setup once, the step in the
  // `do ... while` 64 times (a loop of unknown count, as a device loop's).
  const KernelRecord& setup = kernelNamed(r, "setupK");
  const KernelRecord& step = kernelNamed(r, "stepK");
  CHECK(setup.launchesPerRun == Approx(1));
  CHECK(step.launchesPerRun == Approx(64));
  CHECK(step.launchesBasis.find("`iterate` in cluster()") != std::string::npos);
  CHECK(step.launchesBasis.find("`rounds` 1") != std::string::npos);
  CHECK(step.launchesBasis.find("the defaults of run-time options") != std::string::npos);

  // The largest k read from the command line unconditionally: no default, the k loop is of
  // unknown count, and both kernels sit in loops of unknown count (64 together each).
  dir.write("driver.c", roundDriver("int rounds = 1;\n  maxK = atoi(argv[1]);"));
  const AnalysisResult unknown = analyseKernels(dir);
  CHECK(kernelNamed(unknown, "setupK").launchesPerRun == Approx(64));
  CHECK(kernelNamed(unknown, "stepK").launchesPerRun == Approx(64));

  // Without the program's other files: once each, as before.
  const AnalysisResult alone = analyseKernels(dir, false);
  CHECK(kernelNamed(alone, "setupK").launchesPerRun == Approx(1));
  CHECK(kernelNamed(alone, "stepK").launchesPerRun == Approx(1));
}

// A wrapper another file calls only in 1 of k iterations of its loop (a loss printed every
// `monitoring_step` steps: panel 12's Learn-CUDA-Programming ann): T / k launches per run,
// not T (host_summary.cpp, shareOfIterations).
TEST_CASE("sibling files: a wrapper called under `if (step % k == 0)` in another file's loop runs T / k times") {
  test::TempDir dir;
  dir.write("kernels.cu", kRoundKernels);
  dir.write("driver.c", R"(
void allocate(const float* in, float* out);
float iterate(const float* in, float* out);
int main(int argc, char** argv) {
  const int monitoring_step = 10;
  for (int step = 0; step < 1000; ++step) {
    iterate(0, 0);
    if (step % monitoring_step == 0) allocate(0, 0);
  }
  return 0;
}
)");
  const AnalysisResult r = analyseKernels(dir);
  CHECK(kernelNamed(r, "stepK").launchesPerRun == Approx(1000));
  const KernelRecord& monitor = kernelNamed(r, "setupK");
  INFO(monitor.launchesBasis);
  CHECK(monitor.launchesPerRun == Approx(100));
  CHECK(monitor.launchesBasis.find("in 10 % of the loops' iterations") != std::string::npos);
}

// The CUDA samples' histogram: `uint byteCount = 64 * 1048576;` in main.cpp, multiplied only
// under a command-line flag, passed to the .cu's wrapper that computes its grid from it. The
// cost's grid takes the option's default (4096 blocks of 16384 bytes), not the 4096 every
// unknown size takes (one block), and says so. The kernel's argument that rests on the option
// alone (`byteCount / 4`) is the default run's for the figures too (session 34), said as such.
TEST_CASE("sibling files: a size changed only by a command-line option takes its default in the cost") {
  test::TempDir dir;
  dir.write("kernels.cu", R"(
// The guard on `n`: the kernel argument the host computes from the option (`byteCount / 4`)
// takes its default too in the cost (session 14), so `i < n` runs in every block of the 4,096
// the cost's grid counts; with n at the plain 4096 it ran in 64 of them.
__global__ void partial(const unsigned* data, unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = data[i * 2];
}
extern "C" void histogram(const unsigned* data, unsigned* out, unsigned byteCount) {
  partial<<<(byteCount + 16383) / 16384, 64>>>(data, out, byteCount / 4);
}
)");
  const auto driver = [](const std::string& scale) {
    return R"(
#include <string.h>
extern "C" void histogram(const unsigned* data, unsigned* out, unsigned byteCount);
int main(int argc, char** argv) {
  unsigned byteCount = 64 * 1048576;
  )" + scale + R"(
  histogram(0, 0, byteCount);
  return 0;
}
)";
  };
  dir.write("driver.cpp", driver("if (argc > 1 && strcmp(argv[1], \"-sizemult\") == 0) byteCount *= 4;"));
  const AnalysisResult r = analyseKernels(dir);
  const AccessSite& a = accessOf(r, "partial");
  INFO(a.requestsBasis);
  CHECK(a.requestsBasis.find("4096 blocks") != std::string::npos);
  CHECK(a.requestsBasis.find("`byteCount` 67108864, the default of a run-time option") != std::string::npos);
  CHECK(a.requestsBasis.find("of the 4096 blocks") == std::string::npos);  // every block runs it
  const auto namesDefault = [](const AccessSite& site) {
    return std::any_of(site.assumptions.begin(), site.assumptions.end(), [](const std::string& s) {
      return s.find("n = 16777216 from the launch at") != std::string::npos &&
             s.find("with `byteCount` 67108864, the default of a run-time option") != std::string::npos;
    });
  };
  CHECK(namesDefault(a));
  CHECK_FALSE(a.requestsShown);  // the default run's count, not one the code fixes

  // Changed whatever the command line says: no default; the size takes 4096, one block.
  dir.write("driver.cpp", driver("byteCount *= 4;"));
  const AnalysisResult always = analyseKernels(dir);
  const AccessSite& b = accessOf(always, "partial");
  INFO(b.requestsBasis);
  CHECK(b.requestsBasis.find("1 block ") != std::string::npos);
  CHECK(b.requestsBasis.find("run-time option") == std::string::npos);
  CHECK(a.launchRequests == Approx(b.launchRequests * 4096));
  // The same figures under both drivers (every lane passes `i < n` either way); only the first
  // names the default.
  REQUIRE(a.figures.global);
  REQUIRE(b.figures.global);
  CHECK(a.figures.global->aligned.sectorsPerRequest == Approx(b.figures.global->aligned.sectorsPerRequest));
  CHECK_FALSE(namesDefault(b));
}

// Device loops bounded by the launch's arguments, counted at the defaults the cost's grid takes
// (session 14): the CUDA samples' histogram256, a grid-stride loop `pos < dataCount` over 240
// blocks of 192 threads with dataCount = byteCount / 4 (byteCount at its option's default,
// 67108864): 16777216 / 46080 = 364.1, 365 trips for the first thread, not the 64 a count the
// launch does not fix takes; Chai RSCD's block-stride loop `i < count` over a count read from
// the input (4096, the one default): 4096 / 256 = 16 trips.
TEST_CASE("sibling files: a device loop bounded by a launch argument counts its trips at the defaults") {
  test::TempDir dir;
  dir.write("kernels.cu", R"(
__global__ void gridStride(const unsigned* data, unsigned* out, unsigned dataCount) {
  for (unsigned pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount; pos += blockDim.x * gridDim.x)
    out[pos] = data[pos * 3];
}
__global__ void blockStride(const float* v, float* out, int count) {
  for (int i = threadIdx.x; i < count; i += blockDim.x) out[blockIdx.x * count + i] = v[i * 5];
}
extern "C" void histogram(const unsigned* data, unsigned* out, unsigned byteCount) {
  gridStride<<<240, 192>>>(data, out, byteCount / 4);
}
// A thread's own loop over a size at the bare default (leukocyte's 25-wide window `el_i <
// strel_m`): no share of the data, its count stays assumed.
__global__ void ownWindow(const float* v, float* out, int w) {
  float s = 0;
  for (int j = 0; j < w; ++j) s += v[threadIdx.x * 7 + j];
  out[threadIdx.x] = s;
}
extern "C" void outliers(const float* v, float* out, int count) {
  blockStride<<<8, 256>>>(v, out, count);
  ownWindow<<<8, 256>>>(v, out, count);
}
)");
  const auto driver = [](const std::string& scale) {
    return R"(
#include <stdlib.h>
#include <string.h>
extern "C" void histogram(const unsigned* data, unsigned* out, unsigned byteCount);
extern "C" void outliers(const float* v, float* out, int count);
int main(int argc, char** argv) {
  unsigned byteCount = 64 * 1048576;
  )" + scale + R"(
  histogram(0, 0, byteCount);
  outliers(0, 0, atoi(argv[1]));
  return 0;
}
)";
  };
  dir.write("driver.cpp", driver("if (argc > 2 && strcmp(argv[2], \"-sizemult\") == 0) byteCount *= 4;"));
  const AnalysisResult r = analyseKernels(dir);
  for (const AccessSite& a : r.accesses) {
    if (a.kernel == "ownWindow" && a.expression.find("v[") != std::string::npos) {
      INFO(a.requestsBasis);
      CHECK(a.requestsBasis.find("not known statically, taken as 64") != std::string::npos);
      CHECK(a.requestsBasis.find("counted with") == std::string::npos);
    }
    if (a.kernel != "gridStride" && a.kernel != "blockStride") continue;
    INFO(a.kernel << " " << a.expression << ": " << a.requestsBasis);
    if (a.kernel == "gridStride") {
      CHECK(a.requestsBasis.find("x 365 iterations of the enclosing loop") != std::string::npos);
      // dataCount rests on the option alone: the default run's value, for the figures too (session 34).
      CHECK(std::any_of(a.assumptions.begin(), a.assumptions.end(), [](const std::string& s) {
        return s.find("dataCount = 16777216 from the launch at") != std::string::npos &&
               s.find("`byteCount` 67108864, the default of a run-time option") != std::string::npos;
      }));
      CHECK_FALSE(a.requestsShown);
      CHECK(a.launchRequests == Approx(6 * 240 * 365));  // 6 warps of every block in every trip
    } else {
      CHECK(a.requestsBasis.find("x 16 iterations of the enclosing loop") != std::string::npos);
      CHECK(a.requestsBasis.find("`count` at 4096 (the host's value with `count` taken as 4096") != std::string::npos);
      CHECK(a.launchRequests == Approx(8 * 8 * 16));
    }
    CHECK(a.requestsBasis.find("not known statically") == std::string::npos);
  }
  // Changed whatever the command line says: byteCount takes 4096 (dataCount 1024), and the
  // grid-stride loop runs once in the first block.
  dir.write("driver.cpp", driver("byteCount *= 4;"));
  const AnalysisResult always = analyseKernels(dir);
  for (const AccessSite& a : always.accesses)
    if (a.kernel == "gridStride") {
      INFO(a.requestsBasis);
      CHECK(a.requestsBasis.find("x 1 iteration of the enclosing loop") != std::string::npos);
    }
}

// Rodinia myocyte's work_2: the block set to 32 in both arms of `if (workload == 1)`, the grid
// 4 blocks in one arm and `workload / threads.x` (plus one for a remainder) in the other. The
// block is known (every assignment gives 32); the cost's grid takes the arm the size's default
// selects (4096 / 32 = 128 blocks, no remainder), not 262,144 threads.
TEST_CASE("sibling files: a grid set in both arms of a size test takes the arm the default selects") {
  test::TempDir dir;
  dir.write("kernels.cu", R"(
#include <stdlib.h>
__global__ void solve(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x * 91]; }
void work(const float* in, float* out, int workload) {
  dim3 threads, blocks;
  int blocks_x;
  if (workload == 1) {
    threads.x = 32;
    threads.y = 1;
    blocks.x = 4;
    blocks.y = 1;
  } else {
    threads.x = 32;
    threads.y = 1;
    blocks_x = workload / threads.x;
    if (workload % threads.x != 0) blocks_x = blocks_x + 1;
    blocks.x = blocks_x;
    blocks.y = 1;
  }
  solve<<<blocks, threads>>>(in, out);
}
int main(int argc, char** argv) {
  work(0, 0, atoi(argv[1]));
  return 0;
}
)");
  const AnalysisResult r = analyseKernels(dir);
  const KernelRecord& k = kernelNamed(r, "solve");
  CHECK(k.block.dim.x == 32);
  CHECK(k.block.source == BlockSource::Launch);
  const AccessSite& a = accessOf(r, "solve");
  INFO(a.requestsBasis);
  CHECK(a.requestsBasis.find("128 blocks") != std::string::npos);
  CHECK(a.requestsBasis.find("`workload` taken as 4096") != std::string::npos);
}

// Rodinia's unity builds: main.cu includes the files the program is made of (myocyte's main.cu
// includes work.cu, which includes kernel.cu and seven more). Here main.cu includes the driver
// whose loop calls the wrapper; analysing the kernels' file, both the driver and main.cu are
// its siblings, and the driver's calls that main.cu holds through the include are the same
// calls, counted once: 10 launches a run, not 20 (program_facts.cpp, ProgramFacts::add).
// Analysing main.cu, the driver is in its own parse and not read again
// (test/analysis/sibling_text_test.cpp).
TEST_CASE("sibling files: the calls of a file a sibling includes count once") {
  test::TempDir dir;
  dir.write("kernels.cu", R"(
__global__ void scaleK(float* p) { p[threadIdx.x * 2] *= 2.0f; }
void scaleAll(float* p) { scaleK<<<64, 32>>>(p); }
)");
  dir.write("driver.cu", R"(
void scaleAll(float* p);
void run() {
  for (int i = 0; i < 10; ++i) scaleAll(0);
}
)");
  dir.write("main.cu", R"(
#include "driver.cu"
int main() {
  run();
  return 0;
}
)");
  analysis::AnalysisRequest request;
  request.inputs = {dir.str("kernels.cu")};
  request.jobs = 1;
  request.readSiblingFiles = true;
  const AnalysisResult r = analysis::analyze(request);
  CHECK(kernelNamed(r, "scaleK").launchesPerRun == Approx(10));
}

// A library's kernels folder whose file launches its kernels from host functions of its own,
// called by the program's driver one folder up (tsne-cuda's src/kernels/nbodyfft.cu and
// src/fit_tsne.cu): the driver is read for the wrapper's argument (sibling_text.cpp,
// SiblingTexts::choose), though the kernels folder has no `main` and no file of it launches
// the kernel.
TEST_CASE("sibling files: the driver one folder up gives a library wrapper its argument") {
  test::TempDir dir;
  dir.write("kernels/kernels.cu", R"(
__global__ void shifted(const float* in, float* out, int shift) { out[threadIdx.x] = in[threadIdx.x + shift]; }
namespace lib {
void run(const float* in, float* out, int shift) { shifted<<<64, 32>>>(in, out, shift); }
}
)");
  dir.write("kernels/other.cu", "__global__ void other(float* p) { p[threadIdx.x] = 0; }\n");
  dir.write("driver.cu", R"(
namespace lib { void run(const float* in, float* out, int shift); }
void fit(const float* in, float* out) {
  int shift = 1;
  lib::run(in, out, shift);
}
)");
  analysis::AnalysisRequest request;
  request.inputs = {dir.str("kernels/kernels.cu")};
  request.jobs = 1;
  const AnalysisResult r = analysis::analyze(request);
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].status == Status::Analysed);
  CHECK(loadSectors(r, "shifted", "in[threadIdx.x + shift]") == Approx(5));
  request.readSiblingFiles = false;
  CHECK(loadSectors(analysis::analyze(request), "shifted", "in[threadIdx.x + shift]") == Approx(4));
}
