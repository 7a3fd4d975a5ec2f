// The split of an access's address into its lane part and its warp-uniform base, per listed
// loop iteration (lane_evaluator.h, Evaluator::patternFor): from each iteration's own address
// (splitAddress), or once per block run for every iteration of the same loop variables
// (makeLoopSplit, splitAt), and the uniform base's constant and alignment (uniformBase).
// Clang-free.
#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "lane_evaluator.h"

namespace coalesce::analysis::lanes {

namespace {

// `e` with each of its addends (symbolic.cpp, addends) that depends on the thread put to 0,
// the sums and constant factors over them kept: the addends of what it gives are e's
// uniform addends (less any 0), also once values are put in.
ExprRef uniformSkeleton(const ExprRef& e) {
  const auto sum = [](const ExprRef& x) { return x->op == Op::Add || x->op == Op::Sub; };
  if ((e->op == Op::Mul || e->op == Op::Shl) && asConstant(e->args[1]) && sum(e->args[0]))
    return binary(e->op, uniformSkeleton(e->args[0]), e->args[1]);
  if (e->op == Op::Mul && asConstant(e->args[0]) && sum(e->args[1]))
    return binary(Op::Mul, e->args[0], uniformSkeleton(e->args[1]));
  if (sum(e)) return binary(e->op, uniformSkeleton(e->args[0]), uniformSkeleton(e->args[1]));
  return isUniform(e) ? e : constant(0);
}

// An affine term of the thread index: its coefficient into the lanes' strides, and the term as
// a lane part (enumerated when a guard idles some lanes).
void addLaneTerm(const AffineTerm& t, model::AffineLanes& lanes, std::vector<ExprRef>& laneParts) {
  (t.leaf->value == 0 ? lanes.cx : t.leaf->value == 1 ? lanes.cy : lanes.cz) += t.coef;
  laneParts.push_back(binary(Op::Mul, t.leaf, constant(t.coef)));
}

}  // namespace

Evaluator::UniformSum Evaluator::uniformStart() const {
  UniformSum sum;
  sum.unknown = raw.rootAlignment;
  // A pointer the launch passes as `buf + k`: k's bytes past the allocation's alignment.
  if (auto it = launch.pointerByteOffsets.find(raw.rootParam); raw.rootParam >= 0 && it != launch.pointerByteOffsets.end())
    sum.base.constant += ((it->second % raw.rootAlignment) + raw.rootAlignment) % raw.rootAlignment;
  return sum;
}

void Evaluator::addUniform(UniformSum& sum, const ExprRef& a) const {
  auto form = linearize(a);
  if (!form) return;  // cannot happen for uniform parts (opaque terms)
  sum.base.constant += form->constant;
  for (const AffineTerm& t : form->terms) {
    if (containsOp(t.leaf, Op::UniformLoad)) sum.gather = true;
    // The block index steps the address from block to block: the grid's blocks take its
    // every residue (model::UniformOffset::blockCycle), none of them unknown. An axis the
    // known grid does not extend on leaves it 0.
    if (t.leaf->op == Op::BlockIdx) {
      if (!(launch.grid && dimOf(*launch.grid, static_cast<int>(t.leaf->value)) <= 1)) {
        sum.base.blockCycle = std::gcd(sum.base.blockCycle, std::abs(t.coef));
        sum.blockBytes += t.coef * blockIdx[t.leaf->value];
      }
      continue;
    }
    const int64_t div = knownDivisor(t.leaf, [&](const ExprRef& l) { return leafAlignment(l); });
    const int64_t termAlign = div == 0 ? 0 : std::abs(t.coef) * div;
    sum.unknown = std::gcd(sum.unknown, termAlign);
  }
}

// An alignment that is a multiple of the model's period is as good as known; the model
// checks that itself.
model::UniformOffset Evaluator::finishUniform(const UniformSum& sum, bool& gather) {
  model::UniformOffset base = sum.base;
  base.unknownAlignment = sum.unknown == 0 ? 0 : sum.unknown;
  if (sum.gather) gather = true;
  return base;
}

model::UniformOffset Evaluator::uniformBase(const std::vector<ExprRef>& uniformAddends, bool& gather,
                                            int64_t* blockBytes) const {
  UniformSum sum = uniformStart();
  for (const ExprRef& a : uniformAddends) addUniform(sum, a);
  if (blockBytes) *blockBytes = sum.blockBytes;
  return finishUniform(sum, gather);
}

Evaluator::AddressSplit Evaluator::splitAddress(const ExprRef& offset, bool& gather) {
  AddressSplit out;
  std::vector<ExprRef> uniformParts;
  auto form = linearize(offset);
  if (!form) {
    // tx * width with width unknown: take the stated large value for the parameters that
    // scale lanes, so the address stays affine (the rules read its thread axes).
    std::set<int> scaling;
    for (const ExprRef& a : addends(offset))
      if (dependsOnThread(a)) collectSymbols(a, scaling);
    if ((form = linearize(withScalingValues(offset, scaling))))
      for (int id : scaling)
        if (symbols[id].kind == SymbolInfo::Kind::Param) representativeSymbols.insert(id);
  }
  if (form) {
    out.affine = true;
    uniformParts.push_back(constant(form->constant));
    for (const AffineTerm& t : form->terms) {
      if (t.leaf->op == Op::ThreadIdx) {
        addLaneTerm(t, out.lanes, out.laneParts);
      } else if (isUniform(t.leaf)) {
        uniformParts.push_back(binary(Op::Mul, t.leaf, constant(t.coef)));
      } else {
        out.affine = false;
      }
    }
  }
  if (!out.affine) {
    uniformParts.clear();
    out.laneParts.clear();
    for (const ExprRef& a : addends(offset)) (isUniform(a) ? uniformParts : out.laneParts).push_back(a);
  }
  out.base = uniformBase(uniformParts, gather, &out.blockBytes);
  return out;
}

ExprRef Evaluator::withScalingValues(const ExprRef& e, const std::set<int>& scaling) const {
  return substituteLeaves(
      e,
      [&](const ExprRef& l) -> ExprRef {
        if (l->op == Op::Symbol && scaling.count(l->symbolId) && symbols[l->symbolId].kind == SymbolInfo::Kind::Param)
          return constant(assumedValue(l->symbolId));
        return nullptr;
      },
      opBit(Op::Symbol));
}

// The same split for every iteration of one set of loop variables, made once per block run
// (docs/analysis-speed.md, session 21). The address with the launch's values put in and the
// loop variables left as symbols, P, is split as splitAddress would split it; an iteration's
// split is then P's with the loop variables' values added in, which is what splitAddress
// gives for the iteration's address (P with those values put in), as long as no lane part
// names a loop variable:
//  - affine P whose terms name a loop variable only as a bare symbol: the iteration's form is
//    P's, each such term `coef * i` moved into the constant (linearize is exact over sums
//    and constant factors, and keeps the other terms' order);
//  - otherwise, P's addends that depend on the thread name no loop variable: they are the
//    iteration's (substitution leaves them alone, and a sum node above them folds only where
//    a uniform side became 0), the scaled retry fails for both alike (it fails on the lane
//    parts, which are the same), and the uniform parts are the addends of P's uniform
//    skeleton (uniformSkeleton) with the values put in.
// Where a condition does not hold (a lane part names a loop variable, `tx * i`, an address
// whose scaled retry is affine, a load, a value varying per lane) every iteration is split
// from its own address, as before. test/analysis/lanes/loop_split_test.cpp compares the two.
std::optional<Evaluator::LoopSplit> Evaluator::makeLoopSplit(const std::vector<int>& loopVars) {
  if (containsOp(raw.offset, Op::LaneLoad) || containsOp(raw.offset, Op::Varying)) return std::nullopt;
  const auto isLoopVar = [&](int id) { return std::binary_search(loopVars.begin(), loopVars.end(), id); };
  const auto namesLoopVar = [&](const ExprRef& e) {
    if (!containsOp(e, Op::Symbol)) return false;
    std::set<int> named;
    collectSymbols(e, named);
    return std::any_of(named.begin(), named.end(), isLoopVar);
  };
  const ExprRef p = substituteLeaves(
      raw.offset,
      [&](const ExprRef& leaf) -> ExprRef {
        if (leaf->op == Op::Symbol && isLoopVar(leaf->symbolId)) return nullptr;
        return fixLaunch(leaf);
      },
      opBit(Op::Symbol) | opBit(Op::BlockDim));
  LoopSplit out;
  if (auto form = linearize(p)) {
    out.affine = true;
    out.fixed = uniformStart();
    addUniform(out.fixed, constant(form->constant));
    for (const AffineTerm& t : form->terms) {
      if (t.leaf->op == Op::Symbol && isLoopVar(t.leaf->symbolId)) {
        out.loopTerms.push_back({t.leaf->symbolId, t.coef});
      } else if (namesLoopVar(t.leaf)) {
        return std::nullopt;  // `i * n`: an opaque term, which the iteration's value may open
      } else if (t.leaf->op == Op::ThreadIdx) {
        addLaneTerm(t, out.lanes, out.laneParts);
      } else if (isUniform(t.leaf)) {
        addUniform(out.fixed, binary(Op::Mul, t.leaf, constant(t.coef)));
      } else {
        return std::nullopt;
      }
    }
    return out;
  }
  std::set<int> scaling;
  for (const ExprRef& a : addends(p)) {
    if (!dependsOnThread(a)) continue;
    if (namesLoopVar(a)) return std::nullopt;
    collectSymbols(a, scaling);
    out.laneParts.push_back(a);
  }
  if (linearize(withScalingValues(p, scaling))) return std::nullopt;
  out.uniformSkeleton = uniformSkeleton(p);
  return out;
}

const Evaluator::LoopSplit* Evaluator::loopSplit(const std::vector<int>& loopVars) {
  auto it = loopSplits_.find(loopVars);
  if (it == loopSplits_.end()) it = loopSplits_.emplace(loopVars, makeLoopSplit(loopVars)).first;
  return it->second ? &*it->second : nullptr;
}

Evaluator::AddressSplit Evaluator::splitAt(const LoopSplit& split, const std::map<int, int64_t>& iteration, bool& gather) {
  AddressSplit out;
  out.affine = split.affine;
  out.lanes = split.lanes;
  out.laneParts = split.laneParts;
  if (split.affine) {
    UniformSum sum = split.fixed;
    for (const auto& [id, coef] : split.loopTerms) sum.base.constant += coef * iteration.at(id);
    out.base = finishUniform(sum, gather);
    out.blockBytes = sum.blockBytes;
    return out;
  }
  const ExprRef uniform = substituteLeaves(
      split.uniformSkeleton,
      [&](const ExprRef& leaf) -> ExprRef {
        if (auto it = iteration.find(leaf->symbolId); it != iteration.end()) return constant(it->second);
        return nullptr;
      },
      opBit(Op::Symbol));
  out.base = uniformBase(addends(uniform), gather, &out.blockBytes);
  return out;
}

void Evaluator::checkLoopSplit(const AddressSplit& fast, bool fastGather, const std::map<int, int64_t>& iteration,
                               const Bindings& rep) {
  bool gather = false;
  const std::set<int> before = representativeSymbols;
  const AddressSplit slow = splitAddress(atIteration(raw.offset, iteration, rep), gather);
  const bool same = slow.affine == fast.affine && slow.lanes == fast.lanes && slow.base == fast.base &&
                    gather == fastGather && representativeSymbols == before &&
                    std::equal(slow.laneParts.begin(), slow.laneParts.end(), fast.laneParts.begin(), fast.laneParts.end(),
                               [](const ExprRef& a, const ExprRef& b) { return sameStructure(a, b); });
  ++loopSplitsChecked;
  if (!same) ++loopSplitsDiffering;
}

}  // namespace coalesce::analysis::lanes
