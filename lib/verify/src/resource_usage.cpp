#include "coalesce/verify/resource_usage.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace coalesce::verify {

std::vector<KernelResources> parseResourceUsage(const std::string& listing) {
  static const std::regex function(R"(^\s*Function\s+([^\s:]+)\s*:)");
  static const std::regex field(R"((REG|SHARED|STACK|LOCAL):(\d+))");
  std::vector<KernelResources> out;
  std::istringstream in(listing);
  std::string line, current;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, function)) {
      current = m[1];
      continue;
    }
    if (current.empty() || line.find("REG:") == std::string::npos) continue;
    KernelResources r;
    r.kernel = current;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), field); it != std::sregex_iterator(); ++it) {
      const std::string key = (*it)[1];
      const long long value = std::strtoll((*it)[2].str().c_str(), nullptr, 10);
      if (key == "REG") r.registers = static_cast<int>(value);
      else if (key == "SHARED") r.sharedBytes = value;
      else if (key == "STACK") r.stackBytes = value;
      else r.localBytes = value;
    }
    out.push_back(std::move(r));
    current.clear();
  }
  return out;
}

void mergeResources(std::vector<KernelResources>& into, const std::vector<KernelResources>& more) {
  for (const KernelResources& r : more)
    if (std::none_of(into.begin(), into.end(), [&](const KernelResources& k) { return k.kernel == r.kernel; }))
      into.push_back(r);
}

}  // namespace coalesce::verify
