// Runtime scalars bounded by the arrays their loops index (array_loop_bounds.h).
#include "array_loop_bounds.h"

#include <optional>

#include "loop_iterations.h"

namespace coalesce::analysis {

namespace {

// `start + step * counter < scalar` (strict) or `<=`, one conjunct of a loop's condition (a
// break or a return adds `&& !exit`): the scalar's id, the start and step, and strictness.
struct CounterBound {
  int scalar = -1;
  int64_t start = 0, step = 0;
  bool strict = true;
};

std::optional<CounterBound> counterBound(const ExprRef& cond, int counter, const SymbolTable& symbols) {
  if (cond->op == Op::LAnd) {
    if (auto left = counterBound(cond->args[0], counter, symbols)) return left;
    return counterBound(cond->args[1], counter, symbols);
  }
  if (cond->op != Op::Lt && cond->op != Op::Le) return std::nullopt;
  const ExprRef& rhs = cond->args[1];
  if (rhs->op != Op::Symbol || symbols[rhs->symbolId].kind != SymbolInfo::Kind::Param) return std::nullopt;
  const std::optional<AffineForm> lhs = linearize(cond->args[0]);
  if (!lhs || lhs->terms.size() != 1) return std::nullopt;
  const AffineTerm& t = lhs->terms.front();
  if (t.leaf->op != Op::Symbol || t.leaf->symbolId != counter || t.coef <= 0) return std::nullopt;
  return CounterBound{rhs->symbolId, lhs->constant, t.coef, cond->op == Op::Lt};
}

}  // namespace

std::map<int, ArrayLoopBound> arrayLoopBounds(const std::vector<const RawAccess*>& accesses, const SymbolTable& symbols) {
  std::map<int, ArrayLoopBound> out;
  for (const RawAccess* a : accesses) {
    if (a->rootBytes <= 0 || a->rootIndirect || !a->offset) continue;
    const std::optional<AffineForm> form = linearize(a->offset);
    if (!form || form->terms.size() != 1) continue;
    const AffineTerm& t = form->terms.front();
    if (t.leaf->op != Op::Symbol || t.coef <= 0) continue;
    const int counter = t.leaf->symbolId;
    const SymbolInfo& info = symbols[counter];
    if (info.kind != SymbolInfo::Kind::LoopVar || info.tripOf >= 0 || info.exitOf >= 0 || info.loopInit ||
        !info.loopCond)
      continue;
    const std::optional<CounterBound> bound = counterBound(info.loopCond, counter, symbols);
    if (!bound) continue;
    if (!lanes::everyIterationReaches(*a, counter, info.loopCond)) continue;
    // The last counter value whose element lies inside the array, and the largest scalar that
    // stops the loop there: counter < (scalar - start) / step, rounded up, for `<`.
    const int64_t lastInside = (a->rootBytes - a->bytes - form->constant) / t.coef;
    if (lastInside < 0) continue;
    const int64_t most = bound->start + bound->step * (lastInside + (bound->strict ? 1 : 0));
    const ArrayLoopBound found{most, "its loop `" + info.loopText + "` would take `" + a->rootName + "` past its " +
                                         std::to_string(a->rootBytes / a->bytes) + " elements"};
    const auto [it, added] = out.emplace(bound->scalar, found);
    if (!added && most < it->second.most) it->second = found;
  }
  return out;
}

}  // namespace coalesce::analysis
