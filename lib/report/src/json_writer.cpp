// JSON, schema "coalesce-lint/1" (docs/json-schema.md), streamed with llvm::json so keys
// come out in the documented order.
#include "coalesce/report/json_writer.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_os_ostream.h>

#include "coalesce/report/summary.h"

namespace coalesce::report {

namespace json = llvm::json;

namespace {

json::Value orNull(const std::optional<double>& v) { return v ? json::Value(*v) : json::Value(nullptr); }
json::Value orNull(const std::string& s) { return s.empty() ? json::Value(nullptr) : json::Value(s); }
json::Value pair(double a, double b) { return json::Array{a, b}; }

void writeBlock(json::OStream& j, const BlockShape& b) {
  j.attributeObject("block", [&] {
    j.attribute("x", b.dim.x);
    j.attribute("y", b.dim.y);
    j.attribute("z", b.dim.z);
    j.attribute("source", std::string(toString(b.source)));
    j.attribute("detail", orNull(b.detail));
  });
}

void writeFigures(json::OStream& j, const AccessSite& a) {
  const model::AccessFigures& fig = a.figures;
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

void writeAccess(json::OStream& j, const AccessSite& a) {
  j.object([&] {
    j.attribute("id", a.id);
    j.attribute("file", a.loc.file);
    j.attribute("line", a.loc.line);
    j.attribute("column", a.loc.column);
    j.attribute("kernel", a.kernel);
    j.attribute("function", a.function);
    j.attribute("expression", a.expression);
    j.attribute("space", std::string(model::toString(a.access.space)));
    j.attribute("kind", std::string(model::toString(a.access.kind)));
    j.attribute("bytes", a.access.bytesPerLane);
    j.attribute("element_type", orNull(a.elementType));
    j.attribute("pattern", std::string(model::toString(a.access.pattern.kind)));
    const bool affine = a.access.pattern.kind == model::PatternKind::Affine ||
                        a.access.pattern.kind == model::PatternKind::Uniform;
    if (affine)
      j.attributeObject("lane_strides", [&] {
        j.attribute("x", a.access.pattern.affine.cx);
        j.attribute("y", a.access.pattern.affine.cy);
        j.attribute("z", a.access.pattern.affine.cz);
      });
    else
      j.attribute("lane_strides", nullptr);
    writeFigures(j, a);
    writeBlock(j, a.block);
    j.attributeArray("assumptions", [&] {
      for (const std::string& s : a.assumptions) j.value(s);
    });
  });
}

std::string reachName(BarrierSite::Reach r) {
  switch (r) {
    case BarrierSite::Reach::Uniform: return "uniform";
    case BarrierSite::Reach::Divergent: return "divergent";
    case BarrierSite::Reach::Unknown: return "unknown";
  }
  return "?";
}

void writeLocation(json::OStream& j, const SourceLocation& loc) {
  j.attribute("file", loc.file);
  j.attribute("line", loc.line);
  j.attribute("column", loc.column);
}

void writeAssumptions(json::OStream& j, const std::vector<std::string>& assumptions) {
  j.attributeArray("assumptions", [&] {
    for (const std::string& s : assumptions) j.value(s);
  });
}

void writeBranch(json::OStream& j, const BranchSite& b) {
  j.object([&] {
    j.attribute("id", b.id);
    writeLocation(j, b.loc);
    j.attribute("kernel", b.kernel);
    j.attribute("function", b.function);
    j.attribute("kind", std::string(toString(b.kind)));
    j.attribute("condition", b.condition);
    j.attribute("evaluated", b.evaluated);
    j.attribute("thread_dependent", b.threadDependent);
    j.attribute("warp_requests", b.warpRequests);
    j.attribute("divergent_requests", b.divergentRequests);
    j.attribute("only_partial_warps", b.onlyPartialWarps);
    writeBlock(j, b.block);
    writeAssumptions(j, b.assumptions);
  });
}

void writeBarrier(json::OStream& j, const BarrierSite& b) {
  j.object([&] {
    j.attribute("id", b.id);
    writeLocation(j, b.loc);
    j.attribute("kernel", b.kernel);
    j.attribute("function", b.function);
    j.attribute("call", b.call);
    j.attribute("reach", reachName(b.reach));
    j.attribute("condition", orNull(b.condition));
    writeBlock(j, b.block);
    writeAssumptions(j, b.assumptions);
  });
}

void writePointerParam(json::OStream& j, const PointerParam& p) {
  j.object([&] {
    j.attribute("kernel", p.kernel);
    writeLocation(j, p.loc);
    j.attribute("name", p.name);
    j.attribute("restrict", p.isRestrict);
    j.attribute("read", p.read);
    j.attribute("written", p.written);
  });
}

json::Value idOrNull(const std::optional<int>& id) { return id ? json::Value(*id) : json::Value(nullptr); }

void writeSummary(json::OStream& j, const Report& report) {
  const Summary s = summarize(report);
  j.attributeObject("summary", [&] {
    j.attribute("files", static_cast<int64_t>(s.files));
    j.attribute("failed_files", static_cast<int64_t>(s.failedFiles));
    j.attribute("kernels", static_cast<int64_t>(s.kernels));
    j.attribute("accesses", static_cast<int64_t>(s.accesses));
    j.attribute("findings", static_cast<int64_t>(s.findings));
    j.attributeObject("findings_by_rule", [&] {
      for (const auto& [rule, n] : s.findingsByRule) j.attribute(rule, static_cast<int64_t>(n));
    });
    j.attribute("suppressed", static_cast<int64_t>(s.stats.suppressed));
    j.attribute("baselined", static_cast<int64_t>(s.stats.baselined));
    j.attribute("below_threshold", static_cast<int64_t>(s.stats.belowThreshold));
    j.attribute("excluded", static_cast<int64_t>(s.stats.excluded));
    j.attribute("disabled", static_cast<int64_t>(s.stats.disabled));
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
    j.attributeArray("files", [&] {
      for (const FileRecord& f : a.files)
        j.object([&] {
          j.attribute("path", f.path);
          j.attribute("status", std::string(toString(f.status)));
          j.attribute("error", orNull(f.error));
          j.attribute("host_errors", f.hostErrors);
          j.attributeArray("diagnostics", [&] {
            for (const std::string& d : f.diagnostics) j.value(d);
          });
        });
    });
    j.attributeArray("kernels", [&] {
      for (const KernelRecord& k : a.kernels)
        j.object([&] {
          j.attribute("name", k.name);
          j.attribute("file", k.loc.file);
          j.attribute("line", k.loc.line);
          j.attribute("status", std::string(toString(k.status)));
          j.attribute("reason", orNull(k.reason));
          j.attribute("accesses", k.accesses);
          writeBlock(j, k.block);
        });
    });
    j.attributeArray("accesses", [&] {
      for (const AccessSite& s : a.accesses) writeAccess(j, s);
    });
    j.attributeArray("branches", [&] {
      for (const BranchSite& b : a.branches) writeBranch(j, b);
    });
    j.attributeArray("barriers", [&] {
      for (const BarrierSite& b : a.barriers) writeBarrier(j, b);
    });
    j.attributeArray("pointer_params", [&] {
      for (const PointerParam& p : a.pointerParams) writePointerParam(j, p);
    });
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
        });
    });
    writeSummary(j, report);
  });
  os << "\n";
}

}  // namespace coalesce::report
