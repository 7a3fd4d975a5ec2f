// Whether a parse function is the exact inverse of toString over every enumerator of E
// (0..last): each name parses back to its enumerator, names are distinct and not "?", and
// text that is no name (empty, "?", padded, other case) parses to nothing. Returns what does
// not hold, so that the test case's own CHECK states the property
// (test/model/enum_names_test.cpp, test/records/records_test.cpp).
#pragma once

#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace coalesce::test {

template <class E, class Parse>
std::vector<std::string> parseInverseProblems(E last, Parse parse) {
  std::vector<std::string> problems;
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    const E e = static_cast<E>(i);
    const std::string name(toString(e));
    const std::string who = "enumerator " + std::to_string(i) + " '" + name + "'";
    if (name == "?") problems.push_back(who + " has no name");
    if (!names.insert(name).second) problems.push_back(who + " shares its name");
    const auto back = parse(name);
    if (!back || *back != e) problems.push_back(who + " does not parse back to itself");
    if (parse(" " + name) || parse(name + " ")) problems.push_back(who + " parses with spaces around it");
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper != name && parse(upper)) problems.push_back(who + " parses in upper case");
  }
  if (parse("")) problems.push_back("the empty text parses");
  if (parse("?")) problems.push_back("\"?\" parses");
  return problems;
}

}  // namespace coalesce::test
