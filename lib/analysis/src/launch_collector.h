// Launch collection: walks a translation unit (device pass) for its kernels and every
// launch (`<<<grid, block>>>`, cudaLaunchKernel, cudaLaunchCooperativeKernel; of a kernel
// named or held in a function pointer), then resolves each launch's block, grid, constant
// arguments and pointer offsets, as written or, when they come from the parameters of the
// function holding the launch, per call site of it (up to kCallerDepth callers,
// analysis_policy.h). A `switch` case or an `if (x == 16)` around the launch fixes x there.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <deque>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coalesce/model/access_model.h"
#include "host_values.h"
#include "size_caps.h"

namespace coalesce::analysis {

// One launch of a kernel, as the host code fixes it.
struct Launch {
  model::Dim3 block;
  bool blockKnown = true;  // false: the block is not a constant here; the fallback shape is used
  Dim3Axes blockAxes;      // when not known: the axes the launch does fix (`dim3(1, n)`: x)
  // A block computed at run time under a constant cap (size_caps.h): `block` is the cap, and
  // this says where it came from; empty for a block written as a constant.
  std::string blockCap;
  // A block computed from run-time options, at their defaults (`blockx` 16 when only
  // `if (argc > 2) blockx = atoi(argv[2]);` changes it): `block` is the program's default run's,
  // and these name the options ("`blockx` 16"); empty for a block written as a constant.
  std::vector<std::string> blockDefaults;
  std::optional<model::Dim3> grid;
  // When `grid` is not known: the grid under the program's one default for the sizes the
  // code does not fix, for the cost only (HostValues::gridWithDefaults), and those sizes.
  std::optional<model::Dim3> costGrid;
  std::vector<std::string> costGridLeaves;
  std::vector<std::string> costGridCounters;  // host loop counters taken at their middle
  std::vector<std::string> costGridOptions;   // run-time options taken at their defaults (host_options.cpp)
  std::map<unsigned, int64_t> argValues;       // parameter index -> constant argument
  // Integer arguments that are no constant, under the same defaults as costGrid, for the cost
  // only (HostValues::valueWithDefaults): `byteCount / 4` with `byteCount` at its option's default.
  std::map<unsigned, HostValues::DefaultedValue> costArgValues;
  std::map<unsigned, int64_t> pointerOffsets;  // pointer parameter index -> bytes past its allocation
  std::string how = "the launch";              // or "the cudaLaunchKernel"
  std::string where;                           // "file.cu:40", with what the launch was seen through
  std::optional<int64_t> dynamicSharedBytes;   // the dynamic shared memory it asks for, when constant (0 if absent)
  // How many times one run of the program makes this launch, where the program's host code
  // shows it (a wrapper called from another file: ProgramFacts::callsPerRun, parameterRuns,
  // times the loops around the launch in the wrapper); the figures of a kernel whose launches
  // all have one are their mix (record_builder.cpp).
  std::optional<double> runs;
};

class LaunchCollector : public clang::RecursiveASTVisitor<LaunchCollector> {
 public:
  explicit LaunchCollector(clang::ASTContext& ctx)
      : sm_(ctx.getSourceManager()), lang_(ctx.getLangOpts()), values_(ctx), caps_(ctx, values_) {}
  // The rest of the program's host code, for the values this file leaves open (host_values.h).
  void useProgramFacts(std::function<const ProgramFacts*()> provider) {
    programFacts_ = provider;
    values_.useProgramFacts(std::move(provider));
  }
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(clang::Decl* d);
  bool VisitFunctionDecl(clang::FunctionDecl* fn);
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* call);
  bool VisitCallExpr(clang::CallExpr* call);

  // After the walk: the launches of every kernel.
  void resolveLaunches();
  // After resolveLaunches: the kernels this unit defines and launches nowhere, launched by name
  // from the program's other files (ProgramFacts::launchesOf): those files' launches.
  void launchesFromOtherFiles();
  // After resolveLaunches: kernels launched from member functions that code outside the
  // program's folder calls, beside kernels launched only while constructing their class
  // (launch_repeats.cpp).
  void perObjectCounts();
  // After the walk: the kernels the host chooses between at run time for one job
  // (launch_alternatives.cpp).
  void findAlternatives();

  std::vector<const clang::FunctionDecl*> kernels;                     // in the order they are met
  std::map<const clang::FunctionDecl*, std::vector<Launch>> launches;  // by canonical kernel
  // How often one run of the program launches each kernel (by canonical kernel), over all
  // its launch sites: the trip counts of the host loops around them (launch_repeats.cpp).
  struct Runs {
    double runs = 1;
    bool unknownLoops = false;       // a loop whose trip count the host code does not show
    std::vector<std::string> loops;  // where the loops around the launches are, "a.cu:40"
    int sites = 0;                   // launch sites counted
    std::vector<std::string> optionDefaults;  // run-time options the counts took at their defaults
    // Calls in the program's other files with loops around them: "`kmeansCuda` in kmeans_clustering()".
    std::vector<std::string> programLoops;
    // Arms of `if (i % k == 0)` taken once in k iterations of a loop around them (everyNth):
    // "1 in 10 of the iterations (`step % 10 == 0` at a.cu:88)".
    std::vector<std::string> sampled;
    // Every path counted starts in the program's `main` (no caller cut off at kCallerDepth or
    // kMaxCallSites, none through a callback or in a program without `main`): what
    // KernelRecord::launchesShown needs with the loops' counts.
    bool fromMain = false;
    // Some path goes through a function only the program's other files call (their `main`,
    // a driver .cpp): the unit is part of a program, not one of its own
    // (KernelRecord::launchedFromMain).
    bool throughOtherFiles = false;
    // Where the paths counted start when no code the analysis sees calls their first function
    // (perObjectCounts, launch_repeats.cpp): the classes whose constructor one starts in, the
    // member functions one starts in (code outside the program's folder calls them: a
    // framework, a virtual call), and whether one starts anywhere else (`main`, a free
    // function, a path cut off at kCallerDepth).
    std::set<const clang::CXXRecordDecl*> constructedBy;
    std::set<const clang::CXXMethodDecl*> calledFromOutside;
    bool otherStarts = false;
    void addStarts(const Runs& r) {
      constructedBy.insert(r.constructedBy.begin(), r.constructedBy.end());
      calledFromOutside.insert(r.calledFromOutside.begin(), r.calledFromOutside.end());
      otherStarts = otherStarts || r.otherStarts;
    }
    // Set by perObjectCounts: what the count per object rests on, for launchesBasis.
    std::string perObject;
    // With `runs` 0: the function on every path that nothing in the program's files calls or
    // names, in a program whose `main` they show (withProgramCalls): the launch never runs.
    std::string uncalled;
  };
  std::map<const clang::FunctionDecl*, Runs> runs;
  // Per canonical kernel, its launch sites here that launch nothing: every call of the
  // function holding one gives values that make a condition around it false (`if (sortDir)
  // k<1U><<<...>>>(); else k<0U><<<...>>>();` called with sortDir 1). Where they are.
  std::map<const clang::FunctionDecl*, std::vector<std::string>> deadSites;
  // Per canonical kernel, its launch sites here in functions nothing in the program calls
  // (Runs::uncalled): "simt_naive.cu:31, through `simtNaive`".
  std::map<const clang::FunctionDecl*, std::vector<std::string>> uncalledSites;
  // Per canonical kernel, its place among alternatives of one job the host chooses between
  // at run time (records.h, RunTimeChoice; the kernels still as declarations).
  struct Alternatives {
    std::string selector, where, evidence;  // selector empty: variants run in turn, nothing chooses
    int arms = 0, arm = 0;
    struct Arm {
      int arm = 0;
      std::string call;
      std::vector<const clang::FunctionDecl*> kernels;
    };
    std::vector<Arm> others;
  };
  std::map<const clang::FunctionDecl*, Alternatives> alternatives;
  // After the walk: the GPU library work (library_work.h) that one run of the program repeats
  // most, counted as launches are (runsOf), when some is made at least twice per run: what
  // tells a kernel launched once beside it a setup kernel (KernelRecord::repeatedWork).
  struct RepeatedWork {
    std::string sentence;  // "`cublasDgemm` (a.cu:140), in the host loop at a.cu:287"
    double runs = 0;       // per run of the program, loops the code does not count at kAssumedLoopTrips
  };
  std::optional<RepeatedWork> repeatedLibraryWork();

 private:
  clang::SourceManager& sm_;
  const clang::LangOptions& lang_;
  HostValues values_;
  SizeCaps caps_;  // blocks computed at run time under a cap, read where values_ finds no constant
  struct Walked {
    const clang::FunctionDecl* fn;
    bool inSystemHeader;
  };
  std::vector<Walked> functions_;  // the functions being walked, innermost last
  struct PendingLaunch {
    const clang::Expr* call;    // the `<<<>>>` or cudaLaunchKernel call
    const clang::Expr* callee;  // the kernel, or a function pointer to it
    const clang::Expr* grid;
    const clang::Expr* block;
    std::vector<const clang::Expr*> args;  // the kernel's arguments (none for cudaLaunchKernel)
    std::string how;                       // "the launch", "the cudaLaunchKernel"
    const clang::FunctionDecl* holder;     // the function it sits in
    const clang::Expr* sharedBytes;        // the dynamic shared memory argument; nullptr: none (0)
  };
  // A value the code around a launch fixes: `var` is `value` there.
  struct Equality {
    const clang::Expr* var;  // a reference to the variable
    const clang::Expr* value;
  };
  std::vector<PendingLaunch> pendingLaunches_;
  struct CallSite {
    const clang::CallExpr* call;
    const clang::FunctionDecl* caller;
  };
  std::map<const clang::FunctionDecl*, std::vector<CallSite>> callsOf_;
  struct LibraryCall {
    const clang::CallExpr* call;
    const clang::FunctionDecl* holder;
    std::string name;
  };
  std::vector<LibraryCall> libraryCalls_;  // library_work.h, in the user's host code
  std::function<const ProgramFacts*()> programFacts_;
  std::deque<HostEnv> envs_;  // stable addresses: environments point at their callers'
  std::map<std::pair<const clang::FunctionDecl*, int>, std::vector<const HostEnv*>> envsOf_;  // environmentsOf, once

  std::string locationText(clang::SourceLocation loc) const;
  // A host loop around a launch whose counter an argument reads, and the values of it the
  // launch is analysed with (launch_counters.cpp).
  struct CounterSweep {
    const clang::VarDecl* counter = nullptr;
    std::string where;           // the loop, "a.cu:95"
    size_t count = 0;            // the values the counter takes
    std::vector<int64_t> taken;  // those analysed, evenly spaced, each an equal share of the runs
  };
  std::optional<CounterSweep> counterSweep(const PendingLaunch& p, const std::vector<const clang::ForStmt*>& around);
  // Each environment once per value taken, with the counter fixed and its share of the runs.
  void sweepCounter(const CounterSweep& sweep, std::vector<const HostEnv*>& envs,
                    std::vector<std::optional<double>>& envRuns);
  std::vector<const HostEnv*> environmentsOf(const clang::FunctionDecl* fn, int depth);
  void spreadOverProgramCalls(const clang::FunctionDecl* holder, std::vector<const HostEnv*>& envs,
                              std::vector<std::optional<double>>& envRuns);
  const clang::ParentMap& parentsOf(const clang::FunctionDecl* holder);
  std::vector<std::pair<const clang::Expr*, bool>> enclosingConditions(const clang::Stmt* call,
                                                                      const clang::FunctionDecl* holder);
  std::vector<const clang::ForStmt*> enclosingForLoops(const clang::Stmt* call, const clang::FunctionDecl* holder);
  std::vector<const clang::ForStmt*> precedingLoops(const clang::Stmt* call, const clang::FunctionDecl* holder);
  std::vector<Equality> enclosingEqualities(const clang::Stmt* call, const clang::FunctionDecl* holder);
  Runs runsOf(const clang::Stmt* call, const clang::FunctionDecl* holder, int depth);
  Runs withProgramCalls(Runs out, const clang::FunctionDecl* holder);
  // A path whose first function nothing the analysis sees calls: where it starts (Runs).
  static void startsIn(Runs& out, const clang::FunctionDecl* holder);
  std::optional<int64_t> hostTripCount(const clang::Stmt* loop);
  bool loopOverDevices(const clang::Stmt* loop);  // a `for` whose body selects the GPU by its counter
  std::map<const clang::Stmt*, bool> deviceLoops_;  // loopOverDevices, once per loop
  struct EveryNth {
    double share = 1;                               // of the loop's iterations that take the arm
    std::vector<const clang::VarDecl*> dividend;    // i of `i % k`: a loop writing one of them
    std::string text;
  };
  std::optional<EveryNth> everyNth(const clang::IfStmt* branch, const clang::Stmt* child);
  std::string sourceText(const clang::Expr* e) const;
  // Whether `e` reads the counter of a host `for` loop whose body holds it
  // (HostValues::countsLoopAround) and that `env` does not fix.
  bool readsLoopCounter(const clang::Stmt* e, const HostEnv* env = nullptr);
  // launch_alternatives.cpp: the arm of a selection a statement sits in, and the call it makes there.
  struct ArmOf {
    const clang::Stmt* selector;  // the `switch`, or the first `if` of an `else if` chain
    int arm;                      // 0-based, in source order
    const clang::Stmt* entry;     // the launch, or the call towards it, in that arm
  };
  void armsAround(const clang::Stmt* s, const clang::FunctionDecl* fn, int depth, std::vector<ArmOf>& out);
  std::string argumentText(const clang::Expr* e) const;
  bool sameArguments(const clang::CallExpr* a, const clang::CallExpr* b) const;
  void findVariantsRunInTurn();  // launch_alternatives.cpp: the third form, after the two others
  std::string selectorText(const clang::Stmt* selector) const;
};

}  // namespace coalesce::analysis
