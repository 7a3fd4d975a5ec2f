#include "coalesce/report/report.h"

// Both come from CMake: the project version and, when the project has a public home,
// -DCOALESCE_INFORMATION_URI=... (SARIF's driver.informationUri).
#ifndef COALESCE_VERSION
#error "COALESCE_VERSION must be defined by the build"
#endif
#ifndef COALESCE_INFORMATION_URI
#define COALESCE_INFORMATION_URI ""
#endif

namespace coalesce::report {

ToolInfo defaultToolInfo() {
  ToolInfo t;
  t.version = COALESCE_VERSION;
  t.informationUri = COALESCE_INFORMATION_URI;
  return t;
}

}  // namespace coalesce::report
