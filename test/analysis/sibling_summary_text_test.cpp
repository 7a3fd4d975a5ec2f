// A sibling's summary as the run's workers and the result cache keep it (sibling_summaries.h):
// a launch's configuration goes through the text and back (session 33: what a kernel defined in
// another file is launched with, lib/analysis/src/launch_collector.cpp).
#include <catch2/catch.hpp>

#include "sibling_summaries.h"

using namespace coalesce;

TEST_CASE("sibling summary text: a launch's configuration goes through the text and back") {
  analysis::SiblingSummary s;
  analysis::HostSummary::Call plain{"main", "setup", {}, {}, 1, "/a/main.cu:10:10", std::nullopt};
  analysis::HostSummary::Call launch{"run", "stepK", {}, {}, 0.5, "/a/entry.cu:40:40", std::nullopt};
  analysis::SummaryValue n;
  n.kind = analysis::SummaryValue::Kind::Parameter;
  n.function = "run";
  n.parameter = 1;
  launch.args = {analysis::SummaryValue{}, n};
  analysis::HostSummary::LaunchConfig config;
  config.grid[0] = n;
  config.block[0].kind = analysis::SummaryValue::Kind::Constant;
  config.block[0].constant = 32;
  config.sharedBytes.kind = analysis::SummaryValue::Kind::Constant;
  config.sharedBytes.constant = 128;
  config.where = "entry.cu:40";
  config.templateArgs = "<4, 512>";
  launch.launch = config;
  s.summary.calls = {plain, launch};
  s.inputs = {"/a/entry.cu"};

  const auto back = analysis::SiblingSummaries::fromText(analysis::SiblingSummaries::toText(s));
  REQUIRE(back);
  REQUIRE(back->summary.calls.size() == 2);
  CHECK_FALSE(back->summary.calls[0].launch);
  const auto& l = back->summary.calls[1].launch;
  REQUIRE(l);
  CHECK(l->grid[0].kind == analysis::SummaryValue::Kind::Parameter);
  CHECK(l->grid[0].function == "run");
  CHECK(l->grid[0].parameter == 1);
  CHECK(l->grid[1].kind == analysis::SummaryValue::Kind::Unknown);
  CHECK(l->block[0].kind == analysis::SummaryValue::Kind::Constant);
  CHECK(l->block[0].constant == 32);
  CHECK(l->sharedBytes.constant == 128);
  CHECK(l->where == "entry.cu:40");
  CHECK(l->templateArgs == "<4, 512>");
  // A summary of the earlier format is not read (its calls hold no configurations).
  std::string old = analysis::SiblingSummaries::toText(s);
  old.replace(old.find("sibling-summary-7"), 17, "sibling-summary-6");
  CHECK_FALSE(analysis::SiblingSummaries::fromText(old));
}
