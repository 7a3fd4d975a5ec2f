#include "coalesce/verify/report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

#include "coalesce/verify/format_number.h"

namespace coalesce::verify {

namespace {

std::string unitOf(const LineComparison& l) {
  return l.cls.space == model::Space::Shared ? "wavefronts/request" : "sectors/request";
}

nlohmann::json optNum(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

namespace {

// "N lines: a match, b mismatch"; "; M branches: ..." when there are branches.
template <typename Counts>
std::string countsText(size_t lines, size_t branches, const Counts& count) {
  std::string s = fmt::format("{} line{}", lines, lines == 1 ? "" : "s");
  bool first = true;
  for (Verdict v : {Verdict::Match, Verdict::Mismatch, Verdict::WithinRange, Verdict::NotFound, Verdict::Unpredicted,
                    Verdict::Unchecked}) {
    const size_t n = count(v);
    if (!n) continue;
    s += fmt::format("{} {} {}", first ? ":" : ",", n, toString(v));
    first = false;
  }
  if (branches) {
    s += fmt::format("; {} branch{}", branches, branches == 1 ? "" : "es");
    first = true;
    for (BranchVerdict v : {BranchVerdict::Confirmed, BranchVerdict::Contradicted, BranchVerdict::NoCounter,
                           BranchVerdict::Unpredicted}) {
      const size_t n = count(v);
      if (!n) continue;
      s += fmt::format("{} {} {}", first ? ":" : ",", n, toString(v));
      first = false;
    }
  }
  return s;
}

std::string configurationSummary(const ConfigurationComparison& c) {
  return countsText(c.lines.size(), c.branches.size(), [&](auto v) { return c.count(v); });
}

}  // namespace

std::string summaryLine(const VerifyReport& r) {
  size_t lines = r.lines.size(), branches = r.branches.size();
  std::set<std::string> kernels;
  for (const ConfigurationComparison& c : r.configurations) {
    lines += c.lines.size();
    branches += c.branches.size();
    kernels.insert(c.config.kernel);
  }
  std::string s = countsText(lines, branches, [&](auto v) { return r.count(v); });
  if (!r.configurations.empty())
    s += fmt::format(" (with {} configurations of {} kernel{} compared apart)", r.configurations.size(),
                     kernels.size(), kernels.size() == 1 ? "" : "s");
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

namespace {

std::string formatLineText(const LineComparison& l, const std::string& indent) {
  std::string kernels;
  for (const std::string& k : l.kernels) kernels += (kernels.empty() ? "" : ",") + k;
  std::string predicted = "-";
  if (l.predictedPerRequest) predicted = formatNumber(*l.predictedPerRequest);
  else if (l.predictedRange)
    predicted = fmt::format("[{}, {}]", formatNumber(l.predictedRange->first), formatNumber(l.predictedRange->second));
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
  std::string out = fmt::format("{}{}:{}: {} {}{}: {} predicted {} measured {}{}: {}\n", indent, l.file, l.line,
                                model::toString(l.cls.space), model::toString(l.cls.kind),
                                kernels.empty() ? "" : " [" + kernels + "]", unitOf(l), predicted, measured, detail,
                                verdict);
  for (const std::string& n : l.notes) out += indent + "    note: " + n + "\n";
  return out;
}

// A configuration's heading, then its lines and branches indented under it.
std::string formatConfigurationText(const ConfigurationComparison& c) {
  const LaunchConfig& l = c.config;
  std::string out = fmt::format(
      "configuration {} of {} of kernel '{}': grid {}x{}x{}, block {}x{}x{}, {} bytes dynamic shared memory, {} "
      "launch{}: {}\n",
      c.ordinal, c.ofKernel, c.kernel, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
      l.sharedBytes, l.launches, l.launches == 1 ? "" : "es", c.predictedForDetail);
  for (const LineComparison& line : c.lines) out += formatLineText(line, "  ");
  for (const BranchComparison& b : c.branches) {
    std::string text = formatBranchText(b);  // a line and its notes, each indented
    for (size_t at = 0; at < text.size();) {
      text.insert(at, "  ");
      const size_t end = text.find('\n', at);
      if (end == std::string::npos) break;
      at = end + 1;
    }
    out += text;
  }
  for (const std::string& n : c.notes) out += "  note: " + n + "\n";
  out += "  " + configurationSummary(c) + "\n";
  return out;
}

}  // namespace

std::string formatText(const VerifyReport& r) {
  std::string out;
  if (!r.device.name.empty())
    out += fmt::format("device: {} (sm_{}{})\n", r.device.name, r.device.sm,
                       r.device.chip.empty() ? "" : ", " + r.device.chip);
  for (const LineComparison& l : r.lines) out += formatLineText(l, "");
  for (const BranchComparison& c : r.branches) out += formatBranchText(c);
  for (const ConfigurationComparison& c : r.configurations) out += formatConfigurationText(c);
  for (const std::string& n : r.notes) out += "note: " + n + "\n";
  out += summaryLine(r) + "\n";
  return out;
}

namespace {

nlohmann::ordered_json lineJson(const LineComparison& l) {
  using nlohmann::ordered_json;
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
  return o;
}

nlohmann::ordered_json branchJson(const BranchComparison& c) {
  using nlohmann::ordered_json;
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
  return o;
}

// Verdict counts of some lines (and branches), as the report's `summary` gives them.
template <typename Counts>
nlohmann::ordered_json summaryJson(size_t lines, const Counts& count) {
  nlohmann::ordered_json summary;
  summary["lines"] = lines;
  for (Verdict v : {Verdict::Match, Verdict::Mismatch, Verdict::WithinRange, Verdict::NotFound, Verdict::Unpredicted,
                    Verdict::Unchecked})
    summary[std::string(toString(v))] = count(v);
  return summary;
}

nlohmann::ordered_json configurationJson(const ConfigurationComparison& c) {
  using nlohmann::ordered_json;
  ordered_json o;
  o["index"] = c.index;
  o["kernel"] = c.kernel;
  o["mangled"] = c.config.kernel;
  o["ordinal"] = c.ordinal;
  o["of_kernel"] = c.ofKernel;
  o["grid"] = c.config.grid;
  o["block"] = c.config.block;
  o["shared_bytes"] = c.config.sharedBytes;
  o["launches"] = c.config.launches;
  o["predicted_for"] = toString(c.predictedFor);
  o["predicted_for_detail"] = c.predictedForDetail;
  o["summary"] = summaryJson(c.lines.size(), [&](Verdict v) { return c.count(v); });
  ordered_json lines = ordered_json::array();
  for (const LineComparison& l : c.lines) lines.push_back(lineJson(l));
  o["lines"] = lines;
  ordered_json branches = ordered_json::array();
  for (const BranchComparison& b : c.branches) branches.push_back(branchJson(b));
  o["branches"] = branches;
  o["notes"] = c.notes;
  return o;
}

}  // namespace

std::string formatJson(const VerifyReport& r, int exitCode) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["schema"] = kReportSchema;
  j["device"] = ordered_json{{"name", r.device.name}, {"chip", r.device.chip}, {"sm", r.device.sm}};
  // The summary counts the configurations' lines and branches too (`configurations` below).
  size_t allLines = r.lines.size(), allBranches = r.branches.size();
  for (const ConfigurationComparison& c : r.configurations) {
    allLines += c.lines.size();
    allBranches += c.branches.size();
  }
  j["summary"] = summaryJson(allLines, [&](Verdict v) { return r.count(v); });
  j["exit_code"] = exitCode;
  ordered_json lines = ordered_json::array();
  for (const LineComparison& l : r.lines) lines.push_back(lineJson(l));
  j["lines"] = lines;
  if (allBranches) {
    ordered_json bs;
    bs["branches"] = allBranches;
    for (BranchVerdict v : {BranchVerdict::Confirmed, BranchVerdict::Contradicted, BranchVerdict::NoCounter,
                           BranchVerdict::Unpredicted})
      bs[std::string(toString(v))] = r.count(v);
    j["branch_summary"] = bs;
    ordered_json branches = ordered_json::array();
    for (const BranchComparison& c : r.branches) branches.push_back(branchJson(c));
    j["branches"] = branches;
  }
  if (!r.configurations.empty()) {
    ordered_json configs = ordered_json::array();
    for (const ConfigurationComparison& c : r.configurations) configs.push_back(configurationJson(c));
    j["configurations"] = configs;
  }
  j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace coalesce::verify
