// What a kernel's own code says about its block shape, for a kernel no launch gives one
// (issue #13: "a guessed shape is cross-checked against the kernel"). block_shape.cpp turns
// this into the `kernel_implied` source, or into the axes of an assumed shape that are no
// longer guessed. docs/block-shapes.md, "What the kernel implies".
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace coalesce::analysis {

// blockDim along one axis as the kernel implies it, and why.
struct AxisEvidence {
  int64_t value = 0;
  // Only a lower bound: the kernel compares threadIdx with a constant (`tid < 512`), so the
  // block has at least that many threads; `value` is the smallest power of two at or above it.
  // Worth using only where it exceeds a guess.
  bool atLeast = false;
  std::string why;  // "`tile` is indexed by threadIdx.x along 16 elements (k.cu:12)"
};

struct KernelBlockEvidence {
  std::array<std::optional<AxisEvidence>, 3> axes;  // x, y, z
};

// Reads the kernel's body and the bodies of the functions it calls (directly, one level of
// user functions at a time) for, per axis, strongest first:
//   - `blockDim.x == 64` (or `!=`) comparisons: the value;
//   - block-stride loops with a constant step: `for (i = threadIdx.x; ...; i += 256)`, or
//     `for (j = 0; ...; j += 8)` whose counter is added to a threadIdx.y index (`tile[ty + j]`);
//   - `__shared__` arrays with a dimension indexed by threadIdx.x (or a local holding it,
//     never reassigned) outside any `if` that compares that index with a constant: that
//     dimension's extent, less a padding written `+ 1` (`tile[TILE][TILE + 1]`); the smallest
//     extent at or above the lower bound below;
//   - comparisons of threadIdx with a constant (`if (tid < 512)`): a lower bound.
// Branches of an `if` whose condition is a constant (template arguments) are read only on
// the side that is compiled. Evidence that disagrees with itself (two strides) is dropped.
KernelBlockEvidence kernelBlockEvidence(const clang::FunctionDecl* kernel, const clang::ASTContext& ctx,
                                        int64_t maxThreadsPerBlock);

}  // namespace coalesce::analysis
