// laneSpread (lane_spread.h): interval widths over one warp's lanes, for addresses that hold
// loaded values only under operations that bound them.
#include "lane_spread.h"

#include <algorithm>

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

}  // namespace coalesce::analysis
