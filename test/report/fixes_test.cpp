// Fix-its as text (lib/report/src/fixes.cpp, docs/fixes.md): edits applied once, overlaps
// reported, positions mapped through the edits, the clang-apply-replacements YAML, the SARIF
// `fixes` object, and the fix a rule proposes from the records.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "coalesce/report/fixes.h"
#include "coalesce/report/sarif_writer.h"
#include "control_flow_util.h"
#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::report;

namespace {
TextEdit edit(uint64_t offset, uint64_t length, std::string text) { return {"k.cu", offset, length, std::move(text)}; }

AnalysisResult withSite(const AccessSite& site) {
  AnalysisResult r;
  r.accesses.push_back(site);
  return r;
}

Finding fixedFinding() {
  Finding f;
  f.rule = "shared-bank-conflict";
  f.loc = {"k.cu", 2, 9};
  f.message = "load of 'tile[tx][ty]' needs 32 wavefronts \"per\" request";
  SourceFix fix;
  fix.description = "pad 'tile' from [32][32] to [32][33]";
  fix.edits = {edit(20, 2, "33")};
  fix.check = SourceFix::Check::Offered;
  f.sourceFix = fix;
  return f;
}
}  // namespace

TEST_CASE("fixes: edits are applied in offset order, an edit given twice once") {
  const std::string text = "__shared__ float t[32][32];";
  const EditedText out = applyEdits(text, {edit(23, 2, "33"), edit(0, 0, "/*x*/"), edit(23, 2, "33")});
  CHECK(out.text == "/*x*/__shared__ float t[32][33];");
  CHECK(out.applied.size() == 2);
  CHECK(out.conflicts.empty());
}

TEST_CASE("fixes: an edit overlapping one applied before it, or past the end, is a conflict") {
  const std::string text = "abcdefgh";
  const EditedText out = applyEdits(text, {edit(2, 3, "X"), edit(4, 2, "Y"), edit(2, 0, "Z"), edit(7, 5, "W")});
  CHECK(out.text == "abXfgh");
  REQUIRE(out.conflicts.size() == 3);
  CHECK(out.conflicts[0].replacement == "Y");
  CHECK(out.conflicts[1].replacement == "Z");  // an insertion where a replacement starts
  CHECK(out.conflicts[2].replacement == "W");
}

TEST_CASE("fixes: positions move with the text inserted before them, into a replaced range's start") {
  const std::string text = "void k(float* a,\n       float* b) { a[0] = b[0]; }\n";
  const std::vector<TextEdit> applied = applyEdits(text, {edit(14, 0, "__restrict__ ")}).applied;
  CHECK(mapThroughEdits({"k.cu", 1, 15}, text, applied).column == 28);  // 'a' itself moves
  CHECK(mapThroughEdits({"k.cu", 1, 8}, text, applied).column == 8);    // before the edit
  const SourceLocation second = mapThroughEdits({"k.cu", 2, 26}, text, applied);
  CHECK(second.line == 2);
  CHECK(second.column == 26);  // another line: unchanged
  const std::vector<TextEdit> replaced = applyEdits(text, {edit(7, 8, "int")}).applied;
  CHECK(mapThroughEdits({"k.cu", 1, 10}, text, replaced).column == 8);
  CHECK(locationOfOffset("ab\ncd", 4).line == 2);
  CHECK(locationOfOffset("ab\ncd", 4).column == 2);
  CHECK(offsetOfLocation("ab\ncd", 2, 2) == 4);
  CHECK(offsetOfLocation("ab\ncd", 3, 1) == std::string_view::npos);
}

TEST_CASE("fixes: the YAML is clang-tidy's export format, only offered fixes, strings quoted") {
  Finding offered = fixedFinding();
  Finding withheld = fixedFinding();
  withheld.sourceFix->check = SourceFix::Check::Withheld;
  Finding unchecked = fixedFinding();
  unchecked.sourceFix->check = SourceFix::Check::Unchecked;
  std::ostringstream yaml;
  writeFixesYaml(yaml, "k.cu", {offered, withheld, unchecked},
                 [](const std::string&) { return std::optional<std::string>("0123456789\n01234567"); });
  const std::string cwd = std::filesystem::current_path().string();
  const std::string expected =
      "---\n"
      "MainSourceFile:  \"" + cwd + "/k.cu\"\n"
      "Diagnostics:\n"
      "  - DiagnosticName:  \"shared-bank-conflict\"\n"
      "    DiagnosticMessage:\n"
      "      Message:         \"load of 'tile[tx][ty]' needs 32 wavefronts \\\"per\\\" request\"\n"
      "      FilePath:        \"" + cwd + "/k.cu\"\n"
      "      FileOffset:      19\n"
      "      Replacements:\n"
      "        - FilePath:        \"" + cwd + "/k.cu\"\n"
      "          Offset:          20\n"
      "          Length:          2\n"
      "          ReplacementText: \"33\"\n"
      "    Level:           Warning\n"
      "    BuildDirectory:  \"" + cwd + "\"\n"
      "...\n";
  CHECK(yaml.str() == expected);
  std::ostringstream none;
  writeFixesYaml(none, "", {withheld}, nullptr);
  CHECK(none.str() == "---\nMainSourceFile:  \"\"\nDiagnostics:     []\n...\n");
}

TEST_CASE("fixes: a SARIF result carries its offered fix as artifactChanges with byte regions") {
  AnalysisResult analysis;
  Report rep;
  rep.analysis = &analysis;
  rep.findings = {fixedFinding()};
  Finding withheld = fixedFinding();
  withheld.loc.line = 5;
  withheld.sourceFix->check = SourceFix::Check::Withheld;
  rep.findings.push_back(withheld);
  std::ostringstream out;
  writeSarif(out, rep, SarifOptions{});
  const nlohmann::json log = nlohmann::json::parse(out.str());
  const nlohmann::json& results = log["runs"][0]["results"];
  REQUIRE(results.size() == 2);
  REQUIRE(results[0].contains("fixes"));
  REQUIRE(results[0]["fixes"].size() == 1);
  const nlohmann::json& fix = results[0]["fixes"][0];
  CHECK(fix["description"]["text"] == "pad 'tile' from [32][32] to [32][33]");
  const nlohmann::json& change = fix["artifactChanges"][0];
  CHECK(change["artifactLocation"]["uri"] == "k.cu");
  const nlohmann::json& replacement = change["replacements"][0];
  CHECK(replacement["deletedRegion"]["byteOffset"] == 20);
  CHECK(replacement["deletedRegion"]["byteLength"] == 2);
  CHECK(replacement["insertedContent"]["text"] == "33");
  CHECK(!results[1].contains("fixes"));  // withheld: no fix
}

TEST_CASE("fixes: the bank-conflict rule proposes the array's padding edit, or says why there is none") {
  // A column of a 32 x 32 float tile read by a warp: rows 128 bytes apart, 32-way.
  AccessSite site = test::makeSite(test::affine(model::Space::Shared, 4, 128), {32, 1, 1}, "tile[tx][0]");
  site.padding.array = "tile";
  site.padding.declared = "[TILE][TILE]";
  site.padding.padded = "[TILE][TILE + 1]";
  site.padding.lastDimension = 32;
  site.padding.elementBytes = 4;
  site.padding.edit = {"k.cu", 40, 4, "TILE + 1"};
  std::vector<Finding> found = test::findingsOf(withSite(site), "shared-bank-conflict");
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].sourceFix);
  CHECK(found[0].sourceFix->check == SourceFix::Check::Unchecked);
  CHECK(found[0].sourceFix->description == "pad 'tile' from [TILE][TILE] to [TILE][TILE + 1]");
  REQUIRE(found[0].sourceFix->edits.size() == 1);
  CHECK(found[0].sourceFix->edits[0].replacement == "TILE + 1");

  site.padding.edit = {};
  site.padding.blocked = "it is one-dimensional";
  found = test::findingsOf(withSite(site), "shared-bank-conflict");
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].sourceFix);
  CHECK(found[0].sourceFix->check == SourceFix::Check::Withheld);
  CHECK(found[0].sourceFix->edits.empty());
  CHECK(test::contains(found[0].sourceFix->verdict, "no automatic fix: it is one-dimensional"));
  CHECK(test::contains(found[0].sourceFix->verdict, "XOR swizzle"));
  // Padding that does not help (a stride of 2 words) proposes nothing.
  site = test::makeSite(test::affine(model::Space::Shared, 4, 8), {32, 1, 1}, "s[2 * tx]");
  site.padding.array = "s";
  found = test::findingsOf(withSite(site), "shared-bank-conflict");
  REQUIRE(found.size() == 1);
  CHECK(!found[0].sourceFix);
  // The rule's own notes are those of a run that checks no fix: unchanged.
  for (const std::string& n : found[0].notes) CHECK(!test::contains(n, "no automatic fix"));
}
