// JSON, schema "coalesce-lint/1" (docs/json-schema.md), streamed with llvm::json so keys
// come out in the documented order. The records' keys come from the one field list in
// coalesce/records/fields.h, which lib/verify/src/predictions.cpp reads back.
#include "coalesce/report/json_writer.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_os_ostream.h>

#include "coalesce/records/fields.h"
#include "coalesce/report/summary.h"

namespace coalesce::report {

namespace json = llvm::json;

namespace {

json::Value orNull(const std::optional<double>& v) { return v ? json::Value(*v) : json::Value(nullptr); }
json::Value orNull(const std::string& s) { return s.empty() ? json::Value(nullptr) : json::Value(s); }
json::Value pair(double a, double b) { return json::Array{a, b}; }

// The report's figure keys, derived from the model's figures (not record fields): the
// aligned case's figures, and the best-to-worst range where the alignment is unknown.
void writeFigures(json::OStream& j, const model::AccessFigures& fig) {
  std::optional<double> sectors, ideal, eta, wave, idealWave, degree;
  json::Value sectorsRange = nullptr, etaRange = nullptr, waveRange = nullptr;
  if (fig.global) {
    const auto& g = *fig.global;
    sectors = g.aligned.sectorsPerRequest;
    ideal = g.aligned.idealSectors;
    eta = g.aligned.efficiency;
    if (!g.alignmentKnown) {
      sectorsRange = pair(g.best.sectorsPerRequest, g.worst.sectorsPerRequest);
      etaRange = pair(g.best.efficiency, g.worst.efficiency);
    }
  } else if (fig.sectorRange) {
    sectorsRange = pair(fig.sectorRange->first, fig.sectorRange->second);
  }
  if (fig.shared) {
    const auto& s = *fig.shared;
    wave = s.aligned.wavefronts;
    idealWave = s.aligned.idealWavefronts;
    degree = s.aligned.conflictDegree;
    if (!s.alignmentKnown) waveRange = pair(s.best.wavefronts, s.worst.wavefronts);
  } else if (fig.wavefrontRange) {
    waveRange = pair(fig.wavefrontRange->first, fig.wavefrontRange->second);
  }
  j.attribute("sectors_per_request", orNull(sectors));
  j.attribute("ideal_sectors", orNull(ideal));
  j.attribute("efficiency", orNull(eta));
  j.attribute("sectors_range", std::move(sectorsRange));
  j.attribute("efficiency_range", std::move(etaRange));
  j.attribute("wavefronts", orNull(wave));
  j.attribute("ideal_wavefronts", orNull(idealWave));
  j.attribute("conflict_degree", orNull(degree));
  j.attribute("wavefronts_range", std::move(waveRange));
}

// Writes the record fields of coalesce/records/fields.h as the report's keys, in the
// list's order: fields marked internal are left out, kEmptyIsNull strings are null when
// empty, enumerations are their names, nested records objects and lists of them arrays.
// The two fields the report derives keys from are written by hand.
class ReportFieldWriter {
 public:
  explicit ReportFieldWriter(json::OStream& j) : j_(j) {}

  template <class T>
  void field(std::string_view name, const T& value, unsigned flags = kPlainField) {
    if (flags & kInternalField) return;
    const llvm::StringRef key(name.data(), name.size());
    if constexpr (std::is_same_v<T, std::string>) {
      j_.attribute(key, (flags & kEmptyIsNull) ? orNull(value) : json::Value(value));
    } else if constexpr (std::is_enum_v<T>) {
      j_.attribute(key, std::string(toString(value)));
    } else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      if ((flags & kNegativeIsNull) && value < 0) j_.attribute(key, nullptr);
      else j_.attribute(key, value);
    } else if constexpr (std::is_same_v<T, bool>) {
      j_.attribute(key, value);
    } else if constexpr (std::is_same_v<T, std::vector<std::string>> || std::is_same_v<T, std::vector<int>>) {
      j_.attributeArray(key, [&] {
        for (const auto& s : value) j_.value(s);
      });
    } else if constexpr (kIsVector<T>) {
      j_.attributeArray(key, [&] {
        for (const auto& record : value) j_.object([&] { describeFields(*this, record); });
      });
    } else if constexpr (std::is_same_v<T, model::LanePattern>) {
      // "pattern" is the kind's name; "lane_strides" the affine strides, null for the
      // patterns that have none.
      j_.attribute(key, std::string(model::toString(value.kind)));
      if (value.kind == model::PatternKind::Affine || value.kind == model::PatternKind::Uniform)
        j_.attributeObject("lane_strides", [&] { describeFields(*this, value.affine); });
      else
        j_.attribute("lane_strides", nullptr);
    } else if constexpr (std::is_same_v<T, model::AccessFigures>) {
      writeFigures(j_, value);
    } else if constexpr (std::is_same_v<T, AccessGroup>) {
      // null for an access in no group
      if (value.id < 0) j_.attribute(key, nullptr);
      else j_.attributeObject(key, [&] { describeFields(*this, value); });
    } else {
      j_.attributeObject(key, [&] { describeFields(*this, value); });
    }
  }

 private:
  json::OStream& j_;
};

json::Value idOrNull(const std::optional<int>& id) { return id ? json::Value(*id) : json::Value(nullptr); }

void writeSummary(json::OStream& j, const Report& report) {
  const Summary s = summarize(report);
  j.attributeObject("summary", [&] {
    j.attribute("files", static_cast<int64_t>(s.files));
    j.attribute("failed_files", static_cast<int64_t>(s.failedFiles));
    j.attribute("kernels", static_cast<int64_t>(s.kernels));
    j.attribute("kernels_on_assumed_block", static_cast<int64_t>(s.kernelsOnAssumedBlock));
    j.attribute("kernels_on_assumed_block_shape_invariant", static_cast<int64_t>(s.kernelsOnAssumedBlockShapeInvariant));
    j.attribute("kernels_on_implied_block", static_cast<int64_t>(s.kernelsOnImpliedBlock));
    j.attribute("instantiations_not_analysed", static_cast<int64_t>(s.instantiationsNotAnalysed));
    j.attribute("kernel_templates_sampled", static_cast<int64_t>(s.templatesSampled));
    j.attribute("accesses", static_cast<int64_t>(s.accesses));
    j.attribute("findings", static_cast<int64_t>(s.findings));
    j.attributeObject("findings_by_rule", [&] {
      for (const auto& [rule, n] : s.findingsByRule) j.attribute(rule, static_cast<int64_t>(n));
    });
    j.attributeObject("findings_by_severity", [&] {
      for (const auto& [severity, n] : s.findingsBySeverity) j.attribute(severity, static_cast<int64_t>(n));
    });
    j.attributeArray("most_expensive", [&] {
      for (const Finding* f : mostExpensive(report))
        j.object([&] {
          j.attribute("rank", static_cast<int64_t>(f->rank));
          j.attribute("rule", f->rule);
          j.attribute("file", f->loc.file);
          j.attribute("line", f->loc.line);
          j.attribute("column", f->loc.column);
          j.attribute("kernel", f->kernel);
          j.attribute("cost_bytes", f->costBytes());
          j.attribute("cost_share", f->costShare.value_or(0));
          j.attribute("cost_time_per_run", f->costTimePerRun.value_or(0));
          j.attribute("program_share", orNull(f->programShare));
        });
    });
    j.attribute("suppressed", static_cast<int64_t>(s.stats.suppressed));
    j.attribute("baselined", static_cast<int64_t>(s.stats.baselined));
    j.attribute("below_threshold", static_cast<int64_t>(s.stats.belowThreshold));
    j.attribute("excluded", static_cast<int64_t>(s.stats.excluded));
    j.attribute("disabled", static_cast<int64_t>(s.stats.disabled));
    // Diff-aware runs only, so that other reports keep their exact bytes.
    if (report.diffAware) j.attribute("unchanged", static_cast<int64_t>(s.stats.unchanged));
    j.attribute("seconds", s.seconds);
  });
}

}  // namespace

void writeJson(std::ostream& out, const Report& report) {
  llvm::raw_os_ostream os(out);
  json::OStream j(os, 2);
  const AnalysisResult& a = *report.analysis;
  j.object([&] {
    j.attribute("version", std::string(kJsonSchemaVersion));
    j.attributeObject("tool", [&] {
      j.attribute("name", report.tool.name);
      j.attribute("version", report.tool.version);
    });
    j.attribute("arch", report.arch);
    ReportFieldWriter records(j);
    describeFields(records, a);  // "files" to "pointer_params"
    j.attributeArray("findings", [&] {
      for (const Finding& f : report.findings)
        j.object([&] {
          j.attribute("rule", f.rule);
          j.attribute("severity", std::string(toString(f.severity)));
          j.attribute("file", f.loc.file);
          j.attribute("line", f.loc.line);
          j.attribute("column", f.loc.column);
          j.attribute("message", f.message);
          j.attributeArray("notes", [&] {
            for (const std::string& n : f.notes) j.value(n);
          });
          j.attribute("access", idOrNull(f.access));
          j.attribute("branch", idOrNull(f.branch));
          j.attribute("barrier", idOrNull(f.barrier));
          j.attribute("kernel", f.kernel.empty() ? json::Value(nullptr) : json::Value(f.kernel));
          j.attributeArray("instantiations", [&] {
            for (const std::string& k : f.instantiations) j.value(k);
          });
          j.attributeArray("fields", [&] {
            for (const std::string& k : f.fields) j.value(k);
          });
          j.attribute("cost_sectors", orNull(f.costSectors));
          j.attribute("cost_wavefronts", orNull(f.costWavefronts));
          j.attribute("cost_share", orNull(f.costShare));
          j.attribute("cost_basis", orNull(f.costBasis));
          j.attribute("cost_time_per_run", orNull(f.costTimePerRun));
          j.attribute("waste_us_per_run", f.shownWasteSeconds ? json::Value(*f.shownWasteSeconds * 1e6) : json::Value(nullptr));
          j.attribute("program_share", orNull(f.programShare));
          j.attribute("time_share", orNull(f.timeShare));
          j.attribute("rank", f.rank > 0 ? json::Value(static_cast<int64_t>(f.rank)) : json::Value(nullptr));
        });
    });
    writeSummary(j, report);
  });
  os << "\n";
}

}  // namespace coalesce::report
