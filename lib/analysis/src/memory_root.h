// What a pointer points into, shared by the interpreter's values (interpreter_state.h) and
// the bookkeeping of what nvcc keeps in registers (register_forwarding.h).
#pragma once

#include <clang/AST/Decl.h>

#include <memory>
#include <string>
#include <vector>

#include "coalesce/model/access.h"
#include "symbolic.h"

namespace coalesce::analysis {

// What a pointer points into: a kernel parameter, a __shared__/__constant__/__device__
// array, a local array, or a pointer loaded from memory.
struct Root {
  std::string name;
  // A pointer into either of several allocations (Interpreter::merge): each one's name once,
  // in the order met, `name` their "a or b"; empty for one allocation.
  std::vector<std::string> alternatives;
  int param = -1;  // the kernel's pointer parameter it is, or -1
  model::Space space = model::Space::Global;
  int64_t alignment = 256;
  bool indirect = false;  // the pointer was loaded per lane
  ExprRef loadAddress;    // indirect: where it was loaded from (warp-uniform under some launches)
  bool separateAllocations = false;  // "a or b" chosen per lane
  const clang::VarDecl* var = nullptr;  // the memory variable (a __shared__ array...), or none
  // The bytes of the object when its size is known (an array of constant size, the string
  // literal a global pointer is initialised with), else 0: an address the analysis cannot
  // follow still lies inside it (model::Access::objectBytes).
  int64_t bytes = 0;
};
using RootRef = std::shared_ptr<const Root>;

}  // namespace coalesce::analysis
