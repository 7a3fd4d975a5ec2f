// coalesce-lint with only the `verify` subcommand: the build without the analyzer
// (COALESCE_BUILD_ANALYZER=OFF), for the GPU machine, which has CUDA but no LLVM.
#include <CLI/CLI.hpp>

#include "coalesce/verify/compare.h"
#include "verify_command.h"

int main(int argc, char** argv) {
  CLI::App app{"coalesce-lint (verifier only): confirms coalescing predictions against GPU counters"};
  app.require_subcommand(1);
  int exitCode = 0;
  coalesce::cli::addVerifyCommand(app, exitCode);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : coalesce::verify::kExitError;
  }
  return exitCode;
}
