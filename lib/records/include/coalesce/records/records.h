// The plain records the analysis produces and every later stage reads: no Clang type,
// no SourceManager pointer, only strings, numbers and enumerations (clang-tidy's
// ClangTidyError idea). Their fields are listed once, in fields.h, for the encoders.
// Every enumeration has toString and its exact inverse parseX (test/records/records_test.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "coalesce/model/access_model.h"

namespace coalesce {

struct SourceLocation {
  std::string file;  // as given on the command line or in the database
  unsigned line = 0;
  unsigned column = 0;
  bool operator==(const SourceLocation&) const = default;
};

namespace record_names {
// Walks the enumerators 0..last, so a parse is its toString's inverse by construction.
template <class E>
std::optional<E> parseByName(std::string_view text, E last) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (toString(static_cast<E>(i)) == text) return static_cast<E>(i);
  return std::nullopt;
}
}  // namespace record_names

// Where the block shape used for an access came from, in the order the frontend tries.
// KernelImplied: no launch gives it, the kernel's own code does (shared tiles indexed by
// threadIdx, blockDim comparisons, block-stride loops: lib/analysis/src/kernel_implied_block.h).
// LaunchCap: the launch computes its block at run time under a constant cap the host code
// shows (`n < 512 ? n : 512`, `min(n, 512)`, `if (n > 512) threads = 512;`): the cap, the block
// of a problem larger than one block (lib/analysis/src/size_caps.h). LaunchDefault: the launch
// computes its block from run-time options the host code gives a default (`int blockx = 16;
// if (argc > 2) blockx = atoi(argv[2]);`): the block of the program's default run
// (lib/analysis/src/host_options.cpp). Assumed: a plain guess.
enum class BlockSource { Launch, LaunchBounds, Option, Annotation, KernelImplied, LaunchCap, LaunchDefault, Assumed };
inline std::string_view toString(BlockSource s) {
  switch (s) {
    case BlockSource::Launch: return "launch";
    case BlockSource::LaunchBounds: return "launch_bounds";
    case BlockSource::Option: return "option";
    case BlockSource::Annotation: return "annotation";
    case BlockSource::KernelImplied: return "kernel_implied";
    case BlockSource::LaunchCap: return "launch_cap";
    case BlockSource::LaunchDefault: return "launch_default";
    case BlockSource::Assumed: return "assumed";
  }
  return "?";
}
inline std::optional<BlockSource> parseBlockSource(std::string_view text) {
  return record_names::parseByName(text, BlockSource::Assumed);
}

struct BlockShape {
  model::Dim3 dim{256, 1, 1};
  BlockSource source = BlockSource::Assumed;
  std::string detail;  // e.g. "launch at saxpy.cu:40" or "1D, blockDim.x a multiple of 32"
  // A guessed shape (Assumed) only: the other shapes its kernel's figures were evaluated
  // under ("128x1x1"; lib/analysis/src/shape_trials.h), and whether every figure the report
  // reads came out the same under each of them: then the figures do not rest on the guess.
  std::vector<std::string> shapesTried;
  bool shapeInvariant = false;
  bool operator==(const BlockShape&) const = default;
};

// One replacement in a source file, in bytes: what clang-apply-replacements reads (its
// FilePath, Offset, Length, ReplacementText). Computed by the analysis from Clang's source
// locations (lib/analysis/src/fix_edits.cpp) so that no later stage needs Clang to apply it.
// An edit with an empty `file` is none.
struct TextEdit {
  std::string file;         // as the records name the file (as given on the command line)
  uint64_t offset = 0;      // bytes from the start of the file
  uint64_t length = 0;      // bytes replaced (0: an insertion)
  std::string replacement;  // the text put there
  bool empty() const { return file.empty(); }
  bool operator==(const TextEdit&) const = default;
};

// The named __shared__ array a shared access indexes, and the edit of its declaration that
// pads its last dimension by one element (docs/fixes.md): `[32][32]` -> `[32][33]`,
// `[TILE][TILE]` -> `[TILE][TILE + 1]`, never a macro's definition. `blocked` says why no
// edit is proposed when the array is known but padding it could change what the program
// does (its address taken, a flat view of it, a size written inside a macro).
struct ArrayPadding {
  std::string array;          // the array's name; empty: not a named shared array
  std::string declared;       // its dimensions as written, "[TILE][TILE]"
  std::string padded;         // the same after the edit, "[TILE][TILE + 1]"
  int64_t lastDimension = 0;  // elements of its last dimension
  int64_t elementBytes = 0;
  TextEdit edit;              // empty when blocked
  std::string blocked;
  bool operator==(const ArrayPadding&) const = default;
};

// Accesses of one thread in one iteration that the memory system serves together: the
// same base object, kind, loops and guards, and sectors that overlap or touch in a warp
// (the fields of one record, the halves of a wide element, neighbouring stencil taps).
// Their figures are those of the union: distinct sectors per warp request against the
// bytes the lanes ask for (docs/findings.md). Every member carries the same group.
struct AccessGroup {
  int id = -1;                   // the id of its first member access; -1: in no group
  int members = 0;
  double sectorsPerRequest = 0;  // distinct sectors the members touch together, per warp request
  double idealSectors = 0;       // ceil(distinct bytes the lanes ask for / 32), per warp request
  double efficiency = 1;         // idealSectors / sectorsPerRequest
  double memberSectors = 0;      // the members' own sectors per request, added up
  double sectorRuns = 0;         // runs of 2 or more contiguous sectors in their union, per request
  // A gather of one record: the members read bytes of the same element through a loaded index
  // (`b = boxes + idx[t] * 4; b[0] ... b[3]`), so their lanes' addresses are not known, only
  // their distances. sectorsPerRequest is then the worst case (every lane's record in sectors of
  // its own), sectorsAtLeast the least (every lane on one record) (access_groups.cpp).
  bool gather = false;
  double sectorsAtLeast = 0;
  bool operator==(const AccessGroup&) const = default;
};

// How the warps of one block share an access's bytes in one loop iteration (global loads
// only): the bytes each warp asks for (distinct within the warp, so a broadcast counts once)
// added over the block's warps, against the distinct bytes of the whole block; the sectors
// likewise. Averaged per block and iteration over the iterations listed. requested >
// distinct: several warps read the same bytes, which a shared-memory tile would load once
// (the shared-tiling-opportunity rule, docs/rules/shared-tiling-opportunity.md).
struct BlockReuse {
  bool known = false;          // false: not a global load, or its address is not known per lane
  double requestedBytes = 0;   // per block and iteration: sum over warps of their distinct bytes
  double distinctBytes = 0;    // per block and iteration: distinct bytes of the whole block
  double warpSectors = 0;      // sum over warps of their sectors
  double blockSectors = 0;     // distinct sectors of the whole block
  double reuse() const { return distinctBytes > 0 ? requestedBytes / distinctBytes : 1; }
  bool operator==(const BlockReuse&) const = default;
};

// Consecutive listed loop iterations whose sectors a warp is taken to touch once
// (AccessSite::iterationReuse): a 32-byte sector holds 8 four-byte elements, so a thread
// walking its own run uses a sector over 8 iterations. Set by the analysis, said by the report.
inline constexpr int kIterationWindow = 8;

// A global access in a loop, its warps' sectors counted once within windows of
// kIterationWindow consecutive listed iterations (model::IterationWindow). When that is near
// the ideal while the per-iteration figure is not, each thread's next iterations use the rest
// of its sectors, and the caches serve them if the lines stay resident from one iteration to
// the next: `linesPerRequest` is what each warp keeps (lib/report/src/access_cause.cpp weighs it
// against the L1 and L2 capacity). All 0 when not computed (no loop, indirect, a probe).
struct IterationReuse {
  double sectorsPerRequest = 0;  // distinct sectors per warp request over the windows
  double linesPerRequest = 0;    // distinct cache lines one warp request touches, per iteration
  // The share of the bytes of the sectors a warp touches over a window that its lanes read:
  // near 1 when the next iterations read the words one request skips (stride-2 taps 0, 1, 2,
  // ...), one request's share when they read the same words again (model::IterationWindow).
  double bytesReadShare = 0;
  bool operator==(const IterationReuse&) const = default;
};

// One memory access in one kernel, for one block shape (the worst over the launches).
struct AccessSite {
  int id = 0;                  // index in AnalysisResult::accesses
  SourceLocation loc;
  std::string kernel;          // the __global__ function whose warps execute it
  std::string function;        // the function that contains the expression
  std::string expression;      // source text, e.g. "a[2 * i]"
  std::string lineText;        // the whole source line (baselines key on it)
  std::string elementType;     // e.g. "float", "float4", "struct Particle::x"
  model::Access access;        // space, kind, width, lane pattern
  BlockShape block;
  model::AccessFigures figures;
  std::vector<std::string> assumptions;  // sentences the figures rest on
  bool indirectRowGather = false;        // indirect row index, contiguous lanes inside the row
  // The conditions of the ifs (?:, early returns) it runs under that test data each thread
  // loads for itself (`isnan(v[i])`, `x < p[tid].cost`, a flag set in a data-dependent loop):
  // how often it runs is not known statically (the figures assume every lane passes), so its
  // findings are notes (lib/report/src/data_guard_level.cpp). Loop conditions are not listed:
  // a loop's body runs while its bound holds, however the bound is loaded.
  std::vector<std::string> dataGuards;
  // Unknown runtime scalars the figures rest on that space the lanes' addresses but bound no
  // index or loop the access runs under (a stride, a pad, a window size: darknet's
  // `input[j * stride + m]`), each "name = value taken". Unlike an extent (`i < n`), which a
  // program makes large, such a value is as often 1 or 2 as large, and the figure can flip
  // from coalesced to scattered with it: the access's findings are notes
  // (lib/report/src/guessed_value_level.cpp; lanes::boundingSymbols tells them apart).
  std::vector<std::string> guessedScalars;
  // Runtime scalars taken at a default that no launch can have: at that value the lanes of one
  // block would span more bytes of an access's object than it can hold (a shared array more
  // than a block's shared memory, an array of constant size more than its size: MNN's TopK
  // `finalIndices[threadIdx.x * K + i]` in an extern shared array, K taken as 4096, 8 MB), each
  // "name = value taken"; `impossibleBecause` says which access and how many bytes. The real
  // value is smaller and not known: the access's findings are notes
  // (lib/report/src/guessed_value_level.cpp; record_builder.cpp finds them).
  std::vector<std::string> impossibleScalars;
  std::string impossibleBecause;
  // False when no lane runs the access under any context the analysis found (its guards
  // false for every thread, whatever values it tried for unknown scalars): no figures then
  // (figures.global and .shared empty), and `notExecuted` says why.
  bool executed = true;
  std::string notExecuted;
  // The user's record the access touches: a field of it ("Particle", "x"), or a piece of a
  // whole record copied (field empty); both empty otherwise (CUDA vector types included).
  std::string record, field;
  // The loops the access sits in, innermost last: ids unique within the kernel, shared with
  // the loop branches' (BranchSite::loops) and the barriers'.
  std::vector<int> loops;
  AccessGroup group;
  BlockReuse blockReuse;
  IterationReuse iterationReuse;  // global accesses in loops (above)
  // Warp requests one launch executes (warps with an active lane x blocks x loop trips), an
  // estimate for the cost of a finding; what it rests on, in one sentence.
  double launchRequests = 0;
  std::string requestsBasis;
  // True when that count rests only on what the program's code fixes: the launch's grid and
  // block, every loop's trip count, the values its guards read (a guard on loaded data counts
  // every lane, an upper bound), no run-time size taken at a default or a guess, and the
  // figures on no guessed spacing. What the absolute floor on a finding's waste per run needs
  // (lib/report/src/filter.cpp, MinWastePerRun): a count resting on a guess could be far larger.
  bool requestsShown = false;
  // That count's grid is neither the launch's nor one under the program's defaults, but the
  // assumed kAssumedGridThreads threads: its weight beside the program's other kernels is not
  // known (lib/report/src/cost.cpp, setProgramShare, claims no share of the program then).
  bool gridAssumed = false;
  ArrayPadding padding;  // shared accesses to a named array: the padding fix (docs/fixes.md)
  bool operator==(const AccessSite&) const = default;
};

// The statement a branch condition belongs to; the names are those of the JSON report
// (docs/json-schema.md).
enum class BranchKind { If, Loop, Switch, Conditional };
inline std::string_view toString(BranchKind k) {
  switch (k) {
    case BranchKind::If: return "if";
    case BranchKind::Loop: return "loop";
    case BranchKind::Switch: return "switch";
    case BranchKind::Conditional: return "?:";
  }
  return "?";
}
inline std::optional<BranchKind> parseBranchKind(std::string_view text) {
  return record_names::parseByName(text, BranchKind::Conditional);
}

// One warp whose active lanes disagree about a branch's condition, as the analysis saw it,
// for pictures of the split (the HTML report's). Empty (warp -1) when no warp splits.
struct LaneSplit {
  int64_t warp = -1;                           // the warp of the block, 0 first
  int64_t blockX = 0, blockY = 0, blockZ = 0;  // the block it was seen in (blockIdx)
  int iteration = 0;  // which of the iterations listed for the loops around it, 0 first
  // The values the condition takes in the warp, in increasing order: "0" and "1" for an if,
  // a loop or a ?:, the values switched on for a switch.
  std::vector<std::string> values;
  // Per lane, its value's index in `values`; -1 for a lane that does not reach the branch.
  // (Strings and ints: what every encoder of fields.h reads and writes.)
  std::vector<int> lanes;
  // The whole block at the same iteration, for the picture of the remap fix
  // (docs/html-report.md): the values the condition takes in the block, in increasing order,
  // and per warp one character per lane: 'a' + the value's index in `blockValues`, '-' for no
  // thread or a thread that does not reach the branch, '?' for one whose value is not known.
  // Both empty when the block takes more than kMaxBlockPaths values.
  static constexpr size_t kMaxBlockPaths = 26;
  std::vector<std::string> blockValues;
  std::vector<std::string> byWarp;
  bool operator==(const LaneSplit&) const = default;
};

// A branch (if, loop condition, switch, ?: with side effects) whose condition the
// frontend evaluated per lane, for the divergence rules.
struct BranchSite {
  int id = 0;
  SourceLocation loc;
  std::string kernel;
  std::string function;
  BranchKind kind = BranchKind::If;
  std::string condition;  // source text
  std::string lineText;
  BlockShape block;
  bool evaluated = false;      // false: the condition depends on data or unknown values
  bool threadDependent = false;  // the condition mentions threadIdx (directly or through values)
  int64_t warpRequests = 0;    // warps (x loop iterations) reaching the branch with an active lane
  int64_t divergentRequests = 0;  // of those, the ones whose active lanes disagree
  bool onlyPartialWarps = false;  // every divergent warp is the block's partial last warp
  std::vector<std::string> assumptions;
  // The loops the branch sits in, innermost last; a loop's own condition has that loop last.
  std::vector<int> loops;
  // Loops whose variables a divisor of the condition depends on (`tid % (2 * s)` inside a
  // loop over s): the interleaved-reduction step of docs/rules/divergent-branch.md.
  std::vector<int> modulusLoops;
  LaneSplit split;  // the first warp found split, in the block shape of `block`
  // Warp requests that would still split if, on every pass (block and listed iteration), the
  // work were remapped so that the threads reaching the branch with the same value are
  // contiguous: the first k of them take the true side (a switch: its values in increasing
  // order). -1: not known (some lane's value is not known statically).
  int64_t remappedDivergentRequests = -1;
  bool operator==(const BranchSite&) const = default;
};

// A block-wide barrier (__syncthreads, cooperative groups' block sync) and whether every
// thread of the block reaches it.
struct BarrierSite {
  int id = 0;
  SourceLocation loc;
  std::string kernel;
  std::string function;
  std::string call;       // source text of the call
  std::string lineText;
  BlockShape block;
  // Divergent: some condition guarding the barrier differs between threads of one block.
  // Unknown: a guard depends on threadIdx through values not known statically.
  enum class Reach { Uniform, Divergent, Unknown } reach = Reach::Uniform;
  std::string condition;  // the guard (or loop condition) responsible
  std::vector<std::string> assumptions;
  std::vector<int> loops;  // the loops the barrier sits in, innermost last
  // Which threads of the block reach a Divergent barrier, for pictures (the HTML report's):
  // one string per warp of the block, one character per lane: '1' reaches, '0' does not,
  // '?' a later guard's value is unknown, '-' no thread (the partial last warp). Empty for a
  // barrier every thread reaches. Seen in the representative block, at the iteration of the
  // loops around the barrier where the guard first splits the block (`reachIteration`, 0 first).
  std::vector<std::string> reachByWarp;
  int reachIteration = 0;
  // Divergent only through threads that skip it, reach no other barrier and exit: on compute
  // capability 7.0 and later their exit releases it (lib/analysis/src/barrier_skippers.cpp).
  bool skippersExit = false;
  bool operator==(const BarrierSite&) const = default;
};
inline std::string_view toString(BarrierSite::Reach r) {
  switch (r) {
    case BarrierSite::Reach::Uniform: return "uniform";
    case BarrierSite::Reach::Divergent: return "divergent";
    case BarrierSite::Reach::Unknown: return "unknown";
  }
  return "?";
}
inline std::optional<BarrierSite::Reach> parseReach(std::string_view text) {
  return record_names::parseByName(text, BarrierSite::Reach::Unknown);
}

// Kernel pointer parameters, for the missing-restrict hint.
struct PointerParam {
  std::string kernel;
  SourceLocation loc;
  std::string name;
  bool isRestrict = false;
  bool read = false;
  bool written = false;
  // Inserts "__restrict__ " before the parameter's name (docs/fixes.md); empty when the
  // declaration is written inside a macro or has no name.
  TextEdit restrictEdit;
  bool operator==(const PointerParam&) const = default;
};

enum class Status { Analysed, Failed };
inline std::string_view toString(Status s) { return s == Status::Analysed ? "analysed" : "failed"; }
inline std::optional<Status> parseStatus(std::string_view text) { return record_names::parseByName(text, Status::Failed); }

// A kernel's theoretical occupancy (model/occupancy.h) under the launch that gives the
// lowest, with its inputs; -1 stands for unknown (null in the JSON report).
struct KernelOccupancy {
  int64_t threadsPerBlock = 0;       // 0: not computed (a kernel that failed)
  int64_t staticSharedBytes = 0;     // the __shared__ arrays of fixed size it and its callees declare
  int64_t dynamicSharedBytes = -1;   // the launch's third <<<>>> argument; -1: unknown
  int registersPerThread = -1;       // ptxas's count (the verifier's); -1: unknown
  int launchBoundsMinBlocks = -1;    // __launch_bounds__'s second argument; -1: none
  int64_t blocksLimitWarps = 0;      // blocks per SM each resource allows
  int64_t blocksLimitBlocks = 0;
  int64_t blocksLimitSharedMemory = 0;
  int64_t blocksLimitRegisters = -1;
  int64_t activeBlocks = 0;
  int64_t activeWarps = 0;
  double occupancy = 0;              // active warps / the SM's maximum, 0..1
  std::string limitedBy;             // "warps", "blocks", "shared_memory", "registers"
  std::vector<std::string> notes;    // what the figure rests on ("registers unknown: ...")
  bool operator==(const KernelOccupancy&) const = default;
};

// One arm of a run-time choice: what it calls and the kernels that launches.
struct ChoiceArm {
  int arm = 0;                       // 1-based, in source order
  std::string call;                  // the wrapper or kernel the arm calls, by name
  std::vector<std::string> kernels;  // the kernels the arm launches (KernelRecord::name)
  bool operator==(const ChoiceArm&) const = default;
};

// Where the host chooses at run time between alternatives of one job and this kernel is one of
// them (lib/analysis/src/launch_alternatives.cpp; docs/findings.md "Levels"): the arms of a
// `switch` or `if`/`else if` chain on a runtime value, or the kernels one launch's function
// pointer holds, that pass the same arguments and whose names differ only by a number or a
// variant word. `arms` 0: none.
struct RunTimeChoice {
  // What chooses: "`kernel_num`", "the function pointer `kernel`"; empty when nothing does
  // (variants the host runs in turn: lib/analysis/src/launch_alternatives.cpp).
  std::string selector;
  std::string where;              // "softmax_forward.cu:621"
  int arms = 0;                   // the alternatives, this kernel's arm included
  int arm = 0;                    // this kernel's arm
  std::vector<ChoiceArm> others;  // the other arms
  std::string evidence;           // why they do the same job, a clause
  bool operator==(const RunTimeChoice&) const = default;
};

struct KernelRecord {
  std::string name;
  SourceLocation loc;
  Status status = Status::Analysed;
  std::string reason;  // for failures
  int accesses = 0;
  BlockShape block;
  KernelOccupancy occupancy;
  // How often one run of the program launches it, as its translation unit shows: the trip
  // counts of the host loops around its launches (lib/analysis/src/launch_repeats.cpp), those
  // the code does not show taken as kAssumedLoopTrips; 0 when the unit launches it nowhere.
  // What a finding's share of the program rests on (lib/report/src/cost.cpp).
  double launchesPerRun = 0;
  std::string launchesBasis;  // the sentence saying what that count rests on
  // True when that count is what the program's code fixes: every launch site reached from
  // `main` (the unit's, or another file's of its program through the calls that file shows:
  // session 16) under host loops whose trip counts the code shows, no run-time option taken at
  // its default (launch_repeats.cpp). A function called from nowhere the program shows, a
  // callback, or a loop the code does not count could run the kernel any number of times.
  bool launchesShown = false;
  // Every launch site of it in the unit is reached from the unit's own `main` (whatever the
  // loops' counts): the unit is a program of its own, not a library another file calls. The
  // steps of a tutorial are such programs, each beside the next (lib/report/src/variant_level.cpp).
  bool launchedFromMain = false;
  std::string unit;           // the main file of the translation unit it was analysed in
  // GPU work of a library (cuBLAS, cuFFT, ...: lib/analysis/src/library_work.h) that one run of
  // the unit's program repeats, the call made most often, when made at least twice per run
  // (LaunchCollector::repeatedLibraryWork): its traffic is unseen, its repetition counted. A
  // kernel launched once beside it is a setup kernel (lib/report/src/setup_level.cpp). Empty: none.
  std::string repeatedWork;
  double repeatedWorkRuns = 0;  // how often one run makes that call
  RunTimeChoice choice;       // the alternatives the host chooses it among, if any
  // The least time its arithmetic takes (lib/analysis/src/arithmetic_estimate.h): one SM's issue
  // cycles per warp, counted from the source as a lower bound; the warps one launch runs under
  // the grid and block its accesses' costs count (AccessSite::launchRequests); the sentence
  // saying what the count rests on. The report sets it beside the kernel's memory time.
  double arithmeticCyclesPerWarp = 0;
  double warpsPerLaunch = 0;
  std::string arithmeticBasis;
  // An instantiation of a kernel template of which the file makes more than
  // --max-instantiations: how many it makes (only that many are analysed, spread evenly over
  // them; lib/analysis/src/kernel_analyzer.cpp). 0: every instantiation analysed.
  int64_t templateInstantiations = 0;
  // On one analysed instantiation of such a template per translation unit: how many of its
  // instantiations were left out (what the summary adds up, whatever the merge of units).
  int64_t instantiationsLeftOut = 0;
  bool operator==(const KernelRecord&) const = default;
};

struct FileRecord {
  std::string path;
  Status status = Status::Analysed;
  std::string error;                   // one line: why the file could not be analysed
  int hostErrors = 0;                  // errors outside analysed device code
  std::vector<std::string> diagnostics;  // Clang's first messages, for the notes
  bool operator==(const FileRecord&) const = default;
};

struct AnalysisResult {
  std::vector<FileRecord> files;
  std::vector<KernelRecord> kernels;
  std::vector<AccessSite> accesses;
  std::vector<BranchSite> branches;
  std::vector<BarrierSite> barriers;
  std::vector<PointerParam> pointerParams;
  bool operator==(const AnalysisResult&) const = default;
};

// Moves one translation unit's accesses to the end of a run's list. A group's id is its first
// member's index in the list it was made in (AccessGroup::id), so it moves with them: the
// analysis's run over several files and `coalesce-lint merge` both append this way (a merge
// that did not left every unit's groups but the first naming other units' accesses, session 29).
inline void appendAccesses(std::vector<AccessSite>& to, std::vector<AccessSite>& from) {
  const int base = static_cast<int>(to.size());
  for (AccessSite& a : from) {
    if (a.group.id >= 0) a.group.id += base;
    to.push_back(std::move(a));
  }
}

}  // namespace coalesce
