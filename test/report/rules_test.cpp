// Each rule fires on its bad access with the numbers and cause in the message, stays
// quiet on the good variant, and no access is claimed by two rules.
#include <algorithm>

#include <catch2/catch.hpp>
#include <cmath>

#include "report_test_util.h"

using namespace coalesce;
using namespace coalesce::test;
using report::Finding;

namespace {
Finding only(const AccessSite& s) {
  auto f = findingsFor(s);
  REQUIRE(f.size() == 1);
  return f.front();
}
}  // namespace

TEST_CASE("uncoalesced-global-access: a[2 * i] reads 8 sectors where 4 would do") {
  const Finding f = only(makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "a[2 * i]"));
  CHECK(f.rule == "uncoalesced-global-access");
  CHECK(contains(f.message, "load of 'a[2 * i]' uses 8 sectors per request (ideal 4): eta = 50%"));
  CHECK(contains(f.message, "consecutive threads are 8 bytes apart"));
  REQUIRE(f.efficiency);
  CHECK(*f.efficiency == Approx(0.5));
  CHECK(f.notes.front() == "figures assume block 256x1x1 (launch: launch at main.cu:40)");
  CHECK(anyNoteContains(f, "Q_real = Q_useful / eta = 128 B / 50% = 256 B per warp request, 2x"));
  CHECK(anyNoteContains(f, "8 -> 4 sectors per request (2x less traffic)"));
  CHECK(f.access == 0);
  CHECK(f.loc.line == 10);
}

TEST_CASE("uncoalesced-global-access: a stride of gigabytes is written in units, and why its value does not matter") {
  // cufinufft's bin_size[binsperobin * i + b], binsperobin a product of three runtime values
  // taken as 4096 (blind panel 29 read the 274877906944 bytes as a figure to check).
  const int64_t stride = int64_t{4096} * 4096 * 4096 * 4;
  const Finding f = only(makeSite(affine(Space::Global, 4, stride), {256, 1, 1}, "bin_size[binsperobin * i + b]"));
  CHECK(contains(f.message, "uses 32 sectors per request (ideal 4)"));
  CHECK(contains(f.message, "consecutive threads are 275 GB apart for 4-byte accesses (stride 68719476736 elements; "
                            "any stride from 32 bytes on gives every lane sectors of its own)"));
  // Below a megabyte the bytes are written out, as before.
  const Finding g = only(makeSite(affine(Space::Global, 4, 16384), {256, 1, 1}, "a[4096 * i]"));
  CHECK(contains(g.message, "consecutive threads are 16384 bytes apart for 4-byte accesses (stride 4096 elements)"));
}

TEST_CASE("uncoalesced-global-access: blocks narrower than a warp over rows") {
  // blockDim.x = 4 over a 4096-float row: 8 rows of 16 bytes, one sector each.
  const Finding f = only(makeSite(affine(Space::Global, 4, 4, 4096 * 4), {4, 64, 1}, "a[y * 4096 + x]"));
  CHECK(f.rule == "uncoalesced-global-access");
  CHECK(contains(f.message, "8 sectors per request (ideal 4)"));
  CHECK(contains(f.message, "blockDim.x = 4"));
  CHECK(anyNoteContains(f, "multiple of 32"));
}

TEST_CASE("enumerated lanes: wasted sectors are uncoalesced, a shifted run is misaligned, a permutation is fine") {
  auto enumerated = [](auto offsetOfLane) {
    std::vector<std::optional<int64_t>> offsets;
    for (int64_t t = 0; t < 256; ++t) offsets.push_back(offsetOfLane(t));
    Access a;
    a.bytesPerLane = 4;
    a.pattern = LanePattern::makeEnumerated(offsets, {});
    return makeSite(a, {256, 1, 1}, "a[f(i)]");
  };
  const Finding spread = only(enumerated([](int64_t t) { return (t % 32) * 8 + t / 32 * 256; }));
  CHECK(spread.rule == "uncoalesced-global-access");
  CHECK(contains(spread.message, "the lanes' addresses spread over 8 sectors where 4 would carry their bytes"));
  const Finding shifted = only(enumerated([](int64_t t) { return t * 4 + 4; }));
  CHECK(shifted.rule == "misaligned-global-access");
  CHECK(contains(shifted.message, "each warp's lanes form a contiguous run that starts off a sector boundary"));
  CHECK(anyNoteContains(shifted, "5 -> 4 sectors per request"));
  // Lanes permuted inside one 128-byte run: still 4 sectors.
  CHECK(findingsFor(enumerated([](int64_t t) { return (t / 32) * 128 + ((t * 7) % 32) * 4; })).empty());
}

TEST_CASE("good global accesses are not reported") {
  CHECK(findingsFor(makeSite(affine(Space::Global, 4, 4))).empty());                   // float a[i]
  CHECK(findingsFor(makeSite(affine(Space::Global, 8, 8), {256, 1, 1}, "d[i]", "double")).empty());
  CHECK(findingsFor(makeSite(affine(Space::Global, 16, 16), {256, 1, 1}, "v[i]", "float4")).empty());
  CHECK(findingsFor(makeSite(affine(Space::Global, 4, 0))).empty());                   // a[0]: broadcast
  CHECK(findingsFor(makeSite(affine(Space::Global, 4, 4, 8192), {32, 8, 1})).empty());  // row-major, x inner
  CHECK(findingsFor(makeSite(affine(Space::Constant, 4, 128))).empty());               // not global/shared
  CHECK(findingsFor(makeSite(affine(Space::Local, 4, 128))).empty());
}

TEST_CASE("misaligned-global-access: a[i + 1] reads 5 sectors instead of 4, and only that rule fires") {
  const Finding f = only(makeSite(affine(Space::Global, 4, 4, 0, 4), {256, 1, 1}, "a[i + 1]"));
  CHECK(f.rule == "misaligned-global-access");
  CHECK(contains(f.message, "5 sectors per request (ideal 4): eta = 80%"));
  CHECK(contains(f.message, "starts 4 bytes past a 32-byte sector boundary"));
  CHECK(anyNoteContains(f, "5 -> 4 sectors per request"));
}

TEST_CASE("misaligned-global-access: a row pitch that is not a multiple of a sector") {
  // 16x16 block over rows of 1001 floats: half-warps start at unaligned rows.
  const Finding f = only(makeSite(affine(Space::Global, 4, 4, 1001 * 4), {16, 16, 1}, "a[y * 1001 + x]"));
  CHECK(f.rule == "misaligned-global-access");
  CHECK(contains(f.message, "row pitch 4004 bytes"));
  CHECK(anyNoteContains(f, "pad the row pitch"));
}

TEST_CASE("misaligned-global-access: an unknown base alignment is stated with its range") {
  const Finding f = only(makeSite(affine(Space::Global, 4, 4, 0, 4, 4), {256, 1, 1}, "p[i]"));
  CHECK(f.rule == "misaligned-global-access");
  CHECK(anyNoteContains(f, "the base alignment is not known"));
  CHECK(anyNoteContains(f, "4 to 5 sectors per request"));
}

TEST_CASE("aos-field-access: one float of a 24-byte record is aos, not also uncoalesced") {
  AccessSite site = makeSite(affine(Space::Global, 4, 24), {256, 1, 1}, "p[i].x", "struct Particle::x");
  site.record = "Particle";
  site.field = "x";
  const Finding f = only(site);
  CHECK(f.rule == "aos-field-access");
  CHECK(contains(f.message, "24 sectors per request (ideal 4)"));
  CHECK(contains(f.message, "4 bytes of a 24-byte record"));
  CHECK(anyNoteContains(f, "use SoA (this field in its own array): 24 -> 4 sectors per request (6x less traffic)"));
}

TEST_CASE("a stride that is a whole number of elements of a plain array is uncoalesced, not aos") {
  CHECK(only(makeSite(affine(Space::Global, 4, 24), {256, 1, 1}, "a[6 * i]", "float")).rule ==
        "uncoalesced-global-access");
  // A stride that is not a multiple of the element can only be a record.
  CHECK(only(makeSite(affine(Space::Global, 8, 12), {256, 1, 1}, "q[i].d", "double")).rule == "aos-field-access");
}

TEST_CASE("inverted-thread-axes: threadIdx.x walks rows of a 2048-wide matrix in a 32x8 block") {
  const Finding f = only(makeSite(affine(Space::Global, 4, 2048 * 4, 4), {32, 8, 1}, "m[x * 2048 + y]"));
  CHECK(f.rule == "inverted-thread-axes");
  CHECK(contains(f.message, "32 sectors per request (ideal 4): eta = 12.5%"));
  CHECK(contains(f.message, "threadIdx.x steps 8192 bytes and threadIdx.y steps 4"));
  CHECK(anyNoteContains(f, "swap the thread axes"));
  CHECK(anyNoteContains(f, "32 -> 4 sectors per request (8x less traffic)"));
  CHECK(anyNoteContains(f, "padded to 33 columns"));
}

TEST_CASE("scattered-indirect-access: a[idx[i]] may touch one sector per lane") {
  const Finding f = only(makeSite(indirect(Space::Global, 4), {256, 1, 1}, "a[idx[i]]"));
  CHECK(f.rule == "scattered-indirect-access");
  CHECK(contains(f.message, "1 to 32 sectors per request depending on their values (ideal 4)"));
  CHECK(contains(f.message, "eta between 12.5% and 100%"));
  REQUIRE(f.efficiency);
  CHECK(*f.efficiency == Approx(0.125));
  CHECK(anyNoteContains(f, "sort or bucket the indices"));
}

TEST_CASE("an indirect row gather with contiguous lanes is not reported") {
  AccessSite s = makeSite(indirect(Space::Global, 4), {256, 1, 1}, "table[idx[row] * dim + lane]");
  s.indirectRowGather = true;
  CHECK(findingsFor(s).empty());
}

TEST_CASE("shared-bank-conflict: s[32 * t] is a 32-way conflict that padding to 33 removes") {
  const Finding f = only(makeSite(affine(Space::Shared, 4, 128), {256, 1, 1}, "s[t][0]"));
  CHECK(f.rule == "shared-bank-conflict");
  CHECK(contains(f.message, "needs 32 wavefronts per request (ideal 1): 32-way bank conflict"));
  CHECK(contains(f.message, "128 bytes (32 banks) apart"));
  REQUIRE(f.conflictDegree);
  CHECK(*f.conflictDegree == Approx(32));
  CHECK(anyNoteContains(f, "pad each row of the shared array from 32 to 33 elements"));
  CHECK(anyNoteContains(f, "32 -> 1 wavefront per request (32x faster)"));
}

TEST_CASE("shared-bank-conflict: s[2 * t] is 2-way, the fix reindexes instead of padding") {
  const Finding f = only(makeSite(affine(Space::Shared, 4, 8), {256, 1, 1}, "s[2 * t]"));
  CHECK(contains(f.message, "2 wavefronts per request (ideal 1): 2-way"));
  CHECK(anyNoteContains(f, "consecutive threads access consecutive elements"));
  CHECK(anyNoteContains(f, "2 -> 1 wavefront per request"));
}

TEST_CASE("conflict-free shared accesses are not reported") {
  CHECK(findingsFor(makeSite(affine(Space::Shared, 4, 4))).empty());    // s[t]
  CHECK(findingsFor(makeSite(affine(Space::Shared, 4, 132))).empty());  // s[33 t]
  CHECK(findingsFor(makeSite(affine(Space::Shared, 4, 0))).empty());    // broadcast
  CHECK(findingsFor(makeSite(affine(Space::Shared, 8, 8), {256, 1, 1}, "d[t]", "double")).empty());
  CHECK(findingsFor(makeSite(affine(Space::Shared, 16, 0), {256, 1, 1}, "q[0]", "float4")).empty());
}

TEST_CASE("wide-shared-access-conflict: double d[2 * t] conflicts inside its half-warp phases") {
  const Finding f = only(makeSite(affine(Space::Shared, 8, 16), {256, 1, 1}, "d[2 * t]", "double"));
  CHECK(f.rule == "wide-shared-access-conflict");
  CHECK(contains(f.message, "4 wavefronts per request (ideal 2): 2-way bank conflict"));
  CHECK(contains(f.message, "served 16 lanes per phase"));
  CHECK(anyNoteContains(f, "4 -> 2 wavefronts"));
}

TEST_CASE("the rule's own assumptions and the block source come first in the notes") {
  AccessSite s = makeSite(affine(Space::Global, 4, 8), {256, 1, 1}, "a[2 * i]");
  s.block.source = BlockSource::Assumed;
  s.block.detail = "1D, blockDim.x a multiple of 32";
  s.assumptions = {"assumes n is large (a runtime value)"};
  const Finding f = only(s);
  REQUIRE(f.notes.size() >= 3);
  CHECK(f.notes[0] == "figures assume block 256x1x1 (assumed: 1D, blockDim.x a multiple of 32)");
  CHECK(f.notes[1] == "assumes n is large (a runtime value)");
  CHECK(contains(f.notes.back(), "fix:"));
}

TEST_CASE("exactly one rule fires for every wasteful access, none for every ideal one") {
  // A sweep over strides, element sizes, base offsets and block shapes in both spaces.
  const std::vector<Dim3> blocks{{256, 1, 1}, {32, 8, 1}, {16, 16, 1}, {8, 32, 1}, {64, 4, 1}};
  size_t reported = 0, checked = 0;
  for (Space space : {Space::Global, Space::Shared})
    for (int bytes : {1, 2, 4, 8, 16})
      for (int64_t sx : {0, 1, 2, 3, 4, 6, 8, 16, 32, 33})
        for (int64_t sy : {0, 1, 32, 1001})
          for (int64_t base : {0, 4, 12})
            for (const Dim3& block : blocks) {
              const AccessSite s = makeSite(affine(space, bytes, sx * bytes, sy * bytes, base * bytes), block);
              const auto findings = findingsFor(s);
              // Global waste a layout could save: below ideal, and more sectors than the warp's
              // active lanes would touch on consecutive elements (a row broadcast is not).
              const double coalesced =
                  std::ceil(static_cast<double>(s.figures.activeLanesPerWarp * bytes) / 32.0);
              const bool wasteful = space == Space::Global
                                        ? s.figures.global->aligned.efficiency < 1 - 1e-9 &&
                                              s.figures.global->aligned.sectorsPerRequest > coalesced + 1e-9
                                        : s.figures.shared->aligned.conflictDegree > 1 + 1e-9;
              INFO("space " << int(space) << " bytes " << bytes << " sx " << sx << " sy " << sy << " base " << base
                            << " block " << block.x << "x" << block.y);
              CHECK(findings.size() == (wasteful ? 1u : 0u));
              reported += findings.size();
              ++checked;
            }
  CHECK(checked == 2 * 5 * 10 * 4 * 3 * 5);
  CHECK(reported > checked / 4);  // the sweep really exercises the rules
}

TEST_CASE("the table: unique kebab-case ids, each documented with a bad and a good example") {
  const auto ids = report::ruleIds();
  CHECK(ids.size() == 12);
  for (const std::string& id : ids) {
    INFO(id);
    CHECK(std::count(ids.begin(), ids.end(), id) == 1);
    CHECK(std::all_of(id.begin(), id.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; }));
    CHECK(report::findRule(id)->id() == id);
    CHECK(!report::describeRule(id).help.empty());
    const auto text = report::diskSourceReader()(std::string(COALESCE_DOCS_DIR).append("/rules/").append(id).append(".md"));
    REQUIRE(text);
    CHECK(contains(*text, std::string("# ").append(id)));
    CHECK(contains(*text, "## Bad"));
    CHECK(contains(*text, "## Good"));
  }
  CHECK(report::findRule("no-such-rule") == nullptr);
}
