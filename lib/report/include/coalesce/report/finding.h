// A finding: what a rule says about one record, before and after the filter stage.
// Plain data, like the records it comes from; every writer reads these and nothing else.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/records/records.h"

namespace coalesce::report {

enum class Severity { Note, Warning, Error };

// The access as a finding's fix would leave it: the what-if access whose figures the rule's
// "fix: ..." note quotes (lib/report/src/what_if.h), kept so that a writer can draw the fix
// beside the finding (the HTML report's warp pictures). Set only when the model says the
// change does better; never printed by the text, JSON or SARIF writers.
struct FixedAccess {
  model::Access access;
  model::Dim3 block;
  std::string change;  // what was changed, for a caption: "consecutive threads on consecutive elements"
  bool operator==(const FixedAccess&) const = default;
};

// A fix-it (docs/fixes.md): edits of the source that a rule proposes for its finding, offered
// (--fix, --export-fixes, SARIF `fixes`) only once the edited file, analysed again, no longer
// has the finding and has no finding worse than before (tools/coalesce-lint/fix_check.cpp).
struct SourceFix {
  std::string description;       // "pad 'tile' to [32][33]", "declare 'a' __restrict__"
  std::vector<TextEdit> edits;   // one file's, in increasing offset
  enum class Check { Unchecked, Offered, Withheld } check = Check::Unchecked;
  std::string verdict;  // the note the check adds: what was checked, or why the fix is withheld
  bool operator==(const SourceFix&) const = default;
};

std::string_view toString(Severity s);
std::optional<Severity> parseSeverity(std::string_view text);

struct Finding {
  std::string rule;                     // kebab-case rule id: suppression key and SARIF ruleId
  Severity severity = Severity::Warning;
  SourceLocation loc;
  std::string message;                  // numbers and cause, without the " [rule-id]" suffix
  std::vector<std::string> notes;       // assumptions first, then diagnosis, then the fix hint
  std::string lineText;                 // the source line (baselines key on its trimmed text)
  std::optional<int> access;            // AccessSite::id, when the finding is about an access
  std::optional<int> branch;            // BranchSite::id, for divergent-branch
  std::optional<int> barrier;           // BarrierSite::id, for barrier-in-divergent-code
  // The kernel whose record the finding is about (the worst one's, once merged), and every
  // kernel a merged finding covers when there are several: a template's instantiations, or
  // kernels sharing a __device__ helper (merge_findings.cpp).
  std::string kernel;
  std::vector<std::string> instantiations;
  // The fields of one record a merged access finding covers ("x", "y": one struct copy).
  std::vector<std::string> fields;

  // The figure the rule's gate compares, kept apart from the message so the one filter
  // stage applies thresholds without parsing text. Only one is set, by the rule's gate.
  std::optional<double> efficiency;      // global rules: compared with MinEfficiency
  std::optional<double> conflictDegree;  // shared rules: compared with MaxConflictDegree
  std::optional<double> divergentShare;  // divergent-branch: compared with MinDivergentShare
  std::optional<double> occupancy;       // occupancy-limited: compared with MinOccupancy
  std::optional<double> reuse;           // shared-tiling-opportunity: compared with MinReuse

  // What the finding costs per launch (docs/findings.md): the excess 32-byte sectors of a
  // global access, or the excess wavefronts of a shared one, times the warp requests one
  // launch executes; its share of the kernel's traffic in that space; what the estimate
  // rests on. Unset for findings about branches, barriers and parameters.
  std::optional<double> costSectors;
  std::optional<double> costWavefronts;
  std::optional<double> costShare;
  std::string costBasis;
  // A global access whose waste comes from the launch's block width alone (blockDim.x = 10: a
  // warp covers several short rows): one launch change fixes every such access of the kernel
  // at once, so the filter weighs their shares together (filter.cpp, `weighBlockWidthFixes`).
  bool fixedByBlockWidth = false;
  // Its share of the program's memory time: what it wastes per run of the program (cost per
  // launch x launches per run) against every kernel its translation unit launches, each
  // weighed by its own launches (KernelRecord::launchesPerRun). Unset when the unit launches
  // the kernel nowhere or launches no other kernel; programBasis says what it rests on.
  std::optional<double> programShare;
  std::string programBasis;
  // Its share of the kernel's time where the kernel's arithmetic is a floor under that time
  // (KernelRecord::arithmeticCyclesPerWarp; lib/report/src/cost.cpp, `roofline`): what a fix
  // would shorten the kernel by, at most. Below costShare only when the arithmetic outlasts
  // part of the memory time. timeBasis says what the floor rests on, and is set only where the
  // floor outlasts the memory time at its most less the waste: only then may the filter make
  // the finding a note by timeShare. Unset for findings whose rule prices them itself and for
  // those with no cost.
  std::optional<double> timeShare;
  std::string timeBasis;
  // What it wastes per run of the program, in the memory time of shared-memory wavefronts
  // (a sector weighs Arch::sectorCostInWavefronts, as in the kernel's time, cost.cpp): the
  // cost per launch times its kernel's launches per run (KernelRecord::launchesPerRun; one
  // where no unit launches the kernel). One scale across spaces, kernels and launch counts:
  // what findings are ranked by (rankByCost, the text writer's order, the summary's top five).
  std::optional<double> costTimePerRun;
  // The same in seconds, set only where every count it rests on is the program's own: the
  // access's warp requests per launch (AccessSite::requestsShown) and its kernel's launches per
  // run (KernelRecord::launchesShown). Compared with MinWastePerRun (filter.cpp); the sentence
  // says what the launch count rests on.
  std::optional<double> shownWasteSeconds;
  std::string shownWasteBasis;
  // Bytes one unit of the cost moves: the Arch's sector, or its shared wavefront (cost.cpp).
  double costUnitBytes = 0;
  // Bytes the cost stands for, for the text.
  double costBytes() const { return (costSectors ? *costSectors : costWavefronts ? *costWavefronts : 0) * costUnitBytes; }
  bool hasCost() const { return costSectors.has_value() || costWavefronts.has_value(); }
  // 1 for the most expensive finding of the run, 2 for the next...; 0 before ranking.
  int rank = 0;

  // The highest severity the finding may be shown with, whatever the rule's Severity
  // option says (WarningsAsErrors still applies): a barrier whose guard could not be
  // proven divergent is a warning even though the rule's proven findings are errors.
  std::optional<Severity> severityCap;
  // Said in a note when the cap lowers what the rule's Severity would show (empty: nothing).
  std::string severityCapReason;

  std::optional<FixedAccess> fix;  // see FixedAccess
  // The edit a rule proposes; its check's verdict is added to `notes` (docs/fixes.md).
  std::optional<SourceFix> sourceFix;
};

// Deterministic output order whatever order the files were analysed in:
// file, line, column, rule, message.
bool findingBefore(const Finding& a, const Finding& b);

}  // namespace coalesce::report
