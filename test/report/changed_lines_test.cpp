// Diff-aware gating (docs/ci.md): the unified-diff reader and the filter step that keeps
// findings on changed lines only. (End to end, with git: test/tools/cli_cases_ci.py.)
#include <catch2/catch.hpp>

#include "coalesce/report/changed_lines.h"
#include "coalesce/report/filter.h"

using namespace coalesce;
using namespace coalesce::report;

namespace {

ChangedLines parse(const std::string& diff) {
  auto r = parseUnifiedDiff(diff, "/repo", "test.diff");
  REQUIRE(r.ok());
  return *r;
}

std::string errorOf(const std::string& diff) {
  auto r = parseUnifiedDiff(diff, "/repo", "test.diff");
  return r.ok() ? "" : r.error().message;
}

}  // namespace

TEST_CASE("changed lines: git diff -U0, the '+' lines of each hunk") {
  const ChangedLines c = parse(
      "diff --git a/src/k.cu b/src/k.cu\n"
      "index 1111111..2222222 100644\n"
      "--- a/src/k.cu\n"
      "+++ b/src/k.cu\n"
      "@@ -3 +3 @@ __global__ void k()\n"
      "-  out[i] = in[i];\n"
      "+  out[i] = in[2 * i];\n"
      "@@ -10,0 +11,2 @@\n"
      "+  a();\n"
      "+  b();\n"
      "@@ -20,2 +21,0 @@\n"
      "-  gone();\n"
      "-  gone();\n");
  CHECK(c.contains("/repo/src/k.cu", 3));
  CHECK_FALSE(c.contains("/repo/src/k.cu", 2));
  CHECK_FALSE(c.contains("/repo/src/k.cu", 4));
  CHECK(c.contains("/repo/src/k.cu", 11));
  CHECK(c.contains("/repo/src/k.cu", 12));
  CHECK_FALSE(c.contains("/repo/src/k.cu", 13));
  CHECK_FALSE(c.contains("/repo/src/k.cu", 21));  // a deletion changes no line
  CHECK_FALSE(c.contains("/repo/src/other.cu", 3));
  CHECK(c.files() == std::vector<std::string>{"/repo/src/k.cu"});
}

TEST_CASE("changed lines: context lines are counted, not reported") {
  const ChangedLines c = parse(
      "--- a/k.cu\n"
      "+++ b/k.cu\n"
      "@@ -1,5 +1,6 @@\n"
      " line 1\n"
      " line 2\n"
      "-old 3\n"
      "+new 3\n"
      "+new 4\n"
      " line 5\n"
      "\n"  // a blank context line whose space a tool stripped
      "\\ No newline at end of file\n");
  CHECK_FALSE(c.contains("/repo/k.cu", 1));
  CHECK_FALSE(c.contains("/repo/k.cu", 2));
  CHECK(c.contains("/repo/k.cu", 3));
  CHECK(c.contains("/repo/k.cu", 4));
  CHECK_FALSE(c.contains("/repo/k.cu", 5));
  CHECK_FALSE(c.contains("/repo/k.cu", 6));
}

TEST_CASE("changed lines: names with and without git's prefixes, new, deleted and quoted files") {
  SECTION("--no-prefix: the name as it is") {
    const ChangedLines c = parse("--- b/k.cu\n+++ b/k.cu\n@@ -1 +1 @@\n-x\n+y\n");
    CHECK(c.contains("/repo/b/k.cu", 1));
  }
  SECTION("a new file: --- /dev/null") {
    const ChangedLines c = parse("--- /dev/null\n+++ b/new.cu\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    CHECK(c.contains("/repo/new.cu", 2));
  }
  SECTION("a deleted file has no lines") {
    const ChangedLines c = parse("--- a/old.cu\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    CHECK(c.fileCount() == 0);
  }
  SECTION("diff -u: a time stamp after a tab") {
    const ChangedLines c = parse("--- k.cu.orig\t2024-01-01 10:00:00\n+++ k.cu\t2024-01-02 10:00:00\n@@ -1 +1 @@\n-x\n+y\n");
    CHECK(c.contains("/repo/k.cu", 1));
  }
  SECTION("git's quoted name") {
    const ChangedLines c = parse("--- \"a/sp ace\\t.cu\"\n+++ \"b/sp ace\\t.cu\"\n@@ -1 +1 @@\n-x\n+y\n");
    CHECK(c.contains("/repo/sp ace\t.cu", 1));
  }
  SECTION("an absolute name") {
    const ChangedLines c = parse("--- /elsewhere/k.cu\n+++ /elsewhere/k.cu\n@@ -1 +1 @@\n-x\n+y\n");
    CHECK(c.contains("/elsewhere/k.cu", 1));
  }
}

TEST_CASE("changed lines: what is not a unified diff is an error naming its line") {
  CHECK(errorOf("--- a/k.cu\n+++ b/k.cu\n@@ -1,2 +x,3 @@\n") ==
        "test.diff:3: not a unified diff: a hunk header whose ranges are not numbers");
  CHECK(errorOf("--- a/k.cu\n+++ b/k.cu\n@@ -1 +1\n") == "test.diff:3: not a unified diff: a hunk header without its closing @@");
  CHECK(errorOf("--- a/k.cu\n+++ b/k.cu\n@@ -1,2 +1,2 @@\n+a\n") == "test.diff:5: not a unified diff: the diff ends inside a hunk");
  CHECK(errorOf("--- a/k.cu\n+++ b/k.cu\n@@ -1 +1 @@\n+a\n+b\n") ==
        "test.diff:5: not a unified diff: the hunk ends before the lines its header counts");
  CHECK(errorOf("") == "");  // an empty diff changes nothing
}

TEST_CASE("changed lines: ranges merge, and relative names of findings resolve against the current folder") {
  ChangedLines c;
  c.add("/repo/k.cu", 5, 7);
  c.add("/repo/k.cu", 8, 9);
  c.add("/repo/k.cu", 1, 1);
  for (unsigned line : {1u, 5u, 6u, 7u, 8u, 9u}) CHECK(c.contains("/repo/k.cu", line));
  for (unsigned line : {2u, 4u, 10u}) CHECK_FALSE(c.contains("/repo/k.cu", line));
  ChangedLines here;
  here.add(canonicalFilePath("rel/k.cu"), 3, 3);
  CHECK(here.contains("rel/k.cu", 3));
  CHECK(here.contains("./rel/../rel/k.cu", 3));
}

TEST_CASE("changed lines: the filter stage drops findings off the changed lines, and counts them") {
  ChangedLines changed;
  changed.add("/repo/k.cu", 3, 3);
  ConfigProvider configs(std::nullopt, Options{});
  FilterInputs inputs;
  inputs.configs = &configs;
  inputs.readSource = [](const std::string&) -> std::optional<std::string> { return std::string("a\nb\nc\nd\n"); };
  inputs.mainFiles = {"/repo/k.cu"};
  inputs.changedLines = &changed;
  std::vector<Finding> candidates(2);
  for (Finding& f : candidates) {
    f.rule = "uncoalesced-global-access";
    f.message = "m";
    f.loc = {"/repo/k.cu", 3, 1};
  }
  candidates[1].loc.line = 4;
  auto out = filterFindings(candidates, inputs);
  REQUIRE(out.ok());
  REQUIRE(out->findings.size() == 1);
  CHECK(out->findings[0].loc.line == 3);
  CHECK(out->stats.unchanged == 1);
  inputs.changedLines = nullptr;
  CHECK(filterFindings(candidates, inputs)->findings.size() == 2);
}
