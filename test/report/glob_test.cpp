#include <catch2/catch.hpp>

#include "coalesce/report/glob.h"

using namespace coalesce::report;

TEST_CASE("globMatch: '*' spans any characters, '?' one") {
  CHECK(globMatch("*-access", "aos-field-access"));
  CHECK_FALSE(globMatch("*-access", "shared-bank-conflict"));
  CHECK(globMatch("*/third_party/*", "src/third_party/x.cuh"));
  CHECK_FALSE(globMatch("*/third_party/*", "third_party/x.cuh"));
  CHECK(globMatch("third_party/*", "third_party/a/b.cuh"));
  CHECK(globMatch("a?c", "abc"));
  CHECK_FALSE(globMatch("a?c", "ac"));
  CHECK(globMatch("*", ""));
  CHECK_FALSE(globMatch("", "x"));
}

TEST_CASE("GlobList: the last matching glob decides, '-' negates") {
  GlobList l("*, -aos-*, aos-field-access");
  CHECK(l.contains("uncoalesced-global-access"));
  CHECK(l.contains("aos-field-access"));
  CHECK_FALSE(l.contains("aos-other"));
  CHECK_FALSE(GlobList("").contains("x"));
  CHECK_FALSE(GlobList("-*").contains("x"));
  CHECK(GlobList("-x", /*keepNegative=*/false).empty());
}
