// Builders that read like the access they describe, so each rule test states the
// pattern, block and figures it is about.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "coalesce/model/access_model.h"
#include "coalesce/report/finding.h"
#include "coalesce/records/records.h"
#include "coalesce/report/rule_registry.h"
#include "coalesce/report/source_reader.h"

namespace coalesce::test {

using namespace coalesce::model;

// byte address = base + cx*tx + cy*ty (+ an unknown multiple of `unknownAlignment`)
inline Access affine(Space space, int bytes, int64_t cx, int64_t cy = 0, int64_t base = 0,
                     int64_t unknownAlignment = 0, AccessKind kind = AccessKind::Load) {
  Access a;
  a.space = space;
  a.kind = kind;
  a.bytesPerLane = bytes;
  a.pattern = LanePattern::makeAffine({cx, cy, 0}, {base, unknownAlignment});
  return a;
}

inline Access indirect(Space space, int bytes) {
  Access a;
  a.space = space;
  a.bytesPerLane = bytes;
  a.pattern = LanePattern::makeIndirect();
  return a;
}

// The group of the fields of one record a lane gathers through a loaded index
// (AccessGroup::gather), its first member's id 0.
inline AccessGroup recordGather(int members, double least, double most, double ideal) {
  AccessGroup g;
  g.id = 0;
  g.members = members;
  g.gather = true;
  g.sectorsAtLeast = least;
  g.sectorsPerRequest = most;
  g.idealSectors = ideal;
  g.efficiency = ideal / most;
  return g;
}

// A site with its figures computed by the model, as the frontend fills it.
inline AccessSite makeSite(Access access, Dim3 block = {256, 1, 1}, std::string expression = "a[i]",
                       std::string elementType = "float", std::string file = "k.cu", unsigned line = 10,
                       unsigned column = 5) {
  AccessSite s;
  s.loc = {std::move(file), line, column};
  s.kernel = std::string("k");
  s.function = std::string("k");
  s.expression = std::move(expression);
  s.lineText = std::string("  x = ").append(s.expression).append(";");
  s.elementType = std::move(elementType);
  s.access = access;
  s.block.dim = block;
  s.block.source = BlockSource::Launch;
  s.block.detail = std::string("launch at main.cu:40");
  s.figures = analyzeAccess(access, block, defaultArch());
  return s;
}

// Every finding the rules produce for one site (no filtering).
inline std::vector<report::Finding> findingsFor(const AccessSite& s) {
  AnalysisResult r;
  r.accesses.push_back(s);
  return report::runRules(r, defaultArch());
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline bool anyNoteContains(const report::Finding& f, const std::string& part) {
  for (const auto& n : f.notes)
    if (contains(n, part)) return true;
  return false;
}

// Source texts held in memory, for the filter's NOLINT scan.
inline report::SourceReader memoryReader(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& path) -> std::optional<std::string> {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace coalesce::test
