// Which threads of a block an access's guards let through (Evaluator::guardMask,
// lane_evaluator.h): each thread goes through the guards in order and stops at the first one
// false for it. Every guard is a ThreadProgram run over the threads still going, a batch at a
// time (ThreadProgram::runMany). The masks of a run's iterations are kept per set of guards
// (Evaluator::guardsAt); a guard that names a loop variable (`k + tx < n`) makes a new set in
// every iteration, though most of its guards are the same expressions as before: so each
// guard's program and the values its threads got are kept too, by the guard's expression, and
// a new set only combines them (bench/RESULTS.md, "Session 23").
#include <algorithm>
#include <bit>
#include <memory>
#include <numeric>

#include "lane_evaluator.h"

namespace coalesce::analysis::lanes {

// One guard under the run's bindings: its program, and which threads of the block it stops
// (known and 0) or cannot evaluate, as bits in linear order, once some mask needed them.
struct Evaluator::KeptGuard {
  KeptGuard(const ExprRef& g, const Bindings& b, size_t words)
      : guard(g), program(g, b), stops(words, 0), unknown(words, 0), computed(words, 0) {
    // `u == U - 1` with `u` the thread's and `U` one value for a whole warp, loaded or
    // otherwise not known (warp-transducer's `u = threadIdx.x` against a label length read at
    // `labels[blockIdx.x]`): the lanes that pass are those whose side equals that one value.
    if (g->op == Op::Eq && g->args.size() == 2)
      for (int side : {0, 1})
        if (dependsOnThread(g->args[side]) && !containsOp(g->args[side], Op::LaneLoad) &&
            !containsOp(g->args[side], Op::Varying) && isUniform(g->args[1 - side])) {
          threadSide.emplace(g->args[side], b);
          break;
        }
  }
  ExprRef guard;  // held: its address is the key it is kept by
  ThreadProgram program;
  std::vector<uint64_t> stops, unknown, computed;
  // The side that differs between threads of an equality with a value they share, or none.
  std::optional<ThreadProgram> threadSide;
};

const Evaluator::BlockThreads& Evaluator::blockThreads() const {
  if (blockThreads_.x.empty()) {
    const Dim3 d = block();
    for (int64_t z = 0; z < d.z; ++z)
      for (int64_t y = 0; y < d.y; ++y)
        for (int64_t x = 0; x < d.x; ++x)
          blockThreads_.x.push_back(x), blockThreads_.y.push_back(y), blockThreads_.z.push_back(z);
  }
  return blockThreads_;
}

void Evaluator::runAt(const ThreadProgram& program, const std::vector<size_t>& threads,
                      std::vector<std::optional<int64_t>>& out) const {
  const BlockThreads& all = blockThreads();
  std::vector<int64_t> tx, ty, tz;
  tx.reserve(threads.size()), ty.reserve(threads.size()), tz.reserve(threads.size());
  for (const size_t i : threads) tx.push_back(all.x[i]), ty.push_back(all.y[i]), tz.push_back(all.z[i]);
  out.resize(threads.size());
  program.runMany(tx.data(), ty.data(), tz.data(), threads.size(), out.data());
}

Evaluator::GuardMask Evaluator::guardMask(const std::vector<ExprRef>& guards, const Bindings& b, bool keep) const {
  const Dim3 d = block();
  const auto threads = static_cast<size_t>(d.volume());
  const size_t words = (threads + 63) / 64;
  GuardMask out;
  out.active.assign(threads, true);
  if (guards.empty()) return out;
  // Bounded: forgotten between two masks, never while one holds pointers into it.
  if (keep && keptGuards_.size() > kKeptGuardPrograms) keptGuards_.clear();
  std::vector<KeptGuard*> runs;                // the guards left in the per-thread walk
  std::vector<size_t> index;                   // their places among `guards`
  std::vector<std::unique_ptr<KeptGuard>> own;  // theirs when not kept
  for (size_t g = 0; g < guards.size(); ++g) {
    KeptGuard* k;
    if (keep) {
      std::shared_ptr<KeptGuard>& slot = keptGuards_[guards[g].get()];
      if (!slot) slot = std::make_shared<KeptGuard>(guards[g], b, words);
      k = slot.get();
    } else {
      k = own.emplace_back(std::make_unique<KeptGuard>(guards[g], b, words)).get();
    }
    // A guard that holds for every thread (known and non-zero without the thread index)
    // changes no thread's state: left out of the per-thread walk.
    if (k->program.threadIndependent()) {
      const auto v = k->program.run(0, 0, 0);
      if (v && *v != 0) continue;
      // The first guard every thread reaches is false for all of them: none is active.
      if (v && runs.empty()) {
        out.active.assign(out.active.size(), false);
        return out;
      }
    }
    runs.push_back(k);
    index.push_back(g);
  }
  if (runs.empty()) return out;
  // Guard by guard over the threads still going (bits in linear order): the same threads stop
  // as in a thread-by-thread walk; each guard some thread could not evaluate is listed once,
  // in the order such a walk meets them (by the first such thread, then by the guard's place).
  std::vector<uint64_t> going(words, ~uint64_t{0});
  if (threads % 64) going.back() = (uint64_t{1} << (threads % 64)) - 1;
  std::vector<std::pair<size_t, size_t>> unknownAt;  // (first thread, guard)
  std::vector<size_t> todo;
  std::vector<std::optional<int64_t>> ran;
  for (size_t k = 0; k < runs.size(); ++k) {
    KeptGuard& guard = *runs[k];
    todo.clear();
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = going[w] & ~guard.computed[w]; bits; bits &= bits - 1)
        todo.push_back(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
    if (!todo.empty()) {
      runAt(guard.program, todo, ran);
      for (size_t j = 0; j < todo.size(); ++j) {
        const size_t i = todo[j];
        const uint64_t bit = uint64_t{1} << (i % 64);
        guard.computed[i / 64] |= bit;
        if (!ran[j]) guard.unknown[i / 64] |= bit;
        else if (*ran[j] == 0) guard.stops[i / 64] |= bit;
      }
    }
    bool any = false;
    // An equality of the thread's value with one value a warp's lanes share that is not known
    // (warp-uniform: the same in a whole block or not): in each warp, the lanes it lets through
    // are those of one value of the thread's side (the first such lane's; which value is not
    // known, and one is what a warp can match).
    std::vector<uint64_t> otherValue(words, 0);
    if (guard.threadSide) {
      std::vector<size_t> unknownThreads;
      for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = going[w] & guard.unknown[w]; bits; bits &= bits - 1)
          unknownThreads.push_back(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
      std::vector<std::optional<int64_t>> sides;
      runAt(*guard.threadSide, unknownThreads, sides);
      const auto warp = static_cast<size_t>(arch.warpSize);
      std::optional<size_t> warpOf;
      std::optional<int64_t> chosen;
      for (size_t j = 0; j < unknownThreads.size(); ++j) {
        const size_t i = unknownThreads[j];
        if (warpOf != i / warp) warpOf = i / warp, chosen = sides[j];
        if (!sides[j] || !chosen || *sides[j] != *chosen) otherValue[i / 64] |= uint64_t{1} << (i % 64);
      }
      if (!unknownThreads.empty()) out.oneValue.push_back(index[k]);
    }
    for (size_t w = 0; w < words; ++w) {
      if (const uint64_t u = going[w] & guard.unknown[w]; u && !any && !guard.threadSide) {  // stops and unknown are apart
        unknownAt.emplace_back(w * 64 + static_cast<size_t>(std::countr_zero(u)), index[k]);
        any = true;
      }
      going[w] &= ~(guard.stops[w] | otherValue[w]);
    }
  }
  for (size_t i = 0; i < threads; ++i) out.active[i] = (going[i / 64] >> (i % 64)) & 1;
  std::sort(unknownAt.begin(), unknownAt.end());
  for (const auto& [thread, g] : unknownAt) out.unknown.push_back(g);
  return out;
}

}  // namespace coalesce::analysis::lanes
