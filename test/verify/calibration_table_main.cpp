// Prints the calibration table: every pattern of bench/calibration/gen_calibration.py,
// the model's figure and the H200's, as Markdown (docs/verification/calibration.md).
#include <fmt/format.h>

#include <cstdio>

#include "calibration_util.h"
#include "coalesce/verify/format_number.h"

using namespace coalesce;
using namespace coalesce::verify;

int main() {
  const auto rows = test::loadCalibration();
  size_t agree = 0;
  std::string table;
  table += "| pattern | space | kind | bytes | block | model | H200 | model ideal | H200 ideal | agree | note |\n";
  table += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    agree += r.agrees();
    table += fmt::format("| `{}` | {} | {} | {} | {}x{}x{} | {} | {} | {} | {} | {} | {}{} |\n", r.name,
                         model::toString(r.access.space), model::toString(r.access.kind), r.access.bytesPerLane,
                         r.block.x, r.block.y, r.block.z, formatNumber(r.model),
                         r.measured.requests ? formatNumber(r.measured.perRequest()) : "-", formatNumber(r.modelIdeal),
                         r.measured.requests ? formatNumber(r.measured.idealPerRequest()) : "-", r.agrees() ? "yes" : "**NO**",
                         r.note, r.viaKernel ? " (found by kernel, not by line)" : "");
  }
  std::printf("%zu of %zu patterns: model equals the H200 (sectors or wavefronts per request)\n\n%s", agree,
              rows.size(), table.c_str());
  return 0;
}
