#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "coalesce/verify/report.h"

using namespace coalesce;
using namespace coalesce::verify;

namespace {
VerifyReport sample() {
  Predictions p;
  PredictedAccess a;
  a.file = std::string("a.cu");
  a.line = 10;
  a.kernel = std::string("k");
  a.bytes = 4;
  a.sectorsPerRequest = 8;
  a.idealSectors = 4;
  PredictedAccess b = a;
  b.line = 11;
  b.sectorsPerRequest = 4;
  p.accesses = {a, b};
  Measurements m;
  m.device = {"NVIDIA H200", "GH100", 90};
  MeasuredInstruction in;
  in.function = std::string("k");
  in.file = std::string("/x/a.cu");
  in.line = 10;
  in.metrics = {{metric::kInstExecuted, 512}, {metric::kGlobalLd, 512}, {metric::kSectors, 4096},
                {metric::kSectorsIdeal, 2048}};
  MeasuredInstruction in2 = in;
  in2.line = 11;
  in2.pc = 16;
  m.instructions = {in, in2};
  return compare(p, m);
}
}  // namespace

TEST_CASE("report: text has one line per comparison and a summary") {
  const std::string t = formatText(sample());
  CHECK(t.find("device: NVIDIA H200 (sm_90, GH100)") == 0);
  CHECK(t.find("a.cu:10: global load [k]: sectors/request predicted 8 measured 8 (ideal 4/4; 1 instruction, 512 "
               "requests): match\n") != std::string::npos);
  CHECK(t.find("a.cu:11: global load [k]: sectors/request predicted 4 measured 8") != std::string::npos);
  CHECK(t.find("): mismatch\n") != std::string::npos);
  CHECK(t.find("2 lines: 1 match, 1 mismatch\n") != std::string::npos);
}

TEST_CASE("report: JSON carries verdicts, figures and the exit code") {
  const auto r = sample();
  const auto j = nlohmann::json::parse(formatJson(r, exitCodeFor(r, false)));
  CHECK(j["schema"] == "coalesce-verify/1");
  CHECK(j["exit_code"] == 1);
  CHECK(j["summary"]["match"] == 1);
  CHECK(j["summary"]["mismatch"] == 1);
  REQUIRE(j["lines"].size() == 2);
  CHECK(j["lines"][0]["verdict"] == "match");
  CHECK(j["lines"][0]["measured"]["per_request"] == 8.0);
  CHECK(j["lines"][0]["predicted"]["per_request"] == 8.0);
  CHECK(j["lines"][1]["verdict"] == "mismatch");
  CHECK(j["device"]["chip"] == "GH100");
}

namespace {
size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("report: HTML puts predicted and measured side by side and marks the disagreement") {
  auto r = sample();
  r.lines[1].notes.push_back("the compiler merged <two> loads");
  const std::string source = "// a.cu\n" + std::string(8, '\n') + "  x = a[i];\n  y = a[2 * i]; // </script>\n";
  const std::string page = formatHtml(r, exitCodeFor(r, false), [&](const std::string& path) -> std::optional<std::string> {
    if (path == "a.cu") return source;
    return std::nullopt;
  });
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(occurrences(page, "<script") == 1);
  CHECK(occurrences(page, "</script") == 1);
  // Both lines in the table, the mismatch marked there, in the disagreements and in the source.
  CHECK(occurrences(page, "<tr class=\"dis\">") == 1);
  CHECK(occurrences(page, "<tr id=\"s0-11\" class=\"dis\">") == 1);
  CHECK(occurrences(page, "<tr id=\"s0-10\">") == 1);
  CHECK(occurrences(page, "&#10007; mismatch") == 4);  // summary, disagreements, table, source
  CHECK(page.find("<section id=\"disagreements\">") < page.find("<section id=\"lines\">"));
  CHECK(page.find("pred 4 &middot; meas 8 &#10007; mismatch") != std::string::npos);
  CHECK(page.find("pred 8 &middot; meas 8 match") != std::string::npos);
  CHECK(page.find("the compiler merged &lt;two&gt; loads") != std::string::npos);
  CHECK(page.find("// &lt;/script&gt;") != std::string::npos);
  CHECK(page.find("<dd>1 (a mismatch or a contradicted branch)</dd>") != std::string::npos);

  // A file that cannot be read: its compared lines are still listed.
  const std::string blind = formatHtml(r, 1);
  CHECK(blind.find("This file could not be read") != std::string::npos);
  CHECK(occurrences(blind, "<tr id=\"s0-") == 2);
}

TEST_CASE("report: HTML draws the predicted warp beside the measured figure where the lanes are known") {
  // As the analyzer writes them (docs/json-schema.md): an affine pattern with its bytes per
  // threadIdx.x and its block; a second whose figure rests on a base offset the file does not
  // carry (5 sectors from 4-byte lanes at unit stride): no picture, and the page says why.
  const std::string json = R"({"version": "coalesce-lint/1", "accesses": [
    {"file": "a.cu", "line": 10, "kernel": "k", "space": "global", "kind": "load", "bytes": 4,
     "expression": "in[2 * i]", "pattern": "affine", "lane_strides": {"x": 8, "y": 0, "z": 0},
     "block": {"x": 256, "y": 1, "z": 1, "source": "launch"},
     "sectors_per_request": 8, "ideal_sectors": 4, "efficiency": 0.5},
    {"file": "a.cu", "line": 11, "kernel": "k", "space": "global", "kind": "load", "bytes": 4,
     "expression": "in[i + 1]", "pattern": "affine", "lane_strides": {"x": 4, "y": 0, "z": 0},
     "block": {"x": 256, "y": 1, "z": 1, "source": "launch"},
     "sectors_per_request": 5, "ideal_sectors": 4, "efficiency": 0.8},
    {"file": "a.cu", "line": 12, "kernel": "k", "space": "global", "kind": "load", "bytes": 4,
     "expression": "in[idx[i]]", "pattern": "indirect", "lane_strides": null,
     "block": {"x": 256, "y": 1, "z": 1, "source": "launch"}, "sectors_range": [1, 32]}]})";
  const Predictions p = predictionsFromJson(json);
  REQUIRE(p.accesses.size() == 3);
  CHECK(p.accesses[0].lanes.affine.cx == 8);
  REQUIRE(p.accesses[0].block);
  CHECK(p.accesses[0].block->x == 256);
  Measurements m;
  m.device = {"NVIDIA H200", "GH100", 90};
  MeasuredInstruction in;
  in.function = "k";
  in.file = "/x/a.cu";
  in.line = 10;
  in.metrics = {{metric::kInstExecuted, 512}, {metric::kGlobalLd, 512}, {metric::kSectors, 4096},
                {metric::kSectorsIdeal, 2048}};
  MeasuredInstruction second = in, third = in;
  second.line = 11;
  second.pc = 16;
  third.line = 12;
  third.pc = 32;
  m.instructions = {in, second, third};
  const VerifyReport r = compare(p, m);
  const std::string page = formatHtml(r, exitCodeFor(r, false));
  // The strided load: its warp drawn (one symbol, one use), captioned with both figures.
  CHECK(occurrences(page, "<svg class=\"w\"") == 1);
  CHECK(occurrences(page, "<symbol id=\"p0\">") == 1);
  CHECK(page.find("<b>Predicted</b> <code>in[2 * i]</code>: warp 0 of 8 in a block of 256x1x1<br>this warp: 8 "
                  "sectors (ideal 4); 128 of the 256 bytes moved are used; block average 8 sectors per request"
                  "<br><b>Measured</b>: 8 sectors per request (ideal 4)") != std::string::npos);
  // The offset load: the strides alone give 4 sectors, not the predicted 5.
  CHECK(page.find("make 4 sectors per request, not the predicted 5") != std::string::npos);
  // The gather has no lanes to draw: the page says so instead of a picture.
  CHECK(page.find("<b>Predicted</b> <code>in[idx[i]]</code></figcaption><p>No picture: the address goes through "
                  "loaded indices (a gather)") != std::string::npos);
}
