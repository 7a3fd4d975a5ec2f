// The model against the H200, pattern by pattern: bench/calibration/gen_calibration.py
// generated one kernel per pattern, libcoalesce_verify_inject.so measured them on the
// H200 (data/calibration/COMMAND.txt), and here the model recomputes each figure.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>

#include "calibration_util.h"

using namespace coalesce;
using namespace coalesce::verify;

namespace {
const std::vector<test::CalibrationRow>& rows() {
  static const auto r = test::loadCalibration();
  return r;
}

// data/calibration/known_disagreements.txt: the patterns the model gets wrong today.
std::set<std::string> knownDisagreements() {
  std::set<std::string> names;
  std::istringstream in(test::readFile(test::dataPath("calibration/known_disagreements.txt")));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    names.insert(line.substr(0, line.find_first_of(" \t")));
  }
  return names;
}
}  // namespace

TEST_CASE("calibration: every pattern was measured on the H200") {
  REQUIRE(rows().size() >= 200);
  for (const auto& r : rows()) {
    INFO(r.name);
    CHECK(r.measured.requests > 0);
    CHECK(r.measured.instructions == 1);  // one instruction per pattern: nothing merged or split
    CHECK_FALSE(r.viaKernel);             // found at its line (atomics through the inline chain)
    // The instruction moves the bytes the pattern describes.
    REQUIRE(r.measured.widths.size() == 1);
    CHECK(r.measured.widths[0] == r.access.bytesPerLane);
  }
}

TEST_CASE("calibration: the model's sectors or wavefronts per request equal the H200's") {
  const auto known = knownDisagreements();
  for (const auto& r : rows()) {
    if (known.count(r.name)) continue;
    INFO(r.name << " (" << r.program << ".cu:" << r.line << "): model " << r.model << ", H200 "
                << r.measured.perRequest());
    CHECK(r.measured.perRequest() == Approx(r.model).margin(1e-9));
  }
}

TEST_CASE("calibration: the model's ideal equals the H200's ideal") {
  const auto known = knownDisagreements();
  for (const auto& r : rows()) {
    if (known.count(r.name)) continue;
    INFO(r.name << ": model ideal " << r.modelIdeal << ", H200 ideal " << r.measured.idealPerRequest());
    CHECK(r.measured.idealPerRequest() == Approx(r.modelIdeal).margin(1e-9));
  }
}

TEST_CASE("calibration: each known disagreement is still one (remove it from the list once fixed)") {
  const auto known = knownDisagreements();
  size_t seen = 0;
  for (const auto& r : rows()) {
    if (!known.count(r.name)) continue;
    ++seen;
    INFO(r.name << ": model " << r.model << ", H200 " << r.measured.perRequest()
                << " -- if they now agree, delete the line from data/calibration/known_disagreements.txt");
    CHECK(r.measured.perRequest() != Approx(r.model).margin(1e-9));
  }
  CHECK(seen == known.size());  // every listed name is a pattern of the table
}
