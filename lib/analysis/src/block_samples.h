// The blocks that stand for a known grid, shared by the evaluation of accesses
// (lane_function.cpp) and of branch conditions and barrier guards (lane_conditions.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "coalesce/model/geometry.h"
#include "symbolic.h"

namespace coalesce::analysis {

// Along each axis the first block, one inside and the last, each with the weight of the blocks
// it stands for; `inside` above 1 averages that many consecutive inside blocks (lane_function.cpp).
std::vector<std::pair<std::array<int64_t, 3>, int64_t>> edgeBlocks(const model::Dim3& grid, int64_t inside);

// Whether an expression names the block's place in the grid (blockIdx, gridDim).
bool namesBlock(const ExprRef& e);
bool anyNamesBlock(const std::vector<ExprRef>& exprs);

}  // namespace coalesce::analysis
