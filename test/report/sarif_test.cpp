// SARIF locations: repo-relative URIs with forward slashes, whatever the path looks like.
#include <catch2/catch.hpp>

#include "coalesce/report/sarif_writer.h"

using namespace coalesce::report;

TEST_CASE("SARIF URIs are relative to the source root, with forward slashes") {
  SarifOptions o;
  o.sourceRoot = "/repo";
  o.workingDirectory = "/repo/build";
  CHECK(sarifUri("../src/k.cu", o) == "src/k.cu");
  CHECK(sarifUri("/repo/src/./k.cu", o) == "src/k.cu");
  CHECK(sarifUri("gen/k.cu", o) == "build/gen/k.cu");
  CHECK(sarifUri("/elsewhere/k.cu", o) == "file:///elsewhere/k.cu");
  CHECK(sarifUri("/repo/src/my kernels/k+1.cu", o) == "src/my%20kernels/k%2B1.cu");
  CHECK(sarifUri("/repository/k.cu", o) == "file:///repository/k.cu");  // a prefix is not a parent
}

TEST_CASE("without a source root, relative paths stay as given and absolute ones become file URIs") {
  const SarifOptions o;
  CHECK(sarifUri("./src/k.cu", o) == "src/k.cu");
  CHECK(sarifUri("src\\k.cu", o) == "src/k.cu");  // Windows separators from a compile database
  CHECK(sarifUri("/abs/k.cu", o) == "file:///abs/k.cu");
}
