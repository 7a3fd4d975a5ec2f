// The records' enumerations (coalesce/records/records.h): every parseX is the exact inverse
// of its toString, since the worker's wire format (lib/analysis/src/worker_protocol.cpp) and
// the JSON report's reader (lib/verify/src/predictions.cpp) read the names back; and the
// report's branch kinds keep their published names (docs/json-schema.md).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "coalesce/records/fields.h"
#include "coalesce/records/records.h"
#include "enum_names.h"

using namespace coalesce;

namespace {

// Every parse of the records' enumerations, under the one name generic readers call.
template <class E>
std::vector<std::string> problemsOf(E last) {
  return test::parseInverseProblems(last, [](const std::string& s) { return parseName(s, std::type_identity<E>{}); });
}

// Counts the fields a description lists, by flag.
struct FieldCounter {
  int all = 0, internal = 0;
  template <class T>
  void field(std::string_view, T&, unsigned flags = kPlainField) {
    ++all;
    if (flags & kInternalField) ++internal;
  }
};

}  // namespace

TEST_CASE("records: every enumeration's parse inverts its toString") {
  // The model's enumerations are checked with the model (test/model/enum_names_test.cpp).
  CHECK(problemsOf(BlockSource::Assumed).empty());
  CHECK(problemsOf(BranchKind::Conditional).empty());
  CHECK(problemsOf(BarrierSite::Reach::Unknown).empty());
  CHECK(problemsOf(Status::Failed).empty());
}

TEST_CASE("records: branch kinds keep the JSON report's names") {
  CHECK(toString(BranchKind::If) == "if");
  CHECK(toString(BranchKind::Loop) == "loop");
  CHECK(toString(BranchKind::Switch) == "switch");
  CHECK(toString(BranchKind::Conditional) == "?:");
}

TEST_CASE("records: the field list covers the records' members") {
  // One field per member (a location's three inline), counted by hand from records.h: a
  // line dropped from fields.h shows here; a new member needs its line there and a count here.
  FieldCounter access, branch, barrier, param, kernel, file;
  AccessSite a;
  describeFields(access, a);
  CHECK(access.all == 37);  // id, file, line, column, kernel, function, expression, space, kind,
                            // bytes, same_word_serialised, object_bytes, most_sectors, element_type, pattern, figures, block, assumptions,
                            // executed, not_executed, group, requests_per_launch,
                            // requests_basis, requests_shown, grid_assumed, line_text, indirect_row_gather, data_guards,
                            // guessed_scalars, impossible_scalars, impossible_because, record, field, loops,
                            // padding (the fix-it's edit, docs/fixes.md), block_reuse,
                            // iteration_reuse
  CHECK(access.internal == 16);
  FieldCounter reuse;
  BlockReuse br;
  describeFields(reuse, br);
  CHECK(reuse.all == 5);  // known, requested_bytes, distinct_bytes, warp_sectors, block_sectors
  FieldCounter window;
  IterationReuse ir;
  describeFields(window, ir);
  CHECK(window.all == 3);  // sectors_per_request, lines_per_request, bytes_read_share
  BranchSite b;
  describeFields(branch, b);
  CHECK(branch.all == 20);  // ... line_text, loops, modulus_loops, split, remapped_divergent_requests
  CHECK(branch.internal == 5);
  FieldCounter split;
  LaneSplit l;
  describeFields(split, l);
  CHECK(split.all == 9);  // warp, block_x, block_y, block_z, iteration, values, lanes, block_values, by_warp
  BarrierSite s;
  describeFields(barrier, s);
  CHECK(barrier.all == 16);  // ... line_text, loops, reach_by_warp, reach_iteration, skippers_exit
  CHECK(barrier.internal == 4);
  PointerParam p;
  describeFields(param, p);
  CHECK(param.all == 9);  // kernel, file, line, column, name, restrict, read, written, restrict_edit
  CHECK(param.internal == 1);
  FieldCounter edit, padding;
  TextEdit e;
  describeFields(edit, e);
  CHECK(edit.all == 4);  // file, offset, length, replacement
  ArrayPadding pad;
  describeFields(padding, pad);
  CHECK(padding.all == 7);  // array, declared, padded, last_dimension, element_bytes, edit, blocked
  KernelRecord k;
  describeFields(kernel, k);
  CHECK(kernel.all == 22);  // name, file, line, column, status, reason, accesses, block, occupancy,
                            // launches_per_run, launches_basis, launches_shown, launched_from_main, unit,
                            // repeated_work, repeated_work_runs, choice, arithmetic_cycles_per_warp,
                            // warps_per_launch, arithmetic_basis, template_instantiations,
                            // instantiations_left_out
  CHECK(kernel.internal == 7);  // column, launched_from_main, unit, repeated_work, repeated_work_runs, choice,
                                // instantiations_left_out
  FieldCounter choice, arm;
  RunTimeChoice c;
  describeFields(choice, c);
  CHECK(choice.all == 6);  // selector, where, arms, arm, others, evidence
  ChoiceArm ca;
  describeFields(arm, ca);
  CHECK(arm.all == 3);  // arm, call, kernels
  FieldCounter occupancy;
  KernelOccupancy o;
  describeFields(occupancy, o);
  CHECK(occupancy.all == 14);  // threads_per_block ... limited_by, notes
  FileRecord f;
  describeFields(file, f);
  CHECK(file.all == 5);
}
