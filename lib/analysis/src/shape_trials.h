// Whether a kernel's figures rest on its guessed block shape (issue #13): a kernel that no
// launch, bound, comment or code of its own gives a shape (BlockSource::Assumed) is evaluated
// again under a few other plausible shapes, varying only the axes that are guessed
// (LaunchContext::guessedAxes), and every figure the report reads is compared with the one
// built under the guess. Most such kernels are written for any block size
// (`blockIdx.x * blockDim.x + threadIdx.x`): their figures come out the same, and the report
// can say so instead of only "assumed". The first difference stops the trial (its cost is
// paid in full only by the kernels whose figures do not change). docs/block-shapes.md.
#pragma once

#include <string>
#include <vector>

#include "interpreter_state.h"
#include "kernel_analyzer.h"
#include "lane_function.h"

namespace coalesce::analysis {

// The shapes tried besides the guess `c.block.dim`, its fixed axes kept (at most
// `maxThreads` threads): one guessed axis of value v, v / 2 and 2v (1D: 128 and 512 around
// the guessed 256); x and y guessed, 16x16 and 32x4 (around 32x8); x, y and z, 16x8x2 and
// 8x8x4 (around 32x4x2). Empty when no axis is guessed.
std::vector<model::Dim3> trialShapes(const LaunchContext& c, int64_t maxThreads);

struct ShapeTrial {
  std::vector<model::Dim3> tried;  // in the order evaluated; the last one differs when !invariant
  bool invariant = false;          // every figure the same under every shape tried
  // The first difference, when there is one: "under 16x16x1, `a[i]` (k.cu:12): 8 sectors per
  // request instead of 4".
  std::string difference;
  // Not tried as the kernel has more than kMaxShapeTrialEvents accesses, branches and
  // barriers: why, in words.
  std::string skipped;
};

// Evaluates the kernel's accesses, branches and barriers under each trial shape (every
// assumed context given it) and compares them with the records built under the guess:
// `built`'s accesses from `firstAccess`, branches from `firstBranch`, barriers from
// `firstBarrier`, in the order of `events`. Nothing tried unless every context is assumed with
// the same shape and guessed axes.
ShapeTrial tryOtherShapes(const KernelEvents& events, const std::vector<LaunchContext>& contexts,
                          const SymbolTable& symbols, const model::Arch& arch, const TranslationUnitResult& built,
                          size_t firstAccess, size_t firstBranch, size_t firstBarrier);

// Writes the trial into every block shape that names the guess: the kernel's contexts (their
// detail ends with what the trial found) and the site records built from them.
void recordShapeTrial(const ShapeTrial& trial, std::vector<LaunchContext>& contexts, TranslationUnitResult& built,
                      size_t firstAccess, size_t firstBranch, size_t firstBarrier);

}  // namespace coalesce::analysis
