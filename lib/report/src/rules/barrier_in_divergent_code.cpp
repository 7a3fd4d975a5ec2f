#include "barrier_in_divergent_code.h"

#include <algorithm>

#include <fmt/format.h>

#include "control_finding.h"

namespace coalesce::report {

using namespace detail;

namespace {

constexpr const char* kConsequence =
    "every thread of a block must reach the same barrier, or none: a barrier that only some threads reach "
    "hangs the block or is undefined behaviour";

std::string fixNote() {
  return "fix: take the barrier out of the branch: end the branch, call the barrier where every thread of the "
         "block passes, and reopen the branch with the same condition; a thread with nothing left to do skips "
         "its work but still reaches the barrier (guard the work, not the barrier); for a loop whose trip count "
         "differs between threads, loop to the block-wide maximum and guard the body";
}

}  // namespace

RuleDescription BarrierInDivergentCode::description() const {
  return {"Block-wide barrier under a condition that differs between threads of the block",
          "__syncthreads() (and cooperative groups' block sync) must be reached by every thread of the block or "
          "by none. Under a condition on the thread (if (threadIdx.x < 64)), or in a loop whose trip count "
          "differs between threads, some threads wait for others that never arrive: the block hangs, or the "
          "behaviour is undefined. A condition uniform over the block (blockIdx, kernel parameters) is fine.",
          "Move the barrier out of the branch: end the branch, synchronise where every thread passes, and "
          "reopen the branch with the same condition; threads with no work skip the work, not the barrier."};
}

std::optional<Finding> BarrierInDivergentCode::checkBarrier(const BarrierSite& b, const RuleContext&) const {
  if (b.reach == BarrierSite::Reach::Uniform) return std::nullopt;
  const bool proven = b.reach == BarrierSite::Reach::Divergent;
  const std::string guard = b.condition.empty() ? "a condition on the thread" : fmt::format("'{}'", b.condition);
  const std::string message =
      proven ? fmt::format("'{}' is reached by only some threads of the block: its guard {} differs between "
                           "threads of one block; {}",
                           b.call, guard, kConsequence)
             : fmt::format("'{}' is guarded by {}, which depends on the thread and could not be proven uniform "
                           "over the block; if threads of one block disagree, {}",
                           b.call, guard, "the barrier hangs the block or is undefined behaviour");
  Finding f = controlFinding(*this, b.loc, b.lineText, message,
                             proven ? "the guards evaluated exactly for every thread"
                                    : "the guards evaluated for every thread, some values unknown",
                             b.block, b.assumptions);
  f.barrier = b.id;
  // Not proven: a note. The guard's value is unknown for some threads (a value the analysis
  // cannot follow: a field written through a pointer, a loop's exit), so nothing shows the
  // threads of a block disagree; every such warning the blind panels judged was false
  // (docs/precision.md), while a guard on the thread itself (`if (tid < n)`) is proven.
  if (!proven) {
    f.severityCap = Severity::Note;
    f.severity = std::min(f.severity, Severity::Note);
    f.severityCapReason =
        "a note, not a warning: the guard could not be evaluated for every thread, so nothing shows that threads "
        "of one block disagree; where they can, restructure as the fix says (a proven split is an error)";
  }
  f.notes.push_back(fixNote());
  return f;
}

}  // namespace coalesce::report
