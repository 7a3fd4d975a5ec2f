// SARIF 2.1.0 output for GitHub code scanning: one run, the rules table, one result per
// finding with a repo-relative location. No partialFingerprints (the uploader adds them).
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "coalesce/report/report.h"

namespace coalesce::report {

inline constexpr std::string_view kSarifSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

struct SarifOptions {
  // Locations are made relative to this directory (the repository root). Empty: relative
  // paths are kept as given, absolute ones become file:// URIs.
  std::string sourceRoot;
  // Where relative paths are relative to (the directory the tool ran in). Empty: the
  // current directory.
  std::string workingDirectory;
};

void writeSarif(std::ostream& out, const Report& report, const SarifOptions& options = {});

// The artifactLocation.uri of a path: repo-relative with forward slashes when under the
// root, percent-encoded where a URI needs it.
std::string sarifUri(const std::string& path, const SarifOptions& options);

}  // namespace coalesce::report
