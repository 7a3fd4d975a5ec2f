// What a kernel asks of an SM besides its threads, for its occupancy (model/occupancy.h):
// the shared memory its own and its callees' `__shared__` declarations take, whether it
// uses dynamic shared memory (`extern __shared__ T s[]`), and `__launch_bounds__`.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <cstdint>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "lane_function.h"

namespace coalesce::analysis {

struct KernelResources {
  int64_t staticSharedBytes = 0;  // fixed-size __shared__ variables, each counted once
  bool usesDynamicShared = false; // an `extern __shared__` array (sized by the launch)
  int launchBoundsMinBlocks = -1; // __launch_bounds__(threads, minBlocks); -1: not given
};

// Walks the kernel's body and the bodies of the functions it calls (each once).
KernelResources kernelResources(const clang::FunctionDecl* kernel, clang::ASTContext& ctx);

// The occupancy under each context, the lowest kept: the block of the context, the dynamic
// shared memory its launch passes (unknown when the kernel uses some and no launch says how
// much), registers unknown (the verifier counts them: lib/verify).
KernelOccupancy kernelOccupancy(const KernelResources& resources, const std::vector<LaunchContext>& contexts,
                                const model::Arch& arch);

}  // namespace coalesce::analysis
