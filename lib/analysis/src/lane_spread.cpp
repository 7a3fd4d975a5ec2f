// laneSpread (lane_spread.h): interval widths over one warp's lanes, for addresses that hold
// loaded values only under operations that bound them.
#include "lane_spread.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace coalesce::analysis {

namespace {

// Past this the bound says nothing a sector count could use; it also keeps the arithmetic
// below far from overflow.
constexpr int64_t kLargestSpread = int64_t{1} << 40;

class Spread {
 public:
  Spread(const Bindings& b, const model::Dim3& block, int warpSize) : b_(b), block_(block), warpSize_(warpSize) {}

  std::optional<int64_t> of(const ExprRef& e) const {
    if (!dependsOnThread(e)) return 0;  // the same in every lane: a load at a uniform address too
    constexpr uint64_t kData = opBit(Op::LaneLoad) | opBit(Op::UniformLoad) | opBit(Op::Varying);
    if (!(e->opsBelow & kData)) return threadSpread(e);
    const auto bounded = [](std::optional<int64_t> w) -> std::optional<int64_t> {
      return w && *w >= 0 && *w <= kLargestSpread ? w : std::nullopt;
    };
    const auto& a = e->args;
    switch (e->op) {
      case Op::Add:
      case Op::Sub: {
        const auto l = of(a[0]), r = of(a[1]);
        return l && r ? bounded(*l + *r) : std::nullopt;
      }
      case Op::Neg: return of(a[0]);
      case Op::Mul: {
        for (int side = 0; side < 2; ++side)
          if (const auto c = uniformValue(a[side]); c && *c > -kLargestSpread && *c < kLargestSpread)
            if (const auto w = of(a[1 - side])) return bounded(*w * (*c < 0 ? -*c : *c));
        return std::nullopt;
      }
      case Op::Shl: {
        const auto s = uniformValue(a[1]);
        const auto w = of(a[0]);
        return s && w && *s >= 0 && *s < 40 ? bounded(*w << *s) : std::nullopt;
      }
      case Op::Shr: {  // a range of width w shifted right: at most w >> s apart, one more for the rounding
        const auto s = uniformValue(a[1]);
        if (!s || *s < 0 || *s > 62) return std::nullopt;
        const auto w = of(a[0]);
        return w ? bounded((*w >> *s) + 1) : std::nullopt;
      }
      case Op::Div: {
        const auto d = uniformValue(a[1]);
        if (!d || *d == 0) return std::nullopt;
        const auto w = of(a[0]);
        return w ? bounded(*w / (*d < 0 ? -*d : *d) + 1) : std::nullopt;
      }
      case Op::And: {  // x & m lies in [0, m] for any x when m >= 0
        std::optional<int64_t> best;
        for (int side = 0; side < 2; ++side)
          if (const auto m = uniformValue(a[side]); m && *m >= 0) best = best ? std::min(*best, *m) : *m;
        return best ? bounded(best) : std::nullopt;
      }
      case Op::Rem: {  // x % m lies in (-|m|, |m|), within [0, |m|) when x >= 0, which a load does not say
        const auto m = uniformValue(a[1]);
        if (!m || *m == 0 || *m <= -kLargestSpread || *m >= kLargestSpread) return std::nullopt;
        return bounded(2 * ((*m < 0 ? -*m : *m) - 1));
      }
      default: return std::nullopt;  // a load, a varying value, a selection, a comparison...
    }
  }

 private:
  // The value of a lane-independent term without a load, under the bindings.
  std::optional<int64_t> uniformValue(const ExprRef& e) const {
    if (dependsOnThread(e) || containsOp(e, Op::UniformLoad)) return std::nullopt;
    return evaluate(e, b_);
  }

  // A term of the thread index and known values alone: run in every thread, the most it
  // moves within one warp (`(threadIdx.x >> 5) * 256`, a warp's own table: not at all).
  std::optional<int64_t> threadSpread(const ExprRef& e) const {
    const ThreadProgram program(e, b_);
    int64_t widest = 0;
    const int64_t volume = block_.volume();
    for (int64_t first = 0; first < volume; first += warpSize_) {
      int64_t lo = 0, hi = 0;
      for (int64_t l = first; l < std::min(volume, first + warpSize_); ++l) {
        const std::optional<int64_t> v = program.run(l % block_.x, (l / block_.x) % block_.y, l / (block_.x * block_.y));
        if (!v) return std::nullopt;
        lo = l == first ? *v : std::min(lo, *v);
        hi = l == first ? *v : std::max(hi, *v);
      }
      if (hi - lo > kLargestSpread) return std::nullopt;
      widest = std::max(widest, hi - lo);
    }
    return widest;
  }

  const Bindings& b_;
  const model::Dim3 block_;
  const int warpSize_;
};

}  // namespace

std::optional<int64_t> laneSpread(const ExprRef& offset, const Bindings& b, const model::Dim3& block, int warpSize) {
  if (!offset || warpSize <= 0 || block.volume() <= 0) return std::nullopt;
  return Spread(b, block, warpSize).of(offset);
}

namespace {

// Whether every thread index or varying value in `e` lies inside one of its lane loads' addresses.
bool threadOnlyInsideLoads(const ExprRef& e) {
  if (e->op == Op::LaneLoad) return true;
  if (e->op == Op::ThreadIdx || e->op == Op::Varying) return false;
  return std::all_of(e->args.begin(), e->args.end(), [](const ExprRef& a) { return threadOnlyInsideLoads(a); });
}

void collectLoads(const ExprRef& e, std::vector<const SymExpr*>& out) {
  if (e->op == Op::LaneLoad) {
    if (std::find(out.begin(), out.end(), e.get()) == out.end()) out.push_back(e.get());
    return;
  }
  for (const ExprRef& a : e->args) collectLoads(a, out);
}

// `e` as (terms holding the loads, terms of the thread index and known values), their sum:
// sums and differences split term by term, a product with a lane-independent factor, a
// shift by one, and a negation split their operand. Nullopt when a load and the thread
// index meet in anything else (`load * threadIdx.x`, `(load + threadIdx.x) % m`).
std::optional<std::pair<ExprRef, ExprRef>> splitLoads(const ExprRef& e) {
  if (!containsOp(e, Op::LaneLoad)) return std::pair<ExprRef, ExprRef>{constant(0), e};
  if (threadOnlyInsideLoads(e)) return std::pair<ExprRef, ExprRef>{e, constant(0)};
  const auto& a = e->args;
  switch (e->op) {
    case Op::Add:
    case Op::Sub: {
      const auto l = splitLoads(a[0]), r = splitLoads(a[1]);
      if (!l || !r) return std::nullopt;
      return std::pair<ExprRef, ExprRef>{binary(e->op, l->first, r->first), binary(e->op, l->second, r->second)};
    }
    case Op::Neg: {
      const auto inner = splitLoads(a[0]);
      if (!inner) return std::nullopt;
      return std::pair<ExprRef, ExprRef>{unary(Op::Neg, inner->first), unary(Op::Neg, inner->second)};
    }
    case Op::Mul:
      for (int side = 0; side < 2; ++side) {
        const ExprRef& factor = a[side];
        if (dependsOnThread(factor)) continue;
        const auto inner = splitLoads(a[1 - side]);
        if (!inner) return std::nullopt;
        return std::pair<ExprRef, ExprRef>{binary(Op::Mul, inner->first, factor), binary(Op::Mul, inner->second, factor)};
      }
      return std::nullopt;
    case Op::Shl: {  // `x << k`, k the same in every lane
      if (dependsOnThread(a[1])) return std::nullopt;
      const auto inner = splitLoads(a[0]);
      if (!inner) return std::nullopt;
      return std::pair<ExprRef, ExprRef>{binary(Op::Shl, inner->first, a[1]), binary(Op::Shl, inner->second, a[1])};
    }
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<int64_t> sharedIndexSectors(const ExprRef& offset, const Bindings& b, const model::Dim3& block, int warpSize,
                                          int64_t bytesPerLane, int64_t sectorBytes) {
  if (!offset || warpSize <= 0 || block.volume() <= 0 || bytesPerLane <= 0 || sectorBytes <= 0) return std::nullopt;
  // The terms that hold a load, the same in every lane of a group; the rest, the run.
  const auto parts = splitLoads(offset);
  if (!parts) return std::nullopt;
  const ExprRef& run = parts->second;
  std::vector<const SymExpr*> loads;
  collectLoads(parts->first, loads);
  if (loads.empty()) return std::nullopt;
  std::vector<ThreadProgram> addresses;
  for (const SymExpr* load : loads) {
    if (load->args.empty() || containsOp(load->args[0], Op::LaneLoad) || containsOp(load->args[0], Op::Varying))
      return std::nullopt;
    addresses.emplace_back(load->args[0], b);
  }
  const ThreadProgram runProgram(run, b);
  const auto sectorOf = [&](int64_t x) { return x >= 0 ? x / sectorBytes : -((-x + sectorBytes - 1) / sectorBytes); };
  int64_t most = 0;
  const int64_t volume = block.volume();
  for (int64_t first = 0; first < volume; first += warpSize) {
    std::map<std::vector<int64_t>, std::vector<int64_t>> groups;  // load addresses -> the lanes' run offsets
    for (int64_t l = first; l < std::min(volume, first + warpSize); ++l) {
      const int64_t tx = l % block.x, ty = (l / block.x) % block.y, tz = l / (block.x * block.y);
      std::vector<int64_t> key;
      for (const ThreadProgram& address : addresses) {
        const std::optional<int64_t> v = address.run(tx, ty, tz);
        if (!v) return std::nullopt;
        key.push_back(*v);
      }
      const std::optional<int64_t> at = runProgram.run(tx, ty, tz);
      if (!at || *at < -kLargestSpread || *at > kLargestSpread) return std::nullopt;
      groups[key].push_back(*at);
    }
    // Each group's base is a loaded value, taken on a sector boundary as every base the code
    // does not fix is (the figures of a uniform loaded base assume it so too): its run's
    // sectors there, the offsets its own terms add (a constant's misalignment included).
    int64_t warpSectors = 0;
    for (const auto& [key, offsets] : groups) {
      std::set<int64_t> sectors;
      for (int64_t o : offsets)
        for (int64_t s = sectorOf(o); s <= sectorOf(o + bytesPerLane - 1); ++s) sectors.insert(s);
      warpSectors += static_cast<int64_t>(sectors.size());
    }
    most = std::max(most, warpSectors);
  }
  return most;
}

}  // namespace coalesce::analysis
