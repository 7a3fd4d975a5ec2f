#include "missing_restrict.h"

#include <fmt/format.h>

namespace coalesce::report {

namespace {

std::string roleOf(const PointerParam& p) { return p.read && p.written ? "read and written" : p.written ? "written" : "read"; }

std::string listed(const std::vector<const PointerParam*>& params, bool withRoles) {
  std::string out;
  for (size_t i = 0; i < params.size(); ++i) {
    if (i > 0) out += i + 1 == params.size() ? " and " : ", ";
    out += "'" + params[i]->name + "'";
    if (withRoles) out += " (" + roleOf(*params[i]) + ")";
  }
  return out;
}

// The unrestricted parameters `p` may alias in a way that blocks the compiler: p read while
// they are written, or p written while they are read.
std::vector<const PointerParam*> hazardPartners(const PointerParam& p, const std::vector<PointerParam>& params) {
  std::vector<const PointerParam*> out;
  for (const PointerParam& q : params) {
    if (q.isRestrict || q.name == p.name) continue;
    if ((p.read && q.written) || (p.written && q.read)) out.push_back(&q);
  }
  return out;
}

}  // namespace

RuleDescription MissingRestrict::description() const {
  return {"Kernel pointer parameters may alias: no __restrict__",
          "When a kernel reads through one pointer parameter and writes through another and neither is "
          "__restrict__, the compiler must assume that a store may change what the other pointer reads: it "
          "reloads values after every store, cannot reorder them, and cannot use the read-only data path. A "
          "hint, off by default: the launch arguments are not checked, and __restrict__ is a promise.",
          "Declare the parameters __restrict__ (and the read-only ones const) when the caller guarantees that "
          "the buffers never overlap; overlapping __restrict__ pointers are undefined behaviour."};
}

std::vector<Finding> MissingRestrict::checkPointerParams(const std::vector<PointerParam>& params,
                                                         const RuleContext&) const {
  std::vector<Finding> out;
  for (const PointerParam& p : params) {
    if (p.isRestrict) continue;
    const std::vector<const PointerParam*> partners = hazardPartners(p, params);
    if (partners.empty()) continue;
    Finding f;
    f.rule = id();
    f.severity = defaultSeverity();
    f.loc = p.loc;
    f.message = fmt::format(
        "pointer parameter '{}' ({}) may alias {}: {} is __restrict__, so the compiler must assume that a store "
        "through one changes what another reads; it reloads after every store and cannot use the read-only path",
        p.name, roleOf(p), listed(partners, true), partners.size() == 1 ? "neither" : "none");
    f.notes.push_back(
        "the launch arguments are not checked: add __restrict__ only if the caller guarantees that the buffers "
        "never overlap (__restrict__ is a promise, not a check: overlapping __restrict__ pointers are undefined "
        "behaviour)");
    f.notes.push_back(fmt::format("fix: declare '{}' and {} __restrict__, and the read-only ones const", p.name,
                                  listed(partners, false)));
    // The fix-it (docs/fixes.md): this parameter's declaration; the partners get their own.
    SourceFix fix;
    fix.description = fmt::format("declare '{}' __restrict__", p.name);
    if (!p.restrictEdit.empty()) {
      fix.edits.push_back(p.restrictEdit);
    } else {
      fix.check = SourceFix::Check::Withheld;
      fix.verdict = "no automatic fix: the parameter has no name, is written inside a macro, or is declared in "
                    "another file than the one analysed";
    }
    f.sourceFix = std::move(fix);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace coalesce::report
