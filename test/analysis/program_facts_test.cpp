// ProgramFacts over hand-made summaries (program_facts.h): the questions that recurse through
// the callers, on chains that fan out (kept answers, program_facts.cpp) and on chains that
// loop back on themselves (where no answer may be kept).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "program_facts.h"

using namespace coalesce::analysis;

namespace {

SummaryValue constant(int64_t v) {
  SummaryValue s;
  s.kind = SummaryValue::Kind::Constant;
  s.constant = v;
  return s;
}

SummaryValue parameter(const std::string& function, int index) {
  SummaryValue s;
  s.kind = SummaryValue::Kind::Parameter;
  s.function = function;
  s.parameter = index;
  return s;
}

SummaryValue optionDefault(const std::string& local, int64_t v) {
  SummaryValue s;
  s.kind = SummaryValue::Kind::OptionDefault;
  s.function = local;
  s.constant = v;
  return s;
}

HostSummary::Call call(const std::string& caller, const std::string& callee, std::vector<SummaryValue> args) {
  HostSummary::Call c;
  c.caller = caller;
  c.callee = callee;
  c.args = std::move(args);
  return c;
}

}  // namespace

// cudahandbook's memory/globalCopy.cu: 80 kernel instances, launched from 80 wrapper instances,
// each called from 16 rows of 20 `Shmoo` instances, all by one name each. Asked caller by
// caller, a chain of L levels of F calls each is F^L questions; here 8^9, 134 million: before
// the answers were kept, this test did not finish in 60 s (the tool took 125 s on that file).
TEST_CASE("program facts: a chain of wrappers that each call the next many times is answered once per wrapper") {
  constexpr int kLevels = 9, kFanOut = 8;
  HostSummary s;
  s.defined.insert("main");
  auto level = [](int i) { return "wrapper" + std::to_string(i); };
  for (int f = 0; f < kFanOut; ++f) s.calls.push_back(call("main", level(0), {constant(1 << 20), constant(64)}));
  for (int i = 0; i + 1 < kLevels; ++i) {
    s.defined.insert(level(i));
    for (int f = 0; f < kFanOut; ++f)
      s.calls.push_back(call(level(i), level(i + 1), {parameter(level(i), 0), parameter(level(i), 1)}));
  }
  ProgramFacts facts;
  facts.add(s);
  const std::string leaf = level(kLevels - 1);
  CHECK(facts.parameterValue(leaf, 0) == (1 << 20));
  CHECK(facts.parameterValue(leaf, 1) == 64);
  double runs = 1;
  for (int i = 0; i < kLevels; ++i) runs *= kFanOut;
  CHECK(facts.callsPerRun(leaf) == runs);
  // Asked again, from the kept answers: the same.
  CHECK(facts.parameterValue(leaf, 0) == (1 << 20));
  CHECK(facts.callsPerRun(level(3)) == 8.0 * 8 * 8 * 8);
}

// f(x) is called by main with 3 and by g with g's own; g by main with 5 and by f with f's own.
// Each question meets the other's on its chain, where a recursion adds nothing: f and g both
// take {3, 5}, whichever is asked first. An answer made inside the other's question would be
// {5} for g (f open), {3} for f; none is kept.
TEST_CASE("program facts: parameters that call each other take every value, whichever is asked first") {
  HostSummary s;
  s.defined = {"main", "f", "g"};
  s.calls.push_back(call("main", "f", {constant(3)}));
  s.calls.push_back(call("g", "f", {parameter("g", 0)}));
  s.calls.push_back(call("main", "g", {constant(5)}));
  s.calls.push_back(call("f", "g", {parameter("f", 0)}));
  for (int order = 0; order < 2; ++order) {
    ProgramFacts facts;
    facts.add(s);
    const std::string first = order == 0 ? "f" : "g", second = order == 0 ? "g" : "f";
    CHECK_FALSE(facts.parameterValue(first, 0).has_value());  // two values
    const auto runs = facts.parameterRuns(second, 0);
    CHECK_FALSE(runs.has_value());  // a recursion: not counted
    CHECK_FALSE(facts.parameterValue(second, 0).has_value());
    CHECK_FALSE(facts.callsPerRun(first).has_value());  // f and g call each other
  }
}

// An option's default reached through two wrappers is named each time the question is asked,
// also when the second answer is the kept one.
TEST_CASE("program facts: a default taken through wrappers is named again when the answer is kept") {
  HostSummary s;
  s.defined = {"main", "outer", "inner"};
  s.calls.push_back(call("main", "outer", {optionDefault("threads", 256)}));
  s.calls.push_back(call("outer", "inner", {parameter("outer", 0)}));
  ProgramFacts facts;
  facts.add(s);
  CHECK_FALSE(facts.parameterValue("inner", 0).has_value());  // an option changes it
  for (int ask = 0; ask < 2; ++ask) {
    std::vector<std::string> defaults;
    CHECK(facts.parameterDefault("inner", 0, defaults) == 256);
    CHECK(defaults == std::vector<std::string>{"`threads` 256"});
  }
  CHECK_FALSE(facts.parameterValue("inner", 0).has_value());  // still, without defaults
}
