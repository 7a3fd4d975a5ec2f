#include "coalesce/model/geometry.h"

#include <algorithm>

namespace coalesce::model {

ThreadIdx threadFromLinear(const Dim3& block, int64_t linear) {
  ThreadIdx t;
  t.x = linear % block.x;
  t.y = (linear / block.x) % block.y;
  t.z = linear / (block.x * block.y);
  return t;
}

int64_t warpCount(const Dim3& block, const Arch& arch) {
  return (block.volume() + arch.warpSize - 1) / arch.warpSize;
}

std::vector<ThreadIdx> warpThreads(const Dim3& block, int64_t warp, const Arch& arch) {
  std::vector<ThreadIdx> lanes;
  const int64_t first = warp * arch.warpSize;
  const int64_t last = std::min(block.volume(), first + arch.warpSize);
  for (int64_t linear = first; linear < last; ++linear) lanes.push_back(threadFromLinear(block, linear));
  return lanes;
}

}  // namespace coalesce::model
