// What the host code of the whole program says of a value that one file leaves open
// (docs/block-shapes.md, "Launches from another file"): the arguments a function is called
// with anywhere in the program, and the values a struct member is ever given. A wrapper
// `bpnn_train_cuda(BPNN* net)` that launches with `hid = net->hidden_n` has no call site in its
// own file; the program sets `hidden_n` once, to a parameter of `bpnn_internal_create`, which
// `bpnn_create` calls with its own, which `facetrain.c` calls with 16.
//
// Each file parsed (the analysed one and its siblings: host_summary.cpp) gives a HostSummary;
// ProgramFacts resolves questions over all of them, flow-insensitively: a value is known when
// every call site or assignment that can run gives the same one. Call sites and assignments
// inside functions nothing in the program calls (a `bpnn_read` no file uses) do not count;
// when no `main` was seen, every function counts.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace coalesce::analysis {

// A value as one file shows it: a constant, a parameter of the function the code sits in (to
// be read at that function's call sites), the counter of a host loop around the call, a
// constant global another file defines (`extern const uint MIN_SIZE;`), the default of a
// run-time option (a local given a constant that only a command-line option changes:
// HostValues::optionDefault; a value for the cost only), or unknown.
struct SummaryValue {
  enum class Kind { Constant, Parameter, Unknown, Counter, Global, OptionDefault };
  Kind kind = Kind::Unknown;
  int64_t constant = 0;  // Constant; OptionDefault: the default
  std::string function;  // Parameter: the function, by name; Global: the global's name; OptionDefault: the local's
  int parameter = 0;     // Parameter: its index; Counter: the loop's index in the call's `loops`
};

// A host `for` loop around a call, `for (T v = start; v CMP bound; v STEP by)`, nothing else
// writing v: the scan sample's `for (uint arrayLength = MIN_SHORT_ARRAY_SIZE; arrayLength <=
// MAX_SHORT_ARRAY_SIZE; arrayLength <<= 1)`. A loop of another form is not followable.
struct SummaryLoop {
  enum class Compare { Less, LessEqual, Greater, GreaterEqual, NotEqual };
  enum class Step { Add, Multiply, Divide, ShiftLeft, ShiftRight };  // a decrement is Add of a negative
  bool followable = false;
  SummaryValue start, bound;
  Compare compare = Compare::Less;
  Step step = Step::Add;
  int64_t by = 1;
};

struct HostSummary {
  // A launch's grid and block, axis by axis, and its dynamic shared memory: constants, or a
  // parameter of the launching function (an integer block passed in), or unknown.
  struct LaunchConfig {
    std::array<SummaryValue, 3> grid, block;
    SummaryValue sharedBytes;
    std::string where;  // "entry.cu:39"
    // The instance launched, when the kernel is a template: its arguments as Clang prints them
    // (`kdequant_mm_int32_fp16<4, 512><<<...>>>`: "<4, 512>"); empty for a plain kernel.
    std::string templateArgs;
  };
  struct Call {
    std::string caller, callee;
    std::vector<SummaryValue> args;
    std::vector<SummaryLoop> loops;  // the host loops around the call in its function, outermost first
    // The share of those loops' iterations that make the call: 1 / k under `if (i % k == 0)`
    // with i stepped by one of them (host_writes.h, everyNthArm); 1 else.
    double share = 1;
    // Where the call is written ("path:expansion offset:spelling offset"), so that a call one
    // parse reads through an `#include` of another's file counts once (ProgramFacts::add).
    std::string site;
    // A `<<<>>>` launch of the callee (a kernel): its configuration as this file shows it.
    std::optional<LaunchConfig> launch;
  };
  // `x.f = v`, `p->f = v`, a constructor's member initialiser, braces: the member by its record's name.
  struct MemberWrite {
    std::string caller, record, member;
    SummaryValue value;                   // an integer member
    std::optional<int64_t> pointerBytes;  // a pointer member: bytes past its allocation, when known
    bool pointer = false;
  };
  std::vector<Call> calls;
  std::vector<MemberWrite> writes;
  std::set<std::string> defined;  // functions with a body
  // Functions named other than as a direct callee (their address taken: a callback, a table)
  // and `main`: where the program starts.
  std::set<std::string> roots;
  // Constant integer globals the file defines with a value, by name (scan.cu's `extern "C"
  // const uint MIN_SHORT_ARRAY_SIZE = 4;`, which main.cpp only declares).
  std::map<std::string, int64_t> constants;
  // The file parsed without an error: the calls listed are every call it makes (a header it
  // could not find drops the bodies that use its types, and their calls with them).
  bool complete = true;
};

class ProgramFacts {
 public:
  void add(const HostSummary& s);
  // Every summary added came from a parse without an error (HostSummary::complete).
  bool complete() const { return complete_; }
  // The one value every call of `function` that can run gives its parameter `index`.
  std::optional<int64_t> parameterValue(const std::string& function, int index) const;
  // Every value the calls of `function` that can run give its parameter `index` (a host loop's
  // counter gives each of its values), with how many calls per run of the program give each;
  // nullopt when a value or a count is not known.
  std::optional<std::map<int64_t, double>> parameterRuns(const std::string& function, int index) const;
  // How many times one run of the program calls `function`: 1 for `main` and for a function
  // named other than by a call (or any function nothing calls, when no `main` was seen), 0 for
  // one nothing that runs calls; nullopt when a loop around a call is not followable.
  std::optional<double> callsPerRun(const std::string& function) const;
  // For a finding's cost only (docs/findings.md, "Cost"): how many times one run calls
  // `function`, with the defaults of run-time options taken (`int nloops = 1;` changed only
  // under `getopt`) and a loop whose count is still not shown counted once and said
  // (`unknownLoops`: the caller multiplies by kAssumedLoopTrips, as for device loops);
  // `loops` says where the loops are. nullopt when a call's values are not known at all.
  struct AssumedRuns {
    double runs = 1;
    bool unknownLoops = false;
    std::vector<std::string> loops;  // "`kmeansCuda` in kmeans_clustering()": a loop around that call
    std::vector<std::string> defaults;  // "`nloops` 1": option defaults taken
    // Every chain of calls reaches `main` (none through a function only named elsewhere, a
    // callback, nor in a program without `main`): with no unknown loop and no default taken,
    // the runs are the program's own (KernelRecord::launchesShown).
    bool fromMain = false;
    // False: no call of it in the program's files, which reach it only as a root (a function
    // named but not called, or called from another folder): once (LaunchCollector::startsIn).
    bool called = true;
  };
  std::optional<AssumedRuns> callsPerRunAssumed(const std::string& function) const;
  // For a finding's cost only: the one value every call gives parameter `index`, run-time
  // options at their defaults (the histogram sample's `histogram64(..., byteCount)` with
  // `uint byteCount = 64 * 1048576;` in main.cpp, changed only under `-sizemult`); the
  // defaults taken, "`byteCount` 67108864", go to `defaults`.
  std::optional<int64_t> parameterDefault(const std::string& function, int index,
                                          std::vector<std::string>& defaults) const;
  // The one value every write of `record::member` that can run gives it.
  std::optional<int64_t> memberValue(const std::string& record, const std::string& member) const;
  // For a finding's cost only: the same with run-time options at their defaults (`pb->K = argc > 3
  // ? atoi(argv[3]) : 4096`); the defaults taken go to `defaults`, as parameterDefault's.
  std::optional<int64_t> memberDefault(const std::string& record, const std::string& member,
                                       std::vector<std::string>& defaults) const;
  // The bytes past its allocation every pointer written to `record::member` lies.
  std::optional<int64_t> memberPointerBytes(const std::string& record, const std::string& member) const;
  // The `<<<>>>` launches of `kernel` that the program's files make where code that runs makes
  // them (a kernel defined in one file and launched from another: cuSZp's entry files, a
  // kernels.cu beside main.cu): each axis of the grid and block and the dynamic shared memory
  // where every call gives one value, the integer arguments that are constants, where the
  // launch is, and how often one run makes it (nullopt when a loop's count is not shown).
  struct KernelLaunch {
    std::array<std::optional<int64_t>, 3> grid, block;
    std::optional<int64_t> sharedBytes;
    std::map<unsigned, int64_t> args;
    std::string where;
    std::string file;  // the file the launch is written in, as HostSummary::Call::site names it
    std::optional<double> runs;
    // A block the calls fix only with run-time options at their defaults ("`threads` 256"): the
    // default run's (Launch::blockDefaults); empty when `block` is fixed by the code itself.
    std::vector<std::string> blockDefaults;
  };
  // `templateArgs`: the instance's, as HostSummary::LaunchConfig::templateArgs (empty: a plain kernel).
  std::vector<KernelLaunch> launchesOf(const std::string& kernel, const std::string& templateArgs = {}) const;
  bool empty() const { return calls_.empty() && writes_.empty(); }
  bool defines(const std::string& function) const { return defined_.count(function) > 0; }

 private:
  bool complete_ = true;
  std::vector<HostSummary::Call> calls_;
  std::set<std::string> sites_;  // the calls' sites of the summaries added so far
  std::map<std::string, int64_t> constants_;
  std::vector<HostSummary::MemberWrite> writes_;
  std::set<std::string> defined_, roots_;
  mutable std::optional<std::set<std::string>> reachable_;
  // Set while a cost question runs (callsPerRunAssumed, parameterDefault): OptionDefault
  // values count as their defaults, which are collected here; otherwise they are unknown.
  mutable std::vector<std::string>* optionDefaults_ = nullptr;

  // Answers kept for the questions that recurse through the callers (parameterValues,
  // callsPerRun). Without them a chain of template wrappers asks each caller again for each
  // call: cudahandbook's globalCopy.cu (80 instances of one kernel, launched from 80 wrapper
  // instances, each called from 16 rows of 20 `Shmoo` instances) spent over 120 s there. An
  // answer is kept only where it cannot depend on the question it was asked inside: no
  // recursion or depth guard fired below it (Trace::guarded), and it is reused only where none
  // of the questions below it is open and the depth guard is as far away (Trace::visited,
  // deepest). The defaults it took are replayed (Trace::defaults), so that a run with option
  // defaults sees the same list as one that asked again.
  enum class Question { Values, Runs };
  struct Trace {
    Question question = Question::Values;
    size_t deepest = 0;  // the largest `open` size checked below the question
    bool guarded = false;
    std::set<std::pair<std::string, int>> visited;  // the questions asked below it (Runs: index 0)
    std::vector<std::string> defaults;              // OptionDefault values taken, in order, repeats too
  };
  struct Kept {
    std::optional<std::set<int64_t>> values;  // parameterValues
    std::optional<double> runs;               // callsPerRun
    size_t height = 0;                        // Trace::deepest less the `open` size it was asked at
    Trace trace;
  };
  using KeptKey = std::tuple<std::string, int, bool>;  // the question, and whether defaults are taken
  mutable std::map<KeptKey, Kept> keptValues_, keptRuns_;
  mutable std::vector<Trace*> traces_;  // the questions being answered, outermost first
  // The calls of each callee, in the order of calls_ (built on the first ask).
  mutable std::optional<std::unordered_map<std::string, std::vector<size_t>>> byCallee_;
  const std::vector<size_t>& callsOf(const std::string& callee) const;
  // A question met with `open` of `size`: every trace of its kind being made sees it.
  void visit(Question q, const std::pair<std::string, int>& asked, size_t size, bool guarded) const;
  void takeDefault(const std::string& taken) const;
  // Keeps `answer` for `key`, asked at `open` of `size`, unless its trace met a guard.
  void remember(std::map<KeptKey, Kept>& store, const KeptKey& key, Trace&& trace, size_t size, Kept answer) const;
  // Replays a kept answer's trace to the traces being made.
  void replay(Question q, const Kept& kept, size_t size) const;
  std::optional<AssumedRuns> callsPerRunAssumed(const std::string& function, std::set<std::string>& open) const;

  const std::set<std::string>& reachable() const;
  // The values `v` (an argument of `call`, when it is one) can take; nullopt: unknown (or
  // followed too deep).
  std::optional<std::set<int64_t>> valuesOf(const SummaryValue& v, const HostSummary::Call* call,
                                            std::set<std::pair<std::string, int>>& open) const;
  // The values a loop's counter takes, in order; nullopt when not followable or longer than
  // kMaxLoopValues.
  std::optional<std::vector<int64_t>> loopValues(const SummaryLoop& loop) const;
  // The runs of a call per run of its caller's body: the trip counts of its loops but `except`.
  std::optional<double> loopTrips(const HostSummary::Call& call, int except = -1) const;
  std::optional<double> callsPerRun(const std::string& function, std::set<std::string>& open) const;
  std::optional<std::map<int64_t, double>> parameterRuns(const std::string& function, int index,
                                                         std::set<std::pair<std::string, int>>& open) const;
  std::optional<std::set<int64_t>> parameterValues(const std::string& function, int index,
                                                   std::set<std::pair<std::string, int>>& open) const;
};

}  // namespace coalesce::analysis
