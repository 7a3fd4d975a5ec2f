// The abstract interpreter over one kernel's body: walks its statements in order, keeps a
// symbolic value per variable (interpreter_state.h) and records every memory access,
// branch and barrier it passes, with the guards in force (KernelEvents).
//
// One class, its definitions cut by job as the Clang Static Analyzer cuts ExprEngine:
//   interpreter.cpp              binding the kernel's parameters, values, register records
//   interpreter_memory.cpp       lvalues -> memory locations, loads, recording accesses
//   interpreter_expressions.cpp  expressions: casts, operators, ?:, declarations' values
//   interpreter_calls.cpp        calls: inlining __device__ functions, methods, constructors
//   cuda_intrinsics.cpp          the CUDA built-ins a call may name (atomics, shuffles, __ldg,
//                                cooperative groups, barriers), from system headers only
//   interpreter_statements.cpp   statements: blocks, early returns, if, switch
//   loop_summary.cpp             loops: induction variables, exits, values after the loop
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/model/arch.h"
#include "interpreter_state.h"

namespace coalesce::analysis {

// A block-wide barrier: __syncthreads and its variants, cooperative groups' block sync
// (cuda_intrinsics.cpp); inline PTX that synchronises the block (barrier_skippers.cpp).
bool isBlockBarrier(const clang::CallExpr* call);
bool asmHoldsBarrier(const clang::GCCAsmStmt* a);

class Interpreter {
 public:
  Interpreter(clang::ASTContext& ctx, SymbolTable& symbols, const model::Arch& arch)
      : ctx_(ctx), sm_(ctx.getSourceManager()), symbols_(symbols), arch_(arch) {}

  // Binds the kernel's parameters; returns, per parameter index, its symbol (integers).
  std::map<unsigned, int> bindKernelParams(const clang::FunctionDecl* fn);
  // Walks the kernel's body.
  void run(const clang::FunctionDecl* fn);
  const KernelEvents& events() const { return events_; }

 private:
  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  SymbolTable& symbols_;
  const model::Arch& arch_;
  InterpreterState state_;
  KernelEvents events_;

  // ---- values (interpreter.cpp) ---------------------------------------------------------
  ExprRef opaque(const std::string& name);
  ExprRef opaqueLike(const std::vector<ExprRef>& inputs, const std::string& name);
  Value intValue(ExprRef e);
  ExprRef asInt(const Value& v);
  static bool uniformPointer(const Value& v);
  ExprRef pointerAsInt(const Value& v, const clang::Expr* e);
  std::string text(clang::SourceRange r);
  int64_t sizeOf(clang::QualType t);
  int64_t alignOf(clang::QualType t);
  RootRef rootForVar(const clang::VarDecl* var);
  ExprRef conjunction(size_t fromDepth) const;
  bool uniformValue(const Value& v) const;
  Value fieldOf(const Value& base, const clang::FieldDecl* field);
  bool assignRegister(const clang::Expr* target, const Value& v);
  Value merge(const ExprRef& cond, const Value& a, const Value& b);

  // ---- memory (interpreter_memory.cpp) --------------------------------------------------
  std::optional<Value> pointerOf(const clang::Expr* e);
  std::optional<MemLoc> location(const clang::Expr* e);
  Value loaded(const MemLoc& loc);
  void stored(const MemLoc& loc, const Value& v);
  // Whether `loc` is the calling thread's own slot of a shared array, `sec[threadIdx.x]`.
  bool ownSharedSlot(const MemLoc& loc);
  void memoryMayChange();
  // `placedAt`: where the instruction lands when it starts on another line than `site` (a
  // whole-record copy's stores, on its source value's line: interpreter_calls.cpp).
  void record(model::AccessKind kind, const MemLoc& loc, const clang::Expr* site,
              const clang::Expr* placedAt = nullptr);
  Value readLvalue(const clang::Expr* e);
  Value readRecord(const clang::Expr* e);
  RawAccess currentGuards() const;
  bool userCode(const clang::Stmt* s) const;
  void recordBranch(BranchKind kind, const ExprRef& cond, const clang::Expr* condExpr, const clang::Stmt* at);

  // ---- expressions (interpreter_expressions.cpp) ----------------------------------------
  Value eval(const clang::Expr* e);
  Value initList(const clang::InitListExpr* list);
  Value generic(const clang::Expr* e);
  Value declRef(const clang::DeclRefExpr* ref);
  Value cast(clang::CastKind kind, const clang::Expr* sub);
  Value unaryOp(const clang::UnaryOperator* un);
  Value updateVariable(const clang::Expr* target, llvm::function_ref<Value(const Value&)> update, bool returnNew);
  Value combine(Op op, const Value& l, const Value& r, const clang::Expr* lhs, const clang::Expr* rhs);
  Value binaryOp(const clang::BinaryOperator* bin);
  Value conditional(const clang::ConditionalOperator* c);

  // ---- calls (interpreter_calls.cpp) ------------------------------------------------------
  Value callExpr(const clang::CallExpr* call);
  Value opaqueCall(const clang::CallExpr* call, const clang::FunctionDecl* fn, const std::string& name);
  static bool pureLibraryMethod(const clang::CXXMethodDecl* method);
  Value construct(const clang::CXXConstructExpr* ctor);
  bool inlinable(const clang::FunctionDecl* fn) const;
  Value inlineConstructor(const clang::CXXConstructorDecl* cd, const std::vector<Value>& args);
  Value inlineCall(const clang::FunctionDecl* fn, const clang::CallExpr* call);
  // `&record` of a record held in registers, given where a `target` pointer is expected: the
  // record's value. A pointer to non-const only when `allowWrites` (a call's argument, whose
  // writes the call copies back); a local pointer could alias it unseen. nullopt otherwise.
  std::optional<Value> registerRecordAddress(const clang::Expr* e, clang::QualType target, bool allowWrites = false);

  // ---- CUDA built-ins (cuda_intrinsics.cpp) ----------------------------------------------
  // The value of a call to a CUDA intrinsic declared in a system header, or nullopt when the
  // callee is none of them.
  std::optional<Value> cudaIntrinsic(const clang::CallExpr* call, const clang::FunctionDecl* fn,
                                     const std::string& name);
  std::optional<Value> cooperativeGroups(const clang::CallExpr* call);
  void synchronisation(const clang::CallExpr* call, const std::string& name);

  // ---- threads that skip a barrier and then exit (barrier_skippers.cpp) -----------------
  void noteBarrierSighting();
  bool mayHoldBarrier(const clang::FunctionDecl* fn);
  std::map<const clang::FunctionDecl*, bool> mayHoldBarrier_;
  void markSkippersThatExit();
  // One handler per row of cuda_intrinsics.cpp's table.
  Value atomicCall(const clang::CallExpr* call, const std::string& name);
  Value hintedStore(const clang::CallExpr* call, const std::string& name);
  Value shuffle(const clang::CallExpr* call, const std::string& name);
  Value makeVector(const clang::CallExpr* call, const std::string& name);
  Value hintedLoad(const clang::CallExpr* call, const std::string& name);
  Value integerMinMax(const clang::CallExpr* call, const std::string& name);
  Value bitCountCall(const clang::CallExpr* call, const std::string& name);
  Value textureFetch(const clang::CallExpr* call, const std::string& name);
  Value blockVote(const clang::CallExpr* call, const std::string& name);

  // ---- statements (interpreter_statements.cpp) ------------------------------------------
  // `loop`: the guard is a loop's condition (its body runs while it holds), not an if's.
  // exits: the guard of an early return out of the kernel itself, which a thread failing it
  // has left for good (RawAccess::guardExits).
  void pushGuard(ExprRef g, std::string what, bool loop = false, bool exits = false);
  void popGuard();
  void walk(const clang::Stmt* s);
  void compound(const clang::CompoundStmt* c);
  void returnStmt(const clang::ReturnStmt* r);
  void switchStmt(const clang::SwitchStmt* sw);
  void asmStatement(const clang::GCCAsmStmt* a);
  void declare(const clang::VarDecl* var);
  void mergeEnvs(const ExprRef& cond, Env thenEnv, const Env& elseEnv);
  // Returns the condition, for the enclosing block's early-exit guards.
  ExprRef ifStmt(const clang::IfStmt* iff);
  // The accesses recorded since `from`, in an if's arm `arm` that ends by leaving loops (a
  // return, a break): those loops become their SeenAccess::leavesLoops.
  void markLeavingAccesses(size_t from, const clang::Stmt* arm);
  // The loops open when the inlined call being walked was made (Frame::loopDepth; 0 in the
  // kernel itself): a return leaves only the loops opened after them.
  size_t loopsBeforeCall() const { return state_.frames.empty() ? 0 : state_.frames.back().loopDepth; }

  // ---- loops (loop_summary.cpp) ---------------------------------------------------------
  void loop(const clang::Stmt* init, const clang::Expr* cond, const clang::Expr* inc, const clang::Stmt* body,
            const clang::Stmt* whole, bool testAfter = false);
  std::string loopHeaderText(const clang::Stmt* s);
  void loadsMayReadAgain(size_t firstEvent);
};

}  // namespace coalesce::analysis
