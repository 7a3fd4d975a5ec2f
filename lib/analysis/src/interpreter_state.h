// The abstract interpreter's values and its whole state, in one place (as the Clang Static
// Analyzer keeps its engine's state in ProgramState). Values are symbolic: integers as
// expressions over threadIdx, the block and the parameters (symbolic.h), pointers as a root
// plus a byte offset, records held in registers as their fields. The state is what the
// walk over one kernel carries from statement to statement; the events are what it saw
// (memory accesses, branches, barriers), turned into records by record_builder.cpp.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>
#include <clang/Basic/SourceLocation.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "coalesce/model/access_model.h"
#include "coalesce/records/records.h"
#include "lane_function.h"
#include "memory_root.h"
#include "register_forwarding.h"
#include "symbolic.h"

namespace coalesce::analysis {

struct StructValue;
using ObjectRef = std::shared_ptr<const StructValue>;

// A symbolic value: an integer expression, a pointer (root + byte offset), a CUDA
// built-in variable used whole (uint3 t = threadIdx), or a record held in registers.
struct Value {
  Value() = default;
  Value(ExprRef value, RootRef r, ExprRef offset) : v(std::move(value)), root(std::move(r)), off(std::move(offset)) {}
  ExprRef v;
  RootRef root;
  ExprRef off;
  std::optional<Op> builtin;
  ObjectRef object;
  bool isPointer() const { return root != nullptr; }
};

// A record in registers: the values of its fields. A kernel parameter of record type is
// "lazy": its fields become roots and symbols the first time they are read.
struct StructValue {
  std::map<const clang::FieldDecl*, Value> fields;
  std::string name;
  bool lazyParam = false;
};

// The memory an lvalue designates.
struct MemLoc {
  MemLoc(RootRef r, ExprRef o, clang::QualType t, const clang::FieldDecl* f = nullptr)
      : root(std::move(r)), offset(std::move(o)), type(t), field(f) {}
  RootRef root;
  ExprRef offset;
  clang::QualType type;
  const clang::FieldDecl* field = nullptr;  // set when the location is a field of a record
  // A field of a field (`t[i].zero.y`): the outermost record whose field holds it, and the
  // path from there ("zero.y"); null and empty for a field of the record itself.
  const clang::RecordDecl* outer = nullptr;
  std::string fieldPath;
};

using Env = std::map<const clang::VarDecl*, Value>;

// One frame per inlined call: the guards in force at entry and each return seen, with
// the condition under which it is taken.
struct Frame {
  size_t guardDepth = 0;
  // The loops open when the call was made (InterpreterState::loopExits' size then): a return in
  // the callee leaves the callee's own loops, never a caller's (Kangaroo's `_ModInv`, called in
  // the kernel's `for (run ...)`, ends the call, not the loop; blind panel 31).
  size_t loopDepth = 0;
  std::vector<std::pair<ExprRef, Value>> returns;
  std::optional<Value> self;  // `this`: a pointer to memory, or a register object
  bool returnsReference = false;
};

// Everything the walk carries from statement to statement.
struct InterpreterState {
  Env env;                                        // register variables
  // The loops open (state.loops' size) where each switch around the walk began: a `break` at
  // that depth leaves the switch, not the loop (Interpreter::markLeavingAccesses).
  std::vector<size_t> switchLoopDepths;
  std::map<const clang::VarDecl*, RootRef> roots;  // memory variables (shared, constant, local arrays)
  // Textures and surfaces fetched through (cuda_intrinsics.cpp, textureFetch), by the
  // reference or object variable named; the null key for any other expression.
  std::map<const clang::VarDecl*, RootRef> textureRoots;
  std::vector<ExprRef> guards;                    // conditions in force (each non-zero where a lane runs)
  std::vector<std::string> guardTexts;            // their source text, for assumptions
  std::vector<bool> guardTestsData;               // each: an if's test of per-thread values not followed (pushGuard)
  std::vector<bool> guardExits;                   // each: an early return's, out of the kernel itself (pushGuard)
  std::vector<int> guardIds;                      // each: its span's index in guardSpans (barrier_skippers.cpp)
  // When each guard was in force, in the walk's order, and the loops around it (its own loop
  // left out for a loop's condition: a thread failing that has left the loop); and each barrier
  // the walk passes, the user's or a header's, with the guards and loops around it. Read once
  // the kernel is walked (Interpreter::markSkippersThatExit).
  struct GuardSpan {
    int64_t pushed = 0, popped = 0;
    std::vector<int> loops;
  };
  std::vector<GuardSpan> guardSpans;
  struct BarrierSighting {
    int64_t at = 0;
    std::vector<int> guardIds, loops;
  };
  std::vector<BarrierSighting> barrierSightings;
  int64_t clock = 0;
  std::vector<const clang::FunctionDecl*> stack;  // the kernel, then each inlined callee
  std::vector<Frame> frames;                      // one per inlined call
  std::map<std::pair<const StructValue*, const clang::FieldDecl*>, Value> lazyFields;
  // Conditions under which the innermost loop is left (break, return), added to its
  // condition once the body has been walked: (condition, is a return).
  std::vector<std::vector<std::pair<ExprRef, bool>>> loopExits;
  // `if (c) return;` inside a loop with c the same in every iteration: what follows the
  // loop runs only where c was false. Consumed by the enclosing block.
  std::vector<std::pair<ExprRef, std::string>> pendingGuards;
  bool recording = true;  // false while a loop's body is walked to learn its updates
  std::vector<int> loops;  // the loops being walked (ids), innermost last
  int nextLoopId = 0;
  AvailableValues available;     // loads nvcc need not make (register_forwarding.h)
  PendingStores pendingStores;   // stores a later one of this thread may overwrite unread
  // Thread-private arrays (local memory) given a lane-varying value: each thread reads back its
  // own, so their loads are per-thread data however uniform the index (a merge's `myKey[0]`).
  std::set<const Root*> varyingLocals;
  // Shared arrays written so far, each true while it is one each thread uses as a variable of
  // its own: every store at the thread's own slot (`sec[threadIdx.x] = blockIdx.x`), of a
  // block-uniform value, under block-uniform guards, so that every slot holds the same value
  // and a load of the own slot is warp-uniform (gpuNUFFT's sector index; Interpreter::loaded).
  // Any other store or an atomic makes it false for good.
  std::map<const Root*, bool> uniformSlotArrays;
};

// What the walk saw: one event per memory access (a record copied whole gives one per
// piece), branch and barrier, with the guards in force.
struct SeenAccess {
  RawAccess raw;
  clang::SourceLocation loc;
  std::string expression;
  std::string elementType;
  std::string function;
  std::string record, field;  // the record and field touched ("Particle", "x"; field empty: whole)
  std::vector<int> loops;     // enclosing loops, innermost last
  // Of `loops`, those the access's path leaves right after it: it sits in an `if` arm that ends
  // with a return or a break (SimpleGPUHashTable's `while (true) { if (hashtable[slot].key ==
  // key) { kvs[threadid].value = ...; return; } ... }`), so it runs at most once per entry into
  // each, whatever their trip counts (record_builder.cpp counts its requests so).
  std::vector<int> leavesLoops;
  const clang::VarDecl* variable = nullptr;  // the memory variable indexed (a __shared__ array), or none
  bool dead = false;      // a store overwritten before anything may read it (dropped after the walk)
};

// The loops whose trips multiply the access's requests: its loops but those it leaves.
inline std::vector<int> countedLoopsOf(const SeenAccess& s) {
  std::vector<int> out;
  for (int loop : s.loops)
    if (std::find(s.leavesLoops.begin(), s.leavesLoops.end(), loop) == s.leavesLoops.end()) out.push_back(loop);
  return out;
}

struct SeenBranch {
  RawAccess guards;  // only the guards are used
  ExprRef condition;
  BranchKind kind = BranchKind::If;
  std::string conditionText, function;
  clang::SourceLocation loc;
  std::vector<int> loops;  // enclosing loops, innermost last (a loop's own condition: itself last)
};

struct SeenBarrier {
  RawAccess guards;
  std::string call, function;
  clang::SourceLocation loc;
  std::vector<int> loops;
  std::vector<int> guardIds;  // InterpreterState::guardIds when it was passed
};

struct KernelEvents {
  std::vector<SeenAccess> accesses;
  std::vector<SeenBranch> branches;
  std::vector<SeenBarrier> barriers;
  bool threadDimsUsed[3] = {false, false, false};  // threadIdx.x/y/z appear in the kernel
};

}  // namespace coalesce::analysis
