// Expectations written next to the code they test (clang-tidy's CHECK-MESSAGES idea):
//   float x = a[2 * i];  // expect: global load sectors=8 ideal=4 eta=0.50 !uncoalesced-global-access
// Several on one line are separated by " ; ". Findings that are not about a memory access
// (a branch, a barrier) are expected with
//   if (threadIdx.x % 2) {  // expect-finding: divergent-branch
// Each comment runs to the end of the line or to the next "//", so both kinds can share a
// line. Read by the golden tests over kernels/examples/ and test/analysis/inputs/.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coalesce::test {

struct Expectation {
  unsigned line = 0;
  std::string space;  // "global" or "shared"
  std::string kind;   // "load", "store", "atomic"
  std::map<std::string, std::pair<double, double>> figures;  // key -> [lo, hi] (lo == hi for a value)
  std::string pattern;  // "indirect", ... (empty: not checked)
  std::optional<std::string> rule;  // "!rule-id": the finding expected; none means no finding
  std::string text;                 // the expectation as written, for messages
};

// Parses every `// expect:` comment of a source text. Malformed ones are reported in
// `errors` (a typo in an expectation must fail the test, not be ignored).
std::vector<Expectation> parseExpectations(const std::string& source, std::vector<std::string>& errors);

std::vector<Expectation> parseExpectationsFile(const std::string& path, std::vector<std::string>& errors);

// One rule id of an `// expect-finding:` comment (several ids are separated by spaces,
// commas or " ; ").
struct FindingExpectation {
  unsigned line = 0;
  std::string rule;
};

// Parses every `// expect-finding:` comment (or, with kHintMarker, every `// expect-hint:`
// comment: findings of the rules that are off by default); an empty one or an id that is
// not kebab-case is reported in `errors`.
inline constexpr const char* kFindingMarker = "// expect-finding:";
inline constexpr const char* kHintMarker = "// expect-hint:";
std::vector<FindingExpectation> parseFindingExpectations(const std::string& source, std::vector<std::string>& errors,
                                                         const std::string& marker = kFindingMarker);

std::vector<FindingExpectation> parseFindingExpectationsFile(const std::string& path, std::vector<std::string>& errors,
                                                             const std::string& marker = kFindingMarker);

}  // namespace coalesce::test
