// What a finding costs per launch, the measure findings are ranked and levelled by
// (docs/findings.md): the excess 32-byte sectors of a global access (or excess wavefronts
// of a shared one) per warp request, times the warp requests one launch executes
// (AccessSite::launchRequests), and its share of the kernel's memory time, global sectors and
// shared wavefronts weighed by what each costs (Arch::sectorCostInWavefronts).
#pragma once

#include <string>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

// Sets costSectors or costWavefronts, costShare and costBasis on every finding about an
// access with figures; a finding on a member of a wasting group gets the group's excess in
// proportion to the member's own sectors.
void addCosts(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch);

// Once findings are merged per place: the note that states the cost, and the note on the
// accesses a finding's access is served with.
void addCostNotes(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch);

// "3.2 MB", "512 B": bytes in the unit a reader expects.
std::string byteSize(double bytes);

}  // namespace coalesce::report::detail
