#include <catch2/catch.hpp>

#include "coalesce/verify/compare.h"

using namespace coalesce;
using namespace coalesce::verify;
using model::AccessKind;
using model::Space;

namespace {

MeasuredInstruction ins(const std::string& function, const std::string& file, unsigned line, Space space,
                        AccessKind kind, uint64_t requests, uint64_t units, uint64_t ideal, uint64_t pc = 0,
                        uint64_t executions = 0) {
  MeasuredInstruction in;
  in.function = function;
  in.file = file;
  in.line = line;
  in.pc = pc;
  const bool shared = space == Space::Shared;
  const char* op = shared ? (kind == AccessKind::Load ? metric::kSharedLd
                             : kind == AccessKind::Store ? metric::kSharedSt
                                                         : metric::kSharedAtom)
                          : (kind == AccessKind::Load ? metric::kGlobalLd
                             : kind == AccessKind::Store ? metric::kGlobalSt
                                                         : metric::kGlobalRed);
  in.metrics[metric::kInstExecuted] = executions ? executions : requests;
  in.metrics[op] = requests;
  in.metrics[shared ? metric::kWavefronts : metric::kSectors] = units;
  in.metrics[shared ? metric::kWavefrontsIdeal : metric::kSectorsIdeal] = ideal;
  return in;
}

PredictedAccess pred(const std::string& file, unsigned line, Space space, AccessKind kind, std::optional<double> per,
                     std::optional<double> ideal, const std::string& kernel = "k", int bytes = 4) {
  PredictedAccess a;
  a.file = file;
  a.line = line;
  a.space = space;
  a.kind = kind;
  a.kernel = kernel;
  a.bytes = bytes;
  if (space == Space::Shared) {
    a.wavefronts = per;
    a.idealWavefronts = ideal;
  } else {
    a.sectorsPerRequest = per;
    a.idealSectors = ideal;
  }
  return a;
}

LineComparison only(const VerifyReport& r) {
  REQUIRE(r.lines.size() == 1);
  return r.lines.front();
}

}  // namespace

TEST_CASE("compare: paths and kernel names") {
  CHECK(sameSourceFile("kernels/examples/a.cu", "/home/u/repo/kernels/examples/a.cu"));
  CHECK(sameSourceFile("/home/u/repo/kernels/examples/a.cu", "kernels/examples/a.cu"));
  CHECK(sameSourceFile("./a.cu", "a.cu"));
  CHECK(sameSourceFile("src/a.cu", "/other/place/a.cu"));  // basename fallback
  CHECK_FALSE(sameSourceFile("a.cu", "/x/ba.cu"));
  CHECK_FALSE(sameSourceFile("a.cu", ""));
  MeasuredInstruction in;
  in.function = "_Z6gatherPKfPKiPf";
  in.demangled = "gather(float const*, int const*, float*)";
  CHECK(sameKernel("gather", in));
  CHECK_FALSE(sameKernel("gath", in));
  CHECK(sameKernel("", in));
  in.function = "_ZN2ns4scanILi256EEEvPf";
  in.demangled = "void ns::scan<256>(float*)";
  CHECK(sameKernel("scan", in));
  CHECK(sameKernel("ns::scan", in));
  // Clang names the instantiation with the literal's suffix, the demangler in lower case.
  in.function = "_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j";
  in.demangled = "void mergeSortSharedKernel<1u>(unsigned int*, unsigned int*, unsigned int*, unsigned int*, unsigned int)";
  CHECK(sameKernel("mergeSortSharedKernel<1U>", in));
  CHECK_FALSE(sameKernel("mergeSortSharedKernel<0U>", in));
  CHECK_FALSE(sameKernel("mergeSortSharedKernel<11U>", in));
  in.demangled = "void k<16ul, float4u>(float*)";
  CHECK(sameKernel("k<16UL, float4u>", in));
  in.function = "gld_f32_s1_o0";  // extern "C"
  in.demangled.clear();
  CHECK(sameKernel("gld_f32_s1_o0", in));
  CHECK_FALSE(sameKernel("gld_f32_s1", in));
}

TEST_CASE("compare: classes come from the op counters, requests exclude fully predicated-off warps") {
  // The H200's gld_f32_pred_t_lt_16: 512 executions, 64 with an active lane.
  const auto in = ins("k", "a.cu", 3, Space::Global, AccessKind::Load, 64, 128, 128, 0, 512);
  REQUIRE(classify(in));
  CHECK(*classify(in) == AccessClass{Space::Global, AccessKind::Load});
  CHECK(requestsOf(in, {Space::Global, AccessKind::Load}) == 64);
  const MeasuredFigures f = aggregate({&in}, {Space::Global, AccessKind::Load});
  CHECK(f.perRequest() == 2);
  CHECK(f.executions == 512);
  MeasuredInstruction alu;
  alu.metrics[metric::kInstExecuted] = 512;
  CHECK_FALSE(classify(alu));
  alu.opcode = "LDS.64";  // no op counter, but the opcode says what it is
  CHECK(*classify(alu) == AccessClass{Space::Shared, AccessKind::Load});
}

TEST_CASE("compare: equal figures match, different ones do not") {
  Predictions p;
  p.accesses = {pred("a.cu", 10, Space::Global, AccessKind::Load, 8, 4)};
  Measurements m;
  m.instructions = {ins("k", "/src/a.cu", 10, Space::Global, AccessKind::Load, 512, 4096, 2048)};
  auto r = compare(p, m);
  CHECK(only(r).verdict == Verdict::Match);
  CHECK(only(r).basis == Basis::PerRequest);
  CHECK(only(r).measured.perRequest() == 8);
  CHECK(exitCodeFor(r, false) == kExitOk);
  p.accesses[0].sectorsPerRequest = 4;
  p.accesses[0].idealSectors = 4;
  r = compare(p, m);
  CHECK(only(r).verdict == Verdict::Mismatch);
  CHECK(exitCodeFor(r, true) == kExitMismatch);
}

TEST_CASE("compare: shared accesses compare wavefronts per request") {
  Predictions p;
  p.accesses = {pred("t.cu", 5, Space::Shared, AccessKind::Load, 32, 1)};
  Measurements m;
  m.instructions = {ins("k", "t.cu", 5, Space::Shared, AccessKind::Load, 128, 4096, 128)};
  CHECK(only(compare(p, m)).verdict == Verdict::Match);
  m.instructions[0].metrics[metric::kWavefronts] = 128;  // padded: conflict-free
  CHECK(only(compare(p, m)).verdict == Verdict::Mismatch);
}

TEST_CASE("compare: an unrolled loop's instructions add up to the line's figure") {
  Predictions p;
  p.accesses = {pred("a.cu", 7, Space::Global, AccessKind::Load, 16, 4)};
  Measurements m;
  for (uint64_t k = 0; k < 4; ++k)
    m.instructions.push_back(ins("k", "a.cu", 7, Space::Global, AccessKind::Load, 128, 2048, 512, 0x80 + 16 * k));
  const auto l = only(compare(p, m));
  CHECK(l.verdict == Verdict::Match);
  CHECK(l.measured.instructions == 4);
  CHECK(l.measured.requests == 512);
  CHECK(std::any_of(l.notes.begin(), l.notes.end(), [](auto& n) { return n.find("1 predicted access and 4") == 0; }));
}

TEST_CASE("compare: two accesses on one line compare as their mean, and one to one when possible") {
  Predictions p;
  p.accesses = {pred("a.cu", 9, Space::Global, AccessKind::Load, 4, 4), pred("a.cu", 9, Space::Global, AccessKind::Load, 5, 4)};
  Measurements m;
  m.instructions = {ins("k", "a.cu", 9, Space::Global, AccessKind::Load, 512, 2048, 2048, 0x10),
                    ins("k", "a.cu", 9, Space::Global, AccessKind::Load, 512, 2560, 2048, 0x20)};
  auto l = only(compare(p, m));
  CHECK(l.verdict == Verdict::Match);
  CHECK(*l.predictedPerRequest == 4.5);
  CHECK(l.notes.empty());
  // Same total, different split: still the line's figure, but said.
  m.instructions[0].metrics[metric::kSectors] = 2304;
  m.instructions[1].metrics[metric::kSectors] = 2304;
  l = only(compare(p, m));
  CHECK(l.verdict == Verdict::Match);
  CHECK(std::any_of(l.notes.begin(), l.notes.end(), [](auto& n) { return n.find("one to one") != std::string::npos; }));
}

TEST_CASE("compare: a vectorised pair matches by ratio to ideal, and says so") {
  // Two adjacent 4-byte loads predicted at 4 sectors each; the compiler merged them
  // into one 8-byte load: 8 sectors, ideal 8, per request.
  Predictions p;
  p.accesses = {pred("a.cu", 4, Space::Global, AccessKind::Load, 4, 4), pred("a.cu", 4, Space::Global, AccessKind::Load, 4, 4)};
  Measurements m;
  m.instructions = {ins("k", "a.cu", 4, Space::Global, AccessKind::Load, 512, 4096, 4096)};
  m.instructions[0].opcode = "LDG.E.64";
  const auto l = only(compare(p, m));
  CHECK(l.verdict == Verdict::Match);
  CHECK(l.basis == Basis::RatioToIdeal);
  // A real excess with the same ideal is no match.
  m.instructions[0].metrics[metric::kSectorsIdeal] = 2048;
  CHECK(only(compare(p, m)).verdict == Verdict::Mismatch);
}

TEST_CASE("compare: indirect accesses fall within their range or not") {
  Predictions p;
  PredictedAccess a = pred("g.cu", 3, Space::Global, AccessKind::Load, std::nullopt, std::nullopt);
  a.sectorsRange = Range{1, 32};
  a.pattern = "indirect";
  p.accesses = {a};
  Measurements m;
  m.instructions = {ins("k", "g.cu", 3, Space::Global, AccessKind::Load, 512, 15000, 2048)};
  auto r = compare(p, m);
  CHECK(only(r).verdict == Verdict::WithinRange);
  CHECK(only(r).basis == Basis::Bounds);
  CHECK(exitCodeFor(r, false) == kExitOk);
  p.accesses[0].sectorsRange = Range{1, 8};
  CHECK(only(compare(p, m)).verdict == Verdict::Mismatch);
  p.accesses[0].sectorsRange.reset();
  CHECK(only(compare(p, m)).verdict == Verdict::Unchecked);
}

TEST_CASE("compare: a predicted line with no instruction is not-found, not a mismatch") {
  Predictions p;
  p.accesses = {pred("a.cu", 20, Space::Global, AccessKind::Load, 5, 4)};
  Measurements m;
  m.instructions = {ins("k", "a.cu", 21, Space::Global, AccessKind::Store, 512, 2048, 2048)};
  const auto r = compare(p, m);
  REQUIRE(r.lines.size() == 2);
  CHECK(r.lines[0].verdict == Verdict::NotFound);
  CHECK(r.lines[0].notes.front().find("inlined away, optimised out") != std::string::npos);
  CHECK(r.lines[1].verdict == Verdict::Unpredicted);
  CHECK_FALSE(r.anyMismatch());
  CHECK(exitCodeFor(r, false) == kExitIncomplete);
  CHECK(exitCodeFor(r, true) == kExitOk);
}

TEST_CASE("compare: instructions in files without predictions are counted, not judged") {
  Predictions p;
  p.accesses = {pred("a.cu", 2, Space::Global, AccessKind::Store, 4, 4)};
  Measurements m;
  m.instructions = {ins("k", "a.cu", 2, Space::Global, AccessKind::Store, 8, 32, 32),
                    ins("k", "/usr/local/cuda/include/sm_20_atomic_functions.hpp", 84, Space::Global,
                        AccessKind::Atomic, 8, 32, 32, 0x40),
                    ins("k", "", 0, Space::Global, AccessKind::Load, 8, 32, 32, 0x50)};
  const auto r = compare(p, m);
  CHECK(only(r).verdict == Verdict::Match);
  REQUIRE(r.notes.size() == 2);
  CHECK(r.notes[0].find("sm_20_atomic_functions.hpp") != std::string::npos);
  CHECK(r.notes[1].find("no source line") != std::string::npos);
}

TEST_CASE("compare: an inlined instruction is attributed to its call site in a predicted file") {
  Predictions p;
  p.accesses = {pred("a.cu", 30, Space::Global, AccessKind::Atomic, 4, 4)};
  Measurements m;
  m.instructions = {ins("k", "/usr/local/cuda/include/sm_20_atomic_functions.hpp", 84, Space::Global,
                        AccessKind::Atomic, 512, 2048, 2048)};
  m.instructions[0].inlinedAt = {{"/work/a.cu", 30}};
  const auto l = only(compare(p, m));
  CHECK(l.verdict == Verdict::Match);
  CHECK(std::any_of(l.notes.begin(), l.notes.end(), [](auto& n) { return n.find("inlining") != std::string::npos; }));
}

TEST_CASE("compare: one line in two kernels is judged per kernel") {
  // A device function p[i * stride] called with stride 1 and 2.
  Predictions p;
  p.accesses = {pred("h.cu", 12, Space::Global, AccessKind::Load, 4, 4, "unit"),
                pred("h.cu", 12, Space::Global, AccessKind::Load, 8, 4, "stride2")};
  Measurements m;
  m.instructions = {ins("_Z4unitPKfPf", "h.cu", 12, Space::Global, AccessKind::Load, 512, 2048, 2048),
                    ins("_Z7stride2PKfPf", "h.cu", 12, Space::Global, AccessKind::Load, 512, 4096, 2048)};
  auto r = compare(p, m);
  REQUIRE(r.lines.size() == 2);
  CHECK(r.lines[0].verdict == Verdict::Match);
  CHECK(r.lines[1].verdict == Verdict::Match);
  // Swap the figures: both mismatch (a per-line mean would have hidden it).
  std::swap(p.accesses[0].sectorsPerRequest, p.accesses[1].sectorsPerRequest);
  r = compare(p, m);
  CHECK(r.count(Verdict::Mismatch) == 2);
}

TEST_CASE("compare: a gather line pairs the index load's figure and the gather's range") {
  Predictions p;
  PredictedAccess gatherLoad = pred("g.cu", 69, Space::Global, AccessKind::Load, std::nullopt, std::nullopt);
  gatherLoad.sectorsRange = Range{1, 32};
  p.accesses = {pred("g.cu", 69, Space::Global, AccessKind::Load, 4, 4), gatherLoad};
  Measurements m;
  m.instructions = {ins("k", "g.cu", 69, Space::Global, AccessKind::Load, 512, 2048, 2048, 0x10),
                    ins("k", "g.cu", 69, Space::Global, AccessKind::Load, 512, 15872, 2048, 0x20)};
  auto l = only(compare(p, m));
  CHECK(l.verdict == Verdict::WithinRange);
  // The index load reads 8 sectors: nothing pairs with the figure 4.
  m.instructions[0].metrics[metric::kSectors] = 4096;
  l = only(compare(p, m));
  CHECK(l.verdict == Verdict::Mismatch);
}

TEST_CASE("compare: on the H200, fully predicated-off warps execute the instruction but make no request") {
  // gld_f32_pred_t_lt_16: `t < 16 ? p[t] : 0` compiled to a predicated LDG; 64 blocks of 8 warps.
  Measurements m = loadMeasurements(std::string(COALESCE_VERIFY_TEST_DATA) + "/calibration/measurements_calib_gmisc.json");
  std::vector<const MeasuredInstruction*> ld;
  for (const auto& in : m.instructions)
    if (in.function == "gld_f32_pred_t_lt_16" && classify(in) == AccessClass{Space::Global, AccessKind::Load})
      ld.push_back(&in);
  REQUIRE(ld.size() == 1);
  const MeasuredFigures f = aggregate(ld, {Space::Global, AccessKind::Load});
  CHECK(f.executions == 512);
  CHECK(f.requests == 64);
  CHECK(f.activeThreads == 64 * 16);
  CHECK(f.perRequest() == 2);                                              // 16 lanes x 4 bytes
  CHECK(static_cast<double>(f.units) / static_cast<double>(f.executions) == 0.25);  // what inst_executed would say
}

TEST_CASE("compare: a kernel predicted on a block shape the program never launched is named in a note") {
  Predictions p;
  p.kernels.push_back({"transposeNaive", 32, 8, 1, "assumed"});
  p.kernels.push_back({"copy", 16, 16, 1, "launch"});
  Measurements m;
  LaunchConfig naive;
  naive.kernel = "_Z14transposeNaivePfS_ii";
  naive.block = {16, 16, 1};
  LaunchConfig copy = naive;
  copy.kernel = "_Z4copyPfS_ii";
  m.launchConfigs = {naive, copy};
  const VerifyReport r = compare(p, m);
  const auto mentions = [&](const std::string& text) {
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  CHECK(mentions("kernel 'transposeNaive' was predicted on a 32x8x1 block (assumed), but the program launched it with 16x16x1"));
  CHECK_FALSE(mentions("kernel 'copy'"));
}
