#include <catch2/catch.hpp>

#include "calibration_util.h"
#include "coalesce/verify/predictions.h"

using namespace coalesce;
using namespace coalesce::verify;

TEST_CASE("predictions: the demo's predictions parse, figures and nulls") {
  const Predictions p = loadPredictions(test::dataPath("programs/verify_demo.predictions.json"));
  CHECK(p.schema == "coalesce-lint/1");
  REQUIRE(p.accesses.size() == 30);
  const PredictedAccess& first = p.accesses.front();
  CHECK(first.file == "test/verify/data/programs/verify_demo.cu");
  CHECK(first.kernel == "copy");
  CHECK(first.space == model::Space::Global);
  CHECK(first.kind == model::AccessKind::Load);
  CHECK(first.bytes == 4);
  REQUIRE(first.sectorsPerRequest);
  CHECK(*first.sectorsPerRequest == 4);
  CHECK_FALSE(first.wavefronts);
  CHECK_FALSE(first.sectorsRange);
  bool indirect = false, shared = false;
  for (const auto& a : p.accesses) {
    if (a.pattern == "indirect") {
      indirect = true;
      CHECK_FALSE(a.sectorsPerRequest);
      REQUIRE(a.range());
      CHECK(a.range()->first == 1);
      CHECK(a.range()->second == 32);
    }
    if (a.space == model::Space::Shared) {
      shared = true;
      CHECK(a.perRequest() == a.wavefronts);
      CHECK(a.wavefronts);
    }
  }
  CHECK(indirect);
  CHECK(shared);
}

TEST_CASE("predictions: constant, local and texture accesses are skipped, bad records are named") {
  // Texture fetches (session 12) count in a kernel's time only: the model gives them no figures.
  const std::string ok = R"({"schema":"coalesce-lint/1","accesses":[
    {"file":"a.cu","line":3,"kernel":"k","space":"constant","kind":"load","bytes":4},
    {"file":"a.cu","line":5,"kernel":"k","space":"texture","kind":"load","bytes":4},
    {"file":"a.cu","line":4,"kernel":"k","space":"shared","kind":"store","bytes":8,"wavefronts":2,
     "ideal_wavefronts":2,"conflict_degree":1,"wavefronts_range":null}]})";
  const Predictions p = predictionsFromJson(ok);
  REQUIRE(p.accesses.size() == 1);
  CHECK(p.accesses[0].line == 4);
  CHECK(*p.accesses[0].idealPerRequest() == 2);
  CHECK_THROWS_WITH(predictionsFromJson(R"({"schema":"coalesce-lint/2","accesses":[]})"),
                    Catch::Contains("coalesce-lint/1"));
  CHECK_THROWS_WITH(predictionsFromJson(R"({"schema":"coalesce-lint/1"})"), Catch::Contains("accesses"));
  CHECK_THROWS_WITH(
      predictionsFromJson(R"({"schema":"coalesce-lint/1","accesses":[{"file":"a.cu","line":1,"space":"registers"}]})"),
      Catch::Contains("access 0") && Catch::Contains("registers"));
  CHECK_THROWS_WITH(predictionsFromJson(
                        R"({"schema":"coalesce-lint/1","accesses":[{"file":"a.cu","line":1,"space":"global",
                        "kind":"load","sectors_per_request":"four"}]})"),
                    Catch::Contains("sectors_per_request"));
  CHECK_THROWS_WITH(predictionsFromJson(R"({"schema":"coalesce-lint/1","accesses":[{"file":"a.cu","line":1,
                        "space":"global","kind":"load","sectors_range":[1]}]})"),
                    Catch::Contains("[lo, hi]"));
}

TEST_CASE("predictions: the analyzer's own output names its format in \"version\"") {
  // `coalesce-lint --format=json` (lib/report) writes {"version": "coalesce-lint/1", ...}.
  const Predictions p = predictionsFromJson(R"({"version":"coalesce-lint/1","tool":{"name":"coalesce-lint"},
    "accesses":[{"id":0,"file":"a.cu","line":7,"kernel":"k","space":"global","kind":"load","bytes":4,
    "sectors_per_request":4,"ideal_sectors":4,"sectors_range":null}]})");
  CHECK(p.schema == "coalesce-lint/1");
  REQUIRE(p.accesses.size() == 1);
  CHECK(*p.accesses[0].perRequest() == 4);
  CHECK_THROWS_WITH(predictionsFromJson(R"({"version":"coalesce-lint/9","accesses":[]})"),
                    Catch::Contains("coalesce-lint/1"));
}
