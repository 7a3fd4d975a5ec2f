#include "aos_field_access.h"

#include <algorithm>
#include <cctype>
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

namespace {

// `ext.sigma` -> `ext`, `p->pos` -> `p`: the expression before its field (AccessSite::field).
std::string objectOf(const AccessSite& site) {
  if (site.field.empty()) return {};
  for (const std::string sep : {".", "->"})
    if (const size_t at = site.expression.rfind(sep + site.field); at != std::string::npos && at > 0)
      return site.expression.substr(0, at);
  return {};
}

// The member `a` reaches through `object`: its field, or the array member an element of which it
// is (`ext.orientation[ori]`: the record keeps no field for an array's element); empty for none.
std::string memberThrough(const AccessSite& a, const std::string& object) {
  if (!a.field.empty()) return objectOf(a) == object ? a.field : std::string();
  std::string rest;
  for (const std::string sep : {".", "->"})
    if (a.expression.rfind(object + sep, 0) == 0) rest = a.expression.substr(object.size() + sep.size());
  size_t n = 0;
  while (n < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[n])) || rest[n] == '_')) ++n;
  if (n == 0 || n >= rest.size() || rest[n] != '[') return {};
  return rest.substr(0, n);
}

struct OtherFields {
  std::string names;  // "idx_ori, orientation"
  std::string lines;  // "lines 273, 274"
};

// The fields of `site`'s record, not in `fields`, that the same kernel reads or writes through
// the same object with the same lane stride at other places.
OtherFields otherFieldsOfObject(const AccessSite& site, const std::vector<std::string>& fields,
                                const AnalysisResult* analysis) {
  OtherFields out;
  const std::string object = objectOf(site);
  if (!analysis || object.empty()) return out;
  std::vector<std::string> names;
  std::vector<int> lines;
  for (const AccessSite& a : analysis->accesses) {
    if (a.kernel != site.kernel || a.access.space != site.access.space ||
        a.access.pattern.kind != model::PatternKind::Affine ||
        std::llabs(a.access.pattern.affine.cx) != std::llabs(site.access.pattern.affine.cx))
      continue;
    if (!a.field.empty() && a.record != site.record) continue;
    const std::string field = memberThrough(a, object);
    if (field.empty()) continue;
    if (std::find(fields.begin(), fields.end(), field) != fields.end()) continue;
    if (std::find(names.begin(), names.end(), field) == names.end()) names.push_back(field);
    if (std::find(lines.begin(), lines.end(), a.loc.line) == lines.end()) lines.push_back(a.loc.line);
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string& n : names) out.names += (out.names.empty() ? "" : ", ") + n;
  out.lines = lines.size() == 1 ? "line " : "lines ";
  for (size_t i = 0; i < lines.size() && i < 3; ++i) out.lines += (i == 0 ? "" : ", ") + std::to_string(lines[i]);
  if (lines.size() > 3) out.lines += ", ...";
  return out;
}

}  // namespace

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
    const std::string object = objectOf(site);
    for (const AccessSite* m : groupMembers(site, ctx.analysis)) {
      (m->access.kind == model::AccessKind::Store ? stores : loads) = true;
      const int64_t at = m->access.pattern.base.constant;
      if (std::find(offsets.begin(), offsets.end(), at) != offsets.end()) continue;
      offsets.push_back(at);
      bytes += m->access.bytesPerLane;
      const std::string member = m->field.empty() ? memberThrough(*m, object) : m->field;
      if (!member.empty() && std::find(fields.begin(), fields.end(), member) == fields.end()) fields.push_back(member);
    }
    std::string names;
    for (const std::string& n : fields) names += (names.empty() ? "" : ", ") + n;
    if (bytes < record) {
      // The record's other fields the kernel reaches through the same object elsewhere (popsift's
      // `ext.idx_ori` and `ext.orientation[ori]` in a loop after `ext.sigma`): not unused, but in
      // another iteration or branch, where their sectors are fetched again (blind panel 30 judged
      // "the kernel does not read them" false there).
      const OtherFields other = otherFieldsOfObject(site, fields, ctx.analysis);
      const std::string what = loads && stores ? "reads or writes" : stores ? "writes" : "reads";
      const std::string head = fmt::format("each thread {} {} of the {} bytes of its record{}{}", what, bytes, record,
                                           site.record.empty() ? "" : " " + site.record,
                                           names.empty() ? "" : " (" + names + ")");
      if (other.names.empty())
        cause = fmt::format("{}: the other {} bytes share the sectors but the kernel does not {} them here (a "
                            "structure stride, not misalignment)",
                            head, record - bytes, loads && stores ? "read or write" : stores ? "write" : "read");
      else
        cause = fmt::format("{} together: the other {} bytes share the sectors; the kernel reaches {} of the same "
                            "record elsewhere ({}), in another iteration or branch, where these sectors are "
                            "fetched again unless L1 still holds them (a structure stride, not misalignment)",
                            head, record - bytes, other.names, other.lines);
    }
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
