// The `// expect-finding:` reader: what it accepts, and that a malformed comment fails
// instead of silently expecting nothing.
#include <catch2/catch.hpp>

#include "expectations.h"

using namespace coalesce::test;

TEST_CASE("expect-finding: one or several rule ids per line, beside an expect comment") {
  std::vector<std::string> errors;
  const auto found = parseFindingExpectations(
      "int i = 0;\n"
      "  if (t % 2) {  // expect-finding: divergent-branch\n"
      "  __syncthreads();  // expect-finding: barrier-in-divergent-code, divergent-branch\n"
      "  s[t] += 1;  // expect-finding: divergent-branch // expect: shared load wavefronts=1\n",
      errors);
  CHECK(errors.empty());
  REQUIRE(found.size() == 4);
  CHECK(found[0].line == 2);
  CHECK(found[0].rule == "divergent-branch");
  CHECK(found[1].line == 3);
  CHECK(found[1].rule == "barrier-in-divergent-code");
  CHECK(found[2].rule == "divergent-branch");
  CHECK(found[3].line == 4);
  CHECK(found[3].rule == "divergent-branch");
}

TEST_CASE("expect-finding: an empty comment or a malformed id is an error") {
  std::vector<std::string> errors;
  const auto found = parseFindingExpectations("a;  // expect-finding:\nb;  // expect-finding: Divergent_Branch\n", errors);
  CHECK(found.empty());
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].find("line 1: expect-finding names no rule") != std::string::npos);
  CHECK(errors[1].find("line 2: 'Divergent_Branch' is not a rule id") != std::string::npos);
}

TEST_CASE("expect: the comment ends at the next //, so an expect-finding after it is not read as a figure") {
  std::vector<std::string> errors;
  const auto found =
      parseExpectations("s[t] += 1;  // expect: shared load wavefronts=1 ideal=1 // expect-finding: divergent-branch\n",
                        errors);
  CHECK(errors.empty());
  REQUIRE(found.size() == 1);
  CHECK(found[0].space == "shared");
  CHECK(found[0].figures.at("wavefronts").first == 1);
  CHECK(found[0].figures.count("expect-finding") == 0);
  CHECK(!found[0].rule);
}
