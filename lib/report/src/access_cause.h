// Why an access costs more than it should: one decision tree for every access rule.
// Exclusivity ("a 24-byte-stride float read is aos-field-access, not also uncoalesced")
// is a property of the whole set of rules, so it is decided here, once; each rule fires
// on its own cause and owns its message, hints and options.
#pragma once

#include <string_view>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"

namespace coalesce::report::detail {

enum class Cause {
  None,                // ideal, broadcast, not global/shared, or not computable
  RowGather,           // indirect row index with contiguous lanes: coalesced, never reported
  Misaligned,          // contiguous lanes; only the base offset or the row pitch costs
  AosField,            // a field of an array of records
  InvertedAxes,        // 2D block whose threadIdx.y, not .x, walks contiguous memory
  Strided,             // anything else that wastes sectors
  ScatteredIndirect,   // address from loaded data
  SharedConflict,      // shared, 32-bit or narrower, conflict degree > 1
  WideSharedConflict,  // shared, 64/128-bit, conflict degree > 1
};

Cause classify(const AccessSite& site, const model::Arch& arch);

// Whether the accesses an access is served with (AccessSite::group) waste traffic
// together: their distinct sectors per request exceed the fewest that carry their bytes by
// more than one sector and an eighth (the sector any unaligned run pays, and rounding). An
// access in a group that does not is served well whatever its own figures say.
bool groupWastes(const AccessGroup& group);
bool servedWithItsGroup(const AccessSite& site);

// The accesses of `site`'s group (itself included), in id order; just `site` when it is in
// none or `analysis` is null. Members are adjacent to the first one's id within a kernel.
std::vector<const AccessSite*> groupMembers(const AccessSite& site, const AnalysisResult* analysis);

// Sectors per request the access's active lanes (the mean over the block's warps) would
// touch reading consecutive elements: the floor below which no layout change can go.
double coalescedSectors(const AccessSite& site, const model::Arch& arch);

// A global access whose warps, counted once over a window of consecutive iterations
// (AccessSite::iterationReuse), touch no more sectors than the ideal and the sector an
// unaligned run pays: the per-iteration waste is the thread's own next iterations' data.
// The caches serve those bytes, but the requests still move every sector (iteration_reuse_note.h).
bool reusedAcrossIterations(const AccessSite& site);

// A field of a user record, or a piece of one copied whole (AccessSite::record, records.h).
bool isRecordField(const AccessSite& site);

}  // namespace coalesce::report::detail
