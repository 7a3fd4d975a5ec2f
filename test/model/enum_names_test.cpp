// parseSpace, parseKind and parsePatternKind (coalesce/model/access.h) are exact inverses
// of toString: the JSON report writes the names (lib/report/src/json_writer.cpp) and the
// verifier reads them back (lib/verify/src/predictions.cpp).
#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <string>

#include "coalesce/model/access.h"

using namespace coalesce::model;

namespace {

// Every enumerator 0..last: its name parses back to it, names are distinct and not "?",
// and text that is no name (empty, other case, padded) parses to nothing.
template <class E, class Parse>
void checkInverse(E last, Parse parse) {
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    const E e = static_cast<E>(i);
    const std::string name(toString(e));
    INFO("enumerator " << i << " named '" << name << "'");
    CHECK(name != "?");
    CHECK(names.insert(name).second);
    REQUIRE(parse(name).has_value());
    CHECK(*parse(name) == e);
    CHECK_FALSE(parse(" " + name).has_value());
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK_FALSE(parse(upper).has_value());
  }
  CHECK_FALSE(parse("").has_value());
  CHECK_FALSE(parse("?").has_value());
}

}  // namespace

TEST_CASE("parseSpace, parseKind and parsePatternKind invert toString for every enumerator") {
  checkInverse(Space::Local, [](const std::string& s) { return parseSpace(s); });
  checkInverse(AccessKind::Atomic, [](const std::string& s) { return parseKind(s); });
  checkInverse(PatternKind::Unknown, [](const std::string& s) { return parsePatternKind(s); });
}
