// ptxas's resource usage per kernel, as `cuobjdump --dump-resource-usage` prints it:
//   Function _Z11matmulNaivePKfS0_Pfi:
//     REG:32 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:556 TEXTURE:0 SURFACE:0 SAMPLER:0
// The registers are what the analysis cannot know (docs/occupancy.md).
#pragma once

#include <string>
#include <vector>

#include "coalesce/verify/measurements.h"

namespace coalesce::verify {

// Every "Function NAME:" block followed by its REG/SHARED/STACK/LOCAL line, in order; a
// function without that line is left out. Never throws.
std::vector<KernelResources> parseResourceUsage(const std::string& listing);

// Adds `more` to `into`, each kernel once (the first listing of a kernel wins).
void mergeResources(std::vector<KernelResources>& into, const std::vector<KernelResources>& more);

}  // namespace coalesce::verify
