#include "iteration_reuse_note.h"

#include <fmt/format.h>

#include "access_cause.h"
#include "format.h"

namespace coalesce::report::detail {

void addIterationReuseNotes(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  for (Finding& f : findings) {
    if (!f.access || *f.access < 0 || static_cast<size_t>(*f.access) >= analysis.accesses.size()) continue;
    const AccessSite& site = analysis.accesses[static_cast<size_t>(*f.access)];
    if (!reusedAcrossIterations(site)) continue;
    const bool load = site.access.kind == model::AccessKind::Load;
    f.notes.push_back(fmt::format(
        "each thread uses the rest of these sectors in its next iterations (counted once over windows of {} "
        "iterations, {} sectors per request where {} carry the bytes), so {} serves most of them and DRAM traffic "
        "stays near the ideal; every request still moves {} sectors through {}: on the H200 a 256-byte row walked "
        "per thread took {} the time of the same rows {} coalesced (bench/cache_reuse/h200)",
        kIterationWindow, number(site.iterationReuse.sectorsPerRequest),
        number(site.figures.global->aligned.idealSectors), load ? "L1" : "L2",
        number(site.figures.global->aligned.sectorsPerRequest), load ? "L1" : "L2", load ? "3.9x" : "15x",
        load ? "read" : "written"));
  }
}

}  // namespace coalesce::report::detail
