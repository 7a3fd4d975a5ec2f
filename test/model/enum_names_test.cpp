// parseSpace, parseKind and parsePatternKind (coalesce/model/access.h) are exact inverses
// of toString: the JSON report writes the names (lib/report/src/json_writer.cpp) and the
// verifier reads them back (lib/verify/src/predictions.cpp).
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "coalesce/model/access.h"
#include "enum_names.h"

using namespace coalesce::model;

TEST_CASE("parseSpace, parseKind and parsePatternKind invert toString for every enumerator") {
  using coalesce::test::parseInverseProblems;
  CHECK(parseInverseProblems(Space::Texture, [](const std::string& s) { return parseSpace(s); }).empty());
  CHECK(parseInverseProblems(AccessKind::Atomic, [](const std::string& s) { return parseKind(s); }).empty());
  CHECK(parseInverseProblems(PatternKind::Unknown, [](const std::string& s) { return parsePatternKind(s); }).empty());
}

TEST_CASE("the inverse check fails a parse that is not the inverse") {
  using coalesce::test::parseInverseProblems;
  CHECK_FALSE(parseInverseProblems(Space::Texture, [](const std::string&) { return std::optional<Space>{}; }).empty());
  // Accepting anything: "" and "?" parse.
  CHECK(parseInverseProblems(Space::Texture, [](const std::string&) { return std::optional<Space>{Space::Global}; })
            .size() >= 2);
}
