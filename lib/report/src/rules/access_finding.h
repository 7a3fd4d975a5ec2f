// The frame of every access finding: rule id, location, line text, access id and the
// assumption notes; each rule adds its message, diagnosis and fix.
#pragma once

#include <string>
#include <vector>

#include "coalesce/report/finding.h"
#include "coalesce/report/rule.h"

namespace coalesce::report::detail {

Finding accessFinding(const Rule& rule, const AccessSite& site, const model::Arch& arch, std::string message);

}  // namespace coalesce::report::detail
