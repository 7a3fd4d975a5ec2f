#include "coalesce/verify/report.h"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace coalesce::verify {

namespace {

std::string num(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{}", static_cast<long long>(std::llround(v)));
  return fmt::format("{:.3f}", v);
}

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
  return s;
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
    if (l.predictedPerRequest) predicted = num(*l.predictedPerRequest);
    else if (l.predictedRange) predicted = fmt::format("[{}, {}]", num(l.predictedRange->first), num(l.predictedRange->second));
    const MeasuredFigures& m = l.measured;
    std::string measured = m.requests ? num(m.perRequest()) : "-";
    std::string detail;
    if (m.requests) {
      detail = fmt::format(" (ideal {}/{}; {} instruction{}, {} requests)",
                           l.predictedIdeal ? num(*l.predictedIdeal) : "-", num(m.idealPerRequest()),
                           m.instructions, m.instructions == 1 ? "" : "s", m.requests);
    }
    std::string verdict(toString(l.verdict));
    if (l.basis == Basis::RatioToIdeal) verdict += " (by ratio to ideal)";
    out += fmt::format("{}:{}: {} {}{}: {} predicted {} measured {}{}: {}\n", l.file, l.line,
                       model::toString(l.cls.space), model::toString(l.cls.kind),
                       kernels.empty() ? "" : " [" + kernels + "]", unitOf(l), predicted, measured, detail, verdict);
    for (const std::string& n : l.notes) out += "    note: " + n + "\n";
  }
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
  j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace coalesce::verify
