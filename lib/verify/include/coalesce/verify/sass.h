// SASS text from `cuobjdump -sass` or `nvdisasm -c -gi`: the opcode at each PC of each
// function, the source location chain when nvdisasm gives it (inlined functions), and
// what an opcode says about the access (space, kind, bytes per lane).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/verify/measurements.h"

namespace coalesce::verify {

struct SassInstruction {
  std::string opcode;  // with modifiers, e.g. "LDG.E.64"; the predicate (@P0) is dropped
  // nvdisasm -gi: the source location, innermost first, then each call site it was
  // inlined into ("//## File "a.cuh", line 3 inlined at "k.cu", line 9"). Empty with cuobjdump.
  std::vector<std::pair<std::string, unsigned>> location;
};

// (function name, pc offset inside the function) -> instruction.
using SassListing = std::map<std::pair<std::string, uint64_t>, SassInstruction>;

SassListing parseSassListing(std::string_view text);

struct OpcodeInfo {
  model::Space space = model::Space::Global;
  model::AccessKind kind = model::AccessKind::Load;
  int bytes = 4;  // bytes per lane
};

// nullopt for opcodes that are not global or shared memory accesses.
std::optional<OpcodeInfo> classifyOpcode(std::string_view opcode);

// Fills MeasuredInstruction::opcode and, where the listing has inline information,
// inlinedAt (and file/line when CUPTI gave none). Returns how many were found.
size_t attachSass(Measurements& m, const SassListing& listing);

}  // namespace coalesce::verify
