// Levels that read a finding's kernel records (lib/report/src/launch_level.cpp,
// setup_level.cpp): the records are the finding's own kernel's, told apart by where the kernel
// is defined, not by its name alone (finding_site.h, kernelsCovered).
#include <catch2/catch.hpp>

#include "coalesce/records/block_detail.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;

namespace {

// A strided load in kernel `kernel` of `file` (an uncoalesced-global-access finding).
AccessSite stridedLoad(const std::string& kernel, const std::string& file, int id) {
  AccessSite s = makeSite(affine(Space::Global, 4, 128), {256, 1, 1}, "a[i * 32]", "float", file, 10 + id);
  s.id = id;
  s.kernel = kernel;
  return s;
}

KernelRecord kernelAt(const std::string& name, const std::string& file, bool launched) {
  KernelRecord k;
  k.name = name;
  k.loc = {file, 5, 17};
  k.accesses = 1;
  k.block.dim = {256, 1, 1};
  k.block.source = launched ? BlockSource::Launch : BlockSource::Assumed;
  k.block.detail = launched ? "block 256x1x1 from the launch at " + file + ":40"
                            : std::string(kNoLaunchFound) + ": assumes a 256x1x1 block";
  k.launchesPerRun = launched ? 1 : 0;
  k.launchesBasis = launched ? "1 launch site, outside host loops" : "";
  k.unit = file;
  return k;
}

const report::Finding* findingIn(const std::vector<report::Finding>& findings, const std::string& file) {
  for (const report::Finding& f : findings)
    if (f.loc.file == file && f.rule == "uncoalesced-global-access") return &f;
  return nullptr;
}

bool isNote(const report::Finding& f) { return f.severityCap && *f.severityCap == report::Severity::Note; }

// The finding of kernel `kernel` in `file`, or null.
const report::Finding* findingOf(const std::vector<report::Finding>& findings, const std::string& file,
                                 const std::string& kernel) {
  for (const report::Finding& f : findings)
    if (f.loc.file == file && f.kernel == kernel) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("an overload one program launches and another does not is judged in each program") {
  // Two drivers of one tree define `init(int, double *)`; a.cu launches its own, b.cu launches
  // another kernel and not its `init`.
  AnalysisResult r;
  r.kernels = {kernelAt("init(int, double *)", "a.cu", true), kernelAt("init(int, double *)", "b.cu", false),
               kernelAt("step", "b.cu", true)};
  r.accesses = {stridedLoad("init(int, double *)", "a.cu", 0), stridedLoad("init(int, double *)", "b.cu", 1),
                stridedLoad("step", "b.cu", 2)};
  r.accesses[2].loc.line = 30;
  const std::vector<report::Finding> findings = report::runRules(r, defaultArch());
  const report::Finding* launched = findingIn(findings, "a.cu");
  REQUIRE(launched);
  CHECK_FALSE(isNote(*launched));
  const report::Finding* unlaunched = findingOf(findings, "b.cu", "init(int, double *)");
  REQUIRE(unlaunched);
  CHECK(isNote(*unlaunched));
  CHECK(contains(unlaunched->severityCapReason, "is never launched in b.cu"));

  // The same file with errors in its host code: its launch may be in a function the parse lost.
  FileRecord b;
  b.path = "b.cu";
  b.hostErrors = 15;
  r.files = {b};
  const std::vector<report::Finding> withErrors = report::runRules(r, defaultArch());
  const report::Finding* unread = findingOf(withErrors, "b.cu", "init(int, double *)");
  REQUIRE(unread);
  CHECK(isNote(*unread));
  CHECK_FALSE(contains(unread->severityCapReason, "is never launched"));
  CHECK(contains(unread->severityCapReason, "no launch of init(int, double *) was found in b.cu"));
  CHECK(contains(unread->severityCapReason, "has 15 errors"));
}

TEST_CASE("a kernel launched once beside a library's work repeated per run is a setup kernel") {
  const auto levelOf = [](double launches, double libraryRuns) {
    AnalysisResult r;
    KernelRecord k = kernelAt("init", "a.cu", true);
    k.launchesPerRun = launches;
    k.repeatedWork = "`cublasDgemm_v2` (a.cu:130), in the host loop at a.cu:287";
    k.repeatedWorkRuns = libraryRuns;
    r.kernels = {k};
    r.accesses = {stridedLoad("init", "a.cu", 0)};
    const std::vector<report::Finding> findings = report::runRules(r, defaultArch());
    REQUIRE(findingIn(findings, "a.cu"));
    return *findingIn(findings, "a.cu");
  };
  const report::Finding setup = levelOf(1, 64);
  CHECK(isNote(setup));
  CHECK(contains(setup.severityCapReason, "a setup kernel"));
  CHECK(contains(setup.severityCapReason, "`cublasDgemm_v2` (a.cu:130)"));
  CHECK_FALSE(isNote(levelOf(1, 1)));   // the library's work made once, as the kernel is
  CHECK_FALSE(isNote(levelOf(64, 64)));  // the kernel in the loop too: nothing says which weighs more
}

TEST_CASE("a kernel's arithmetic floor: waste it covers saves no time, and a merge keeps the largest share") {
  // One strided load per kernel: 32 sectors per request where 4 carry its bytes.
  const auto sharesOf = [](double cyclesPerWarp) {
    AnalysisResult r;
    KernelRecord k = kernelAt("hash", "a.cu", true);
    k.arithmeticCyclesPerWarp = cyclesPerWarp;
    k.warpsPerLaunch = 8;
    k.arithmeticBasis = "at least 9,000 operations per thread";
    r.kernels = {k};
    r.accesses = {stridedLoad("hash", "a.cu", 0)};
    r.accesses[0].launchRequests = 8;
    const std::vector<report::Finding> findings = report::runRules(r, defaultArch());
    REQUIRE(findingIn(findings, "a.cu"));
    return *findingIn(findings, "a.cu");
  };
  // Memory: 8 requests x 32 sectors x 1.74 = 445 cycles, 389 of them waste.
  const report::Finding none = sharesOf(0);
  REQUIRE(none.costShare);
  REQUIRE(none.timeShare);
  CHECK(*none.timeShare == Approx(*none.costShare));
  CHECK(none.timeBasis.empty());
  // Arithmetic of 100 cycles per warp over 8 warps (800) outlasts the whole memory time.
  const report::Finding covered = sharesOf(100);
  CHECK(*covered.timeShare == Approx(0));
  CHECK(contains(covered.timeBasis, "at least 9,000 operations per thread"));
  // 20 cycles per warp (160) covers part of the waste: (445 - 160) / 445 of the time is saved.
  const report::Finding partly = sharesOf(20);
  CHECK(*partly.timeShare == Approx((8 * 32 * 1.74 - 160) / (8 * 32 * 1.74)).epsilon(0.01));
  CHECK(*partly.timeShare < *partly.costShare);

  // A gather beside the load, counted at its least (4 sectors a request) in the memory time and
  // at up to 32: an arithmetic floor above the least but below the most keeps the warning.
  {
    AnalysisResult g;
    KernelRecord k = kernelAt("hash", "c.cu", true);
    k.arithmeticCyclesPerWarp = 100;  // 800 over 8 warps
    k.warpsPerLaunch = 8;
    k.arithmeticBasis = "at least 9,000 operations per thread";
    k.accesses = 2;
    g.kernels = {k};
    AccessSite gather = makeSite(indirect(Space::Global, 4), {256, 1, 1}, "a[idx[i]]", "float", "c.cu", 20);
    gather.kernel = "hash";
    gather.id = 1;
    gather.figures.sectorRange = std::make_pair(4.0, 32.0);
    gather.launchRequests = 64;  // 256 sectors (445 cycles) at the least, 2,048 (3,564) at the most
    g.accesses = {stridedLoad("hash", "c.cu", 0), gather};
    g.accesses[0].launchRequests = 8;
    const std::vector<report::Finding> found = report::runRules(g, defaultArch());
    const report::Finding* load = findingIn(found, "c.cu");
    REQUIRE(load);
    REQUIRE(load->timeShare);
    CHECK(*load->timeShare < *load->costShare);  // the floor covers part of the least memory time
    CHECK(load->timeBasis.empty());               // but not the most: no note
  }

  // Two kernels with one place (a helper both call): the merged place keeps the larger share,
  // the memory-bound kernel's.
  AnalysisResult r;
  KernelRecord bound = kernelAt("rounds", "b.cu", true), light = kernelAt("copy", "b.cu", true);
  bound.arithmeticCyclesPerWarp = 100;
  bound.warpsPerLaunch = 8;
  bound.arithmeticBasis = "at least 9,000 operations per thread";
  light.loc.line = 7;
  r.kernels = {bound, light};
  r.accesses = {stridedLoad("rounds", "b.cu", 0), stridedLoad("copy", "b.cu", 1)};
  r.accesses[1].loc = r.accesses[0].loc;
  for (AccessSite& a : r.accesses) a.launchRequests = 8;
  const std::vector<report::Finding> merged = report::runRules(r, defaultArch());
  const report::Finding* place = findingIn(merged, "b.cu");
  REQUIRE(place);
  CHECK(place->instantiations.size() == 2);
  REQUIRE(place->timeShare);
  CHECK(*place->timeShare == Approx(*place->costShare));
}

TEST_CASE("a kernel costed over the assumed grid claims no share of a program whose other kernels are sized") {
  // TIGRE's update_u (blind panel 32): its grid not followable, taken as the assumed 262,144
  // threads, beside a grid-stride kernel whose loop runs over sizes taken at their defaults:
  // "under 0.1 % of the program" for the kernel that does the work. Where every kernel is on the
  // assumed grid, their launch counts still compare (findings/blocks_that_run.cu).
  const auto programShareOf = [](bool otherSized) {
    AnalysisResult r;
    KernelRecord update = kernelAt("update", "a.cu", true);
    update.launchesPerRun = 64;
    KernelRecord scale = kernelAt("scale", "a.cu", true);
    scale.loc.line = 60;
    scale.launchesPerRun = 64;
    r.kernels = {update, scale};
    AccessSite strided = stridedLoad("update", "a.cu", 0);
    strided.launchRequests = 8192;
    strided.gridAssumed = true;
    AccessSite streamed = makeSite(affine(Space::Global, 4, 4), {256, 1, 1}, "v[i]", "float", "a.cu", 70);
    streamed.id = 1;
    streamed.kernel = "scale";
    streamed.launchRequests = 8192.0 * 4096;  // a loop over sizes at their defaults
    streamed.gridAssumed = !otherSized;
    r.accesses = {strided, streamed};
    const std::vector<report::Finding> findings = report::runRules(r, defaultArch());
    const report::Finding* f = findingOf(findings, "a.cu", "update");
    REQUIRE(f);
    return f->programShare;
  };
  CHECK_FALSE(programShareOf(true).has_value());
  REQUIRE(programShareOf(false).has_value());
  CHECK(*programShareOf(false) < 0.01);
}
