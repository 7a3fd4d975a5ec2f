// Symbolic integer expressions over the CUDA built-in variables, kernel parameters,
// loop variables and values loaded from memory. Clang-free: the AST walker builds
// them, the lane-function stage evaluates them per lane.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace coalesce::analysis {

enum class Op {
  Const,
  // Leaves
  ThreadIdx,   // dim = 0/1/2; varies per lane
  BlockIdx,    // uniform over a block
  BlockDim,    // uniform; known once the block shape is fixed
  GridDim,     // uniform
  Symbol,      // a named warp-uniform unknown: kernel parameter, loop variable, ...
  UniformLoad, // a value loaded from memory at a warp-uniform address: uniform, data-dependent
  LaneLoad,    // a value loaded from memory at a lane-varying address: indirect
  Varying,     // lane-varying and not followable (e.g. assigned in a divergent loop)
  // Arithmetic
  Add, Sub, Mul, Div, Rem, Shl, Shr, And, Or, Xor, Neg, Not, BitNot, Min, Max,
  // Comparisons and logic (0 or 1)
  Lt, Le, Gt, Ge, Eq, Ne, LAnd, LOr,
  Select,      // args: cond, then, else
  // Bit counts of one argument, `value` its width in bits (32 or 64): __ffs (1-based index of
  // the lowest set bit, 0 for 0), __popc, __clz (the width for 0). cuda_intrinsics.cpp.
  Ffs, Popc, Clz,
};

struct SymExpr;
using ExprRef = std::shared_ptr<const SymExpr>;

struct SymExpr {
  Op op = Op::Const;
  int64_t value = 0;  // Const: the value; ThreadIdx/BlockIdx/BlockDim/GridDim: the dimension
  int symbolId = -1;  // Symbol: index into the SymbolTable
  std::vector<ExprRef> args;
  // Computed once at construction, so questions about a subtree cost O(1) even when the
  // expression is a DAG that a tree walk would visit exponentially often.
  uint64_t opsBelow = 0;  // bit (1 << op) for every op in the subtree
  uint64_t size = 1;      // nodes of the tree it stands for (saturating)
  // A structural hash: equal for structurally equal expressions (sameStructure), a load
  // hashed by its identity (each load is a value of its own). Lets comparisons and indexes
  // (interpreter_memory.cpp's values in registers) skip unequal expressions in O(1).
  uint64_t hash = 0;
  // Unknown at every thread whatever its symbols become (neverKnown below), from the
  // operands' flags at construction.
  bool neverKnown = false;
};

// Expressions larger than this (as trees) are replaced by an unknown of the same
// uniformity: v = v + v chained 30 times must not take minutes.
inline constexpr uint64_t kMaxExprSize = 20000;

// What is known of a named uniform unknown.
struct SymbolInfo {
  std::string name;
  enum class Kind { Param, LoopVar, Opaque } kind = Kind::Opaque;
  std::optional<int64_t> value;   // a known value (constant launch argument, --assume)
  int64_t alignment = 1;          // the value is a multiple of this
  // Loop variables. An arithmetic loop is described by an iteration counter k (this
  // symbol, k = 0, 1, ...) and a condition in terms of k; a geometric one (s *= 2,
  // s >>= 1) by the variable itself: its first value and its update `next`, in terms
  // of the symbol. The values are listed per launch, once the block shape is known.
  ExprRef loopInit;               // geometric: the first value
  ExprRef loopNext;               // geometric: the next value, in terms of this symbol
  ExprRef loopCond;               // the loop continues while this is non-zero
  bool testAfter = false;         // do-while: the condition is tested after each iteration
  int tripOf = -1;                // the number of iterations of the loop whose counter is this id
  int exitOf = -1;                // the value geometric loop variable `exitOf` has when its loop ends
  std::string loopText;           // for assumptions
  int loop = -1;                  // the loop (its id in the kernel) whose variable this is
};

class SymbolTable {
 public:
  int add(SymbolInfo info) {
    symbols_.push_back(std::move(info));
    indexed_ = false;
    return static_cast<int>(symbols_.size()) - 1;
  }
  // Writable access forgets the index below (a value or a loop field may change). A reference
  // kept and written after the index is next built is not seen: the interpreter writes its
  // symbols before the evaluation reads the index, and the evaluation writes none.
  SymbolInfo& operator[](int id) {
    indexed_ = false;
    return symbols_[static_cast<size_t>(id)];
  }
  const SymbolInfo& operator[](int id) const { return symbols_[static_cast<size_t>(id)]; }
  size_t size() const { return symbols_.size(); }

  // What every evaluation of a launch asks of the whole table, indexed once the interpreter
  // is done adding to it instead of walked per access (lane_evaluator.h, launchBindings and
  // loopGroup: 25 % of a 20,000-symbol kernel's time, docs/analysis-speed.md). In id order.
  const std::vector<int>& withValue() const { return index().withValue; }   // `value` set
  const std::vector<int>& loopExits() const { return index().loopExits; }   // `exitOf` >= 0
  // The loop variables whose loop continues while `cond` holds (one loop's counter and
  // geometric variables); empty for none.
  const std::vector<int>& loopVarsOf(const SymExpr* cond) const {
    static const std::vector<int> none;
    const auto& loopVars = index().loopVars;
    const auto it = loopVars.find(cond);
    return it == loopVars.end() ? none : it->second;
  }
  // The first loop variable (lowest id) of loop `loop` (SymbolInfo::loop), or -1.
  int firstVarOfLoop(int loop) const {
    const auto& first = index().firstVarOfLoop;
    const auto it = first.find(loop);
    return it == first.end() ? -1 : it->second;
  }

 private:
  struct Index {
    std::vector<int> withValue, loopExits;
    std::map<const SymExpr*, std::vector<int>> loopVars;
    std::map<int, int> firstVarOfLoop;
  };
  const Index& index() const {
    if (indexed_) return index_;
    index_ = Index{};
    for (size_t i = 0; i < symbols_.size(); ++i) {
      const SymbolInfo& s = symbols_[i];
      const int id = static_cast<int>(i);
      if (s.value) index_.withValue.push_back(id);
      if (s.exitOf >= 0) index_.loopExits.push_back(id);
      if (s.kind == SymbolInfo::Kind::LoopVar && s.loopCond) index_.loopVars[s.loopCond.get()].push_back(id);
      if (s.kind == SymbolInfo::Kind::LoopVar) index_.firstVarOfLoop.emplace(s.loop, id);
    }
    indexed_ = true;
    return index_;
  }
  std::vector<SymbolInfo> symbols_;
  mutable Index index_;
  mutable bool indexed_ = false;
};

// Builders fold constants and simple identities so affine forms stay small.
ExprRef constant(int64_t v);
ExprRef leaf(Op op, int64_t dim = 0);
ExprRef symbol(int id);
ExprRef unary(Op op, ExprRef a);
ExprRef binary(Op op, ExprRef a, ExprRef b);
ExprRef select(ExprRef cond, ExprRef a, ExprRef b);
// Ffs, Popc or Clz of `a` read as an unsigned integer of `width` bits (32 or 64).
ExprRef bitCount(Op op, ExprRef a, int width);

std::optional<int64_t> asConstant(const ExprRef& e);
// An expression as the rest plus a constant: `(y * xdim + x) * 8 + 4` -> (`(y * xdim + x) * 8`, 4);
// a bare constant's rest is 0.
std::pair<ExprRef, int64_t> splitConstant(const ExprRef& e);
// Same operations, values and symbols all the way down, each load being only itself: the
// equality under which terms merge in affine forms and select(c, a, a) folds to a.
bool sameStructure(const ExprRef& a, const ExprRef& b);
bool containsOp(const ExprRef& e, Op op);
bool dependsOnThread(const ExprRef& e);   // ThreadIdx, LaneLoad or Varying below
bool isUniform(const ExprRef& e);         // !dependsOnThread
// Unknown for every thread whatever its symbols are replaced by: a load's value (or a varying
// one) that every operation above it needs, through builders that never drop it (binary's
// `x * 0 -> 0` and select's known condition or equal arms are the only ones that could, so
// a product needs both factors such, a select is never one). evaluate() and ThreadProgram
// give such an expression no value at any thread (Evaluator::guardsAt relies on it).
inline bool neverKnown(const ExprRef& e) { return e->neverKnown; }
std::string toString(const ExprRef& e, const SymbolTable& symbols);

// Values for evaluation: thread index, block shape, and each symbol.
struct Bindings {
  int64_t tid[3] = {0, 0, 0};
  int64_t blockDim[3] = {1, 1, 1};
  int64_t blockIdx[3] = {0, 0, 0};
  int64_t gridDim[3] = {1, 1, 1};
  std::map<int, int64_t> symbols;
};

// nullopt when a leaf has no value (a load, a varying value, an unbound symbol) or
// the arithmetic is undefined (division by zero, oversized shift).
std::optional<int64_t> evaluate(const ExprRef& e, const Bindings& b);

// `e` compiled for evaluation over the threads of a block under fixed bindings: what does
// not depend on threadIdx is evaluated once, at construction, by evaluate(); the rest is a
// flat list of steps over the distinct nodes of the DAG, run per thread with no allocation.
// run() gives what evaluate(e, b) gives with b's thread index set to `tid` (the per-lane
// loops of lane_evaluator.h and lane_function.cpp evaluate the same expression for every
// thread of every warp; a tree walk also visits a shared subexpression once per use).
class ThreadProgram {
 public:
  ThreadProgram(const ExprRef& e, const Bindings& b);
  std::optional<int64_t> run(int64_t tx, int64_t ty, int64_t tz) const;
  // run() for n threads at once, out[k] = run(tx[k], ty[k], tz[k]): each step over a batch of
  // threads before the next (a branch condition or guard over a whole block), not the whole
  // program per thread.
  void runMany(const int64_t* tx, const int64_t* ty, const int64_t* tz, size_t n, std::optional<int64_t>* out) const;
  // Nothing depends on threadIdx: run() gives every thread the same value.
  bool threadIndependent() const { return perThread_.empty(); }

 private:
  // Fixed: a value known before the threads (or none: poison); Thread: threadIdx[value];
  // otherwise the node's op over the slots a, b, c.
  enum class Kind : uint8_t { Fixed, Thread, Node };
  struct Step {
    Kind kind = Kind::Fixed;
    Op op = Op::Const;
    bool known = false;  // Fixed: whether `value` is known
    int64_t value = 0;  // Fixed: the value; Node: SymExpr::value (a bit count's width)
    int a = -1, b = -1, c = -1;
  };
  int compile(const ExprRef& e, const Bindings& b, std::unordered_map<const SymExpr*, int>& seen);
  std::vector<Step> steps_;  // operands before their users; the last is `e`
  std::vector<int> perThread_;  // the steps that are not Fixed, in order: all run() computes
  mutable std::vector<int64_t> values_;  // Fixed steps' values set once, at construction
  mutable std::vector<uint8_t> known_;
};

// An affine form: constant + sum(coef * term), terms being leaves other than Const.
struct AffineTerm {
  int64_t coef = 0;
  ExprRef leaf;  // ThreadIdx/BlockIdx/BlockDim/GridDim/Symbol/UniformLoad, or a non-affine uniform subexpression
};
struct AffineForm {
  int64_t constant = 0;
  std::vector<AffineTerm> terms;
};

// Linearises `e`, treating uniform non-linear subexpressions (a product of two
// parameters, a uniform load...) as opaque uniform terms. Fails (nullopt) when a
// lane-varying part is not affine (tx % 4, tx * n with n unknown, loads).
std::optional<AffineForm> linearize(const ExprRef& e);

}  // namespace coalesce::analysis

namespace coalesce::analysis {

// Rebuilds `e` bottom-up, replacing each leaf for which `replace` returns a value.
ExprRef substitute(const ExprRef& e, const std::function<ExprRef(const ExprRef& leaf)>& replace);
// The same for the lane evaluation's substitutions (lane_evaluator.h), where only loads are
// told apart by identity (sameStructure): `leafOps` (bits opBit(op)) are the only leaves
// `replace` may change, and subtrees without one are kept as they are, unvisited; a
// subexpression with no load below is rebuilt once however often the DAG uses it (a tree
// walk rebuilt a structurally equal copy per use), one with a load once per use, as before,
// so that each use keeps a load of its own.
ExprRef substituteLeaves(const ExprRef& e, const std::function<ExprRef(const ExprRef& leaf)>& replace,
                         uint64_t leafOps);
inline constexpr uint64_t opBit(Op op) { return uint64_t{1} << static_cast<int>(op); }

// A positive number that always divides the value of `e` (1 when nothing is known).
// `leafAlignment` gives it for leaves (e.g. 32 for an unknown blockDim.x).
int64_t knownDivisor(const ExprRef& e, const std::function<int64_t(const ExprRef& leaf)>& leafAlignment);

// The top-level addends of `e` (a + b - c -> a, b, -c).
std::vector<ExprRef> addends(const ExprRef& e);

}  // namespace coalesce::analysis
