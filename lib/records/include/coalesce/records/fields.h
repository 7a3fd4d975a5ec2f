// One description of every record's fields (records.h), in one fixed order, walked by each
// encoder that writes or reads them all: the worker's wire format
// (lib/analysis/src/worker_protocol.cpp), the public JSON report
// (lib/report/src/json_writer.cpp) and the verifier's reader of that report
// (lib/verify/src/predictions.cpp). The idea of cereal's serialize() or Boost.Describe,
// without either: describeFields(v, record) calls v.field(name, member, flags) once per
// field, and the visitor v decides what a field of each C++ type becomes. A new record field
// goes here once; the round trips (test/cli/worker_protocol_test.cpp,
// test/report/report_reader_test.cpp) then cover it.
//
// Names and order are the public report's (docs/json-schema.md), so its writer walks this
// list as it is; the worker's format reuses the names. Nested records are described the
// same way: through v.field (a nested object) or, for a location, inline in the parent
// (the report writes "file", "line", "column" at the record's level).
//
// Each description takes the record as R& with R either the record or const record, so
// writers (const) and readers (mutable) walk the same list. Header-only and free of LLVM:
// lib/verify uses it on machines without LLVM.
#pragma once

#include <concepts>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/model/access_model.h"
#include "coalesce/records/records.h"

namespace coalesce {

// How a field appears in the public JSON report; the worker's format ignores them.
enum FieldFlags : unsigned {
  kPlainField = 0,
  kEmptyIsNull = 1u << 0,     // an empty string is written as null (and null reads as empty)
  kInternalField = 1u << 1,   // not in the public report, only in the worker's records
  kNegativeIsNull = 1u << 2,  // a negative number (unknown) is written as null (and null reads as the default)
  // Added after result files were first written: a JSON record without it (a launcher result,
  // a staged sweep of an earlier tool) reads the default instead of failing
  // (lib/analysis/src/worker_protocol.cpp). Every field added from session 24 on has it.
  kMayBeAbsent = 1u << 3,
};

// R is T or const T.
template <class R, class T>
concept RecordOf = std::same_as<std::remove_const_t<R>, T>;

// toString's inverse for every enumeration the records hold, under one name so a generic
// reader can call parseName(text, std::type_identity<E>{}).
inline std::optional<model::Space> parseName(std::string_view s, std::type_identity<model::Space>) {
  return model::parseSpace(s);
}
inline std::optional<model::AccessKind> parseName(std::string_view s, std::type_identity<model::AccessKind>) {
  return model::parseKind(s);
}
inline std::optional<model::PatternKind> parseName(std::string_view s, std::type_identity<model::PatternKind>) {
  return model::parsePatternKind(s);
}
inline std::optional<BlockSource> parseName(std::string_view s, std::type_identity<BlockSource>) {
  return parseBlockSource(s);
}
inline std::optional<BranchKind> parseName(std::string_view s, std::type_identity<BranchKind>) {
  return parseBranchKind(s);
}
inline std::optional<BarrierSite::Reach> parseName(std::string_view s, std::type_identity<BarrierSite::Reach>) {
  return parseReach(s);
}
inline std::optional<Status> parseName(std::string_view s, std::type_identity<Status>) { return parseStatus(s); }

// ---- model types held by the records ------------------------------------------------------

template <class V, RecordOf<model::UniformOffset> R>
void describeFields(V& v, R& r) {
  v.field("constant", r.constant);
  v.field("unknown_alignment", r.unknownAlignment);
  v.field("block_cycle", r.blockCycle);
}

// The report's "lane_strides" object.
template <class V, RecordOf<model::AffineLanes> R>
void describeFields(V& v, R& r) {
  v.field("x", r.cx);
  v.field("y", r.cy);
  v.field("z", r.cz);
}

// The report writes "pattern" (the kind) and "lane_strides" (null unless affine or
// uniform) for it by hand; the rest only travels to the parent process.
template <class V, RecordOf<model::LanePattern> R>
void describeFields(V& v, R& r) {
  v.field("kind", r.kind);
  v.field("lane_strides", r.affine);
  v.field("offsets", r.threadOffsets);
  v.field("base", r.base);
}

template <class V, RecordOf<model::GlobalFigures> R>
void describeFields(V& v, R& r) {
  v.field("sectors_per_request", r.sectorsPerRequest);
  v.field("ideal_sectors", r.idealSectors);
  v.field("efficiency", r.efficiency);
  v.field("min_sectors", r.minSectors);
  v.field("max_sectors", r.maxSectors);
  v.field("broadcast", r.broadcast);
  v.field("requests", r.requests);
}

template <class V, RecordOf<model::SharedFigures> R>
void describeFields(V& v, R& r) {
  v.field("wavefronts", r.wavefronts);
  v.field("ideal_wavefronts", r.idealWavefronts);
  v.field("conflict_degree", r.conflictDegree);
  v.field("max_wavefronts", r.maxWavefronts);
  v.field("max_ways_in_phase", r.maxWaysInPhase);
  v.field("requests", r.requests);
}

template <class V, class R>
  requires std::same_as<std::remove_const_t<R>, model::AlignmentCases<model::GlobalFigures>> ||
           std::same_as<std::remove_const_t<R>, model::AlignmentCases<model::SharedFigures>>
void describeFields(V& v, R& r) {
  v.field("aligned", r.aligned);
  v.field("best", r.best);
  v.field("worst", r.worst);
  v.field("alignment_known", r.alignmentKnown);
}

// The report derives its figure keys from these (lib/report/src/json_writer.cpp).
template <class V, RecordOf<model::AccessFigures> R>
void describeFields(V& v, R& r) {
  v.field("global", r.global);
  v.field("shared", r.shared);
  v.field("sector_range", r.sectorRange);
  v.field("wavefront_range", r.wavefrontRange);
  v.field("active_lanes", r.activeLanesPerWarp);
}

// ---- records ------------------------------------------------------------------------------

// Inline in the record that holds it: the report has no "loc" object.
template <class V, RecordOf<SourceLocation> R>
void describeFields(V& v, R& r) {
  v.field("file", r.file);
  v.field("line", r.line);
  v.field("column", r.column);
}

template <class V, RecordOf<BlockShape> R>
void describeFields(V& v, R& r) {
  v.field("x", r.dim.x);
  v.field("y", r.dim.y);
  v.field("z", r.dim.z);
  v.field("source", r.source);
  v.field("detail", r.detail, kEmptyIsNull);
  v.field("shapes_tried", r.shapesTried);
  v.field("shape_invariant", r.shapeInvariant);
}

template <class V, RecordOf<AccessGroup> R>
void describeFields(V& v, R& r) {
  v.field("id", r.id);
  v.field("members", r.members);
  v.field("sectors_per_request", r.sectorsPerRequest);
  v.field("ideal_sectors", r.idealSectors);
  v.field("efficiency", r.efficiency);
  v.field("member_sectors", r.memberSectors);
  v.field("sector_runs", r.sectorRuns);
  v.field("gather", r.gather);
  v.field("sectors_at_least", r.sectorsAtLeast);
}

// Fix-it records (docs/fixes.md): the worker's format carries them; the public report does
// not (AccessSite::padding and PointerParam::restrictEdit are internal fields).
template <class V, RecordOf<TextEdit> R>
void describeFields(V& v, R& r) {
  v.field("file", r.file);
  v.field("offset", r.offset);
  v.field("length", r.length);
  v.field("replacement", r.replacement);
}

template <class V, RecordOf<ArrayPadding> R>
void describeFields(V& v, R& r) {
  v.field("array", r.array);
  v.field("declared", r.declared);
  v.field("padded", r.padded);
  v.field("last_dimension", r.lastDimension);
  v.field("element_bytes", r.elementBytes);
  v.field("edit", r.edit);
  v.field("blocked", r.blocked);
}

template <class V, RecordOf<BlockReuse> R>
void describeFields(V& v, R& r) {
  v.field("known", r.known);
  v.field("requested_bytes", r.requestedBytes);
  v.field("distinct_bytes", r.distinctBytes);
  v.field("warp_sectors", r.warpSectors);
  v.field("block_sectors", r.blockSectors);
}

template <class V, RecordOf<IterationReuse> R>
void describeFields(V& v, R& r) {
  v.field("sectors_per_request", r.sectorsPerRequest);
  v.field("lines_per_request", r.linesPerRequest);
  v.field("bytes_read_share", r.bytesReadShare);
}

template <class V, RecordOf<KernelOccupancy> R>
void describeFields(V& v, R& r) {
  v.field("threads_per_block", r.threadsPerBlock);
  v.field("static_shared_bytes", r.staticSharedBytes);
  v.field("dynamic_shared_bytes", r.dynamicSharedBytes, kNegativeIsNull);
  v.field("registers_per_thread", r.registersPerThread, kNegativeIsNull);
  v.field("launch_bounds_min_blocks", r.launchBoundsMinBlocks, kNegativeIsNull);
  v.field("blocks_limit_warps", r.blocksLimitWarps);
  v.field("blocks_limit_blocks", r.blocksLimitBlocks);
  v.field("blocks_limit_shared_memory", r.blocksLimitSharedMemory);
  v.field("blocks_limit_registers", r.blocksLimitRegisters, kNegativeIsNull);
  v.field("active_blocks", r.activeBlocks);
  v.field("active_warps", r.activeWarps);
  v.field("occupancy", r.occupancy);
  v.field("limited_by", r.limitedBy, kEmptyIsNull);
  v.field("notes", r.notes);
}

template <class V, RecordOf<AccessSite> R>
void describeFields(V& v, R& r) {
  v.field("id", r.id);
  describeFields(v, r.loc);
  v.field("kernel", r.kernel);
  v.field("function", r.function);
  v.field("expression", r.expression);
  v.field("space", r.access.space);
  v.field("kind", r.access.kind);
  v.field("bytes", r.access.bytesPerLane);
  v.field("same_word_serialised", r.access.sameWordSerialised, kInternalField);  // what_if, HTML: lib/model
  v.field("object_bytes", r.access.objectBytes, kInternalField);  // the data-dependent range's cap: lib/model
  v.field("most_sectors", r.access.mostSectors, kInternalField | kMayBeAbsent);  // the same, from lanes sharing loads
  v.field("element_type", r.elementType, kEmptyIsNull);
  v.field("pattern", r.access.pattern);
  v.field("figures", r.figures);
  v.field("block", r.block);
  v.field("assumptions", r.assumptions);
  v.field("executed", r.executed);
  v.field("not_executed", r.notExecuted, kEmptyIsNull);
  v.field("group", r.group);
  v.field("requests_per_launch", r.launchRequests);
  v.field("requests_basis", r.requestsBasis, kEmptyIsNull);
  v.field("requests_shown", r.requestsShown);
  v.field("grid_assumed", r.gridAssumed, kInternalField);  // the program share's basis: lib/report/src/cost.cpp
  v.field("line_text", r.lineText, kInternalField);
  v.field("indirect_row_gather", r.indirectRowGather, kInternalField);
  v.field("data_guards", r.dataGuards, kInternalField);
  v.field("guessed_scalars", r.guessedScalars, kInternalField);
  v.field("impossible_scalars", r.impossibleScalars, kInternalField);
  v.field("impossible_because", r.impossibleBecause, kInternalField);
  v.field("record", r.record, kInternalField);
  v.field("field", r.field, kInternalField);
  v.field("loops", r.loops, kInternalField);
  v.field("padding", r.padding, kInternalField);
  v.field("block_reuse", r.blockReuse, kInternalField);
  v.field("iteration_reuse", r.iterationReuse, kInternalField);
}

template <class V, RecordOf<LaneSplit> R>
void describeFields(V& v, R& r) {
  v.field("warp", r.warp);
  v.field("block_x", r.blockX);
  v.field("block_y", r.blockY);
  v.field("block_z", r.blockZ);
  v.field("iteration", r.iteration);
  v.field("values", r.values);
  v.field("lanes", r.lanes);
  v.field("block_values", r.blockValues);
  v.field("by_warp", r.byWarp);
}

template <class V, RecordOf<BranchSite> R>
void describeFields(V& v, R& r) {
  v.field("id", r.id);
  describeFields(v, r.loc);
  v.field("kernel", r.kernel);
  v.field("function", r.function);
  v.field("kind", r.kind);
  v.field("condition", r.condition);
  v.field("evaluated", r.evaluated);
  v.field("thread_dependent", r.threadDependent);
  v.field("warp_requests", r.warpRequests);
  v.field("divergent_requests", r.divergentRequests);
  v.field("only_partial_warps", r.onlyPartialWarps);
  v.field("block", r.block);
  v.field("assumptions", r.assumptions);
  v.field("line_text", r.lineText, kInternalField);
  v.field("loops", r.loops, kInternalField);
  v.field("modulus_loops", r.modulusLoops, kInternalField);
  v.field("split", r.split, kInternalField);
  v.field("remapped_divergent_requests", r.remappedDivergentRequests, kInternalField);
}

template <class V, RecordOf<BarrierSite> R>
void describeFields(V& v, R& r) {
  v.field("id", r.id);
  describeFields(v, r.loc);
  v.field("kernel", r.kernel);
  v.field("function", r.function);
  v.field("call", r.call);
  v.field("reach", r.reach);
  v.field("condition", r.condition, kEmptyIsNull);
  v.field("block", r.block);
  v.field("assumptions", r.assumptions);
  v.field("line_text", r.lineText, kInternalField);
  v.field("loops", r.loops, kInternalField);
  v.field("reach_by_warp", r.reachByWarp, kInternalField);
  v.field("reach_iteration", r.reachIteration, kInternalField);
  v.field("skippers_exit", r.skippersExit, kMayBeAbsent);
}

template <class V, RecordOf<PointerParam> R>
void describeFields(V& v, R& r) {
  v.field("kernel", r.kernel);
  describeFields(v, r.loc);
  v.field("name", r.name);
  v.field("restrict", r.isRestrict);
  v.field("read", r.read);
  v.field("written", r.written);
  v.field("restrict_edit", r.restrictEdit, kInternalField);
}

template <class V, RecordOf<ChoiceArm> R>
void describeFields(V& v, R& r) {
  v.field("arm", r.arm);
  v.field("call", r.call);
  v.field("kernels", r.kernels);
}

template <class V, RecordOf<RunTimeChoice> R>
void describeFields(V& v, R& r) {
  v.field("selector", r.selector);
  v.field("where", r.where);
  v.field("arms", r.arms);
  v.field("arm", r.arm);
  v.field("others", r.others);
  v.field("evidence", r.evidence);
}

// The report gives a kernel's file and line, not its column.
template <class V, RecordOf<KernelRecord> R>
void describeFields(V& v, R& r) {
  v.field("name", r.name);
  v.field("file", r.loc.file);
  v.field("line", r.loc.line);
  v.field("column", r.loc.column, kInternalField);
  v.field("status", r.status);
  v.field("reason", r.reason, kEmptyIsNull);
  v.field("accesses", r.accesses);
  v.field("block", r.block);
  v.field("occupancy", r.occupancy);
  v.field("launches_per_run", r.launchesPerRun);
  v.field("launches_basis", r.launchesBasis, kEmptyIsNull);
  v.field("launches_shown", r.launchesShown);
  v.field("launched_from_main", r.launchedFromMain, kInternalField);
  v.field("unit", r.unit, kInternalField);
  v.field("repeated_work", r.repeatedWork, kInternalField);  // read by lib/report/src/setup_level.cpp
  v.field("repeated_work_runs", r.repeatedWorkRuns, kInternalField);
  v.field("choice", r.choice, kInternalField);  // read by lib/report/src/alternative_level.cpp
  v.field("arithmetic_cycles_per_warp", r.arithmeticCyclesPerWarp);
  v.field("warps_per_launch", r.warpsPerLaunch);
  v.field("arithmetic_basis", r.arithmeticBasis, kEmptyIsNull);
  v.field("template_instantiations", r.templateInstantiations, kMayBeAbsent);
  v.field("instantiations_left_out", r.instantiationsLeftOut, kInternalField | kMayBeAbsent);  // summary.cpp
}

template <class V, RecordOf<FileRecord> R>
void describeFields(V& v, R& r) {
  v.field("path", r.path);
  v.field("status", r.status);
  v.field("error", r.error, kEmptyIsNull);
  v.field("host_errors", r.hostErrors);
  v.field("diagnostics", r.diagnostics);
}

template <class V, RecordOf<AnalysisResult> R>
void describeFields(V& v, R& r) {
  v.field("files", r.files);
  v.field("kernels", r.kernels);
  v.field("accesses", r.accesses);
  v.field("branches", r.branches);
  v.field("barriers", r.barriers);
  v.field("pointer_params", r.pointerParams);
}

// ---- helpers for visitors ------------------------------------------------------------------

template <class T>
inline constexpr bool kIsOptional = false;
template <class T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

template <class T>
inline constexpr bool kIsVector = false;
template <class T, class A>
inline constexpr bool kIsVector<std::vector<T, A>> = true;

template <class T>
inline constexpr bool kIsPair = false;
template <class A, class B>
inline constexpr bool kIsPair<std::pair<A, B>> = true;

}  // namespace coalesce
