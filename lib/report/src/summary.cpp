#include "coalesce/report/summary.h"

#include <algorithm>

#include <fmt/format.h>

#include "cost.h"
#include "format.h"

namespace coalesce::report {

Summary summarize(const Report& report) {
  Summary s;
  const AnalysisResult& a = *report.analysis;
  s.files = a.files.size();
  for (const FileRecord& f : a.files)
    if (f.status == Status::Failed) ++s.failedFiles;
  s.kernels = a.kernels.size();
  for (const KernelRecord& k : a.kernels) {
    if (k.status != Status::Analysed) continue;
    if (k.block.source == BlockSource::Assumed) ++s.kernelsOnAssumedBlock;
    if (k.block.source == BlockSource::Assumed && k.block.shapeInvariant) ++s.kernelsOnAssumedBlockShapeInvariant;
    if (k.block.source == BlockSource::KernelImplied) ++s.kernelsOnImpliedBlock;
  }
  // One analysed instantiation of each sampled template says how many were left out in its
  // translation unit: a sum that holds however units are merged.
  for (const KernelRecord& k : a.kernels)
    if (k.instantiationsLeftOut > 0) {
      s.instantiationsNotAnalysed += static_cast<size_t>(k.instantiationsLeftOut);
      ++s.templatesSampled;
    }
  s.accesses = a.accesses.size();
  s.findings = report.findings.size();
  for (const Finding& f : report.findings) {
    ++s.findingsByRule[f.rule];
    ++s.findingsBySeverity[std::string(toString(f.severity))];
  }
  s.stats = report.stats;
  s.seconds = report.seconds;
  return s;
}

namespace {
std::string plural(size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }
}  // namespace

std::string summaryLine(const Report& report) {
  const Summary s = summarize(report);
  std::string line = fmt::format("{}: {}", report.tool.name, plural(s.files, "file"));
  if (s.failedFiles) line += fmt::format(" ({} failed)", s.failedFiles);
  line += ", " + plural(s.kernels, "kernel");
  // Figures on a guessed shape may be wrong: say how many (--block-dim or a launch fixes it),
  // and of those how many came out the same under every other shape tried (their figures do
  // not rest on the guess; lib/analysis/src/shape_trials.h). A shape the kernel implies (no
  // launch found) is not a plain guess, but not a launch either.
  std::string onShape;
  if (s.kernelsOnAssumedBlock)
    onShape = fmt::format("{} on an assumed block shape ({} whose figures may depend on it, {} the same under every "
                          "shape tried)",
                          s.kernelsOnAssumedBlock, s.kernelsOnAssumedBlock - s.kernelsOnAssumedBlockShapeInvariant,
                          s.kernelsOnAssumedBlockShapeInvariant);
  if (s.kernelsOnImpliedBlock)
    onShape += fmt::format("{}{} on a block shape the kernel implies", onShape.empty() ? "" : ", ", s.kernelsOnImpliedBlock);
  if (!onShape.empty()) line += " (" + onShape + ")";
  if (s.instantiationsNotAnalysed)
    line += fmt::format(" and {} not analysed (of {} kernel template{} instantiated more than --max-instantiations times)",
                        plural(s.instantiationsNotAnalysed, "instantiation"), s.templatesSampled,
                        s.templatesSampled == 1 ? "" : "s");
  line += fmt::format(", {}; {}", s.accesses == 1 ? std::string("1 access") : fmt::format("{} accesses", s.accesses),
                      plural(s.findings, "finding"));
  if (!s.findingsByRule.empty()) {
    std::string byRule;
    for (const auto& [rule, n] : s.findingsByRule) byRule += fmt::format("{}{}: {}", byRule.empty() ? "" : ", ", rule, n);
    line += " (" + byRule + ")";
  }
  line += fmt::format("; {} suppressed, {} baselined", s.stats.suppressed, s.stats.baselined);
  if (report.diffAware)
    line += fmt::format("; {} not on changed lines, {} left out (the diff does not reach them)", s.stats.unchanged,
                        plural(report.filesLeftOutByDiff, "file"));
  if (report.cachedFiles) line += fmt::format("; {} from the cache", plural(report.cachedFiles, "file"));
  line += fmt::format("; {:.2f} s", s.seconds);
  return line;
}

std::vector<const Finding*> mostExpensive(const Report& report, size_t n) {
  std::vector<const Finding*> out;
  // Warnings and errors only: a note is one the filter judged not worth gating on (negligible,
  // a variant kept for comparison, a path whose frequency is not known), so naming it among
  // the places to fix first would contradict it.
  for (const Finding& f : report.findings)
    if (f.rank > 0 && f.costBytes() > 0 && f.severity != Severity::Note) out.push_back(&f);
  std::sort(out.begin(), out.end(), [](const Finding* a, const Finding* b) { return a->rank < b->rank; });
  if (out.size() > n) out.resize(n);
  return out;
}

std::vector<std::string> mostExpensiveLines(const Report& report, size_t n) {
  std::vector<std::string> lines;
  const auto top = mostExpensive(report, n);
  if (top.empty()) return lines;
  lines.push_back(top.size() == 1
                      ? fmt::format("{}: the most expensive place, by memory time wasted per run of the program:",
                                    report.tool.name)
                      : fmt::format("{}: the {} most expensive places, by memory time wasted per run of the program:",
                                    report.tool.name, top.size()));
  for (const Finding* f : top)
    lines.push_back(fmt::format("{}:   {}. {}:{}:{} [{}] {} of {} per launch, {} of the memory time of kernel '{}'{}",
                                report.tool.name, f->rank, f->loc.file, f->loc.line, f->loc.column, f->rule,
                                detail::byteSize(f->costBytes()), f->costSectors ? "global memory" : "shared memory",
                                detail::percent(f->costShare.value_or(0)), f->kernel,
                                f->programShare ? ", " + detail::percent(*f->programShare) + " of the program's"
                                                : std::string()));
  return lines;
}

}  // namespace coalesce::report
