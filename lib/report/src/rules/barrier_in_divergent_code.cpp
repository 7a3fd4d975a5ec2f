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
                           b.call, guard,
                           b.skippersExit ? "the threads that skip it reach no other barrier before they exit, so the "
                                            "block does not hang on compute capability 7.0 and later, but a barrier "
                                            "under a condition that differs within the block is undefined by the CUDA "
                                            "C++ Programming Guide"
                                          : kConsequence)
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
  // Proven for a block the analysis guessed (the launch computes it at run time, or there is
  // no launch): whether the guard splits a block depends on the block's size as often as on
  // the guard (a bound of 100 splits blocks of 32 and not blocks of 25: NPB-GPU BT's x_solve,
  // judged false by blind panel 13 on its real 25x5 block). A warning, saying so.
  const bool guessedBlock = b.block.source == BlockSource::Assumed || b.block.source == BlockSource::KernelImplied;
  if (proven && guessedBlock) {
    f.severityCap = std::min(f.severityCap.value_or(Severity::Warning), Severity::Warning);
    f.severityCapReason = fmt::format(
        "a warning, not an error: the split is proven for the guessed block {}x{}x{}; a block whose size makes the "
        "guard the same for all its threads (one that divides the bound) would not split; give the real block with "
        "--block-dim or a `coalesce-lint: block=` comment",
        b.block.dim.x, b.block.dim.y, b.block.dim.z);
  }
  // Split only by threads that skip it, pass no other barrier and exit (session 27,
  // lib/analysis/src/barrier_skippers.cpp): on compute capability 7.0 and later a barrier waits
  // for the non-exited threads, and an exit releases one that only exiting threads hold up (PTX
  // ISA `exit`), so the block does not hang; the H200 ran this shape without a hang and
  // compute-sanitizer's synccheck reported nothing (bench/barrier_exits/h200/). Blind panel 23
  // judged three such errors false. The CUDA C++ Programming Guide still allows a barrier in
  // conditional code only where the condition is the same for the whole block: a note.
  if (proven && b.skippersExit) {
    f.severityCap = Severity::Note;
    f.severity = std::min(f.severity, Severity::Note);
    f.severityCapReason =
        "a note, not an error: on compute capability 7.0 and later a barrier waits only for the threads that have "
        "not exited, and an exit releases one that only exiting threads hold up (PTX ISA `exit`)";
  }
  f.notes.push_back(fixNote());
  return f;
}

}  // namespace coalesce::report
