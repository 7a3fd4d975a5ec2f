// SARIF 2.1.0 for GitHub code scanning (field notes section 4): $schema, version, one run
// with the rules table and one result per finding, repo-relative URIs.
#include "coalesce/report/sarif_writer.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_os_ostream.h>

#include "coalesce/report/rule_registry.h"
#include "paths.h"

namespace coalesce::report {

namespace json = llvm::json;

namespace {

// GitHub code scanning accepts at most 25,000 results a run.
constexpr size_t kMaxResults = 25000;

std::string level(Severity s) { return std::string(toString(s)); }  // note / warning / error, as SARIF spells them

std::string percentEncode(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

void textObject(json::OStream& j, std::string_view key, const std::string& text) {
  j.attributeObject(key, [&] { j.attribute("text", text); });
}

void writeLocation(json::OStream& j, const SourceLocation& loc, const SarifOptions& options) {
  j.object([&] {
    j.attributeObject("physicalLocation", [&] {
      j.attributeObject("artifactLocation", [&] { j.attribute("uri", sarifUri(loc.file, options)); });
      if (loc.line > 0)
        j.attributeObject("region", [&] {
          j.attribute("startLine", loc.line);
          if (loc.column > 0) j.attribute("startColumn", loc.column);
        });
    });
  });
}

// A checked fix-it (docs/fixes.md) as SARIF 2.1.0's fix object (section 3.55): one
// artifactChange per file, its replacements as byte regions.
void writeFix(json::OStream& j, const SourceFix& fix, const SarifOptions& options) {
  j.attributeArray("fixes", [&] {
    j.object([&] {
      textObject(j, "description", fix.description);
      j.attributeArray("artifactChanges", [&] {
        for (size_t i = 0; i < fix.edits.size();) {
          const std::string& file = fix.edits[i].file;
          j.object([&] {
            j.attributeObject("artifactLocation", [&] { j.attribute("uri", sarifUri(file, options)); });
            j.attributeArray("replacements", [&] {
              for (; i < fix.edits.size() && fix.edits[i].file == file; ++i)
                j.object([&] {
                  j.attributeObject("deletedRegion", [&] {
                    j.attribute("byteOffset", static_cast<int64_t>(fix.edits[i].offset));
                    j.attribute("byteLength", static_cast<int64_t>(fix.edits[i].length));
                  });
                  textObject(j, "insertedContent", fix.edits[i].replacement);
                });
            });
          });
        }
      });
    });
  });
}

std::vector<std::string> ruleTable(const Report& report) {
  std::vector<std::string> ids = ruleIds();
  for (const Finding& f : report.findings)
    if (f.rule == kNoLintRuleId) {
      ids.emplace_back(kNoLintRuleId);
      break;
    }
  return ids;
}

}  // namespace

std::string sarifUri(const std::string& path, const SarifOptions& options) {
  const std::string given = detail::normalisePath(path);
  if (options.sourceRoot.empty()) {
    if (!given.empty() && given.front() == '/') return "file://" + percentEncode(given);
    return percentEncode(given);
  }
  const std::string abs = detail::absolutePath(path, options.workingDirectory);
  std::string root = detail::absolutePath(options.sourceRoot, options.workingDirectory);
  if (!root.empty() && root.back() != '/') root += '/';
  if (abs.compare(0, root.size(), root) == 0) return percentEncode(abs.substr(root.size()));
  return "file://" + percentEncode(abs);
}

void writeSarif(std::ostream& out, const Report& report, const SarifOptions& options) {
  llvm::raw_os_ostream os(out);
  json::OStream j(os, 2);
  const std::vector<std::string> ids = ruleTable(report);
  auto indexOf = [&](const std::string& id) {
    return static_cast<int64_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
  };
  j.object([&] {
    j.attribute("$schema", std::string(kSarifSchemaUri));
    j.attribute("version", "2.1.0");
    j.attributeArray("runs", [&] {
      j.object([&] {
        j.attributeObject("tool", [&] {
          j.attributeObject("driver", [&] {
            j.attribute("name", report.tool.name);
            j.attribute("version", report.tool.version);
            if (!report.tool.informationUri.empty()) j.attribute("informationUri", report.tool.informationUri);
            j.attributeArray("rules", [&] {
              for (const std::string& id : ids) {
                const RuleDescription d = describeRule(id);
                const Rule* rule = findRule(id);
                j.object([&] {
                  j.attribute("id", id);
                  textObject(j, "shortDescription", d.shortDescription);
                  textObject(j, "fullDescription", d.fullDescription);
                  textObject(j, "help", d.help);
                  j.attributeObject("defaultConfiguration", [&] {
                    j.attribute("level", level(rule ? rule->defaultSeverity() : Severity::Error));
                    // Hints that the default Checks leave out.
                    if (rule && !rule->enabledByDefault()) j.attribute("enabled", false);
                  });
                });
              }
            });
          });
        });
        j.attributeArray("invocations", [&] {
          j.object([&] {
            j.attribute("executionSuccessful", true);
            j.attributeArray("toolExecutionNotifications", [&] {
              for (const FileRecord& f : report.analysis->files)
                if (f.status == Status::Failed)
                  j.object([&] {
                    j.attribute("level", "error");
                    textObject(j, "message", "cannot analyse this file: " + f.error);
                    j.attributeArray("locations", [&] { writeLocation(j, {f.path, 0, 0}, options); });
                  });
              if (report.findings.size() > kMaxResults)
                j.object([&] {
                  j.attribute("level", "warning");
                  textObject(j, "message", fmt::format("{} results left out: GitHub accepts {} per run",
                                                      report.findings.size() - kMaxResults, kMaxResults));
                });
            });
          });
        });
        j.attributeArray("results", [&] {
          for (size_t i = 0; i < report.findings.size() && i < kMaxResults; ++i) {
            const Finding& f = report.findings[i];
            std::string text = f.message;
            for (const std::string& n : f.notes) text += "\n" + n;
            j.object([&] {
              j.attribute("ruleId", f.rule);
              j.attribute("ruleIndex", indexOf(f.rule));
              j.attribute("level", level(f.severity));
              textObject(j, "message", text);
              j.attributeArray("locations", [&] { writeLocation(j, f.loc, options); });
              if (f.sourceFix && f.sourceFix->check == SourceFix::Check::Offered) writeFix(j, *f.sourceFix, options);
              if (f.hasCost()) {
                // SARIF's rank is an importance from 0 to 100: the share of the kernel's
                // traffic the finding wastes. The run-wide order is in properties.rank.
                j.attribute("rank", std::min(100.0, std::round(f.costShare.value_or(0) * 1000) / 10));
                j.attributeObject("properties", [&] {
                  if (f.costSectors) j.attribute("cost_sectors", *f.costSectors);
                  if (f.costWavefronts) j.attribute("cost_wavefronts", *f.costWavefronts);
                  j.attribute("cost_share", f.costShare.value_or(0));
                  if (f.timeShare) j.attribute("time_share", *f.timeShare);
                  j.attribute("rank", static_cast<int64_t>(f.rank));
                });
              }
            });
          }
        });
      });
    });
  });
  os << "\n";
}

}  // namespace coalesce::report
