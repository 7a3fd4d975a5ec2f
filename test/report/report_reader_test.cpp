// The verifier's reader (lib/verify/src/predictions.cpp) reads back what the JSON writer
// (lib/report/src/json_writer.cpp) wrote: both walk coalesce/records/fields.h, so a field
// renamed or reordered on one side only shows here.
#include <catch2/catch.hpp>

#include <sstream>

#include "coalesce/report/json_writer.h"
#include "coalesce/verify/predictions.h"
#include "golden_fixture.h"

using namespace coalesce;

TEST_CASE("the predictions reader reads back every access and branch the JSON report wrote") {
  const AnalysisResult analysis = test::goldenAnalysis();
  const report::Report report = test::goldenReport(analysis);
  std::ostringstream out;
  report::writeJson(out, report);
  const verify::Predictions p = verify::predictionsFromJson(out.str());

  // Accesses in global and shared memory, in order (the reader skips the others).
  std::vector<const AccessSite*> counted;
  for (const AccessSite& a : analysis.accesses)
    if (a.access.space == model::Space::Global || a.access.space == model::Space::Shared) counted.push_back(&a);
  REQUIRE(!counted.empty());
  REQUIRE(p.accesses.size() == counted.size());
  for (size_t i = 0; i < counted.size(); ++i) {
    const AccessSite& a = *counted[i];
    const verify::PredictedAccess& r = p.accesses[i];
    INFO("access " << a.id << " " << a.expression);
    CHECK(r.file == a.loc.file);
    CHECK(r.line == a.loc.line);
    CHECK(r.column == a.loc.column);
    CHECK(r.kernel == a.kernel);
    CHECK(r.space == a.access.space);
    CHECK(r.kind == a.access.kind);
    CHECK(r.bytes == a.access.bytesPerLane);
    CHECK(r.pattern == model::toString(a.access.pattern.kind));
    CHECK(r.expression == a.expression);
    if (a.figures.global) {
      CHECK(r.sectorsPerRequest == a.figures.global->aligned.sectorsPerRequest);
      CHECK(r.idealSectors == a.figures.global->aligned.idealSectors);
      CHECK(r.efficiency == a.figures.global->aligned.efficiency);
    } else {
      CHECK(!r.sectorsPerRequest);
    }
    if (a.figures.shared) {
      CHECK(r.wavefronts == a.figures.shared->aligned.wavefronts);
      CHECK(r.idealWavefronts == a.figures.shared->aligned.idealWavefronts);
      CHECK(r.conflictDegree == a.figures.shared->aligned.conflictDegree);
    } else {
      CHECK(!r.wavefronts);
    }
  }

  REQUIRE(!analysis.branches.empty());
  REQUIRE(p.branches.size() == analysis.branches.size());
  for (size_t i = 0; i < analysis.branches.size(); ++i) {
    const BranchSite& b = analysis.branches[i];
    const verify::PredictedBranch& r = p.branches[i];
    INFO("branch " << b.id << " " << b.condition);
    CHECK(r.id == static_cast<unsigned>(b.id));
    CHECK(r.file == b.loc.file);
    CHECK(r.line == b.loc.line);
    CHECK(r.column == b.loc.column);
    CHECK(r.kernel == b.kernel);
    CHECK(r.function == b.function);
    CHECK(r.kind == toString(b.kind));
    CHECK(r.condition == b.condition);
    CHECK(r.evaluated == b.evaluated);
    CHECK(r.threadDependent == b.threadDependent);
    CHECK(r.warpRequests == static_cast<uint64_t>(b.warpRequests));
    CHECK(r.divergentRequests == static_cast<uint64_t>(b.divergentRequests));
    CHECK(r.onlyPartialWarps == b.onlyPartialWarps);
    CHECK(r.blockX == static_cast<unsigned>(b.block.dim.x));
    CHECK(r.blockY == static_cast<unsigned>(b.block.dim.y));
    CHECK(r.blockZ == static_cast<unsigned>(b.block.dim.z));
  }

  REQUIRE(p.barriers.size() == analysis.barriers.size());
  for (size_t i = 0; i < analysis.barriers.size(); ++i) {
    CHECK(p.barriers[i].file == analysis.barriers[i].loc.file);
    CHECK(p.barriers[i].line == analysis.barriers[i].loc.line);
    CHECK(p.barriers[i].kernel == analysis.barriers[i].kernel);
  }
}
