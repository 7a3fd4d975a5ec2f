// The least time a kernel's arithmetic takes, per warp: a floor under the kernel's time that
// the report sets beside its memory time (lib/report/src/cost.cpp, "roofline"). A kernel whose
// arithmetic outlasts its memory traffic gains nothing from a smaller memory time: the hash
// state a mining kernel loads once per thread around thousands of rounds of 64-bit mixing
// wastes sectors that cost it no time (docs/findings.md, "Levels"; bench/compute_bound/).
//
// Counted from the source, as a lower bound: every operator the thread evaluates on floating
// or unsigned or 64-bit values (signed `int` arithmetic is mostly indices that unrolling and
// address modes fold, and is left out), the bodies of the functions it calls, inline PTX
// instructions, warp shuffles (`__shfl*`: register exchanges between lanes, which a warp
// reduction or scan issues in chains), loops of constant trips as often as they run and other loops once, an `if`
// without `else` as its body, one with `else` as its cheaper arm, an arm entered only on an
// equality (`tid == 0`) not at all, a `switch` not at all.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <string>

#include "coalesce/model/arch.h"

namespace coalesce::analysis {

// Operators counted per thread, by kind, and one SM's issue cycles one warp's share of them
// takes at least (Arch's lanes per cycle).
struct OperationCounts {
  double cyclesPerWarp = 0;
  double floatOps = 0, doubleOps = 0, int32Ops = 0, int64Ops = 0, specialOps = 0, asmInstructions = 0,
         shuffles = 0;
  OperationCounts& operator+=(const OperationCounts& o);
  OperationCounts times(double k) const;  // every count and the cycles, k times
};

struct ArithmeticEstimate {
  OperationCounts operations;
  int loopsCountedOnce = 0;  // loops whose trip count the source does not fix
  // "at least 4,600 operations per thread (4,100 on 64-bit integers, ...)": what the floor rests on.
  std::string basis() const;
};

ArithmeticEstimate estimateArithmetic(const clang::FunctionDecl* kernel, clang::ASTContext& ctx,
                                      const model::Arch& arch);

}  // namespace coalesce::analysis
