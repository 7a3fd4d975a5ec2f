// Figures of an access after the change a fix would make, computed by the model itself,
// so every gain a hint quotes is a prediction of the same kind as the finding.
#pragma once

#include <optional>

#include <string>

#include "coalesce/model/access_model.h"
#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

// The figures the rules judge: the "aligned" case (an unknown base offset is assumed to
// be a multiple of the period, as cudaMalloc gives). nullopt when the model gave none.
std::optional<model::GlobalFigures> globalFigures(const AccessSite& site);
std::optional<model::SharedFigures> sharedFigures(const AccessSite& site);

model::GlobalFigures globalOf(const model::Access& access, const model::Dim3& block, const model::Arch& arch);
model::SharedFigures sharedOf(const model::Access& access, const model::Dim3& block, const model::Arch& arch);

model::Access withLanes(const model::Access& access, model::AffineLanes lanes);
// The base moved to offset 0 (what aligning the start of the run would give).
model::Access withAlignedBase(const model::Access& access);
// Aligned base, and the row and plane pitches (cy, cz) rounded up to whole cache lines.
model::Access withPaddedPitch(const model::Access& access, const model::Arch& arch);
// Enumerated lanes with each warp's run moved to start on a sector boundary (what
// aligning the start would give when the offsets, not the base, carry the shift);
// nullopt for other patterns.
std::optional<model::Access> withWarpAlignedRuns(const model::Access& access, const model::Arch& arch);
// Threads that are neighbours in x made neighbours in memory: cx = +-bytes per lane.
model::Access withUnitStrideX(const model::Access& access);
// threadIdx.x and threadIdx.y exchanged in the index.
model::Access withSwappedXY(const model::Access& access);
// A shared array whose rows (the largest lane coefficient, a multiple of a wavefront's
// bytes) are padded by `elements` elements; nullopt when no coefficient looks like a row.
std::optional<model::Access> withPaddedSharedRow(const model::Access& access, const model::Arch& arch,
                                                 int64_t elements = 1);

// Lane k of the block (its linear thread id) on the k-th element of one contiguous run,
// the base kept: what "order the index so that lane k touches the k-th element" and
// "sort the indices" describe.
model::Access withContiguousLanes(const model::Access& access, const model::Dim3& block);

// Enumerated lanes with each thread that runs the access on the element of its linear id
// (the base kept, the threads that run it unchanged): "let consecutive threads access
// consecutive elements" for an index the lanes enumerate (`2 * s * tid` in a loop over s).
// nullopt for other patterns.
std::optional<model::Access> withContiguousThreads(const model::Access& access);

bool isIdeal(const model::GlobalFigures& f);

// The fix's access for Finding::fix when the model gives it fewer sectors (wavefronts) per
// request than `from`, the figures the finding reports; nullopt otherwise, like checkedFix
// (notes.h), which then offers no fix either.
std::optional<FixedAccess> fixIfBetter(const model::Access& fixed, const model::Dim3& block,
                                       const model::GlobalFigures& from, const model::Arch& arch, std::string change);
std::optional<FixedAccess> fixIfBetter(const model::Access& fixed, const model::Dim3& block,
                                       const model::SharedFigures& from, const model::Arch& arch, std::string change);

}  // namespace coalesce::report::detail
