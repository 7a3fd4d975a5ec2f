// Compares what the analysis found in one file with the file's `// expect:` comments:
// a missing access, an unexpected one, a wrong figure or a wrong finding all fail.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "coalesce/records/records.h"
#include "expectations.h"

namespace coalesce::test {

// `rulesByAccess` (access id -> rule ids reported for it) is checked when given.
std::vector<std::string> matchExpectations(const std::vector<Expectation>& expected,
                                           const std::vector<const AccessSite*>& found,
                                           const std::map<int, std::vector<std::string>>* rulesByAccess);

// The figure an expectation key names, read from an access ("sectors", "ideal", "eta",
// "wavefronts", "degree"); nullopt when the access has no such figure.
std::optional<std::pair<double, double>> figureOf(const AccessSite& a, const std::string& key);

std::string describe(const AccessSite& a);

}  // namespace coalesce::test
