// libFuzzer: `.coalesce-lint.yaml` text. parseConfig must never crash or hang, and what
// it accepts and resolves must dump (dumpConfig) to YAML that reads back to the same
// settings: dump(parse(dump(c))) == dump(c), as config.h promises.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "coalesce/report/config.h"

using namespace coalesce::report;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto options = parseConfig(text, "fuzz.yaml");
  if (!options) {
    if (options.error().message.find('\n') != std::string::npos) {
      std::fprintf(stderr, "multi-line error: %s\n", options.error().message.c_str());
      std::abort();
    }
    return 0;
  }
  auto config = Config::resolve(*options, "fuzz");
  if (!config) {
    if (config.error().message.find('\n') != std::string::npos) {
      std::fprintf(stderr, "multi-line error: %s\n", config.error().message.c_str());
      std::abort();
    }
    return 0;
  }
  const std::string dumped = dumpConfig(*config);
  auto again = parseConfig(dumped, "dumped.yaml");
  if (!again) {
    std::fprintf(stderr, "the dump does not parse: %s\n--- dump ---\n%s", again.error().message.c_str(), dumped.c_str());
    std::abort();
  }
  auto config2 = Config::resolve(*again, "fuzz");
  if (!config2) {
    std::fprintf(stderr, "the dump does not resolve: %s\n--- dump ---\n%s", config2.error().message.c_str(),
                 dumped.c_str());
    std::abort();
  }
  const std::string dumped2 = dumpConfig(*config2);
  if (dumped2 != dumped) {
    std::fprintf(stderr, "dump differs after a round trip\n--- first ---\n%s--- second ---\n%s", dumped.c_str(),
                 dumped2.c_str());
    std::abort();
  }
  return 0;
}
