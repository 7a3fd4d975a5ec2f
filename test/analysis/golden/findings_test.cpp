// The findings a user sees with the default settings on test/analysis/golden/findings/:
// minimal kernels written to reproduce each kind of finding the blind precision panel
// judged false (docs/precision.md), and the examples of docs/findings.md. Each line names,
// in a `// finding:` comment, every finding it must get with its severity
// (`aos-field-access=warning`, several separated by spaces) or `none`; a finding on a line
// that names nothing, or that does not name it, fails the test: a false finding that
// returns fails here.
#include <algorithm>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "coalesce/analysis/analyze.h"
#include "coalesce/model/arch.h"
#include "coalesce/records/block_detail.h"
#include "coalesce/report/filter.h"
#include "coalesce/report/rule_registry.h"
#include "coalesce/report/source_reader.h"

namespace fs = std::filesystem;
using namespace coalesce;

namespace {

// The files of findings/ and of its folders (a folder holds several programs that belong together:
// tutorial_steps/, a series of one program per file).
std::vector<std::string> findingFiles() {
  std::vector<std::string> files;
  for (const auto& e :
       fs::recursive_directory_iterator(fs::path(COALESCE_SOURCE_DIR) / "test" / "analysis" / "golden" / "findings"))
    if (e.path().extension() == ".cu") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

struct Analysed {
  AnalysisResult analysis;
  std::vector<report::Finding> shown;
};

const Analysed& analysed() {
  static const Analysed result = [] {
    Analysed out;
    analysis::AnalysisRequest request;
    request.inputs = findingFiles();
    out.analysis = analysis::analyze(request);
    report::ConfigProvider configs;
    report::FilterInputs inputs;
    inputs.configs = &configs;
    inputs.readSource = report::diskSourceReader();
    inputs.mainFiles = report::mainFilesOf(out.analysis);
    auto filtered = report::filterFindings(report::runRules(out.analysis, model::defaultArch()), inputs);
    if (filtered) out.shown = filtered->findings;
    return out;
  }();
  return result;
}

// line -> "rule=severity" names, from the `// finding:` comments ("none": an empty set).
std::map<unsigned, std::set<std::string>> expectedFindings(const std::string& path, std::vector<std::string>& errors) {
  std::map<unsigned, std::set<std::string>> out;
  std::ifstream in(path);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    const size_t at = line.find("// finding:");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + std::string("// finding:").size()));
    std::set<std::string>& names = out[n];
    for (std::string w; words >> w;) {
      if (w == "none") continue;
      if (w.find('=') == std::string::npos) errors.push_back("line " + std::to_string(n) + ": '" + w + "' is not rule=severity");
      names.insert(w);
    }
  }
  return out;
}

std::string joined(const std::set<std::string>& names) {
  if (names.empty()) return "none";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

}  // namespace

TEST_CASE("findings/: every file analysed, every kernel on its launch's block, or on none") {
  const Analysed& r = analysed();
  REQUIRE(r.analysis.files.size() == findingFiles().size());
  for (const FileRecord& f : r.analysis.files) {
    INFO(f.path << ": " << f.error);
    CHECK(f.status == Status::Analysed);
  }
  // Kernels named unlaunched* are, on purpose, launched nowhere, and runtimeBlock* with a
  // block computed at run time (unlaunched_and_broadcast.cu, unlaunched_runtime_blocks.cu);
  // gather_fast only where a macro that is 0 says (alternatives_kept_as_warnings.cu);
  // sampleRanks<0U> in a branch every call makes false (instantiation_never_launched.cu);
  // the overload initMatrices(int, double *), named with its parameters beside the one that is
  // launched (setup_before_library_loop.cu).
  for (const KernelRecord& k : r.analysis.kernels) {
    INFO(k.name << ": " << k.block.detail);
    if (k.name.rfind("unlaunched", 0) == 0 || k.name == "gather_fast" || k.name == "sampleRanks<0U>" ||
        k.name == "initMatrices(int, double *)")
      CHECK(k.block.detail.rfind(kNoLaunchFound, 0) == 0);
    else if (k.name.rfind("runtimeBlock", 0) == 0) CHECK(k.block.detail.find("at run time") != std::string::npos);
    else CHECK(k.block.source == BlockSource::Launch);
  }
}

TEST_CASE("findings/: the findings on every line are the ones written beside it, with their level") {
  const Analysed& r = analysed();
  std::map<std::string, std::map<unsigned, std::set<std::string>>> reported;
  for (const report::Finding& f : r.shown)
    reported[f.loc.file][f.loc.line].insert(f.rule + "=" + std::string(report::toString(f.severity)));
  size_t quietLines = 0, firing = 0;
  for (const std::string& file : findingFiles()) {
    std::vector<std::string> errors;
    const auto expected = expectedFindings(file, errors);
    std::set<unsigned> lines;
    for (const auto& [line, names] : expected) {
      lines.insert(line);
      (names.empty() ? quietLines : firing) += 1;
    }
    for (const auto& [line, names] : reported[file]) lines.insert(line);
    for (unsigned line : lines) {
      const auto want = expected.count(line) ? expected.at(line) : std::set<std::string>{};
      const auto have = reported[file].count(line) ? reported[file].at(line) : std::set<std::string>{};
      if (want != have)
        errors.push_back("line " + std::to_string(line) + ": expected " + joined(want) + ", reported " + joined(have));
    }
    std::string all;
    for (const auto& e : errors) all += "\n  " + e;
    INFO(file << all);
    CHECK(errors.empty());
  }
  CHECK(quietLines >= 25);
  CHECK(firing >= 4);
}

TEST_CASE("findings/: the two halves of a double4 and the fields of one record are one group using every sector") {
  const Analysed& r = analysed();
  size_t halves = 0;
  for (const AccessSite& a : r.analysis.accesses) {
    if (a.kernel != "integrate" || a.expression.find("vel[") == std::string::npos) continue;
    ++halves;
    INFO(a.expression << " at column " << a.loc.column);
    REQUIRE(a.group.id >= 0);
    CHECK(a.group.members == 2);
    CHECK(a.group.sectorsPerRequest == Approx(32));
    CHECK(a.group.idealSectors == Approx(32));
    // Each half alone, the verifier's figure: 16 bytes per lane, lanes 32 bytes apart.
    CHECK(a.figures.global->aligned.sectorsPerRequest == Approx(32));
    CHECK(a.figures.global->aligned.idealSectors == Approx(16));
  }
  CHECK(halves == 2);
  for (const AccessSite& a : r.analysis.accesses) {
    if (a.kernel != "positions" || a.access.kind != model::AccessKind::Load) continue;
    INFO(a.expression);
    REQUIRE(a.group.id >= 0);
    CHECK(a.group.members == 3);
    CHECK(a.group.sectorsPerRequest == Approx(24));  // every sector of the 768 bytes of 32 records
    CHECK(a.group.idealSectors == Approx(12));       // x, y and z: 12 of each 24 bytes
  }
}

TEST_CASE("findings/: the hot strided loop ranks first, and the cost says what it rests on") {
  const Analysed& r = analysed();
  const report::Finding* first = nullptr;
  const report::Finding* columns = nullptr;
  for (const report::Finding& f : r.shown) {
    if (f.rank == 1) first = &f;
    if (f.kernel == "columnSums" && f.costSectors) columns = &f;
  }
  // Ranked by the time wasted per run of the program: the transposed store of the kernel
  // launched 1000 times (one_off_next_to_loops.cu) before any kernel launched once.
  REQUIRE(first);
  CHECK(first->kernel == "step");
  REQUIRE(first->costSectors);
  REQUIRE(first->costTimePerRun);
  CHECK(*first->costSectors == Approx(8.0 * 4096 * 28));  // 8 warps x 4096 blocks, 28 excess sectors
  CHECK(*first->costTimePerRun > 1000 * *first->costSectors);  // 1000 launches, a sector weighs > 1 wavefront
  // In its own file, launched once, the hot strided loop ranks before the file's other findings.
  REQUIRE(columns);
  for (const report::Finding& f : r.shown)
    if (f.loc.file == columns->loc.file && f.rank > 0 && &f != columns) CHECK(columns->rank < f.rank);
  // 8 warps x 64 blocks x 512 iterations, 28 sectors over the 4 that carry the bytes.
  CHECK(*columns->costSectors == Approx(8.0 * 64 * 512 * 28));
  CHECK(columns->costShare.value_or(0) > 0.5);
  CHECK(columns->costBasis.find("512 iterations") != std::string::npos);
  // The AoS finding names the fields it reads and calls the cause a stride, not misalignment
  // (nested_record_fields.cu's, of another record, has a test of its own).
  for (const report::Finding& f : r.shown)
    if (f.rule == "aos-field-access" && f.loc.file.find("nested_record_fields.cu") == std::string::npos &&
        f.loc.file.find("record_fields_read_apart.cu") == std::string::npos) {
      INFO(f.message);
      CHECK(f.message.find("(x, y, z)") != std::string::npos);
      CHECK(f.message.find("structure stride") != std::string::npos);
    }
}

TEST_CASE("findings/: a thread walking its own row keeps its warning and says what the caches do") {
  const Analysed& r = analysed();
  int walks = 0;
  for (const report::Finding& f : r.shown) {
    if (f.kernel != "ownRowLoad" && f.kernel != "ownRowStore" && f.kernel != "columnWalk") continue;
    INFO(f.kernel << ": " << f.message);
    CHECK(f.severity == report::Severity::Warning);
    const bool noted = std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) {
      return n.find("uses the rest of these sectors in its next iterations") != std::string::npos;
    });
    // The two walks are served by the caches over the loop; the column walk moves a row per
    // iteration, so nothing of its sectors comes back.
    CHECK(noted == (f.kernel != "columnWalk"));
    ++walks;
  }
  CHECK(walks == 3);
}

TEST_CASE("findings/: a condition written over several lines is quoted on one") {
  const Analysed& r = analysed();
  int quoted = 0;
  for (const report::Finding& f : r.shown) {
    if (f.kernel != "wrappedCondition") continue;
    for (const std::string& n : f.notes) {
      INFO(n);
      CHECK(n.find('\n') == std::string::npos);
      quoted += n.find("`x > 0.0f && x < 1.0f`") != std::string::npos;
    }
  }
  CHECK(quoted > 0);
}

TEST_CASE("findings/: a launch under `if (step % k == 0)` in a host loop runs once in k of its iterations") {
  const Analysed& r = analysed();
  std::map<std::string, const KernelRecord*> kernels;
  for (const KernelRecord& k : r.analysis.kernels)
    if (k.loc.file.find("launched_every_nth_step.cu") != std::string::npos) kernels[k.name] = &k;
  REQUIRE(kernels.size() == 5);
  CHECK(kernels["trainStep"]->launchesPerRun == Approx(1000));
  CHECK(kernels["lossEvery"]->launchesPerRun == Approx(100));
  CHECK(kernels["checkEvery"]->launchesPerRun == Approx(250));
  CHECK(kernels["otherSteps"]->launchesPerRun == Approx(750));
  CHECK(kernels["unknownRemainder"]->launchesPerRun == Approx(1000));
  INFO(kernels["lossEvery"]->launchesBasis);
  CHECK(kernels["lossEvery"]->launchesBasis.find("1 in 10 of the iterations (`step % monitoring_step == 0` at ") !=
        std::string::npos);
  CHECK(kernels["otherSteps"]->launchesBasis.find("3 in 4 of the iterations (`!(step % 4)` at ") != std::string::npos);
}

TEST_CASE("findings/: an access before a return or break out of its loop runs once per entry, not per trip") {
  const Analysed& r = analysed();
  std::map<int, const AccessSite*> byLine;
  for (const AccessSite& a : r.analysis.accesses)
    if (a.loc.file.find("store_before_leaving_loop.cu") != std::string::npos && !byLine.count(a.loc.line))
      byLine[a.loc.line] = &a;
  REQUIRE(byLine.count(21));
  REQUIRE(byLine.count(23));
  REQUIRE(byLine.count(27));
  // 4096 blocks of 8 warps: the key load in the probe loop counts the loop's assumed trips
  // (64, its count not known), the stores before the return and the break once.
  const double once = 4096.0 * 8;
  CHECK(byLine[23]->launchRequests == Approx(once));
  CHECK(byLine[27]->launchRequests == Approx(once));
  CHECK(byLine[21]->launchRequests == Approx(64 * once));
  INFO(byLine[23]->requestsBasis);
  CHECK(byLine[23]->requestsBasis.find("iterations of") == std::string::npos);
}

TEST_CASE("findings/: a one-off kernel next to one the host loops over is a note, by its share of the program") {
  const Analysed& r = analysed();
  std::map<std::string, const KernelRecord*> kernels;
  for (const KernelRecord& k : r.analysis.kernels)
    if (k.loc.file.find("one_off_next_to_loops.cu") != std::string::npos) kernels[k.name] = &k;
  REQUIRE(kernels.size() == 3);
  CHECK(kernels["setupTranspose"]->launchesPerRun == Approx(1));
  CHECK(kernels["step"]->launchesPerRun == Approx(1000));
  CHECK(kernels["mergePartials"]->launchesPerRun == Approx(1000));
  CHECK(kernels["step"]->launchesBasis.find("host loop at") != std::string::npos);
  int setup = 0;
  for (const report::Finding& f : r.shown) {
    if (f.kernel != "setupTranspose" && f.kernel != "mergePartials") continue;
    INFO(f.kernel << ": " << f.message);
    // Most of its own kernel's traffic, a sliver of the program's.
    CHECK(f.costShare.value_or(0) > 0.5);
    REQUIRE(f.programShare);
    CHECK(*f.programShare < 0.02);
    CHECK(std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) {
      return n.find("of the memory time of the kernels its file launches") != std::string::npos;
    }));
    setup += f.kernel == "setupTranspose";
  }
  CHECK(setup == 1);
  // The last block's tail store runs in one block of the 4,096, so one launch executes 8 of its
  // warp requests, not 8 per block.
  int tails = 0;
  for (const AccessSite& a : r.analysis.accesses)
    if (a.kernel == "step" && a.expression.find("tail[") != std::string::npos) {
      INFO(a.requestsBasis);
      CHECK(a.launchRequests == Approx(8));
      CHECK(a.requestsBasis.find("1 of the 4096 blocks") != std::string::npos);
      ++tails;
    }
  CHECK(tails == 1);
}

TEST_CASE("findings/: the sizes of one program share one default, and a per-row kernel weighs a row per thread") {
  const Analysed& r = analysed();
  std::map<std::string, const AccessSite*> loads;  // by kernel: the first access of each
  for (const AccessSite& a : r.analysis.accesses)
    if (a.loc.file.find("sizes_of_one_program.cu") != std::string::npos && !loads.count(a.kernel)) loads[a.kernel] = &a;
  REQUIRE(loads.size() == 5);
  // A grid and a block sized from each other: analysed (no endless following), the old default.
  CHECK(loads["runtimeBlockMutual"]->requestsBasis.find("the grid is not known") != std::string::npos);
  // `n` from atoi(argv[1]) taken as 4096 in every grid: ceil(n / (double)rowBlock.x) blocks of
  // 256 threads, the block's own x read from its dim3 (a grid written over its block: the
  // blog's transposes, `(SIZE + block.x - 1) / block.x`), one thread per row, against (n / 16)^2 blocks of 16x16 (one per element): 1 to n.
  const AccessSite& row = *loads["perRow"];
  const AccessSite& element = *loads["perElement"];
  INFO(row.requestsBasis << "\n" << element.requestsBasis);
  CHECK(row.launchRequests == Approx(8.0 * 16));
  CHECK(element.launchRequests == Approx(8.0 * 256 * 256));
  CHECK(element.launchRequests / row.launchRequests == Approx(4096));
  CHECK(row.requestsBasis.find("16 blocks with `n` taken as 4096") != std::string::npos);
  CHECK(element.requestsBasis.find("256x256 blocks with `n` taken as 4096") != std::string::npos);
  // A grid from a property of the GPU keeps the old default: 262,144 threads.
  const AccessSite& device = *loads["perDevice"];
  INFO(device.requestsBasis);
  CHECK(device.launchRequests == Approx(8.0 * 1024));
  CHECK(device.requestsBasis.find("the grid is not known: taken as 1024 blocks, 262144 threads") != std::string::npos);
  // A host loop's counter read by the grid: at the middle of its range, (4096 - 2032) / 16 blocks.
  const AccessSite& shrinking = *loads["shrinking"];
  INFO(shrinking.requestsBasis);
  CHECK(shrinking.launchRequests == Approx(129));
  CHECK(shrinking.requestsBasis.find("`k` at 2032, the middle of its host loop") != std::string::npos);
  // The figures do not use the defaulted grid: no access of these kernels names it.
  for (const AccessSite& a : r.analysis.accesses)
    if (a.loc.file.find("sizes_of_one_program.cu") != std::string::npos)
      for (const std::string& s : a.assumptions) CHECK(s.find("taken as 4096, the one value") == std::string::npos);
  // The per-row read wastes most of its kernel's traffic and a sliver of the program's.
  for (const report::Finding& f : r.shown)
    if (f.kernel == "perRow") {
      CHECK(f.costShare.value_or(0) > 0.5);
      REQUIRE(f.programShare);
      CHECK(*f.programShare < 0.001);
    }
}

TEST_CASE("findings/: a store beside a thread-private array counts every block that runs it") {
  const AccessSite* store = nullptr;
  for (const AccessSite& a : analysed().analysis.accesses)
    if (a.loc.file.find("cost_beside_private_arrays.cu") != std::string::npos && a.expression == "hash[0]") store = &a;
  REQUIRE(store);
  // 8 warps per block x all 16 blocks of 4096 threads: the private array's loads, with the same
  // guards and no requests anywhere, had it counted in 1 of the 16.
  CHECK(store->launchRequests == Approx(8.0 * 16));
  CHECK(store->requestsBasis.find("of the 16 blocks") == std::string::npos);
}

TEST_CASE("findings/: every access counts the blocks that run it, and addresses not followed") {
  const Analysed& r = analysed();
  std::map<std::string, const AccessSite*> first;  // by kernel: its first access
  std::vector<const AccessSite*> hashed;
  for (const AccessSite& a : r.analysis.accesses) {
    if (!first.count(a.kernel)) first[a.kernel] = &a;
    if (a.kernel == "hashedPasses" && a.expression.find("data[") != std::string::npos) hashed.push_back(&a);
  }
  // blocks_that_run.cu: `i < n` and `point < n` (n = 4096, 256 threads) run in 16 of the 1,024
  // blocks counted, over a 1D index (block 1 runs) as over a 2D one (block (1, 1) does not).
  for (const char* kernel : {"flipOnce", "assignPoints"}) {
    REQUIRE(first.count(kernel));
    const AccessSite& a = *first.at(kernel);
    INFO(kernel << ": " << a.requestsBasis);
    CHECK(a.launchRequests == Approx(8.0 * 16 * 16));  // 8 warps x 16 blocks x 16 iterations
    CHECK(a.requestsBasis.find("16 of the 1024 blocks") != std::string::npos);
  }
  // unfollowed_addresses_in_the_cost.cu: the hashed load and store run every pass; the
  // one-off atomic is a few per cent of the kernel.
  CHECK(hashed.size() == 2);
  for (const AccessSite* a : hashed) CHECK(a->launchRequests == Approx(8.0 * 4096 * 64));
  int atomics = 0;
  for (const report::Finding& f : r.shown)
    if (f.kernel == "hashedPasses") {
      INFO(f.message);
      CHECK(f.costShare.value_or(1) < 0.05);
      CHECK(f.costShare.value_or(0) > 0.01);
      ++atomics;
    }
  CHECK(atomics == 1);
}

TEST_CASE("findings/: alternatives chosen at run time are recorded with their selector, and only those") {
  const Analysed& r = analysed();
  std::map<std::string, const KernelRecord*> kernels;
  for (const KernelRecord& k : r.analysis.kernels)
    if (k.loc.file.find("/alternatives_") != std::string::npos) kernels[k.name] = &k;
  REQUIRE(kernels.size() == 15);
  // llm.c's form: a switch over wrappers called with the same arguments.
  const RunTimeChoice& sums = kernels["row_sums_kernel1"]->choice;
  CHECK(sums.selector == "`kernel_num`");
  CHECK(sums.arms == 2);
  REQUIRE(sums.others.size() == 1);
  CHECK(sums.others[0].call == "row_sums2");
  CHECK(sums.others[0].kernels == std::vector<std::string>{"row_sums_kernel2"});
  // An else-if chain of three arms, and a table of two kernels launched in a loop.
  CHECK(kernels["transposeNaive"]->choice.arms == 3);
  CHECK(kernels["transposeNaive"]->choice.selector == "`variant`");
  CHECK(kernels["copy_rows_naive"]->choice.arms == 2);
  CHECK(kernels["copy_rows_naive"]->choice.selector == "the kernel table `kernels`");
  // `if (fill % 4 == 0)`: no variable alone on a side, so the whole test (once its `0`).
  REQUIRE(kernels.count("zero_fill_v1"));
  CHECK(kernels["zero_fill_v1"]->choice.arms == 2);
  CHECK(kernels["zero_fill_v1"]->choice.selector == "`fill % 4 == 0`");
  CHECK(kernels["copy_rows_naive"]->launchesPerRun == Approx(2));  // the table's launch counts for both
  // An operation chosen at run time and a choice a macro fixes are no alternatives; two scatters
  // are, and both keep their warnings (neither shows a fix).
  CHECK(kernels["add_columns"]->choice.arms == 0);
  CHECK(kernels["mul_columns"]->choice.arms == 0);
  CHECK(kernels["gather_basic"]->choice.arms == 0);
  CHECK(kernels["scatter_v1"]->choice.arms == 2);
  int named = 0;
  for (const report::Finding& f : r.shown) {
    if (f.loc.file.find("/alternatives_at_run_time.cu") == std::string::npos || f.severity != report::Severity::Note)
      continue;
    for (const std::string& n : f.notes)
      named += n.find("alternatives the host selects at run time") != std::string::npos;
  }
  CHECK(named == 4);  // row_sums_kernel1's load, transposeNaive's store, copy_rows_naive's load and store
}

TEST_CASE("findings/: the kernel's arithmetic floor counts what the source fixes, and nothing a few threads run") {
  const Analysed& r = analysed();
  std::map<std::string, const KernelRecord*> kernels;
  for (const KernelRecord& k : r.analysis.kernels)
    if (k.loc.file.find("arithmetic_counts.cu") != std::string::npos ||
        k.loc.file.find("compute_bound_rounds.cu") != std::string::npos)
      kernels[k.name] = &k;
  REQUIRE(kernels.count("stepForms"));
  const KernelRecord& steps = *kernels.at("stepForms");
  INFO(steps.arithmeticBasis);
  // arithmetic_counts.cu: 16 + 16 + 10 + 2 + 1 + 1 + 2 unsigned operators (a third of an
  // instruction each, half an SM cycle per instruction) and 2 PTX instructions (one each).
  CHECK(steps.arithmeticBasis.find("51 operations per thread (49 on unsigned 32-bit integers, 2 inline PTX") !=
        std::string::npos);
  CHECK(steps.arithmeticBasis.find("1 loop whose trips the source does not fix counted once") != std::string::npos);
  CHECK(steps.arithmeticCyclesPerWarp == Approx(49.0 / 6 + 1));
  CHECK(steps.warpsPerLaunch == Approx(16 * 8));
  // Warp shuffles (session 32): 5 + 10 at 32 lanes per cycle (1 cycle each), beside 5 float
  // adds (half an instruction each at 128 lanes: 1/8 cycle), 5 double adds (1/4 cycle) and the
  // three indices' 6 unsigned operators (a third of an instruction at 64 lanes: 1/6 cycle).
  REQUIRE(kernels.count("warpSums"));
  const KernelRecord& sums = *kernels.at("warpSums");
  INFO(sums.arithmeticBasis);
  CHECK(sums.arithmeticBasis.find("15 warp shuffles") != std::string::npos);
  CHECK(sums.arithmeticCyclesPerWarp == Approx(15 + 5.0 / 8 + 5.0 / 4 + 1));
  // compute_bound_rounds.cu: 96 rounds of the same mixing against one, and rounds whose count
  // the source does not fix counted once.
  for (const char* name : {"manyRounds", "oneRound", "roundsAtRunTime"}) REQUIRE(kernels.count(name));
  const double one = kernels.at("oneRound")->arithmeticCyclesPerWarp;
  CHECK(one > 0);
  CHECK(kernels.at("manyRounds")->arithmeticCyclesPerWarp > 90 * one);
  CHECK(kernels.at("roundsAtRunTime")->arithmeticCyclesPerWarp < 2 * one);
  CHECK(kernels.at("manyRounds")->warpsPerLaunch == Approx((1 << 20) / 32));
}

TEST_CASE("findings/: a load instantiations reach with and without parentheses is one finding naming them all") {
  const Analysed& r = analysed();
  std::vector<const report::Finding*> found;
  for (const report::Finding& f : r.shown)
    if (f.loc.file.find("instantiations_one_place.cu") != std::string::npos && f.rule == "uncoalesced-global-access")
      found.push_back(&f);
  REQUIRE(found.size() == 1);
  INFO(found[0]->message);
  CHECK(found[0]->instantiations.size() == 3);
  CHECK(found[0]->message.find("'in[r * cols + c]'") != std::string::npos);
  // Each instantiation's access is placed at the subscript itself, in the same column.
  std::set<unsigned> columns;
  for (const AccessSite& a : r.analysis.accesses)
    if (a.loc.file.find("instantiations_one_place.cu") != std::string::npos && a.expression.find("in[") == 0)
      columns.insert(a.loc.column);
  CHECK(columns.size() == 1);
}

TEST_CASE("findings/: a figure resting on a guessed lane spacing says so in its message") {
  const Analysed& r = analysed();
  std::map<std::string, const report::Finding*> byKernel;
  for (const report::Finding& f : r.shown)
    if (f.loc.file.find("guessed_stride_values.cu") != std::string::npos && f.rule == "uncoalesced-global-access")
      byKernel[f.kernel] = &f;
  REQUIRE(byKernel.count("poolRuntimeStride"));
  REQUIRE(byKernel.count("poolKnownStride"));
  INFO(byKernel.at("poolRuntimeStride")->message);
  CHECK(byKernel.at("poolRuntimeStride")->message.find(
            "; only under a guess: `stride` taken as 4096, and the figure follows the value the caller passes") !=
        std::string::npos);
  // The host passes 8 to the other: its figure is the code's, stated as such.
  CHECK(byKernel.at("poolKnownStride")->message.find("guess") == std::string::npos);
}

TEST_CASE("findings/: a field of a field names the outer record the lanes step over, and its path") {
  const Analysed& r = analysed();
  size_t seen = 0;
  for (const report::Finding& f : r.shown) {
    if (f.loc.file.find("nested_record_fields.cu") == std::string::npos || f.rule != "aos-field-access") continue;
    ++seen;
    INFO(f.message);
    CHECK(f.message.find("reads 13 of the 16 bytes of its record Term (valid, diff, zero.x, zero.y, one.x, one.y)") !=
          std::string::npos);
  }
  CHECK(seen == 6);
}

TEST_CASE("findings/: fields of the same record read elsewhere are named, not called unread") {
  const Analysed& r = analysed();
  size_t seen = 0;
  for (const report::Finding& f : r.shown) {
    if (f.loc.file.find("record_fields_read_apart.cu") == std::string::npos || f.rule != "aos-field-access") continue;
    INFO(f.message);
    CHECK(f.message.find("does not read") == std::string::npos);
    if (f.loc.line == 25 && f.message.find("load of 'ext.xpos'") != std::string::npos) {
      ++seen;
      CHECK(f.message.find("reads 16 of the 36 bytes of its record Extremum (xpos, ypos, sigma, num_ori) together") !=
            std::string::npos);
      CHECK(f.message.find("reaches idx_ori, orientation of the same record elsewhere (lines 31, 32)") !=
            std::string::npos);
    }
  }
  CHECK(seen == 1);
}

TEST_CASE("findings/: a launch in a host loop is analysed at the values of the counter it passes") {
  const Analysed& r = analysed();
  size_t strided = 0;
  for (const AccessSite& a : r.analysis.accesses) {
    if (a.loc.file.find("launch_counter_sweep.cu") == std::string::npos) continue;
    std::string all;
    for (const std::string& s : a.assumptions) all += s + "\n";
    INFO(a.kernel << " " << a.expression << "\n" << all);
    if (a.kernel == "strided") {
      ++strided;
      REQUIRE(a.figures.global);
      CHECK(a.figures.global->aligned.sectorsPerRequest == Approx(32));  // a stride past one sector
      CHECK(all.find("one of the 32 values of the loop") != std::string::npos);
      CHECK(all.find("the kernel has 8 launches") != std::string::npos);  // 8 of the 32, evenly spaced
    }
    if (a.kernel == "firstOnly") {
      REQUIRE(a.figures.global);
      CHECK(a.figures.global->aligned.sectorsPerRequest == Approx(4));  // s == 1 only
      CHECK(all.find("the kernel has") == std::string::npos);           // one launch
    }
  }
  CHECK(strided == 2);
}

TEST_CASE("findings/: the fields of one record read through a loaded index are judged as one gather") {
  const Analysed& r = analysed();
  std::map<int, const AccessSite*> byLine;
  for (const AccessSite& a : r.analysis.accesses)
    if (a.loc.file.find("gather_of_one_record.cu") != std::string::npos && a.access.kind == model::AccessKind::Load &&
        a.access.pattern.kind == model::PatternKind::Indirect && !byLine.count(a.loc.line))
      byLine[a.loc.line] = &a;
  REQUIRE(byLine.count(16));
  REQUIRE(byLine.count(19));
  // The box: 4 floats a lane, on 16-byte boundaries: one sector a lane at worst, 16 at best
  // for 32 lanes, 1 when every lane reads the same box.
  const AccessGroup& box = byLine[16]->group;
  CHECK(box.gather);
  CHECK(box.members == 4);
  CHECK(byLine[19]->group.id == box.id);
  CHECK(box.sectorsPerRequest == Approx(32));
  CHECK(box.idealSectors == Approx(16));
  CHECK(box.sectorsAtLeast == Approx(1));
  // A 32-byte record of two float4 halves fills its sector wherever it lies.
  REQUIRE(byLine.count(28));
  CHECK(byLine[28]->group.gather);
  CHECK(byLine[28]->group.sectorsPerRequest == Approx(byLine[28]->group.idealSectors));
  // 16 bytes of a 20-byte record start at any multiple of 4 bytes: two sectors a lane at worst.
  REQUIRE(byLine.count(42));
  CHECK(byLine[42]->group.gather);
  CHECK(byLine[42]->group.members == 4);
  CHECK(byLine[42]->group.sectorsPerRequest == Approx(64));
  CHECK(byLine[42]->group.idealSectors == Approx(16));
  int boxFindings = 0;
  for (const report::Finding& f : r.shown)
    if (f.loc.file.find("gather_of_one_record.cu") != std::string::npos && f.rule == "scattered-indirect-access" &&
        f.loc.line >= 16 && f.loc.line <= 19) {
      ++boxFindings;
      INFO(f.message);
      CHECK(f.message.find("1 to 32 sectors per request together") != std::string::npos);
      CHECK(f.message.find("ideal 16") != std::string::npos);
    }
  CHECK(boxFindings == 1);
}
