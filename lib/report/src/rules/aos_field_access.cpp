#include "aos_field_access.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "../access_cause.h"
#include "../notes.h"
#include "../what_if.h"
#include "access_finding.h"

namespace coalesce::report {

using namespace detail;

RuleDescription AosFieldAccess::description() const {
  return {"Field of an array of structures read by consecutive threads",
          "Consecutive threads read one field of consecutive records (p[i].x), so the lanes are a whole "
          "record apart and each sector carries mostly the other fields: a float in a 24-byte record moves "
          "24 sectors per warp where 4 would do.",
          "Store the field in its own array (structure of arrays, SoA), or interleave small blocks of "
          "records (AoSoA). If every field is used, load whole records with vector loads or stage them "
          "through shared memory."};
}

std::optional<Finding> AosFieldAccess::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  if (classify(site, ctx.arch) != Cause::AosField) return std::nullopt;
  const model::GlobalFigures f = *globalFigures(site);
  const model::Access& a = site.access;
  const int64_t record = std::llabs(a.pattern.affine.cx);
  std::string cause = fmt::format("each thread reads {} bytes of a {}-byte record", a.bytesPerLane, record);
  if (!site.elementType.empty()) cause += " (" + site.elementType + ")";
  if (site.group.id >= 0) {
    // Read with other fields of the same record: the waste is the fields it never reads.
    std::vector<std::string> fields;
    std::vector<int64_t> offsets;
    int64_t bytes = 0;
    bool loads = false, stores = false;  // a record updated in place groups both (access_groups.cpp)
    for (const AccessSite* m : groupMembers(site, ctx.analysis)) {
      (m->access.kind == model::AccessKind::Store ? stores : loads) = true;
      const int64_t at = m->access.pattern.base.constant;
      if (std::find(offsets.begin(), offsets.end(), at) != offsets.end()) continue;
      offsets.push_back(at);
      bytes += m->access.bytesPerLane;
      if (!m->field.empty() && std::find(fields.begin(), fields.end(), m->field) == fields.end())
        fields.push_back(m->field);
    }
    std::string names;
    for (const std::string& n : fields) names += (names.empty() ? "" : ", ") + n;
    if (bytes < record)
      cause = fmt::format("each thread {} {} of the {} bytes of its record{}{}: the other {} bytes share the "
                          "sectors but the kernel does not {} them here (a structure stride, not misalignment)",
                          loads && stores ? "reads or writes" : stores ? "writes" : "reads", bytes, record,
                          site.record.empty() ? "" : " " + site.record, names.empty() ? "" : " (" + names + ")",
                          record - bytes, loads && stores ? "read or write" : stores ? "write" : "read");
  }

  Finding out = accessFinding(*this, site, ctx.arch, globalMessage(site, f, cause));
  out.notes.push_back(trafficNote(f, ctx.arch));
  out.notes.push_back(checkedFix("use SoA (this field in its own array)", f,
                                 globalOf(withUnitStrideX(a), site.block.dim, ctx.arch)));
  out.efficiency = f.efficiency;
  out.fix = fixIfBetter(withUnitStrideX(a), site.block.dim, f, ctx.arch, "the field in its own array (SoA)");
  return out;
}

}  // namespace coalesce::report
