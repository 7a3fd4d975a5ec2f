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
  // The kernels a launch's callee can be: the kernel named, or every kernel a function
  // pointer is given (a local's initialiser and assignments, a wrapper's argument at the
  // call site `env` stands for). Empty when none is known.
  std::vector<const clang::FunctionDecl*> kernelsOf(const clang::Expr* callee, const HostEnv* env, int depth = 0);
  // The values the variables a host loop before a launch steps have when it ends (`for (;
  // log2N > 11; log2N -= 2, N >>= 2)`), from their entry values; empty when not all known.
  std::map<const clang::ValueDecl*, int64_t> valuesAfterLoop(const clang::ForStmt* loop, const clang::FunctionDecl* fn,
                                                             const HostEnv* env);

 private:
  clang::ASTContext& ctx_;
  std::function<const ProgramFacts*()> programFacts_;
  const ProgramFacts* programFacts() const { return programFacts_ ? programFacts_() : nullptr; }
  std::optional<int64_t> programParameterValue(const clang::ParmVarDecl* parm);
  std::map<const clang::ValueDecl*, bool> reassigned_;
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

 private:
  // The value of the one assignment to a local declared without one, when that assignment is
  // a statement of the function's body itself (it always runs); else null.
  const clang::Expr* onlyAssignment(const clang::VarDecl* var);
  std::map<const clang::VarDecl*, const clang::Expr*> onlyAssignment_;
  void applyMemberAssignments(const clang::VarDecl* var, Dim3Axes& d, const HostEnv* env);
  std::optional<int64_t> memberConstant(const clang::MemberExpr* m, const HostEnv* env, int depth);
  std::optional<int64_t> returnedConstant(const clang::CallExpr* call, const HostEnv* env, int depth);
  std::deque<HostEnv> callEnvs_;  // returnedConstant: the bindings of the calls followed (stable addresses)
  bool memberAssigned(const clang::VarDecl* var, const clang::FieldDecl* field);
};

// A parameter's argument at the call site `env` stands for, if it has one.
const HostEnv::Arg* argumentOf(const clang::Expr* e, const HostEnv* env);

}  // namespace coalesce::analysis
