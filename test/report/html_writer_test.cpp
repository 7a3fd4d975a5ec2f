// The HTML page (--format=html): escaping of everything taken from sources and paths, every
// finding drawn with its warp and the fix's, the index's sort key, and the source views'
// windows. The page in a real browser: test/tools/html_browser_test.py.
#include <catch2/catch.hpp>

#include <sstream>

#include "coalesce/html/escape.h"
#include "coalesce/html/page.h"
#include "coalesce/html/source_lines.h"
#include "coalesce/report/filter.h"
#include "coalesce/report/finding_cost.h"
#include "coalesce/report/html_writer.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;

namespace {

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
  return n;
}

// The rules' findings on `analysis`, unfiltered, in a report as the CLI builds it.
report::Report reportOf(const AnalysisResult& analysis) {
  report::Report r;
  r.analysis = &analysis;
  r.findings = report::runRules(analysis, defaultArch());
  r.tool.version = "test";
  return r;
}

std::string htmlOf(const report::Report& r, report::SourceReader reader) {
  std::ostringstream out;
  report::HtmlOptions o;
  o.readSource = std::move(reader);
  report::writeHtml(out, r, o);
  return out.str();
}

AccessSite numbered(AccessSite s, int id, unsigned line) {
  s.id = id;
  s.loc.line = line;
  return s;
}

}  // namespace

TEST_CASE("html escape: markup, quotes and comment openers become references") {
  CHECK(html::escape("</script><!-- \"x\" 'y' & z") ==
        "&lt;/script&gt;&lt;!-- &quot;x&quot; &#39;y&#39; &amp; z");
  CHECK(html::escape("plain text, tabs\tand\nnewlines") == "plain text, tabs\tand\nnewlines");
}

TEST_CASE("html escape: bytes that are not UTF-8 and control characters become U+FFFD") {
  const std::string r = "\xEF\xBF\xBD";
  CHECK(html::escape("a\xFF" "b") == "a" + r + "b");
  CHECK(html::escape("\xC0\xAF") == r + r);          // overlong '/'
  CHECK(html::escape("\xED\xA0\x80") == r + r + r);  // a surrogate
  CHECK(html::escape("\xE2\x82") == r + r);          // cut short at the end
  CHECK(html::escape(std::string("a\0b", 3)) == "a" + r + "b");
  CHECK(html::escape("\x1B[1m") == r + "[1m");
  CHECK(html::escape("\xC2\x85") == r);  // C1 control (NEL)
  const std::string valid = "d\xC3\xA9" "cimation \xE6\xBC\xA2 \xF0\x9F\x98\x80";  // 2-, 3- and 4-byte sequences
  CHECK(html::escape(valid) == valid);
}

TEST_CASE("html page: one self-contained document that fetches nothing") {
  const std::string page = html::page("a <title>", "<p>body</p>");
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(contains(page, "<title>a &lt;title&gt;</title>"));
  CHECK(contains(page, "default-src 'none'"));
  for (const char* fetch : {"src=", "href=\"http", "@import", "url(", "<link"}) CHECK_FALSE(contains(page, fetch));
  CHECK(count(page, "<script") == 1);
  CHECK(count(page, "<style") == 1);
}

TEST_CASE("html colour scale: one scale for eta and conflict degree") {
  CHECK(html::wasteOf(1.0) == html::Waste::Ideal);
  CHECK(html::wasteOf(1.25) == html::Waste::Mild);   // eta 80%
  CHECK(html::wasteOf(2.0) == html::Waste::High);    // eta 50%, a 2-way conflict
  CHECK(html::wasteOf(8.0) == html::Waste::Severe);  // eta 12.5%
}

TEST_CASE("html report: every access finding drawn as written and after the fix") {
  AnalysisResult a;
  a.accesses.push_back(numbered(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "in[2 * i]"), 0, 3));
  a.accesses.push_back(numbered(makeSite(affine(Space::Shared, 4, 128), {32, 1, 1}, "s[t][0]"), 1, 4));
  a.accesses.push_back(numbered(makeSite(indirect(Space::Global, 4), {256, 1, 1}, "in[idx[i]]"), 2, 5));
  const report::Report r = reportOf(a);
  REQUIRE(r.findings.size() == 3);
  for (const report::Finding& f : r.findings) CHECK(f.fix.has_value());
  CHECK(r.findings[0].fix->access.pattern.affine.cx == 4);  // the stride-2 read made unit-stride

  const std::string page = htmlOf(r, memoryReader({{"k.cu", "a\nb\nc\nd\ne\n"}}));
  CHECK(count(page, "<div class=\"f ") == 3);
  CHECK(count(page, "<details class=\"pic\" open>") == 3);  // 3 findings: pictures start open
  // Strided read: 8 sectors as written, 4 after the fix; the bank conflict: 32 wavefronts,
  // then 1 with the row padded; the gather: no lanes to draw, but its fix drawn.
  CHECK(contains(page, "this warp: 8 sectors (ideal 4); 128 of the 256 bytes moved are used"));
  CHECK(contains(page, "this warp: 4 sectors (ideal 4); 128 of the 128 bytes moved are used"));
  CHECK(contains(page, "this warp: 32 wavefronts (ideal 1)"));
  CHECK(contains(page, "(rows padded from 32 to 33 elements)"));
  CHECK(contains(page, "this warp: 1 wavefront (ideal 1)"));
  CHECK(contains(page, "the addresses come from loaded data: 1 to 32 sectors per request"));
  CHECK(count(page, "<svg class=\"w\"") == 5);
  // Each drawing kept once: the strided read's fix and the gather's fix are the same warp.
  CHECK(count(page, "<symbol id=") == 4);
  CHECK(count(page, "<use href=\"#p1\"/>") == 2);
  CHECK(count(page, "<path class=\"lu\"") == 2);  // used bytes, in each global drawing
  CHECK(count(page, "<path class=\"bx\"") == 1);  // the conflict's extra wavefronts, as written only
}

TEST_CASE("html report: pictures start closed above HtmlOptions::openPicturesUpTo findings") {
  AnalysisResult a;
  a.accesses.push_back(numbered(makeSite(affine(Space::Global, 4, 8)), 0, 1));
  const report::Report r = reportOf(a);
  std::ostringstream out;
  report::HtmlOptions o;
  o.readSource = memoryReader({});
  o.openPicturesUpTo = 0;
  report::writeHtml(out, r, o);
  CHECK(count(out.str(), "<details class=\"pic\">") == 1);
  CHECK_FALSE(contains(out.str(), "<details class=\"pic\" open>"));
}

TEST_CASE("html report: hostile file names, kernel names and source text are escaped") {
  const std::string path = "dir/x\"><script>alert(1)</script><!--'.cu";
  AccessSite s = numbered(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "a[i] /* </script> <!-- */", "float",
                                   path, 2),
                          0, 2);
  s.kernel = "k<int>\"</script>";
  s.lineText = "  x = a[i]; // </script><!-- \"quoted\" & 'single'";
  AnalysisResult a;
  a.files.push_back({path, Status::Failed, "error with </script> in it", 0, {}});
  a.kernels.push_back({s.kernel, s.loc, Status::Analysed, "", 1, s.block, {}, 0, "", false, false, "", "", 0, {}, 0, 0, ""});
  a.accesses.push_back(s);
  const report::Report r = reportOf(a);
  REQUIRE(r.findings.size() == 1);
  const std::string source = "<!-- first line -->\n" + s.lineText + "\n</script>\n";
  for (const bool readable : {true, false}) {
    const std::string page = htmlOf(r, readable ? memoryReader({{path, source}}) : memoryReader({}));
    CHECK(count(page, "<script") == 1);   // the page's own
    CHECK(count(page, "</script") == 1);
    CHECK_FALSE(contains(page, "<!--"));
    CHECK_FALSE(contains(page, "x\"><script>"));
    CHECK_FALSE(contains(page, "'.cu"));
    CHECK(contains(page, "x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--&#39;.cu"));
    CHECK(contains(page, "k&lt;int&gt;&quot;&lt;/script&gt;"));
    CHECK(contains(page, "// &lt;/script&gt;&lt;!-- &quot;quoted&quot; &amp; &#39;single&#39;"));
  }
}

TEST_CASE("html report: the index lists the costliest finding first, the files table each kernel's findings") {
  AnalysisResult a;
  a.accesses.push_back(numbered(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "a[2 * i]"), 0, 1));
  a.accesses.push_back(numbered(makeSite(affine(Space::Global, 4, 128), {256, 1, 1}, "a[32 * i]"), 1, 2));
  KernelRecord kernel;
  kernel.name = "k";
  kernel.loc = a.accesses[0].loc;
  kernel.accesses = 2;
  kernel.block = a.accesses[0].block;
  a.kernels.push_back(kernel);
  const report::Report r = reportOf(a);
  REQUIRE(r.findings.size() == 2);
  // Sectors beyond the ideal per request: 8 - 4 and 32 - 4.
  CHECK(report::findingCost(r.findings[0], a).excessPerRequest == Approx(4));
  CHECK(report::findingCost(r.findings[1], a).excessPerRequest == Approx(28));
  CHECK(report::findingCost(r.findings[1], a).unit == "sectors/request");
  report::Finding branch;
  branch.branch = 0;
  CHECK_FALSE(report::findingCost(branch, a).excessPerRequest);

  const std::string page = htmlOf(r, memoryReader({}));
  const size_t index = page.find("<section id=\"index\">"), files = page.find("<section id=\"files\">");
  REQUIRE(index < files);
  const std::string table = page.substr(index, files - index);
  REQUIRE(contains(table, "href=\"#f1\""));
  CHECK(table.find("href=\"#f1\"") < table.find("href=\"#f0\""));
  CHECK(contains(table, "data-v=\"28.00\""));
  // The files table: the kernel with its block shape, where it came from, and its findings.
  CHECK(contains(page, "<code>k</code> <span class=\"muted\">256x1x1, launch</span> &middot; 2 findings"));
}

TEST_CASE("html source view: a long file shows windows around its accesses") {
  const auto shown = html::linesToShow(3000, {2000});
  REQUIRE(shown.size() == 2 * html::kContextLines + 1);
  CHECK(shown.front() == 2000 - html::kContextLines);
  CHECK(shown.back() == 2000 + html::kContextLines);
  CHECK(html::linesToShow(10, {4}).size() == 10);
  CHECK(html::linesToShow(std::nullopt, {4, 9}) == std::vector<unsigned>{4, 9});
  CHECK(html::linesToShow(3, {7}) == std::vector<unsigned>{1, 2, 3, 7});  // past the end: from the records

  std::string text;
  for (int i = 1; i <= 3000; ++i) text += "line " + std::to_string(i) + "\n";
  AnalysisResult a;
  a.accesses.push_back(numbered(makeSite(affine(Space::Global, 4, 4)), 0, 2000));
  const std::string page = htmlOf(reportOf(a), memoryReader({{"k.cu", text}}));
  CHECK(contains(page, ">1979 lines not shown<"));
  CHECK(contains(page, ">980 lines not shown<"));
  CHECK(contains(page, ">line 2020<"));
  CHECK_FALSE(contains(page, ">line 2021<"));
}

TEST_CASE("html source view: each access a badge in the colour of its figure") {
  AnalysisResult a;
  a.accesses.push_back(numbered(makeSite(affine(Space::Global, 4, 4)), 0, 1));
  a.accesses.push_back(numbered(makeSite(affine(Space::Global, 4, 8)), 1, 2));
  a.accesses.push_back(numbered(makeSite(affine(Space::Shared, 4, 128), {32, 1, 1}), 2, 3));
  const std::string page = htmlOf(reportOf(a), memoryReader({{"k.cu", "one\ntwo\nthree\n"}}));
  CHECK(contains(page, "<span class=\"b w0\" title=\"global load of &#39;a[i]&#39; in kernel &#39;k&#39;\">ld 4/4 sec"));
  CHECK(contains(page, "<span class=\"b w2\""));
  CHECK(contains(page, ">ld 8/4 sec &middot; &eta; 50%</span>"));
  CHECK(contains(page, "<span class=\"b w3\""));
  CHECK(contains(page, ">ld 32/1 wf &middot; 32-way</span>"));
}

TEST_CASE("html report: a tree of 800 files, each with the largest pictures, stays under 20 MB") {
  // The largest pictures there are: 32 lanes on 32 sectors, and a 32-way conflict (32 rows),
  // as written and after the fix, twice per file, beside two ideal accesses and 40 lines of
  // source; a different drawing in every file. bench/html_size.py measures the page of a real
  // 800-file run (docs/html-report.md).
  constexpr int kFiles = 800;
  AnalysisResult a;
  std::map<std::string, std::string> sources;
  for (int f = 0; f < kFiles; ++f) {
    const std::string path = "tree/module" + std::to_string(f % 10) + "/kernel_" + std::to_string(f) + ".cu";
    std::string text;
    for (int line = 1; line <= 40; ++line) text += "  float v" + std::to_string(line) + " = in[stride * i];\n";
    sources[path] = text;
    // Strides and bases that differ from file to file, so that the drawings differ too.
    const std::pair<Access, Dim3> accesses[] = {{affine(Space::Global, 4, 128 + 4 * f), {256, 1, 1}},
                                                {affine(Space::Shared, 4, 128, 0, 4 * (f % 32)), {32, 32, 1}},
                                                {affine(Space::Global, 4, 4), {256, 1, 1}},
                                                {affine(Space::Shared, 4, 4), {256, 1, 1}}};
    unsigned line = 10;
    for (const auto& [access, block] : accesses) {
      AccessSite s = makeSite(access, block, "in[stride * i]", "float", path, line);
      s.id = static_cast<int>(a.accesses.size());
      line += 5;
      a.accesses.push_back(std::move(s));
    }
  }
  const report::Report r = reportOf(a);
  REQUIRE(r.findings.size() == 2 * kFiles);
  const std::string page = htmlOf(r, memoryReader(sources));
  INFO("page: " << page.size() << " bytes for " << r.findings.size() << " findings");
  CHECK(count(page, "<svg class=\"w\"") == 4 * kFiles);
  // Drawn once each: 800 strided reads, their one fix, 32 conflicts by bank and their fixes.
  CHECK(count(page, "<symbol id=") == kFiles + 1 + 32 + 32);
  CHECK(count(page, "<details class=\"pic\">") == 2 * kFiles);  // closed: more than 100 findings
  CHECK(page.size() < 20'000'000);
}

TEST_CASE("html report: a branch finding drawn as the paths its warp runs") {
  AnalysisResult a;
  BranchSite b;
  b.loc = {"k.cu", 3, 5};
  b.kernel = "k";
  b.condition = "tid % 2 == 0";
  b.block.dim = {256, 1, 1};
  b.block.source = BlockSource::Launch;
  b.warpRequests = 8;
  b.divergentRequests = 8;
  b.split.warp = 2;
  b.split.blockX = 1;
  b.split.values = {"0", "1"};
  for (int lane = 0; lane < 32; ++lane) b.split.lanes.push_back(lane < 4 ? -1 : lane % 2 == 0);
  a.branches.push_back(b);
  BranchSite uniform = b;
  uniform.id = 1;
  uniform.split = {};
  a.branches.push_back(uniform);
  BranchSite bySwitch = b;  // a switch: one path per value
  bySwitch.id = 2;
  bySwitch.kind = BranchKind::Switch;
  bySwitch.split.values = {"0", "10", "20"};
  bySwitch.split.lanes.clear();
  for (int lane = 0; lane < 32; ++lane) bySwitch.split.lanes.push_back(lane % 3);
  a.branches.push_back(bySwitch);
  report::Report r;
  r.analysis = &a;
  for (int id : {0, 1, 2}) {
    report::Finding f;
    f.rule = "divergent-branch";
    f.loc = b.loc;
    f.branch = id;
    f.message = "splits warps";
    r.findings.push_back(f);
  }
  const std::string page = htmlOf(r, memoryReader({}));
  CHECK(contains(page, "warp 2 of 8 in a block of 256x1x1 (launch), in block (1, 0, 0)"));
  CHECK(contains(page, "2 paths run one after the other: 14 lanes true, 14 lanes false; 4 lanes not reaching the branch"));
  CHECK(contains(page, "in the block, 8 of 8 warp requests split"));
  CHECK(contains(page, "3 paths run one after the other: 11 lanes = 0, 11 lanes = 10, 10 lanes = 20"));
  CHECK(count(page, "<path class=\"c0\"") == 2);  // the true lanes; the switch's first value
  CHECK(count(page, "<path class=\"c2\"") == 1);  // the switch's third value
  // Without a split warp in its record, the finding says there is nothing to draw.
  CHECK(count(page, "No warp picture: this finding is about a branch condition") == 1);
}

TEST_CASE("html report: an interleaved reduction's fix drawn as sequential addressing leaves its warp") {
  // tid % (2 * s) == 0 inside `for (s = 1; ...)`, with a shared access in the loop: the rule's
  // fix is sequential addressing (rules/interleaved_reduction.h), whose split the page computes.
  AnalysisResult a;
  BranchSite step;
  step.loc = {"r.cu", 10, 5};
  step.kernel = "reduce";
  step.condition = "tid % (2 * s) == 0";
  step.threadDependent = true;
  step.block.dim = {256, 1, 1};
  step.block.source = BlockSource::Launch;
  step.warpRequests = 64;
  step.divergentRequests = 40;
  step.loops = {0};
  step.modulusLoops = {0};
  step.split.warp = 0;
  step.split.values = {"0", "1"};
  for (int lane = 0; lane < 32; ++lane) step.split.lanes.push_back(lane % 2 == 0);
  a.branches.push_back(step);
  BranchSite loop = step;
  loop.id = 1;
  loop.kind = BranchKind::Loop;
  loop.condition = "s < blockDim.x";
  loop.loc.line = 9;
  loop.modulusLoops.clear();
  loop.split = {};
  a.branches.push_back(loop);
  BranchSite generic = step;  // the same split outside any loop: the generic fix, not drawn
  generic.id = 2;
  generic.loops.clear();
  generic.modulusLoops.clear();
  generic.loc.line = 20;
  a.branches.push_back(generic);
  AccessSite shared;
  shared.loc = {"r.cu", 10, 30};
  shared.kernel = "reduce";
  shared.access.space = model::Space::Shared;
  shared.loops = {0};
  a.accesses.push_back(shared);
  report::Report r;
  r.analysis = &a;
  for (int id : {0, 2}) {
    report::Finding f;
    f.rule = "divergent-branch";
    f.loc = a.branches[static_cast<size_t>(id)].loc;
    f.branch = id;
    f.message = "splits warps";
    r.findings.push_back(f);
  }
  const std::string page = htmlOf(r, memoryReader({}));
  // As written: every other lane; after the fix, the block's 128 active threads are warps 0-3.
  CHECK(contains(page, "2 paths run one after the other: 16 lanes true, 16 lanes false"));
  CHECK(contains(page, "on the pass where 128 of the block's 256 threads take the branch, now the first 128"));
  CHECK(contains(page, "the whole warp runs one path: 32 lanes true; at most one warp of the block splits per pass"));
  CHECK(count(page, "<b>After the fix</b> (sequential addressing") == 1);
  // Outside a loop the fix is the remap, which needs the analysis's count: without it (-1,
  // values not known) the box says why nothing is drawn.
  CHECK(count(page, "No picture: the condition depends, for some lanes, on values not known statically") == 1);
}

TEST_CASE("html report: a branch's remap fix drawn as the block with the threads that take it first") {
  AnalysisResult a;
  BranchSite b;  // if (threadIdx.x % 2) in a 256-thread block, seen on warp 0 of block (1, 0, 0)
  b.loc = {"k.cu", 3, 5};
  b.kernel = "k";
  b.condition = "threadIdx.x % 2";
  b.threadDependent = b.evaluated = true;
  b.block.dim = {256, 1, 1};
  b.block.source = BlockSource::Launch;
  b.warpRequests = 8;
  b.divergentRequests = 8;
  b.remappedDivergentRequests = 0;
  b.split.warp = 0;
  b.split.blockX = 1;
  b.split.values = b.split.blockValues = {"0", "1"};
  std::string parity;
  for (int lane = 0; lane < 32; ++lane) {
    b.split.lanes.push_back(lane % 2);
    parity += lane % 2 ? 'b' : 'a';
  }
  b.split.byWarp.assign(8, parity);
  a.branches.push_back(b);
  BranchSite tail = b;  // threads 0-99 reach `if (t % 3 == 0)`: 34 of them take it
  tail.id = 1;
  tail.condition = "t % 3 == 0";
  tail.remappedDivergentRequests = 1;
  tail.divergentRequests = 4;
  tail.warpRequests = 4;
  tail.split.byWarp.assign(8, std::string(32, '-'));
  for (size_t t = 0; t < 100; ++t) tail.split.byWarp[t / 32][t % 32] = t % 3 == 0 ? 'b' : 'a';
  a.branches.push_back(tail);
  BranchSite leader = b;  // if (lane == 0): no fix claimed, and the box says why
  leader.id = 2;
  leader.condition = "lane == 0";
  leader.remappedDivergentRequests = 1;
  leader.split.byWarp.assign(8, "b" + std::string(31, 'a'));
  a.branches.push_back(leader);
  report::Report r;
  r.analysis = &a;
  for (int id : {0, 1, 2}) {
    report::Finding f;
    f.rule = "divergent-branch";
    f.loc = b.loc;
    f.branch = id;
    f.message = "splits warps";
    r.findings.push_back(f);
  }
  const std::string page = htmlOf(r, memoryReader({}));
  // Parity: every warp splits as written; the first 128 threads take it after the remap.
  CHECK(contains(page, "<b>The block as written</b> (block (1, 0, 0)): 8 warps split on this pass"));
  CHECK(contains(page, "128 threads true, 128 threads false; 8 of 8 warps run more than one path"));
  CHECK(contains(page, "0 warps split on this pass; over every pass the analysis lists, 0 of 8 warp requests split "
                       "instead of 8"));
  CHECK(contains(page, "128 threads true, 128 threads false; 0 of 8 warps run more than one path"));
  CHECK(contains(page, ">w 0-7</text>"));  // identical warps share a row
  // The tail: threads 0-33 take it, warp 1 holds the boundary; warps 4-7 reach nothing.
  CHECK(contains(page, "34 threads true, 66 threads false; 4 of 8 warps run more than one path"));
  CHECK(contains(page, "34 threads true, 66 threads false; 1 of 8 warps run more than one path"));
  CHECK(contains(page, "1 warp split on this pass; over every pass the analysis lists, 1 of 4 warp requests split "
                       "instead of 4"));
  // The leader: no picture, and why.
  CHECK(count(page, "No picture: one lane of every warp takes one side") == 1);
  CHECK(count(page, "<b>After the fix</b> (the work remapped") == 2);
}

TEST_CASE("html report: a barrier finding drawn as the threads that reach it and after the fix") {
  AnalysisResult a;
  BarrierSite b;
  b.loc = {"b.cu", 7, 5};
  b.kernel = "k";
  b.call = "__syncthreads()";
  b.reach = BarrierSite::Reach::Divergent;
  b.condition = "t < 80 && t != 3";
  b.block.dim = {256, 1, 1};
  b.block.source = BlockSource::Launch;
  b.loops = {0};
  b.reachIteration = 1;
  const std::string all(32, '1'), none(32, '0');
  std::string mixed = std::string(16, '1') + std::string(16, '0');
  std::string first = all;
  first[3] = '0';
  b.reachByWarp = {first, all, mixed, none, none, none, none, none};
  a.barriers.push_back(b);
  BarrierSite unknown = b;  // a guard on values not known statically: nothing to draw
  unknown.id = 1;
  unknown.reach = BarrierSite::Reach::Unknown;
  unknown.reachByWarp.clear();
  a.barriers.push_back(unknown);
  report::Report r;
  r.analysis = &a;
  for (int id : {0, 1}) {
    report::Finding f;
    f.rule = "barrier-in-divergent-code";
    f.loc = b.loc;
    f.barrier = id;
    f.message = "reached by only some threads";
    r.findings.push_back(f);
  }
  const std::string page = htmlOf(r, memoryReader({}));
  CHECK(contains(page, "the 8 warps of a block of 256x1x1 (launch), at the guard <code>t &lt; 80 &amp;&amp; t != 3</code>"));
  CHECK(contains(page, "the 2nd iteration the analysis lists for its loop"));
  CHECK(contains(page, "79 of the block&#39;s 256 threads reach the barrier, 177 do not; 2 of 8 warps have lanes on both sides"));
  // Identical warps share a row: warps 3 to 7 are one.
  CHECK(contains(page, ">w 3-7</text>"));
  CHECK(contains(page, ">w 2</text>"));
  // After the fix every thread reaches it.
  CHECK(contains(page, "256 of the block&#39;s 256 threads reach the barrier, 0 do not; 0 of 8 warps have lanes on both sides"));
  CHECK(contains(page, ">w 0-7</text>"));
  CHECK(count(page, "<path class=\"lo\"") >= 1);
  CHECK(contains(page, "which threads reach the barrier is not known"));
}

TEST_CASE("html report: the fields of one gathered record are one finding, with the record's range") {
  AnalysisResult a;
  for (int m = 0; m < 4; ++m) {
    AccessSite s = numbered(makeSite(indirect(Space::Global, 4), {256, 1, 1}, "b[" + std::to_string(m) + "]"), m,
                            static_cast<unsigned>(3 + m));
    s.group = recordGather(4, 1, 32, 16);
    a.accesses.push_back(s);
  }
  const report::Report r = reportOf(a);
  REQUIRE(r.findings.size() == 1);
  CHECK(contains(r.findings[0].message, "loads of 'b[0]', 'b[1]', 'b[2]' and 'b[3]', one thread's bytes of one record"));
  const std::string page = htmlOf(r, memoryReader({{"k.cu", "a\nb\nc\nd\ne\nf\ng\n"}}));
  CHECK(contains(page, "with the 3 other accesses of the same record through the same index, 1 to 32 sectors per "
                       "request together (ideal 16)"));
}
