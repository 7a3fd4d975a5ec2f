// The --explain picture: its content for known accesses, sizes from the Arch, and the
// FILE:LINE[:COL] lookup.
#include <catch2/catch.hpp>

#include "coalesce/report/explain.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;
using report::explainAccess;

namespace {
size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("explain a[2 * i]: 8 sectors, each half used, four lanes each") {
  const std::string pic = explainAccess(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "a[2 * i]"), defaultArch());
  CHECK(contains(pic, "load of 'a[2 * i]' (float, 4 bytes per lane)"));
  CHECK(contains(pic, "warp 0 of 8 in block 256x1x1"));
  CHECK(contains(pic, "block average: 8 sectors per request (ideal 4), eta = 50%"));
  CHECK(contains(pic, "this warp: 8 sectors (ideal 4); 128 of the 256 bytes moved are used"));
  CHECK(count(pic, "#.#.#.#.") == 8);  // every sector: used, skipped, used, skipped
  CHECK(contains(pic, "     0       0  #.#.#.#.  0-3\n"));
  CHECK(contains(pic, "     7     224  #.#.#.#.  28-31\n"));
  CHECK(contains(pic, "  lanes  0-15: 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3\n"));
}

TEST_CASE("explain a[i + 1]: the fifth sector holds one lane") {
  const std::string pic = explainAccess(makeSite(affine(Space::Global, 4, 4, 0, 4), {256, 1, 1}, "a[i + 1]"), defaultArch());
  CHECK(contains(pic, "this warp: 5 sectors (ideal 4)"));
  CHECK(contains(pic, "     0       0  .#######  0-6\n"));
  CHECK(contains(pic, "     4     128  #.......  31\n"));
}

TEST_CASE("explain s[32 * t]: one wavefront per lane, all in bank 0") {
  const std::string pic = explainAccess(makeSite(affine(Space::Shared, 4, 128), {32, 1, 1}, "s[t][0]"), defaultArch());
  CHECK(contains(pic, "this warp: 32 wavefronts (ideal 1), phases of 32 lanes"));
  CHECK(contains(pic, "phase 1 (lanes 0-31): 32 wavefronts"));
  CHECK(count(pic, "  wavefront ") == 2 * 32);  // two groups of 16 banks, 32 rows each
  CHECK(contains(pic, "  wavefront 32  31   .   ."));
}

TEST_CASE("explain a broadcast: one word, every lane shares it") {
  const std::string pic = explainAccess(makeSite(affine(Space::Shared, 4, 0), {32, 1, 1}, "s[0]"), defaultArch());
  CHECK(contains(pic, "this warp: 1 wavefronts (ideal 1)"));
  CHECK(contains(pic, "  wavefront  1  0*   ."));
}

TEST_CASE("explain takes every size from the Arch, none from a literal") {
  model::Arch small = defaultArch();
  small.warpSize = 16;
  small.sectorBytes = 64;
  small.sharedBanks = 8;
  AccessSite s = makeSite(affine(Space::Global, 4, 8), {64, 1, 1}, "a[2 * i]");
  s.figures = analyzeAccess(s.access, s.block.dim, small);
  const std::string global = explainAccess(s, small);
  CHECK(contains(global, "warp 0 of 4 in block 64x1x1"));
  CHECK(contains(global, "this warp: 2 sectors (ideal 1)"));
  CHECK(contains(global, "  lanes  0-15: 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1 1\n"));
  CHECK_FALSE(contains(global, "lanes 16-"));  // 16 lanes: one row
  CHECK(contains(global, "#.#.#.#.#.#.#.#."));  // 64-byte sectors, 4-byte cells

  AccessSite sh = makeSite(affine(Space::Shared, 4, 4), {64, 1, 1}, "s[t]");
  sh.figures = analyzeAccess(sh.access, sh.block.dim, small);
  const std::string shared = explainAccess(sh, small);
  CHECK(contains(shared, "          bank   0   1   2   3   4   5   6   7\n"));
  CHECK(contains(shared, "this warp: 2 wavefronts (ideal 2)"));
}

TEST_CASE("explain says when there is nothing to draw") {
  const std::string pic = explainAccess(makeSite(indirect(Space::Global, 4), {256, 1, 1}, "a[idx[i]]"), defaultArch());
  CHECK(contains(pic, "the addresses come from loaded data: 1 to 32 sectors per request"));
  AccessSite s = makeSite(affine(Space::Global, 4, 8));
  CHECK(contains(explainAccess(s, defaultArch(), {99}), "no lane addresses for this warp"));
}

TEST_CASE("explain targets: FILE:LINE and FILE:LINE:COL, matched on path suffixes") {
  auto t = report::parseExplainTarget("src/k.cu:12:7");
  REQUIRE(t);
  CHECK(t->file == "src/k.cu");
  CHECK(t->line == 12);
  CHECK(t->column == 7u);
  auto noColumn = report::parseExplainTarget("c:/x/k.cu:12");
  REQUIRE(noColumn);
  CHECK(noColumn->file == "c:/x/k.cu");
  CHECK_FALSE(noColumn->column);
  CHECK_FALSE(report::parseExplainTarget("k.cu"));
  CHECK_FALSE(report::parseExplainTarget("k.cu:x"));
  CHECK(report::parseExplainTarget("k.cu:0").error().message == "--explain expects FILE:LINE[:COL], not 'k.cu:0'");

  AnalysisResult r;
  r.accesses.push_back(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "a", "float", "./src/k.cu", 12, 7));
  r.accesses.push_back(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "b", "float", "src/k.cu", 12, 20));
  r.accesses.push_back(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "c", "float", "other/k.cu", 12, 7));
  CHECK(report::accessesAt(r, *report::parseExplainTarget("src/k.cu:12")).size() == 2);
  CHECK(report::accessesAt(r, *report::parseExplainTarget("k.cu:12:7")).size() == 2);
  CHECK(report::accessesAt(r, *report::parseExplainTarget("/abs/repo/src/k.cu:12:20")).front()->expression == "b");
  CHECK(report::accessesAt(r, *report::parseExplainTarget("rc/k.cu:12")).empty());
}

TEST_CASE("explain a field of a record gathered through a loaded index: the group's range too") {
  AccessSite site = makeSite(affine(Space::Global, 4, 4), {256, 1, 1}, "b[1]");
  site.access.pattern = model::LanePattern::makeIndirect();
  site.figures = model::analyzeAccess(site.access, site.block.dim, defaultArch());
  site.group = recordGather(4, 1, 32, 16);
  const std::string pic = explainAccess(site, defaultArch());
  CHECK(contains(pic, "the addresses come from loaded data: 1 to 32 sectors per request; nothing to draw"));
  CHECK(contains(pic, "with the 3 other accesses of the same record through the same index: 1 to 32 sectors per "
                      "request together (ideal 16)"));
}
