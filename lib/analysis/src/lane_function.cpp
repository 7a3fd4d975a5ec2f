// From a symbolic address to the model's figures for one launch context: which blocks
// stand for the grid, each warp of each block and each listed loop iteration evaluated
// (lane_evaluator.h), their figures averaged as the hardware's counters add them up; and
// the same per-lane evaluation for branch conditions and barrier guards.
#include "lane_function.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <memory>
#include <set>

#include "coalesce/model/block_reuse.h"
#include "coalesce/model/global_model.h"
#include "block_samples.h"
#include "branch_paths.h"
#include "lane_evaluator.h"
#include "periodic_figures.h"

namespace coalesce::analysis {

namespace {

using namespace lanes;

template <class F>
void accumulate(F& sum, const F& f, double weight);

template <>
void accumulate(model::GlobalFigures& sum, const model::GlobalFigures& f, double w) {
  sum.sectorsPerRequest += f.sectorsPerRequest * w;
  sum.idealSectors += f.idealSectors * w;
  sum.minSectors = sum.requests == 0 ? f.minSectors : std::min(sum.minSectors, f.minSectors);
  sum.maxSectors = std::max(sum.maxSectors, f.maxSectors);
  sum.broadcast = (sum.requests == 0 || sum.broadcast) && f.broadcast;
  sum.requests += f.requests;
}
template <>
void accumulate(model::SharedFigures& sum, const model::SharedFigures& f, double w) {
  sum.wavefronts += f.wavefronts * w;
  sum.idealWavefronts += f.idealWavefronts * w;
  sum.maxWavefronts = std::max(sum.maxWavefronts, f.maxWavefronts);
  sum.maxWaysInPhase = std::max(sum.maxWaysInPhase, f.maxWaysInPhase);
  sum.requests += f.requests;
}

void finish(model::GlobalFigures& f) {
  if (f.requests == 0) return;
  f.sectorsPerRequest /= static_cast<double>(f.requests);
  f.idealSectors /= static_cast<double>(f.requests);
  f.efficiency = f.sectorsPerRequest > 0 ? f.idealSectors / f.sectorsPerRequest : 1.0;
}
void finish(model::SharedFigures& f) {
  if (f.requests == 0) return;
  f.wavefronts /= static_cast<double>(f.requests);
  f.idealWavefronts /= static_cast<double>(f.requests);
  f.conflictDegree = f.idealWavefronts > 0 ? f.wavefronts / f.idealWavefronts : 1.0;
}

template <class F>
void mergeCases(std::optional<model::AlignmentCases<F>>& sum, const std::optional<model::AlignmentCases<F>>& c) {
  if (!c) return;
  if (!sum) sum.emplace();
  sum->alignmentKnown = (sum->aligned.requests == 0 || sum->alignmentKnown) && c->alignmentKnown;
  accumulate(sum->aligned, c->aligned, static_cast<double>(c->aligned.requests));
  accumulate(sum->best, c->best, static_cast<double>(c->best.requests));
  accumulate(sum->worst, c->worst, static_cast<double>(c->worst.requests));
}

template <class F>
void finishCases(std::optional<model::AlignmentCases<F>>& c) {
  if (!c) return;
  finish(c->aligned);
  finish(c->best);
  finish(c->worst);
}

}  // namespace

namespace {

bool anyRequest(const LaneResult& r) {
  return r.uncomputedRequests > 0 || (r.figures.global && r.figures.global->aligned.requests > 0) ||
         (r.figures.shared && r.figures.shared->aligned.requests > 0);
}

// One block's worth of an access: its figures over the loop iterations, with the evaluator
// (and its assumptions) that made them. `probe`: only whether any request runs, so the first
// iteration with one ends the walk (the searches for a context under which it runs).
LaneResult evaluateLanesInBlock(const RawAccess& raw, Evaluator& ev, const model::Arch& arch, bool probe = false) {
  LaneResult result;
  const auto& combos = ev.loopCombos();
  // A probe looks at iterations spread over the loops (kProbeIterations at most): searching
  // every idle access's contexts at full cost would multiply a file's time.
  const size_t step = probe ? std::max<size_t>(1, combos.size() / kProbeIterations) : 1;
  bool first = true;
  bool keptLive = false;  // result.access is of an iteration with a request
  int64_t listed = 0;
  int64_t liveIterations = 0;  // listed iterations with a request
  int64_t before = 0;           // requests of the iterations listed so far
  auto requestsSoFar = [&] {
    return result.uncomputedRequests + (result.figures.global   ? result.figures.global->aligned.requests
                                        : result.figures.shared ? result.figures.shared->aligned.requests
                                                                : 0);
  };
  // Global loads only: the bytes the block's warps share (block_reuse.h), known when every
  // listed iteration's addresses are.
  const bool sharingMatters = raw.space == model::Space::Global && raw.kind == model::AccessKind::Load && !probe;
  bool sharingKnown = sharingMatters;
  int64_t sharingIterations = 0;
  // Global accesses: the sectors each warp touches again in its next iterations.
  // (Read only over several listed iterations: an access outside loops skips it.)
  const bool windowMatters = raw.space == model::Space::Global && !probe && combos.size() > 1;
  model::IterationWindow window(kIterationWindow);
  std::set<int> innermost;  // the symbols of the innermost listed loop
  // analyzeAccess and blockBytes, once per pattern moved into its period: for the kernel when
  // the run has its memo.
  PeriodicFigures ownFigures;
  PeriodicFigures& figures = ev.memo ? ev.memo->figuresIn(ev.launch.block.dim) : ownFigures;
  for (size_t c = 0; c < combos.size(); c += step) {
    const auto& combo = combos[c];
    if (probe && !first && anyRequest(result)) break;
    // A probe reads only whether some iteration makes a request: one where no thread passes
    // the guards makes none (the searches' blocks and values mostly idle the access).
    if (probe && !ev.anyThreadRuns(combo)) continue;
    ++listed;
    auto p = ev.patternFor(combo);
    // A gather's range is capped by the object it lies in, or by the spread its bounded index
    // allows (lane_spread.h), whichever is smaller.
    const int64_t objectBytes = p.dataSpanBytes > 0 && (raw.rootBytes <= 0 || p.dataSpanBytes < raw.rootBytes)
                                    ? p.dataSpanBytes
                                    : raw.rootBytes;
    model::Access access{raw.space, raw.kind, raw.bytes, std::move(p.pattern), raw.sameWordSerialised, objectBytes,
                         p.mostSectors};
    result.indirectRowGather = result.indirectRowGather || p.gather;
    result.uncomputedRequests += p.uncomputedRequests;
    // A base loaded per warp (`table[rows[token] * D + lane]`, one token per warp) differs
    // between the warps in ways the pattern does not say: their sharing is not known.
    if (p.gather) sharingKnown = false;
    const PeriodicFigures::Entry& kept = figures.at(access, ev.launch.block.dim, arch, sharingKnown);
    AccessFigures f = kept.figures;
    if (windowMatters) {
      // A window runs along the innermost loop (the symbols the first step moves): when an
      // outer loop moves, the warp's next iterations start elsewhere (a loop over the five
      // fields of an element inside a loop over the elements: windows of 5, not of 8 that
      // straddle two elements' partial fields).
      if (c == 1 && combos.size() > 1)
        for (const auto& [id, v] : combo)
          if (auto it = combos[0].find(id); it == combos[0].end() || it->second != v) innermost.insert(id);
      if (c > 1)
        for (const auto& [id, v] : combo)
          if (!innermost.count(id))
            if (auto it = combos[c - 1].find(id); it == combos[c - 1].end() || it->second != v) {
              window.closeWindow();
              break;
            }
      window.add(access, ev.launch.block.dim, arch);
    }
    if (sharingKnown) {
      if (const auto& bytes = kept.bytes; bytes && bytes->warps > 0) {
        BlockReuse& r = result.blockReuse;
        r.requestedBytes += static_cast<double>(bytes->requestedBytes);
        r.distinctBytes += static_cast<double>(bytes->distinctBytes);
        r.warpSectors += static_cast<double>(bytes->warpSectors);
        r.blockSectors += static_cast<double>(bytes->blockSectors);
        ++sharingIterations;
      } else if (!bytes) {
        sharingKnown = false;
      }
    }
    mergeCases(result.figures.global, f.global);
    mergeCases(result.figures.shared, f.shared);
    const int64_t now = requestsSoFar();
    const bool live = now > before;
    if (live) ++liveIterations;
    before = now;
    // The pattern (for pictures and the fixes re-evaluated from it) and the ranges are those of
    // the first listed iteration in which a lane runs the access: an idle one would show no
    // lanes, and a fix evaluated on it would claim 0 wavefronts.
    if (first || (live && !keptLive)) {
      result.access = access;
      result.figures.sectorRange = f.sectorRange;
      result.figures.wavefrontRange = f.wavefrontRange;
      result.figures.activeLanesPerWarp = f.activeLanesPerWarp;
      first = false;
      keptLive = live;
    }
  }
  const int64_t requests = requestsSoFar();
  if (listed > 0) result.requestsPerIteration = static_cast<double>(requests) / static_cast<double>(listed);
  if (liveIterations > 0)
    result.requestsPerLiveIteration = static_cast<double>(requests) / static_cast<double>(liveIterations);
  if (sharingKnown && sharingIterations > 0) {
    BlockReuse& r = result.blockReuse;
    r.known = true;
    const double n = static_cast<double>(sharingIterations);
    r.requestedBytes /= n;
    r.distinctBytes /= n;
    r.warpSectors /= n;
    r.blockSectors /= n;
  } else {
    result.blockReuse = BlockReuse{};
  }
  if (windowMatters && window.known() && listed > 1)
    result.iterationReuse = IterationReuse{window.sectorsPerRequest(), window.linesPerRequest(), window.bytesReadShare()};
  finishCases(result.figures.global);
  finishCases(result.figures.shared);
  return result;
}

}  // namespace

std::shared_ptr<SharedGuards> lanes::sharedGuards(const RawAccess& raw, const LaunchContext& launch,
                                                  const SymbolTable& symbols, const model::Arch& arch,
                                                  const std::array<int64_t, 3>& blockIdx,
                                                  const std::map<int, int64_t>& liveValues, GuardCache* cache) {
  if (!cache || raw.guards.empty()) return nullptr;
  std::vector<const SymExpr*> guards;
  for (const auto& g : raw.guards) guards.push_back(g.get());
  GuardCache::BlockRunKey key{std::move(guards), &launch, blockIdx, liveValues};
  if (auto it = cache->sharedGuards.find(key); it != cache->sharedGuards.end()) return it->second;
  if (cache->sharedGuards.size() >= kKeptSharedGuards) cache->sharedGuards.clear();  // users hold theirs
  auto shared = std::make_shared<SharedGuards>();
  shared->raw.offset = constant(0);
  shared->raw.guards = raw.guards;
  shared->raw.guardTexts = raw.guardTexts;
  shared->ev = std::make_unique<Evaluator>(shared->raw, launch, symbols, arch);
  for (int d = 0; d < 3; ++d) shared->ev->blockIdx[d] = blockIdx[static_cast<size_t>(d)];
  shared->ev->liveValues = liveValues;
  cache->sharedGuards.emplace(std::move(key), shared);
  return shared;
}

namespace {

// One block's figures under the given values for unknown scalars, with what they rest on.
// `idle`: made by a BlockRunMode::UnlessIdle run, which found no thread past the guards in any
// listed iteration and left the figures out (`result` then holds no request, as the full run's
// would); materialise() makes them when the run is kept after all.
struct BlockRun {
  LaneResult result;
  std::set<std::string> assumptions;
  std::set<int> representativeSymbols;
  struct Idle {
    std::array<int64_t, 3> blockIdx;
    std::map<int, int64_t> liveValues;
  };
  std::optional<Idle> idle;
};
// How much of a block run to make: every listed iteration (Full); whether any request runs,
// from iterations spread over the loops (Probe, evaluateLanesInBlock); or Full, unless no thread
// passes the access's guards in any listed iteration (UnlessIdle): then the run is only marked
// idle. Each of patternFor's cases makes its requests from the threads past the guards, so that
// run's figures hold no request, and evaluateLanes, which moves on to another block or other
// values, reads nothing else of them unless it keeps the run (materialise). In Rodinia's
// rdwt97.cu 1,044 of 1,458 accesses make no request in block 1 (they run in the grid's first row
// or its boundary blocks): their full runs there and in block 0 were about a third of the file's
// lane evaluation (docs/analysis-speed.md, session 28).
enum class BlockRunMode { Full, Probe, UnlessIdle };

// `share`: the kernel's cache, whose shared guards this run uses (sharedGuards), when `launch`
// is a context its keys may name.
BlockRun runInBlock(const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                    const model::Arch& arch, const std::array<int64_t, 3>& blockIdx,
                    const std::map<int, int64_t>& liveValues, IterationMemo* memo,
                    BlockRunMode mode = BlockRunMode::Full, GuardCache* share = nullptr) {
  Evaluator ev(raw, launch, symbols, arch);
  for (int d = 0; d < 3; ++d) ev.blockIdx[d] = blockIdx[static_cast<size_t>(d)];
  ev.liveValues = liveValues, ev.memo = memo;
  const std::shared_ptr<SharedGuards> guards = sharedGuards(raw, launch, symbols, arch, blockIdx, liveValues, share);
  if (guards) ev.guardSource = guards->ev.get();
  BlockRun run;
  if (mode == BlockRunMode::UnlessIdle) {
    const auto& combos = ev.loopCombos();
    if (std::none_of(combos.begin(), combos.end(), [&](const auto& combo) { return ev.anyThreadRuns(combo); })) {
      run.idle = BlockRun::Idle{blockIdx, liveValues};
      return run;
    }
  }
  run.result = evaluateLanesInBlock(raw, ev, arch, mode == BlockRunMode::Probe);
  run.assumptions = std::move(ev.assumptions);
  run.representativeSymbols = std::move(ev.representativeSymbols);
  return run;
}

// The full run of a block a BlockRunMode::UnlessIdle run only marked idle.
void materialise(BlockRun& run, const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                 const model::Arch& arch, IterationMemo* memo, GuardCache* share) {
  if (!run.idle) return;
  const BlockRun::Idle idle = std::move(*run.idle);
  run = runInBlock(raw, launch, symbols, arch, idle.blockIdx, idle.liveValues, memo, BlockRunMode::Full, share);
}

// Adds one block's figures standing for `blocks` blocks of the grid (weights by requests).
template <class F>
void addBlocks(std::optional<model::AlignmentCases<F>>& sum, std::optional<model::AlignmentCases<F>> part,
               int64_t blocks) {
  if (!part) return;
  for (F* f : {&part->aligned, &part->best, &part->worst}) f->requests *= blocks;
  mergeCases(sum, part);
}

}  // namespace

// The blocks that stand for a known grid when an access's guards depend on the block
// index: along each axis the first, one inside (standing for all but the first and the
// last) and the last, each with the weight of the blocks it stands for. With `inside`
// above 1 (a 1D grid whose address bends on the block index: `blockIdx.x & 1 ? i : 2 * i`),
// that many consecutive blocks share the inside's weight, so that patterns repeating every
// few blocks are averaged; weights are then scaled by `inside` to stay whole.
std::vector<std::pair<std::array<int64_t, 3>, int64_t>> edgeBlocks(const model::Dim3& grid, int64_t inside) {
  std::vector<std::pair<std::array<int64_t, 3>, int64_t>> out{{{0, 0, 0}, 1}};
  for (int d = 0; d < 3; ++d) {
    const int64_t g = dimOf(grid, d);
    std::vector<std::pair<int64_t, int64_t>> axis;
    if (g <= 1) {
      axis = {{0, 1}};
    } else if (d == 0 && inside > 1 && g > inside + 1) {
      axis = {{0, inside}, {g - 1, inside}};
      for (int64_t k = 1; k <= inside; ++k) axis.push_back({k, g - 2});
    } else if (g == 2) {
      axis = {{0, 1}, {1, 1}};
    } else {
      axis = {{0, 1}, {1, g - 2}, {g - 1, 1}};
    }
    std::vector<std::pair<std::array<int64_t, 3>, int64_t>> next;
    for (const auto& [idx, count] : out)
      for (const auto& [i, c] : axis) {
        auto at = idx;
        at[static_cast<size_t>(d)] = i;
        next.push_back({at, count * c});
      }
    out = std::move(next);
  }
  return out;
}

// Whether an expression names the block's place in the grid (blockIdx, gridDim).
bool namesBlock(const ExprRef& e) { return containsOp(e, Op::BlockIdx) || containsOp(e, Op::GridDim); }
bool anyNamesBlock(const std::vector<ExprRef>& exprs) { return std::any_of(exprs.begin(), exprs.end(), namesBlock); }

namespace {

// Values for the unknown runtime scalars of an access's guards (and its loops' bounds) under
// which it runs, when it runs under none of the defaults (`if (tid >= Size - 1 - t) return;`
// idles every lane at Size = t = 4096). One scalar at a time, the others at their default,
// taking kLiveValueCandidates in order (the value closest to the default that works); then
// all at once; then every subset at once, with kJointLiveValueCandidates; then larger than the
// default (kLargeLiveValue), one at a time and all at once. The first choice
// that lets any warp request through is kept (searching for the best would cost a lane
// evaluation per try on every idle access). Empty when no choice makes it run.
std::map<int, int64_t> liveValues(const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                                  const model::Arch& arch, const std::array<int64_t, 3>& blockIdx, IterationMemo* memo) {
  std::set<int> inGuards;
  for (const auto& g : raw.guards) collectSymbols(g, inGuards);
  addLoopBoundSymbols(raw, symbols, inGuards);  // the bounds of its loops are guards too
  std::vector<int> unknown;
  for (int id : inGuards) {
    const SymbolInfo& s = symbols[id];
    if (s.kind == SymbolInfo::Kind::LoopVar || s.tripOf >= 0 || s.exitOf >= 0 || s.value ||
        launch.symbolValues.count(id))
      continue;
    unknown.push_back(id);
  }
  if (unknown.empty() || unknown.size() > kMaxLiveValueScalars) return {};
  auto runs = [&](const std::map<int, int64_t>& values) {
    return anyRequest(runInBlock(raw, launch, symbols, arch, blockIdx, values, memo, BlockRunMode::Probe).result);
  };
  for (int id : unknown)
    for (int64_t candidate : kLiveValueCandidates)
      if (candidate != kAssumedRuntimeValue && runs({{id, candidate}})) return {{id, candidate}};
  for (int64_t candidate : kLiveValueCandidates) {
    if (candidate == kAssumedRuntimeValue) continue;
    std::map<int, int64_t> all;
    for (int id : unknown) all[id] = candidate;
    if (runs(all)) return all;
  }
  // Then a few of them at once, the others at their default (hotspot's `iteration` and borders
  // small while the grid's width stays large): smaller sets first.
  const size_t k = unknown.size();
  std::vector<uint32_t> subsets;
  for (uint32_t mask = 1; mask + 1 < (1u << k); ++mask)
    if (std::popcount(mask) >= 2) subsets.push_back(mask);
  std::stable_sort(subsets.begin(), subsets.end(),
                   [](uint32_t a, uint32_t b) { return std::popcount(a) < std::popcount(b); });
  for (uint32_t mask : subsets)
    for (int64_t candidate : kJointLiveValueCandidates) {
      if (candidate == kAssumedRuntimeValue) continue;
      std::map<int, int64_t> values;
      for (size_t i = 0; i < k; ++i)
        if (mask & (1u << i)) values[unknown[i]] = candidate;
      if (runs(values)) return values;
    }
  for (int id : unknown)
    if (runs({{id, kLargeLiveValue}})) return {{id, kLargeLiveValue}};
  std::map<int, int64_t> large;
  for (int id : unknown) large[id] = kLargeLiveValue;
  if (unknown.size() > 1 && runs(large)) return large;
  return {};
}

// Sample block indices along one axis of `dim` blocks, each with how many indices it stands
// for: the first two and the last two exactly (where edge guards bite), `interior` evenly
// spaced between them standing for the indices around them.
std::vector<std::pair<int64_t, double>> axisSamples(int64_t dim, int64_t interior) {
  if (dim <= 1) return {{0, 1.0}};
  std::vector<int64_t> points{0, 1, dim - 2, dim - 1};
  for (int64_t k = 1; k <= interior && dim > 4; ++k) points.push_back(1 + (dim - 3) * k / (interior + 1));
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::vector<std::pair<int64_t, double>> out;
  int64_t from = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const int64_t to = i + 1 < points.size() ? (points[i] + points[i + 1] + 1) / 2 : dim;
    out.push_back({points[i], static_cast<double>(to - from)});
    from = to;
  }
  return out;
}

// The share of the grid's blocks that run an access: the blocks of a lattice over the grid the
// cost counts (costGridOf), edges exact, each weighing the blocks it stands for. Over one axis,
// where two neighbouring samples disagree, the boundary between them is bisected (`point_id <
// npoints` runs in the first 16 of 1,024 blocks, not the 74 the sample at block 1 stands for).
double runningBlocks(const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                     const model::Arch& arch, const std::map<int, int64_t>& live, IterationMemo* memo) {
  // Its guards read gridDim as the grid the cost counts, and the kernel's arguments under the
  // same defaults (LaunchContext::costSymbolValues: `i < n` with n = byteCount / 4 at the
  // option's default runs in every block of the grid that default gives).
  std::optional<LaunchContext> own;
  if (!launch.grid || !launch.costSymbolValues.empty()) {
    own = launch;
    own->grid = costGridOf(launch);
    // Only values that rest on what the program shows (options' defaults, host loop counters),
    // not on a size taken at the bare default, which the figures' guards already take.
    for (const auto& [id, v] : launch.costSymbolValues)
      if (v.leaves.empty()) own->symbolValues.emplace(id, v.value);
  }
  const LaunchContext& lattice = own ? *own : launch;
  int64_t dims[3];
  int extended = 0;
  for (int d = 0; d < 3; ++d) {
    dims[d] = dimOf(*lattice.grid, d);
    extended += dims[d] > 1;
  }
  auto runs = [&](const std::array<int64_t, 3>& idx) {
    return anyRequest(runInBlock(raw, lattice, symbols, arch, idx, live, memo, BlockRunMode::Probe).result);
  };
  if (extended == 1) {
    const int axis = dims[0] > 1 ? 0 : dims[1] > 1 ? 1 : 2;
    const int64_t dim = dims[axis];
    auto at = [&](int64_t i) {
      std::array<int64_t, 3> idx{0, 0, 0};
      idx[static_cast<size_t>(axis)] = i;
      return runs(idx);
    };
    const auto samples = axisSamples(dim, 6);
    std::vector<bool> flags;
    for (const auto& [i, w] : samples) flags.push_back(at(i));
    // Each sample stands for the indices up to the next's: where the two differ, up to the
    // bisected change; else up to the midpoint (axisSamples' weights).
    double running = 0;
    int64_t from = 0;
    for (size_t k = 0; k < samples.size(); ++k) {
      int64_t to = dim;
      if (k + 1 < samples.size()) {
        int64_t lo = samples[k].first, hi = samples[k + 1].first;
        if (flags[k] == flags[k + 1]) hi = (lo + hi + 1) / 2;
        else
          while (hi - lo > 1) {
            const int64_t mid = lo + (hi - lo) / 2;
            (at(mid) == flags[k] ? lo : hi) = mid;
          }
        to = hi;
      }
      if (flags[k]) running += static_cast<double>(to - from);
      from = to;
    }
    return running / static_cast<double>(dim);
  }
  const int64_t interior = extended == 0 ? 6 : extended == 2 ? 3 : 1;
  const auto xs = axisSamples(dims[0], interior), ys = axisSamples(dims[1], interior), zs = axisSamples(dims[2], interior);
  double running = 0, all = 0;
  for (const auto& [x, wx] : xs)
    for (const auto& [y, wy] : ys)
      for (const auto& [z, wz] : zs) {
        const double w = wx * wy * wz;
        all += w;
        if (runs({x, y, z})) running += w;
      }
  return all > 0 ? running / all : 1.0;
}

}  // namespace

std::vector<size_t> firstEqualContexts(const std::vector<LaunchContext>& contexts) {
  std::vector<size_t> first(contexts.size());
  for (size_t i = 0; i < contexts.size(); ++i) {
    first[i] = i;
    for (size_t j = 0; j < i; ++j)
      if (first[j] == j && contexts[j] == contexts[i]) {
        first[i] = j;
        break;
      }
  }
  return first;
}

std::vector<bool> repeatsAnEarlier(const std::vector<LaunchContext>& contexts) {
  const std::vector<size_t> first = firstEqualContexts(contexts);
  std::vector<bool> out(contexts.size());
  for (size_t i = 0; i < contexts.size(); ++i) out[i] = first[i] != i;
  return out;
}

LaneResult evaluateLanes(const RawAccess& raw, const LaunchContext& launch, const SymbolTable& symbols,
                         const model::Arch& arch, GuardCache* cache) {
  // Which block stands for the grid: one inside it (blockIdx 1 along every axis the grid
  // may extend on), not the first, whose edge guards (`i >= 1`, `x > 0`) leave lanes idle
  // that the grid's other blocks use; the first block when the access does nothing there
  // (`if (blockIdx.x == 0)`) or the grid is one block along an axis.
  std::array<int64_t, 3> inside{};
  for (int d = 0; d < 3; ++d) inside[static_cast<size_t>(d)] = launch.grid && dimOf(*launch.grid, d) <= 1 ? 0 : 1;
  std::map<int, int64_t> live;  // values chosen so that an idle access runs (none yet)
  // The loops' iterations, listed once per block index and loop variables: for the kernel
  // when a cache is given.
  IterationMemo ownMemo;
  IterationMemo* kept = kernelIterations(cache);
  IterationMemo& memo = kept ? *kept : ownMemo;
  BlockRun chosen = runInBlock(raw, launch, symbols, arch, inside, live, &memo, BlockRunMode::UnlessIdle, cache);
  LaneResult& result = chosen.result;
  bool partialGrid = false;  // run in block 0 or an edge block only: runningBlocks below
  bool middleBlock = false;  // run in the grid's middle block, not in its first or last ones
  if (!anyRequest(result) && inside != std::array<int64_t, 3>{}) {
    BlockRun first = runInBlock(raw, launch, symbols, arch, {0, 0, 0}, live, &memo, BlockRunMode::UnlessIdle, cache);
    if (anyRequest(first.result)) {
      chosen = std::move(first);
      partialGrid = true;
    }
  }

  // Still idle everywhere: unknown scalars of the guards take values under which it runs.
  std::vector<const SymExpr*> guardKey;
  for (const auto& g : raw.guards) guardKey.push_back(g.get());
  const GuardCache::Key key = std::make_pair(guardKey, &launch);
  if (!anyRequest(result)) {
    if (cache && cache->liveValues.count(key)) {
      live = cache->liveValues.at(key);
    } else {
      live = liveValues(raw, launch, symbols, arch, inside, &memo);
      if (cache) cache->liveValues[key] = live;
    }
  }
  if (!live.empty()) {
    chosen = runInBlock(raw, launch, symbols, arch, inside, live, &memo, BlockRunMode::Full, cache);
    for (const auto& [id, value] : live)
      if (value != kAssumedRuntimeValue)
        chosen.assumptions.insert("assumes " + symbols[id].name + " = " + std::to_string(value) +
                                  " so that the access runs (at " + std::to_string(kAssumedRuntimeValue) +
                                  " its guards idle every lane; set it with --assume " + symbols[id].name + "=N)");
  }

  // Still idle, with guards on the block index: an access only the grid's last blocks run
  // (`if (by == gridDim.y - 1)`, halo rows). Figures from the last block along every axis the
  // guards name, else along each such axis alone; over a known grid, averaged below.
  const bool guardsNameBlock = anyNamesBlock(raw.guards);
  if (!anyRequest(result) && guardsNameBlock) {
    auto lastAlong = [&](int d) { return (launch.grid ? dimOf(*launch.grid, d) : kAssumedGridDim) - 1; };
    std::vector<std::array<int64_t, 3>> candidates{{lastAlong(0), lastAlong(1), lastAlong(2)}};
    for (int d = 0; d < 3; ++d) {
      std::array<int64_t, 3> one = inside;
      one[static_cast<size_t>(d)] = lastAlong(d);
      candidates.push_back(one);
    }
    // Then the grid's middle block: an interior branch over a coordinate the thread's global
    // index gives (`y = tid / nx; if (0 < y && y < ny - 1)`) idles the first two blocks and the
    // last, which hold the image's first and last rows, and runs in the blocks between
    // (NiftyReg's Jacobian kernels, whose main branch was "never run"; blind panel 34).
    std::array<int64_t, 3> middle{};
    for (int d = 0; d < 3; ++d) middle[static_cast<size_t>(d)] = inside[static_cast<size_t>(d)] ? (lastAlong(d) + 1) / 2 : 0;
    candidates.push_back(middle);
    // The first candidate block that runs it (the same for every access of these guards).
    std::optional<std::array<int64_t, 3>> found;
    if (cache && cache->edgeBlock.count(key)) {
      found = cache->edgeBlock.at(key);
    } else {
      for (const auto& idx : candidates)
        if (anyRequest(runInBlock(raw, launch, symbols, arch, idx, live, &memo, BlockRunMode::Probe).result)) {
          found = idx;
          break;
        }
      if (cache) cache->edgeBlock[key] = found;
    }
    if (found) {
      const auto& idx = *found;
      chosen = runInBlock(raw, launch, symbols, arch, idx, live, &memo, BlockRunMode::Full, cache);
      partialGrid = true;
      // The middle block, unless it is also one of the edge candidates (a grid of two blocks).
      middleBlock = idx == middle && std::count(candidates.begin(), candidates.end(), middle) == 1;
      const std::string block =
          "block (" + std::to_string(idx[0]) + ", " + std::to_string(idx[1]) + ", " + std::to_string(idx[2]) + ")";
      chosen.assumptions.insert((middleBlock ? "runs in none of the grid's first and last blocks: figures of " + block +
                                                   ", its middle"
                                             : "runs only in the grid's edge blocks: figures of " + block) +
                                (launch.grid ? "" : ", the grid's size taken as " + std::to_string(kAssumedGridDim) +
                                                        " blocks along each axis"));
    }
  }

  // What share of the grid runs it, for its cost (launchRequests); the same for every access
  // under these guards, and counted for every access whose guards name the block index (until
  // session 13 only where block 1 runs nothing: kmeans' `point_id < npoints` ran in 1 of 1,024
  // blocks over a 2D block index and in all 1,024 over a 1D one).
  // Only an access with requests in some block measures it: one of a space without figures
  // (a thread-private array, a __constant__ load) has none in any block, and its fraction, kept
  // for the guards it shares with the accesses of memory around it, counted their requests in
  // one block of the grid (ccminer's hash stores after a finalisation on local arrays).
  double blockFraction = 1;
  if ((partialGrid || guardsNameBlock) && anyRequest(result)) {
    if (cache && cache->blockFraction.count(key)) {
      blockFraction = cache->blockFraction.at(key);
    } else {
      blockFraction = runningBlocks(raw, launch, symbols, arch, live, &memo);
      if (cache) cache->blockFraction[key] = blockFraction;
    }
  }

  // Over a known grid, guards that depend on the block index (`i < n` with n not a
  // multiple of the block, `x >= 1`) idle lanes in the edge blocks only: the figures then
  // average the whole grid, each edge block weighing one block and the inside block the
  // rest, which is what the hardware's counters add up to.
  // The same for clamps on the block index in the address (`min(max(x - R, 0), w - 1)`).
  const bool addressBendsOnBlock = containsOp(raw.offset, Op::BlockIdx) && !linearize(raw.offset);
  // Not for an access of the middle blocks only: the edge blocks and block 1 that stand for the
  // grid here run none of it; its figures are the middle block's, its share runningBlocks'.
  if (launch.grid && (guardsNameBlock || addressBendsOnBlock) && anyRequest(result) && !middleBlock) {
    const bool oneDimensional = launch.grid->y == 1 && launch.grid->z == 1;
    const auto blocks = edgeBlocks(*launch.grid, addressBendsOnBlock && oneDimensional ? kBendingBlocksAveraged : 1);
    if (blocks.size() > 1) {
      std::optional<model::AlignmentCases<model::GlobalFigures>> global;
      std::optional<model::AlignmentCases<model::SharedFigures>> shared;
      for (const auto& [idx, count] : blocks) {
        const LaneResult r = runInBlock(raw, launch, symbols, arch, idx, live, &memo, BlockRunMode::Full, cache).result;
        addBlocks(global, r.figures.global, count);
        addBlocks(shared, r.figures.shared, count);
      }
      finishCases(global);
      finishCases(shared);
      const bool differs = (global && result.figures.global &&
                            global->aligned.sectorsPerRequest != result.figures.global->aligned.sectorsPerRequest) ||
                           (shared && result.figures.shared &&
                            shared->aligned.wavefronts != result.figures.shared->aligned.wavefronts);
      if (differs)
        chosen.assumptions.insert("averaged over the grid of " + std::to_string(launch.grid->volume()) +
                                  " blocks: its edge blocks run part of their lanes or clamp their addresses");
      if (global) result.figures.global = global;
      if (shared) result.figures.shared = shared;
    }
  }

  // Idle wherever it was tried: the figures (no request) and notes of the first block run.
  materialise(chosen, raw, launch, symbols, arch, &memo, cache);

  // Say what the figures rest on.
  auto& notes = chosen.assumptions;
  for (const auto& n : raw.notes) notes.insert(n);
  const auto offsetAtLaunch = launch.pointerByteOffsets.find(raw.rootParam);
  if (raw.space == model::Space::Global && !raw.rootIndirect && raw.rootAlignment >= 32) {
    if (raw.rootParam >= 0 && offsetAtLaunch != launch.pointerByteOffsets.end())
      notes.insert("'" + raw.rootName + "' is " + std::to_string(offsetAtLaunch->second) + " bytes past the start of " +
                   "its allocation (" + launch.pointerOffsetSources.at(raw.rootParam) +
                   "), which is taken to be " + std::to_string(raw.rootAlignment) + "-byte aligned, as cudaMalloc returns");
    else
      notes.insert("assumes '" + raw.rootName + "' is " + std::to_string(raw.rootAlignment) +
                   "-byte aligned, as cudaMalloc returns");
  }
  if (result.access.pattern.kind == model::PatternKind::Indirect)
    notes.insert("the address depends on data loaded from memory: figures are the range from a broadcast to one sector per lane");
  if (result.access.pattern.kind == model::PatternKind::Unknown)
    notes.insert("the address could not be followed statically");
  for (int id : chosen.representativeSymbols) {
    const SymbolInfo& s = symbols[id];
    if (launch.symbolValues.count(id) || s.value || s.kind == SymbolInfo::Kind::LoopVar) continue;
    const int64_t taken = live.count(id) ? live.at(id) : kAssumedRuntimeValue;
    notes.insert("assumes " + s.name + " = " + std::to_string(taken) +
                 " (a runtime value that scales the lane stride; set it with --assume " + s.name + "=N)");
    result.assumedStrideScalars.push_back({id, taken});
  }
  std::set<int> used;
  collectSymbols(raw.offset, used);
  for (const auto& guard : raw.guards) collectSymbols(guard, used);
  for (const auto& [id, source] : launch.symbolValueSources)
    if (used.count(id)) notes.insert(symbols[id].name + " = " + std::to_string(launch.symbolValues.at(id)) + " from " + source);
  const auto& g = result.figures.global;
  if (g && !g->alignmentKnown)
    notes.insert("the base offset's alignment is not known: figures assume it aligned; the range covers every placement");
  result.assumptions.assign(notes.begin(), notes.end());
  result.blockFraction = blockFraction;
  if (partialGrid || guardsNameBlock)
    for (const auto& guard : raw.guards) {
      std::set<int> read;
      collectSymbols(guard, read);
      for (int id : read)
        if (launch.costSymbolValues.count(id) && launch.costSymbolValues.at(id).leaves.empty() &&
            !launch.symbolValues.count(id) &&
            std::find(result.costArguments.begin(), result.costArguments.end(), id) == result.costArguments.end())
          result.costArguments.push_back(id);
    }
  return result;
}


}  // namespace coalesce::analysis
