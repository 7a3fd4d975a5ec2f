// The calibration table (bench/calibration/gen_calibration.py writes patterns.json)
// joined with what the H200 measured for each pattern, and the model's figure for it.
#pragma once

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "coalesce/model/access_model.h"
#include "coalesce/verify/compare.h"
#include "coalesce/verify/measurements.h"
#include "coalesce/verify/predictions.h"
#include "coalesce/verify/sass.h"

namespace coalesce::verify::test {

inline std::string dataPath(const std::string& rel) { return std::string(COALESCE_VERIFY_TEST_DATA) + "/" + rel; }

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct CalibrationRow {
  std::string name, program, file, kernel, note;
  unsigned line = 0;
  model::Access access;
  model::Dim3 block;
  // Model.
  double model = 0, modelIdeal = 0;
  // H200.
  MeasuredFigures measured;
  bool viaKernel = false;  // no instruction at the pattern's line: the kernel's instructions of its class
  bool agrees() const { return measured.requests && std::fabs(measured.perRequest() - model) < 1e-9; }
};

inline model::Access accessFromJson(const nlohmann::json& p) {
  model::Access a;
  a.space = *model::parseSpace(p.at("space").get<std::string>());
  a.kind = *model::parseKind(p.at("kind").get<std::string>());
  a.bytesPerLane = p.at("bytes").get<int>();
  const auto& pat = p.at("pattern");
  const model::UniformOffset base{pat.value("base", int64_t{0}), 0};
  if (pat.at("kind") == "affine") {
    a.pattern = model::LanePattern::makeAffine({pat.at("cx").get<int64_t>(), pat.at("cy").get<int64_t>(),
                                                pat.at("cz").get<int64_t>()},
                                               base);
  } else {
    std::vector<std::optional<int64_t>> offsets;
    for (const auto& o : pat.at("offsets"))
      offsets.push_back(o.is_null() ? std::nullopt : std::optional<int64_t>(o.get<int64_t>()));
    a.pattern = model::LanePattern::makeEnumerated(std::move(offsets), base);
  }
  return a;
}

inline std::vector<CalibrationRow> loadCalibration() {
  const auto patterns = nlohmann::json::parse(readFile(dataPath("calibration/patterns.json")));
  std::map<std::string, Measurements> byProgram;
  std::vector<CalibrationRow> rows;
  for (const auto& p : patterns.at("patterns")) {
    CalibrationRow r;
    r.name = p.at("name");
    r.program = p.at("program");
    r.file = p.at("file");
    r.kernel = p.at("kernel");
    r.note = p.value("note", "");
    r.line = p.at("line");
    r.access = accessFromJson(p);
    const auto& b = p.at("block");
    r.block = {b[0].get<int64_t>(), b[1].get<int64_t>(), b[2].get<int64_t>()};
    const auto figs = model::analyzeAccess(r.access, r.block, model::defaultArch());
    if (r.access.space == model::Space::Global) {
      r.model = figs.global->aligned.sectorsPerRequest;
      r.modelIdeal = figs.global->aligned.idealSectors;
    } else {
      r.model = figs.shared->aligned.wavefronts;
      r.modelIdeal = figs.shared->aligned.idealWavefronts;
    }
    if (!byProgram.count(r.program)) {
      Measurements m = loadMeasurements(dataPath("calibration/measurements_" + r.program + ".json"));
      // nvdisasm -gi listing: opcodes, and the call site of code inlined from CUDA
      // headers (atomicAdd).
      attachSass(m, parseSassListing(readFile(dataPath("calibration/sass_" + r.program + ".txt"))));
      byProgram[r.program] = std::move(m);
    }
    const AccessClass cls{r.access.space, r.access.kind};
    std::vector<const MeasuredInstruction*> atLine, inKernel;
    for (const MeasuredInstruction& in : byProgram[r.program].instructions) {
      if (in.function != r.kernel || classify(in) != cls) continue;
      inKernel.push_back(&in);
      bool here = in.line == r.line && sameSourceFile(r.file, in.file);
      for (const auto& [f, l] : in.inlinedAt) here = here || (l == r.line && sameSourceFile(r.file, f));
      if (here) atLine.push_back(&in);
    }
    r.viaKernel = atLine.empty();
    r.measured = aggregate(r.viaKernel ? inKernel : atLine, cls);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace coalesce::verify::test
