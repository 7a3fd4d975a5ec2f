// Values the host code shows for a launch's arguments: integer constants (through locals,
// arithmetic, ?:, min/max, struct members with constant initialisers and the parameters of
// wrappers, read at their call sites), dim3 block and grid shapes (including Rodinia's
// member-by-member `threads.x = 16;` and make_uint3), the kernels a function pointer can
// hold, and the bytes a pointer argument lies past the start of its allocation (`buf + 3`).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coalesce/model/access_model.h"
#include "function_parents.h"
#include "program_facts.h"

namespace coalesce::analysis {

// A block or grid's extents axis by axis; nullopt: computed at run time.
using Dim3Axes = std::array<std::optional<int64_t>, 3>;

// Host-side values of the parameters of the function a launch sits in, taken from one of
// its call sites: `void run(float* p, int threads) { k<<<g, threads>>>(p); }` called as
// run(p, 128). Arguments are read lazily, in the caller's own environment (which may come
// from its callers in turn).
struct HostEnv {
  struct Arg {
    const clang::Expr* expr;
    const HostEnv* env;  // the caller's; null: none
  };
  std::map<const clang::ParmVarDecl*, Arg> params;
  // Values the code around one launch fixes: `case 512:` of a `switch (threads)`, the
  // then-branch of `if (block_size == 16)` (launch_collector.cpp, launchFacts).
  std::map<const clang::ValueDecl*, int64_t> facts;
  // The same for an axis of a dim3 variable: `case 512:` of `switch (dimBlock.x)` (0 x, 1 y, 2 z).
  std::map<std::pair<const clang::ValueDecl*, int>, int64_t> axisFacts;
  std::string via;  // ", called at a.cu:88" (outermost call last)
};

class HostValues {
 public:
  explicit HostValues(clang::ASTContext& ctx) : ctx_(ctx) {}

  // What the rest of the program's host code says of a value this file leaves open (a
  // wrapper's parameter with no call site here, a member written elsewhere: program_facts.h),
  // asked for only then; the provider may return null.
  void useProgramFacts(std::function<const ProgramFacts*()> provider) { programFacts_ = std::move(provider); }

  // `v.x`, `v.y`, `v.z` of a variable `v`: the variable and the axis (0, 1, 2); else null.
  static std::pair<const clang::ValueDecl*, int> referencedAxis(const clang::Expr* e);

  // An integer constant, or nullopt.
  std::optional<int64_t> constantOf(const clang::Expr* e, const HostEnv* env = nullptr, int depth = 0);
  // Bytes a pointer argument lies past the start of its allocation, as far as the host code
  // shows it; 0 when nothing is added to a pointer the code knows no more of (a cudaMalloc'd
  // one: the stated assumption).
  int64_t pointerByteOffset(const clang::Expr* e, const HostEnv* env, int depth = 0);
  // A block or grid argument: an integer, dim3(x, y, z), or a dim3 local built from constants.
  std::optional<model::Dim3> dim3Of(const clang::Expr* e, const HostEnv* env, int depth = 0);
  // The same, axis by axis: `dim3 block(1, n)` with n computed at run time fixes x alone.
  Dim3Axes dim3AxesOf(const clang::Expr* e, const HostEnv* env, int depth = 0);
  // A block or grid held in a file-scope dim3 that `launching`, the function of the launch,
  // sets member by member (`threadsPerBlock.x = 16;`): the axes it assigns one constant each,
  // and, for a variable of the unit's own that nothing else writes there, the initialiser's
  // other axes (host_file_scope_shapes.cpp). Nothing known for anything else.
  Dim3Axes fileScopeDim3(const clang::Expr* e, const clang::FunctionDecl* launching, const HostEnv* env);
  // The kernels a launch's callee can be: the kernel named, or every kernel a function
  // pointer is given (a local's initialiser and assignments, a wrapper's argument at the
  // call site `env` stands for). Empty when none is known.
  std::vector<const clang::FunctionDecl*> kernelsOf(const clang::Expr* callee, const HostEnv* env, int depth = 0);
  // The values the variables a host loop before a launch steps have when it ends (`for (;
  // log2N > 11; log2N -= 2, N >>= 2)`), from their entry values; empty when not all known.
  std::map<const clang::ValueDecl*, int64_t> valuesAfterLoop(const clang::ForStmt* loop, const clang::FunctionDecl* fn,
                                                             const HostEnv* env);

  // A grid under the program's one default for the sizes its code does not fix, for a
  // finding's cost only (launch_requests.cpp; host_sizes.cpp): every axis evaluated as
  // dim3AxesOf does, with each unknown leaf (a global read from the input, `atoi(argv[1])`,
  // a parameter no call site fixes, a member of a struct filled at run time) taken as
  // kAssumedRuntimeValue, so that grids over `Size` and over `Size * Size` keep their ratio.
  // Nothing when an axis is not followable (a device query, a call whose result the code
  // does not show, floating-point arithmetic it cannot read) or comes out below 1.
  // The counter of a host `for` loop around the launch (`around`, outermost first; lud's
  // `(matrix_dim - i) / BLOCK_SIZE - 1`) is taken at the middle of its range under the same
  // defaults: the launch's average grid over the loop, where a counter at the default would
  // leave no block.
  struct DefaultedGrid {
    model::Dim3 grid;
    std::vector<std::string> leaves;    // the leaves taken at the default, as written
    std::vector<std::string> counters;  // "`i` at 2032": the loop counters at their middle
    std::vector<std::string> options;   // "`byteCount` 67108864": run-time options at their defaults
  };
  std::optional<DefaultedGrid> gridWithDefaults(const clang::Expr* e, const HostEnv* env,
                                                const std::vector<const clang::ForStmt*>& around);
  // A kernel's integer argument under the same defaults as its grid, for the cost only
  // (session 14; launch_collector.cpp, Launch::costArgValues): `n = byteCount / 4` with
  // `byteCount` at its option's default, so that a guard `i < n` or a loop `i < n` counts the
  // blocks and trips of the grid the cost counts. Nothing when the expression is not followable.
  struct DefaultedValue {
    int64_t value = 0;
    std::vector<std::string> leaves, counters, options;  // as DefaultedGrid's
  };
  std::optional<DefaultedValue> valueWithDefaults(const clang::Expr* e, const HostEnv* env,
                                                  const std::vector<const clang::ForStmt*>& around);

 private:
  clang::ASTContext& ctx_;
  FunctionParents parents_;  // the host walks' parents, per function (not the whole unit's)
  std::function<const ProgramFacts*()> programFacts_;
  const ProgramFacts* programFacts() const { return programFacts_ ? programFacts_() : nullptr; }
  std::optional<int64_t> programParameterValue(const clang::ParmVarDecl* parm);
  // In gridWithDefaults' mode: the one value the program's calls give `parm` with run-time
  // options at their defaults (ProgramFacts::parameterDefault).
  std::optional<int64_t> programParameterDefault(const clang::ParmVarDecl* parm);
  std::map<const clang::ValueDecl*, bool> reassigned_;
  std::map<const clang::VarDecl*, bool> onlyAddressTaken_;  // onlyAddressTaken's answers
  std::map<const clang::VarDecl*, std::optional<int64_t>> optionDefaults_;
  bool readsCommandLine(const clang::Stmt* s, const clang::FunctionDecl* fn, int depth);
  std::vector<const clang::VarDecl*> pointersFollowed_;  // kernelsOf: the function pointers followed for one question

  // How deep expressions, locals and wrapper parameters are followed.
  static constexpr int kMaxDepth = 64;
  // Iterations of a host loop valuesAfterLoop steps through before it gives up.
  static constexpr int kMaxHostLoopSteps = 64;

  std::vector<const clang::VarDecl*> offsetsFollowed_;  // commonOffsetOfValues: the locals followed for one question

  std::optional<std::vector<const clang::Expr*>> plainValues(const clang::VarDecl* var);
  std::optional<int64_t> commonOffsetOfValues(const clang::VarDecl* var, const HostEnv* env, int depth);

 public:
  bool isReassigned(const clang::ValueDecl* decl);
  bool countsLoopAround(const clang::VarDecl* var, const clang::Expr* use);
  // The default of a run-time option (host_options.cpp): a local integer initialised with a
  // constant that every later write changes only under a condition reading the command line
  // (`uint byteCount = 64 * 1048576; if (checkCmdLineFlag(argc, argv, "sizemult")) byteCount
  // *= ...;`, `int nloops = 1;` set in a `switch` over getopt's result). For a finding's cost
  // only: the figures keep such a local unknown.
  std::optional<int64_t> optionDefault(const clang::VarDecl* var);
  // `argc > 3 ? atoi(argv[3]) : 4096` in `fn` (either arm order): the constant arm, where the
  // condition and the other arm read the command line (cudahandbook's `pb->K = ...` in its
  // setup function, a local's initialiser). For a finding's cost only, as optionDefault.
  std::optional<int64_t> conditionalOptionDefault(const clang::Expr* e, const clang::FunctionDecl* fn);
  // A local whose only writes in its function are `&var` handed to calls (`setup(&pb, argc,
  // argv)`): its members are what the program's writes through pointers give them.
  bool onlyAddressTaken(const clang::VarDecl* var);

 private:
  // The value of the one assignment to a local declared without one, when that assignment is
  // a statement of the function's body itself (it always runs); else null.
  const clang::Expr* onlyAssignment(const clang::VarDecl* var);
  // The value a local holds at `use`: its initialiser or the last whole assignment on every
  // path to the read (`block = 128;` before a launch), null when a write could reach it
  // otherwise (reaching_assignment.cpp).
  const clang::Expr* reachingValue(const clang::VarDecl* var, const clang::Expr* use);
  std::map<const clang::VarDecl*, const clang::Expr*> onlyAssignment_;
  // What applyMemberAssignments found in a function: the axes it assigned, whether it assigned
  // another member, or wrote the whole variable.
  struct AxisWrites {
    bool assigned[3] = {false, false, false};
    bool otherMember = false, whole = false;
  };
  AxisWrites applyMemberAssignments(const clang::FunctionDecl* fn, const clang::VarDecl* var, Dim3Axes& d,
                                    const HostEnv* env);
  // Per file-scope dim3, the axes each function body the unit defines writes
  // (host_file_scope_shapes.cpp), listed once per variable.
  std::map<const clang::VarDecl*, std::vector<std::pair<const clang::Stmt*, std::array<bool, 3>>>> fileScopeWriters_;
  std::optional<int64_t> memberConstant(const clang::MemberExpr* m, const HostEnv* env, int depth);
  // gridWithDefaults' mode: set while it runs, constantOf takes unknown leaves at the default.
  struct SizeDefaults {
    std::vector<std::string> leaves;
    bool unfollowable = false;  // a leaf that is no size of the input: the whole answer is void
    std::vector<const clang::ValueDecl*> factsRead;  // HostEnv::facts the answer used
    std::vector<const clang::ValueDecl*> axesFollowed;  // dim3 variables whose axes are being read
    std::vector<std::string> options;  // run-time options taken at their defaults (optionDefault)
  };
  SizeDefaults* defaults_ = nullptr;
  // In that mode: the default for a leaf the code does not fix, or nothing (host_sizes.cpp).
  std::optional<int64_t> defaultedLeaf(const clang::Expr* e);
  // A floating-point expression over what constantOf reads (`ceil(n / (float)256)`), in that mode.
  std::optional<double> realOf(const clang::Expr* e, const HostEnv* env, int depth);
  std::string leafText(const clang::Expr* e) const;
  // In that mode: whether an `if` around `s` in `fn` takes the other arm under the defaults
  // (myocyte's `if (workload == 1)` with `workload` at 4096), and the value a local declared
  // without one has at `use`: its assignments in arms the defaults make live, in order.
  bool deadUnderDefaults(const clang::Stmt* s, const clang::FunctionDecl* fn, const HostEnv* env);
  std::optional<int64_t> assignedUnderDefaults(const clang::VarDecl* var, const clang::Expr* use, const HostEnv* env,
                                               int depth);
  std::vector<const clang::VarDecl*> assignedFollowed_;  // assignedUnderDefaults: the locals being read
  // Runs `read` in that mode, the counters of the loops `around` (outermost first) at their
  // middle, and collects what it took at a default; false when a leaf voids the answer.
  bool readUnderDefaults(const HostEnv* env, const std::vector<const clang::ForStmt*>& around,
                         const std::function<void(const HostEnv*)>& read, std::vector<std::string>& leaves,
                         std::vector<std::string>& counters, std::vector<std::string>& options);
  // In that mode: a `for` loop's counter at the middle of its range (host_sizes.cpp).
  std::optional<std::pair<const clang::VarDecl*, int64_t>> middleOfLoop(const clang::ForStmt* loop, const HostEnv* env);
  // A call that reads a number from the command line (`atoi(argv[1])`, the samples'
  // getCmdLineArgumentInt): a size of the input.
  static bool parsesInput(const clang::Expr* e);

 public:
  // A `for` loop of one counter, as written (host_sizes.cpp): `for (T v = start; v CMP bound; v
  // STEP)`, or `v = start` as its init; STEP `++`, `--` or a compound assignment. Its values are
  // the readers' to take (middleOfLoop, launch_counters.cpp's sweep); null for another form.
  struct CounterLoop {
    const clang::VarDecl* var = nullptr;
    const clang::Expr* start = nullptr;  // null: declared without a value
    clang::BinaryOperatorKind compare = clang::BO_LT;
    const clang::Expr* bound = nullptr;
    clang::BinaryOperatorKind step = clang::BO_AddAssign;  // `++` and `--` add
    const clang::Expr* by = nullptr;     // the compound assignment's right side; null for ++ and --
    int64_t unit = 1;                    // ++: 1, --: -1 (when `by` is null)
  };
  static std::optional<CounterLoop> counterLoop(const clang::ForStmt* loop);
  // The host walks' parents, per function (function_parents.h), for the launch collector's too.
  FunctionParents& parents() { return parents_; }

 private:
  std::optional<int64_t> returnedConstant(const clang::CallExpr* call, const HostEnv* env, int depth);
  std::deque<HostEnv> callEnvs_;  // returnedConstant: the bindings of the calls followed (stable addresses)
  bool memberAssigned(const clang::VarDecl* var, const clang::FieldDecl* field);
};

// A parameter's argument at the call site `env` stands for, if it has one.
const HostEnv::Arg* argumentOf(const clang::Expr* e, const HostEnv* env);

}  // namespace coalesce::analysis
