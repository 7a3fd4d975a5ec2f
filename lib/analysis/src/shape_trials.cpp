#include "shape_trials.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "coalesce/model/geometry.h"
#include "analysis_policy.h"
#include "record_builder.h"

namespace coalesce::analysis {

namespace {

std::string dims(const model::Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

// Doubles that are the same figure: equal up to rounding (a mean over 8 or 16 warps).
bool same(double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

// What one access's figures under the trial shape are, as buildKernelRecords keeps them (the
// worst over the contexts; nothing for an access no lane runs).
struct TrialAccess {
  model::AccessFigures figures;
  BlockReuse blockReuse;
  IterationReuse iterationReuse;
  bool executed = true;
  double launchRequests = 0;  // as AccessSite::launchRequests: the weight of the access in its kernel
};

TrialAccess evaluateAccess(const SeenAccess& s, const std::vector<LaunchContext>& contexts,
                           const std::vector<bool>& repeated, const SymbolTable& symbols, const model::Arch& arch,
                           GuardCache& cache) {
  TrialAccess out;
  double worst = -1;
  for (size_t ci = 0; ci < contexts.size(); ++ci) {
    if (repeated[ci]) continue;  // the same figures: not the worst again (lane_function.h)
    const LaunchContext& c = contexts[ci];
    LaneResult lr = evaluateLanes(s.raw, c, symbols, arch, &cache);
    const double key = accessSeverity(lr.figures);
    if (key > worst) {
      worst = key;
      out.figures = std::move(lr.figures);
      out.blockReuse = lr.blockReuse;
      out.iterationReuse = lr.iterationReuse;
      out.launchRequests = launchRequests(lr, countedLoopsOf(s), c, symbols, arch, cache.iterations.get()).requests;
    }
  }
  out.executed = !((out.figures.global && out.figures.global->aligned.requests == 0) ||
                   (out.figures.shared && out.figures.shared->aligned.requests == 0));
  if (!out.executed) out.launchRequests = 0;
  return out;
}

// The first figure of `g` (under `tried`) that differs from `b` (under `guess`), in words.
std::optional<std::string> globalDifference(const model::GlobalFigures& b, const model::Dim3& guess,
                                            const model::GlobalFigures& g, const model::Dim3& tried,
                                            const model::Arch& arch, const char* placement) {
  const auto says = [&](const char* what, double now, double before) {
    return std::string(what) + placement + " " + number(now) + " instead of " + number(before);
  };
  if (!same(b.sectorsPerRequest, g.sectorsPerRequest)) return says("sectors per request", g.sectorsPerRequest, b.sectorsPerRequest);
  if (!same(b.idealSectors, g.idealSectors)) return says("ideal sectors", g.idealSectors, b.idealSectors);
  if (!same(b.efficiency, g.efficiency)) return says("efficiency", g.efficiency, b.efficiency);
  if (b.broadcast != g.broadcast) return std::string(g.broadcast ? "a broadcast" : "no longer a broadcast") + placement;
  return std::nullopt;
}

std::optional<std::string> sharedDifference(const model::SharedFigures& b, const model::Dim3& guess,
                                            const model::SharedFigures& g, const model::Dim3& tried,
                                            const model::Arch& arch, const char* placement) {
  const auto says = [&](const char* what, double now, double before) {
    return std::string(what) + placement + " " + number(now) + " instead of " + number(before);
  };
  if (!same(b.wavefronts, g.wavefronts)) return says("wavefronts per request", g.wavefronts, b.wavefronts);
  if (!same(b.idealWavefronts, g.idealWavefronts)) return says("ideal wavefronts", g.idealWavefronts, b.idealWavefronts);
  if (!same(b.conflictDegree, g.conflictDegree)) return says("conflict degree", g.conflictDegree, b.conflictDegree);
  return std::nullopt;
}

template <class Figures, class Compare>
std::optional<std::string> casesDifference(const std::optional<model::AlignmentCases<Figures>>& b,
                                           const model::Dim3& guess,
                                           const std::optional<model::AlignmentCases<Figures>>& g,
                                           const model::Dim3& tried, const model::Arch& arch, Compare compare) {
  if (b.has_value() != g.has_value()) return std::string("figures of another memory space");
  if (!b) return std::nullopt;
  if (b->alignmentKnown != g->alignmentKnown) return std::string("alignment known under one shape only");
  if (auto d = compare(b->aligned, guess, g->aligned, tried, arch, "")) return d;
  if (auto d = compare(b->best, guess, g->best, tried, arch, " (best placement)")) return d;
  return compare(b->worst, guess, g->worst, tried, arch, " (worst placement)");
}

// What differs between the access's record (under the guess) and its trial, or nothing.
std::optional<std::string> accessDifference(const AccessSite& b, const TrialAccess& t, const model::Dim3& tried,
                                            const model::Arch& arch) {
  if (b.executed != t.executed) return std::string(t.executed ? "runs" : "runs in no lane");
  if (!b.executed) return std::nullopt;
  const model::Dim3& guess = b.block.dim;
  if (auto d = casesDifference(b.figures.global, guess, t.figures.global, tried, arch, globalDifference)) return d;
  if (auto d = casesDifference(b.figures.shared, guess, t.figures.shared, tried, arch, sharedDifference)) return d;
  const auto range = [](const std::optional<std::pair<double, double>>& x, const std::optional<std::pair<double, double>>& y) {
    return x.has_value() == y.has_value() && (!x || (same(x->first, y->first) && same(x->second, y->second)));
  };
  if (!range(b.figures.sectorRange, t.figures.sectorRange)) return std::string("range of sectors per request");
  if (!range(b.figures.wavefrontRange, t.figures.wavefrontRange)) return std::string("range of wavefronts per request");
  if (b.figures.activeLanesPerWarp != t.figures.activeLanesPerWarp)
    return "active lanes per warp " + std::to_string(t.figures.activeLanesPerWarp) + " instead of " +
           std::to_string(b.figures.activeLanesPerWarp);
  // The reuse between the block's warps grows with their count by construction (a load every
  // warp makes once is reused `warps` times); what the report decides from it is compared:
  // whether there is any (the tiling hint), and whether a tile would save nothing.
  const auto reused = [](const BlockReuse& r) { return r.known && r.distinctBytes > 0 && r.reuse() > 1.0 + 1e-9; };
  const auto noTileHelps = [](const BlockReuse& r) {
    return r.known && r.warpSectors > 0 && r.blockSectors >= 0.9 * r.warpSectors;
  };
  if (b.blockReuse.known != t.blockReuse.known || reused(b.blockReuse) != reused(t.blockReuse) ||
      noTileHelps(b.blockReuse) != noTileHelps(t.blockReuse))
    return "reuse between the block's warps " + number(t.blockReuse.reuse()) + "x instead of " +
           number(b.blockReuse.reuse()) + "x";
  if (!same(b.iterationReuse.sectorsPerRequest, t.iterationReuse.sectorsPerRequest))
    return "sectors per request over the loop's iterations " + number(t.iterationReuse.sectorsPerRequest) +
           " instead of " + number(b.iterationReuse.sectorsPerRequest);
  return std::nullopt;
}

std::string where(const SourceLocation& loc) {
  const size_t slash = loc.file.find_last_of('/');
  return (slash == std::string::npos ? loc.file : loc.file.substr(slash + 1)) + ":" + std::to_string(loc.line);
}

// The first difference under one trial shape, in the order the report reads: accesses,
// branches, barriers.
std::optional<std::string> firstDifference(const KernelEvents& events, const std::vector<LaunchContext>& trial,
                                           const model::Dim3& shape, const SymbolTable& symbols,
                                           const model::Arch& arch, const TranslationUnitResult& built,
                                           size_t firstAccess, size_t firstBranch, size_t firstBarrier) {
  GuardCache cache;  // keyed by context: the trial's own
  // The trial changes every context alike: those equal before are equal now.
  const std::vector<bool> repeated = repeatsAnEarlier(trial);
  std::vector<double> weights;
  for (size_t i = 0; i < events.accesses.size(); ++i) {
    const AccessSite& b = built.accesses[firstAccess + i];
    if (!lanesEvaluated(events.accesses[i].raw.space)) {  // no figures under any shape
      weights.push_back(0);
      continue;
    }
    const TrialAccess t = evaluateAccess(events.accesses[i], trial, repeated, symbols, arch, cache);
    if (auto d = accessDifference(b, t, shape, arch)) return "`" + b.expression + "` (" + where(b.loc) + "): " + *d;
    weights.push_back(t.launchRequests);
  }
  // What each access weighs in its kernel (the requests a launch issues, over the busiest
  // access's): the costs and shares the findings quote. Not the count itself, which scales
  // with the threads of a block as the grid is not known either.
  double builtMost = 0, trialMost = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    builtMost = std::max(builtMost, built.accesses[firstAccess + i].launchRequests);
    trialMost = std::max(trialMost, weights[i]);
  }
  for (size_t i = 0; i < weights.size() && builtMost > 0 && trialMost > 0; ++i) {
    const AccessSite& b = built.accesses[firstAccess + i];
    const double before = b.launchRequests / builtMost, now = weights[i] / trialMost;
    if (!same(before, now))
      return "`" + b.expression + "` (" + where(b.loc) + "): its requests " + number(now) +
             " of the busiest access's instead of " + number(before);
  }
  for (size_t i = 0; i < events.branches.size(); ++i) {
    const SeenBranch& e = events.branches[i];
    const BranchSite& b = built.branches[firstBranch + i];
    double worst = -1;
    ConditionFigures kept;
    for (size_t ci = 0; ci < trial.size(); ++ci) {
      if (repeated[ci]) continue;
      const LaunchContext& c = trial[ci];
      ConditionFigures f =
          evaluateCondition(e.condition, e.guards, c, symbols, arch, e.kind == BranchKind::Switch, &cache);
      const double share = f.warpRequests ? static_cast<double>(f.divergentRequests) / f.warpRequests : 0;
      if (share > worst) {
        worst = share;
        kept = std::move(f);
      }
    }
    const double before = b.warpRequests ? static_cast<double>(b.divergentRequests) / b.warpRequests : 0;
    if (kept.evaluated != b.evaluated || !same(worst, before) || kept.onlyPartialWarps != b.onlyPartialWarps)
      return "the branch `" + b.condition + "` (" + where(b.loc) + "): splits " + number(100 * worst) +
             " % of its warp requests instead of " + number(100 * before) + " %";
  }
  for (size_t i = 0; i < events.barriers.size(); ++i) {
    const BarrierSite& b = built.barriers[firstBarrier + i];
    BarrierSite::Reach reach = BarrierSite::Reach::Uniform;
    const auto rank = [](BarrierSite::Reach k) { return k == BarrierSite::Reach::Divergent ? 2 : k == BarrierSite::Reach::Unknown ? 1 : 0; };
    for (size_t ci = 0; ci < trial.size(); ++ci) {
      if (repeated[ci]) continue;
      const LaunchContext& c = trial[ci];
      const BarrierReach r = evaluateBarrier(events.barriers[i].guards, c, symbols, arch);
      const BarrierSite::Reach k = r.kind == BarrierReach::Kind::Divergent ? BarrierSite::Reach::Divergent
                                   : r.kind == BarrierReach::Kind::Unknown ? BarrierSite::Reach::Unknown
                                                                           : BarrierSite::Reach::Uniform;
      if (rank(k) > rank(reach)) reach = k;
    }
    if (reach != b.reach)
      return "the barrier `" + b.call + "` (" + where(b.loc) + "): " + std::string(toString(reach)) + " instead of " +
             std::string(toString(b.reach));
  }
  return std::nullopt;
}

}  // namespace

std::vector<model::Dim3> trialShapes(const LaunchContext& c, int64_t maxThreads) {
  std::vector<int> guessed;
  for (int d = 0; d < 3; ++d)
    if (c.guessedAxes[d]) guessed.push_back(d);
  const model::Dim3 guess = c.block.dim;
  std::vector<std::array<int64_t, 3>> shapes;
  const std::array<int64_t, 3> base{guess.x, guess.y, guess.z};
  if (guessed.size() == 1) {
    const int d = guessed[0];
    for (int64_t v : {base[d] / 2, base[d] * 2}) {
      std::array<int64_t, 3> s = base;
      s[d] = v;
      shapes.push_back(s);
    }
  } else if (guessed.size() == 2) {
    for (const auto& [a, b] : {std::pair<int64_t, int64_t>{16, 16}, {32, 4}}) {
      std::array<int64_t, 3> s = base;
      s[guessed[0]] = a;
      s[guessed[1]] = b;
      shapes.push_back(s);
    }
  } else if (guessed.size() == 3) {
    shapes = {{16, 8, 2}, {8, 8, 4}};
  }
  std::vector<model::Dim3> out;
  for (const auto& s : shapes) {
    const model::Dim3 d{s[0], s[1], s[2]};
    if (s[0] <= 0 || s[1] <= 0 || s[2] <= 0 || d.volume() > maxThreads || d == guess) continue;
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  }
  return out;
}

ShapeTrial tryOtherShapes(const KernelEvents& events, const std::vector<LaunchContext>& contexts,
                          const SymbolTable& symbols, const model::Arch& arch, const TranslationUnitResult& built,
                          size_t firstAccess, size_t firstBranch, size_t firstBarrier) {
  ShapeTrial out;
  if (contexts.empty()) return out;
  for (const LaunchContext& c : contexts)
    if (c.block.source != BlockSource::Assumed || c.block.dim != contexts.front().block.dim ||
        c.guessedAxes != contexts.front().guessedAxes)
      return out;
  // Branches and barriers are evaluated again per lane and per iteration as accesses are:
  // they count against the same limit (DualSPHysics' particle-interaction kernels, branches in
  // neighbour loops, spent about two thirds of a file's first ten minutes in their trials'
  // conditions: bench/RESULTS.md, "Session 23").
  const size_t controls = events.branches.size() + events.barriers.size();
  if (events.accesses.size() + controls > kMaxShapeTrialEvents) {
    std::string what = std::to_string(events.accesses.size()) + (events.accesses.size() == 1 ? " access" : " accesses");
    if (controls > 0) what += " and " + std::to_string(controls) + " branches and barriers";
    out.skipped = "; not tried under other shapes: its " + what + " are more than the trial evaluates again (" +
                  std::to_string(kMaxShapeTrialEvents) + ")";
    return out;
  }
  for (const model::Dim3& shape : trialShapes(contexts.front(), arch.maxThreadsPerBlock)) {
    std::vector<LaunchContext> trial = contexts;
    for (LaunchContext& c : trial) c.block.dim = shape;
    out.tried.push_back(shape);
    if (auto d = firstDifference(events, trial, shape, symbols, arch, built, firstAccess, firstBranch, firstBarrier)) {
      out.difference = "under " + dims(shape) + ", " + *d;
      return out;
    }
  }
  out.invariant = !out.tried.empty();
  return out;
}

void recordShapeTrial(const ShapeTrial& trial, std::vector<LaunchContext>& contexts, TranslationUnitResult& built,
                      size_t firstAccess, size_t firstBranch, size_t firstBarrier) {
  if (trial.tried.empty()) {
    if (!trial.skipped.empty())
      for (LaunchContext& c : contexts)
        if (c.block.source == BlockSource::Assumed) c.block.detail += trial.skipped;
    return;
  }
  std::string names;
  std::vector<std::string> tried;
  for (const model::Dim3& d : trial.tried) {
    tried.push_back(dims(d));
    names += (names.empty() ? "" : ", ") + tried.back();
  }
  const std::string said =
      trial.invariant
          ? "; every figure is the same under " + names + ": they do not rest on the guess"
          : "; the figures depend on the guess: " + trial.difference +
                " (set the block with --block-dim or a `coalesce-lint: block=` comment)";
  const auto mark = [&](BlockShape& b) {
    if (b.source != BlockSource::Assumed) return;
    b.shapesTried = tried;
    b.shapeInvariant = trial.invariant;
    b.detail += said;
  };
  for (LaunchContext& c : contexts) mark(c.block);
  for (size_t i = firstAccess; i < built.accesses.size(); ++i) mark(built.accesses[i].block);
  for (size_t i = firstBranch; i < built.branches.size(); ++i) mark(built.branches[i].block);
  for (size_t i = firstBarrier; i < built.barriers.size(); ++i) mark(built.barriers[i].block);
}

}  // namespace coalesce::analysis
