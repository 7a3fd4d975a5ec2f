// clang-tidy's NOLINT grammar, case by case.
#include <catch2/catch.hpp>

#include "coalesce/report/suppression.h"

using coalesce::report::SuppressionIndex;

namespace {
constexpr const char* kRule = "uncoalesced-global-access";
}

TEST_CASE("NOLINT without a list suppresses every rule on its own line only") {
  auto idx = SuppressionIndex::parse("x = a[2 * i];  // NOLINT\ny = a[2 * i];\n");
  CHECK(idx.suppresses(1, 5, kRule));
  CHECK(idx.suppresses(1, 5, "shared-bank-conflict"));
  CHECK_FALSE(idx.suppresses(2, 5, kRule));
  CHECK(idx.problems().empty());
}

TEST_CASE("NOLINT(rule, ...) names rules, with spaces and globs, () and negative globs suppress nothing") {
  auto idx = SuppressionIndex::parse(
      "a; // NOLINT(uncoalesced-global-access)\n"
      "b; // NOLINT( aos-field-access , shared-bank-conflict )\n"
      "c; // NOLINT(*-access)\n"
      "d; // NOLINT()\n"
      "e; // NOLINT(-uncoalesced-global-access)\n"
      "f; /* NOLINT(misaligned-*) */\n");
  CHECK(idx.suppresses(1, 1, kRule));
  CHECK_FALSE(idx.suppresses(1, 1, "aos-field-access"));
  CHECK(idx.suppresses(2, 1, "aos-field-access"));
  CHECK(idx.suppresses(2, 1, "shared-bank-conflict"));
  CHECK_FALSE(idx.suppresses(2, 1, kRule));
  CHECK(idx.suppresses(3, 1, kRule));
  CHECK(idx.suppresses(3, 1, "aos-field-access"));
  CHECK_FALSE(idx.suppresses(3, 1, "shared-bank-conflict"));
  CHECK_FALSE(idx.suppresses(4, 1, kRule));
  CHECK_FALSE(idx.suppresses(5, 1, kRule));
  CHECK(idx.suppresses(6, 1, "misaligned-global-access"));
}

TEST_CASE("NOLINTNEXTLINE applies to the next line only") {
  auto idx = SuppressionIndex::parse("// NOLINTNEXTLINE(uncoalesced-global-access)\nx;\ny;\n");
  CHECK_FALSE(idx.suppresses(1, 1, kRule));
  CHECK(idx.suppresses(2, 1, kRule));
  CHECK_FALSE(idx.suppresses(3, 1, kRule));
  CHECK_FALSE(idx.suppresses(2, 1, "aos-field-access"));
}

TEST_CASE("NOLINTBEGIN/NOLINTEND cover the lines between them, nested like brackets") {
  auto idx = SuppressionIndex::parse(
      "// NOLINTBEGIN(uncoalesced-global-access)\n"  // 1
      "a;\n"                                          // 2
      "// NOLINTBEGIN\n"                              // 3
      "b;\n"                                          // 4
      "// NOLINTEND\n"                                // 5
      "c;\n"                                          // 6
      "// NOLINTEND(uncoalesced-global-access)\n"    // 7
      "d;\n");                                        // 8
  CHECK(idx.problems().empty());
  CHECK(idx.suppresses(2, 1, kRule));
  CHECK_FALSE(idx.suppresses(2, 1, "aos-field-access"));
  CHECK(idx.suppresses(4, 1, "aos-field-access"));
  CHECK(idx.suppresses(6, 1, kRule));
  CHECK_FALSE(idx.suppresses(6, 1, "aos-field-access"));
  CHECK_FALSE(idx.suppresses(8, 1, kRule));
}

TEST_CASE("an END whose list differs from the open BEGIN is unmatched, and nothing is suppressed") {
  auto idx = SuppressionIndex::parse("// NOLINTBEGIN(aos-field-access)\nx;\n// NOLINTEND(shared-bank-conflict)\n");
  REQUIRE(idx.problems().size() == 2);
  CHECK(idx.problems()[0].line == 3);
  CHECK(idx.problems()[0].message ==
        "unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' comment");
  CHECK(idx.problems()[1].line == 1);
  CHECK(idx.problems()[1].column == 4);
  CHECK(idx.problems()[1].message ==
        "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment");
  CHECK_FALSE(idx.suppresses(2, 1, "aos-field-access"));
}

TEST_CASE("BEGIN and END lists match as lists, whatever the spacing") {
  auto idx = SuppressionIndex::parse("// NOLINTBEGIN(a-b,c-d)\nx;\n// NOLINTEND( a-b , c-d )\n");
  CHECK(idx.problems().empty());
  CHECK(idx.suppresses(2, 1, "c-d"));
}

TEST_CASE("words that only start with NOLINT are not directives, an unclosed list means every rule") {
  auto idx = SuppressionIndex::parse("x; // NOLINTFOO\ny; // NOLINT(uncoalesced-global-access\nz;\n");
  CHECK_FALSE(idx.suppresses(1, 1, kRule));
  CHECK(idx.suppresses(2, 1, "aos-field-access"));
}

TEST_CASE("a finding on a NOLINTBEGIN line is covered only after the comment") {
  auto idx = SuppressionIndex::parse("x; // NOLINTBEGIN\ny;\n// NOLINTEND\n");
  CHECK_FALSE(idx.suppresses(1, 1, kRule));
  CHECK(idx.suppresses(1, 20, kRule));
  CHECK(idx.suppresses(2, 1, kRule));
}
