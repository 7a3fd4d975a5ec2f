#include "coalesce/verify/report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "coalesce/verify/format_number.h"

namespace coalesce::verify {

namespace {

std::string unitOf(const LineComparison& l) {
  return l.cls.space == model::Space::Shared ? "wavefronts/request" : "sectors/request";
}

nlohmann::json optNum(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

std::string summaryLine(const VerifyReport& r) {
  std::string s = fmt::format("{} line{}", r.lines.size(), r.lines.size() == 1 ? "" : "s");
  bool first = true;
  for (Verdict v : {Verdict::Match, Verdict::Mismatch, Verdict::WithinRange, Verdict::NotFound, Verdict::Unpredicted,
                    Verdict::Unchecked}) {
    const size_t n = r.count(v);
    if (!n) continue;
    s += fmt::format("{} {} {}", first ? ":" : ",", n, toString(v));
    first = false;
  }
  if (!r.branches.empty()) {
    s += fmt::format("; {} branch{}", r.branches.size(), r.branches.size() == 1 ? "" : "es");
    first = true;
    for (BranchVerdict v : {BranchVerdict::Confirmed, BranchVerdict::Contradicted, BranchVerdict::NoCounter,
                           BranchVerdict::Unpredicted}) {
      const size_t n = r.count(v);
      if (!n) continue;
      s += fmt::format("{} {} {}", first ? ":" : ",", n, toString(v));
      first = false;
    }
  }
  return s;
}

std::string formatBranchText(const BranchComparison& c) {
  const PredictedBranch& b = c.predicted;
  const BranchMeasured& m = c.measured;
  std::string predicted = fmt::format("{} of {} warp requests divergent ({})", c.lineDivergentRequests,
                                      c.lineWarpRequests, formatNumber(c.predictedShare()));
  std::vector<std::string> parts;
  if (c.targetsDivergent)
    parts.push_back(fmt::format("{} of {} branch executions divergent ({})", m.divergent, m.divergent + m.uniform,
                                formatNumber(*m.divergentShare())));
  if (c.lanesDivergent)
    parts.push_back(fmt::format("lanes {} reaching, {} fewest under it", formatNumber(*m.reachingLanes),
                                formatNumber(*m.fewestLanes)));
  std::string measured;
  for (const std::string& p : parts) measured += (measured.empty() ? "" : ", ") + p;
  if (measured.empty()) measured = "-";
  std::string verdict(toString(c.verdict));
  if (c.basis != BranchBasis::None) {
    verdict += fmt::format(" ({}", toString(c.basis));
    if (c.shareAgrees) verdict += *c.shareAgrees ? ", same share" : ", share differs";
    verdict += ")";
  }
  std::string out = fmt::format("{}:{}: branch {} `{}` [{}]: predicted {}; measured {}: {}\n", b.file, b.line,
                                b.kind, b.condition, b.kernel, predicted, measured, verdict);
  for (const std::string& n : c.notes) out += "    note: " + n + "\n";
  return out;
}

std::string formatText(const VerifyReport& r) {
  std::string out;
  if (!r.device.name.empty())
    out += fmt::format("device: {} (sm_{}{})\n", r.device.name, r.device.sm,
                       r.device.chip.empty() ? "" : ", " + r.device.chip);
  for (const LineComparison& l : r.lines) {
    std::string kernels;
    for (const std::string& k : l.kernels) kernels += (kernels.empty() ? "" : ",") + k;
    std::string predicted = "-";
    if (l.predictedPerRequest) predicted = formatNumber(*l.predictedPerRequest);
    else if (l.predictedRange)
      predicted =
          fmt::format("[{}, {}]", formatNumber(l.predictedRange->first), formatNumber(l.predictedRange->second));
    const MeasuredFigures& m = l.measured;
    std::string measured = m.requests ? formatNumber(m.perRequest()) : "-";
    std::string detail;
    if (m.requests) {
      detail = fmt::format(" (ideal {}/{}; {} instruction{}, {} requests)",
                           l.predictedIdeal ? formatNumber(*l.predictedIdeal) : "-", formatNumber(m.idealPerRequest()),
                           m.instructions, m.instructions == 1 ? "" : "s", m.requests);
    }
    std::string verdict(toString(l.verdict));
    if (l.basis == Basis::RatioToIdeal) verdict += " (by ratio to ideal)";
    out += fmt::format("{}:{}: {} {}{}: {} predicted {} measured {}{}: {}\n", l.file, l.line,
                       model::toString(l.cls.space), model::toString(l.cls.kind),
                       kernels.empty() ? "" : " [" + kernels + "]", unitOf(l), predicted, measured, detail, verdict);
    for (const std::string& n : l.notes) out += "    note: " + n + "\n";
  }
  for (const BranchComparison& c : r.branches) out += formatBranchText(c);
  for (const std::string& n : r.notes) out += "note: " + n + "\n";
  out += summaryLine(r) + "\n";
  return out;
}

std::string formatJson(const VerifyReport& r, int exitCode) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["schema"] = kReportSchema;
  j["device"] = ordered_json{{"name", r.device.name}, {"chip", r.device.chip}, {"sm", r.device.sm}};
  ordered_json summary;
  summary["lines"] = r.lines.size();
  for (Verdict v : {Verdict::Match, Verdict::Mismatch, Verdict::WithinRange, Verdict::NotFound, Verdict::Unpredicted,
                    Verdict::Unchecked})
    summary[std::string(toString(v))] = r.count(v);
  j["summary"] = summary;
  j["exit_code"] = exitCode;
  ordered_json lines = ordered_json::array();
  for (const LineComparison& l : r.lines) {
    ordered_json o;
    o["file"] = l.file;
    o["line"] = l.line;
    o["space"] = model::toString(l.cls.space);
    o["kind"] = model::toString(l.cls.kind);
    o["kernels"] = l.kernels;
    o["verdict"] = toString(l.verdict);
    o["basis"] = toString(l.basis);
    o["unit"] = l.cls.space == model::Space::Shared ? "wavefronts" : "sectors";
    ordered_json p;
    p["per_request"] = optNum(l.predictedPerRequest);
    p["ideal_per_request"] = optNum(l.predictedIdeal);
    p["range"] = l.predictedRange ? ordered_json::array({l.predictedRange->first, l.predictedRange->second})
                                  : ordered_json();
    ordered_json accesses = ordered_json::array();
    for (const PredictedAccess& a : l.predicted)
      accesses.push_back(ordered_json{{"column", a.column}, {"kernel", a.kernel}, {"bytes", a.bytes},
                                      {"pattern", a.pattern}, {"expression", a.expression},
                                      {"per_request", optNum(a.perRequest())}});
    p["accesses"] = accesses;
    o["predicted"] = p;
    const MeasuredFigures& m = l.measured;
    ordered_json mj;
    mj["instructions"] = m.instructions;
    mj["requests"] = m.requests;
    mj["executions"] = m.executions;
    mj["units"] = m.units;
    mj["ideal_units"] = m.idealUnits;
    mj["per_request"] = m.requests ? ordered_json(m.perRequest()) : ordered_json();
    mj["ideal_per_request"] = m.requests ? ordered_json(m.idealPerRequest()) : ordered_json();
    mj["per_instruction"] = m.perInstruction;
    mj["widths"] = m.widths;
    o["measured"] = mj;
    o["notes"] = l.notes;
    lines.push_back(o);
  }
  j["lines"] = lines;
  if (!r.branches.empty()) {
    ordered_json bs;
    bs["branches"] = r.branches.size();
    for (BranchVerdict v : {BranchVerdict::Confirmed, BranchVerdict::Contradicted, BranchVerdict::NoCounter,
                           BranchVerdict::Unpredicted})
      bs[std::string(toString(v))] = r.count(v);
    j["branch_summary"] = bs;
    ordered_json branches = ordered_json::array();
    for (const BranchComparison& c : r.branches) {
      const PredictedBranch& b = c.predicted;
      const BranchMeasured& m = c.measured;
      ordered_json o;
      o["id"] = b.id;
      o["file"] = b.file;
      o["line"] = b.line;
      o["column"] = b.column;
      o["kernel"] = b.kernel;
      o["kind"] = b.kind;
      o["condition"] = b.condition;
      o["verdict"] = toString(c.verdict);
      o["basis"] = toString(c.basis);
      o["share_agrees"] = c.shareAgrees ? ordered_json(*c.shareAgrees) : ordered_json();
      o["predicted"] = ordered_json{{"warp_requests", b.warpRequests},
                                    {"divergent_requests", b.divergentRequests},
                                    {"line_warp_requests", c.lineWarpRequests},
                                    {"line_divergent_requests", c.lineDivergentRequests},
                                    {"share", c.predictedShare()},
                                    {"evaluated", b.evaluated},
                                    {"only_partial_warps", b.onlyPartialWarps},
                                    {"same_line", c.sameLine}};
      ordered_json mj;
      mj["instructions"] = m.instructions;
      mj["executions"] = m.executions;
      mj["threads"] = m.threads;
      mj["pred_on_threads"] = m.predOnKnown ? ordered_json(m.predOnThreads) : ordered_json();
      mj["active_per_instruction"] = optNum(m.activePerInstruction());
      mj["pred_on_per_instruction"] = optNum(m.predOnPerInstruction());
      mj["targets_divergent"] = c.targetsDivergent ? ordered_json(*c.targetsDivergent) : ordered_json();
      mj["branch_executions"] = m.branchExecutions;
      mj["uniform"] = m.uniform;
      mj["divergent"] = m.divergent;
      mj["share"] = optNum(m.divergentShare());
      ordered_json per = ordered_json::array();
      for (const BranchInstruction& bi : m.branches)
        per.push_back(ordered_json{{"function", bi.function}, {"pc", bi.pc}, {"opcode", bi.opcode},
                                   {"executions", bi.executions}, {"uniform", bi.uniform},
                                   {"divergent", bi.divergent}});
      mj["branch_instructions"] = per;
      mj["lanes_divergent"] = c.lanesDivergent ? ordered_json(*c.lanesDivergent) : ordered_json();
      mj["reaching_lanes"] = optNum(m.reachingLanes);
      mj["fewest_lanes"] = optNum(m.fewestLanes);
      mj["fewest_at"] = m.fewestLanes ? ordered_json{{"line", m.fewestLine}, {"pc", m.fewestPc},
                                                     {"opcode", m.fewestOpcode}}
                                      : ordered_json();
      mj["body_lines"] = m.bodyInstructions ? ordered_json::array({m.bodyFirstLine, m.bodyLastLine})
                                            : ordered_json();
      mj["body_instructions"] = m.bodyInstructions;
      o["measured"] = mj;
      o["notes"] = c.notes;
      branches.push_back(o);
    }
    j["branches"] = branches;
  }
  j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace coalesce::verify
