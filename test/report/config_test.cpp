// Settings: parsing, errors with suggestions, lookup upward, layering, dump round trip.
#include <catch2/catch.hpp>

#include "coalesce/report/config.h"
#include "report_test_util.h"
#include "temp_dir.h"

using namespace coalesce::report;
using coalesce::test::contains;
using coalesce::test::TempDir;

namespace {
std::string errorOf(const std::string& yaml) {
  auto r = parseConfig(yaml, ".coalesce-lint.yaml");
  REQUIRE_FALSE(r);
  return r.error().message;
}
}  // namespace

TEST_CASE("every key is read") {
  auto o = parseConfig(
      "Checks: '*,-scattered-indirect-access'\n"
      "WarningsAsErrors: 'aos-*'\n"
      "MinEfficiency: 0.6\n"
      "MaxConflictDegree: 2\n"
      "HeaderFilter: '^src/'\n"
      "SystemHeaders: true\n"
      "Exclude: ['vendor/*', 'gen/*']\n"
      "CheckOptions:\n"
      "  aos-field-access.Severity: error\n"
      "  shared-bank-conflict.MaxConflictDegree: 4\n",
      "cfg");
  REQUIRE(o);
  CHECK(*o->checks == "*,-scattered-indirect-access");
  CHECK(*o->warningsAsErrors == "aos-*");
  CHECK(*o->minEfficiency == 0.6);
  CHECK(*o->maxConflictDegree == 2);
  CHECK(*o->headerFilter == "^src/");
  CHECK(*o->systemHeaders);
  CHECK(*o->exclude == std::vector<std::string>{"vendor/*", "gen/*"});
  CHECK(o->checkOptions.at("aos-field-access.Severity") == "error");
  CHECK(o->checkOptions.at("shared-bank-conflict.MaxConflictDegree") == "4");
}

TEST_CASE("clang-tidy's list form of CheckOptions is read too, an empty file sets nothing") {
  auto o = parseConfig("CheckOptions:\n  - key: aos-field-access.MinEfficiency\n    value: 0.5\n", "cfg");
  REQUIRE(o);
  CHECK(o->checkOptions.at("aos-field-access.MinEfficiency") == "0.5");
  auto empty = parseConfig("", "cfg");
  REQUIRE(empty);
  CHECK(empty->empty());
}

TEST_CASE("an unknown key is an error at its position with the closest key") {
  CHECK(errorOf("Checks: '*'\nMinEfficency: 0.5\n") ==
        ".coalesce-lint.yaml:2:1: unknown key 'MinEfficency'; did you mean 'MinEfficiency'?");
  CHECK(errorOf("Colour: red\n") == ".coalesce-lint.yaml:1:1: unknown key 'Colour'");
}

TEST_CASE("an unknown rule or option is an error with the closest name") {
  CHECK(contains(errorOf("CheckOptions:\n  uncoalesced-global-acess.MinEfficiency: 0.5\n"),
                 "unknown rule 'uncoalesced-global-acess' in option 'uncoalesced-global-acess.MinEfficiency'; did "
                 "you mean 'uncoalesced-global-access'?"));
  CHECK(contains(errorOf("CheckOptions:\n  shared-bank-conflict.MaxConflictDegre: 2\n"),
                 "unknown option 'MaxConflictDegre' of rule 'shared-bank-conflict'; did you mean 'MaxConflictDegree'?"));
  CHECK(contains(errorOf("Checks: '*,-aos-field-acces'\n"),
                 ":1:9: unknown rule 'aos-field-acces' in Checks; did you mean 'aos-field-access'?"));
  CHECK(contains(errorOf("WarningsAsErrors: 'shared-bank-conflct'\n"), "did you mean 'shared-bank-conflict'?"));
  CHECK(contains(errorOf("CheckOptions:\n  MinEfficiency: 0.5\n"), "must be written '<rule-id>.<Option>'"));
}

TEST_CASE("values out of range or of the wrong kind are errors") {
  CHECK(contains(errorOf("MinEfficiency: 1.5\n"), "MinEfficiency must be between 0 and 1"));
  CHECK(contains(errorOf("MinEfficiency: high\n"), "MinEfficiency must be a number, not 'high'"));
  CHECK(contains(errorOf("MaxConflictDegree: 0.5\n"), "MaxConflictDegree must be 1 or more"));
  CHECK(contains(errorOf("CheckOptions:\n  shared-bank-conflict.NoteUpToDegree: 0.5\n"),
                 "NoteUpToDegree must be 1 or more"));
  CHECK(contains(errorOf("CheckOptions:\n  aos-field-access.Severity: warn\n"),
                 "must be note, warning or error, not 'warn'; did you mean 'warning'?"));
  CHECK(contains(errorOf("HeaderFilter: '(src'\n"), "is not a valid regular expression"));
  CHECK(contains(errorOf("SystemHeaders: maybe\n"), "SystemHeaders must be true or false"));
  CHECK(contains(errorOf("- just\n- a list\n"), "expected a mapping of settings"));
  CHECK(contains(errorOf("Checks: [unclosed\n"), ".coalesce-lint.yaml:"));
}

TEST_CASE("the nearest .coalesce-lint.yaml above a file applies") {
  TempDir dir;
  const std::string top = dir.write(".coalesce-lint.yaml", "MinEfficiency: 0.5\n");
  const std::string source = dir.write("a/b/k.cu", "");
  CHECK(findConfigFile(source) == top);
  CHECK(findConfigFile(dir.str("a")) == top);
  const std::string nearer = dir.write("a/.coalesce-lint.yaml", "MinEfficiency: 0.3\n");
  CHECK(findConfigFile(source) == nearer);

  ConfigProvider provider;
  auto c = provider.configFor(source);
  REQUIRE(c);
  CHECK((*c)->minEfficiency("uncoalesced-global-access") == 0.3);
  CHECK(contains((*c)->source(), nearer));
}

TEST_CASE("an explicit file replaces the lookup, command-line values win over files") {
  TempDir dir;
  dir.write(".coalesce-lint.yaml", "MinEfficiency: 0.5\n");
  const std::string source = dir.write("k.cu", "");
  const std::string explicitFile = dir.write("ci.yaml", "MinEfficiency: 0.7\nMaxConflictDegree: 3\n");
  ConfigProvider explicitProvider(explicitFile);
  CHECK((*explicitProvider.configFor(source))->minEfficiency("uncoalesced-global-access") == 0.7);

  Options cli;
  cli.minEfficiency = 0.9;
  ConfigProvider layered(explicitFile, cli);
  const Config& c = **layered.configFor(source);
  CHECK(c.minEfficiency("uncoalesced-global-access") == 0.9);
  CHECK(c.maxConflictDegree("shared-bank-conflict") == 3);
  CHECK(c.source() == "defaults < " + explicitFile + " < command line");
}

TEST_CASE("a broken configuration file is reported for every file it governs") {
  TempDir dir;
  dir.write(".coalesce-lint.yaml", "MinEfficency: 0.5\n");
  ConfigProvider provider;
  auto c = provider.configFor(dir.write("k.cu", ""));
  REQUIRE_FALSE(c);
  CHECK(contains(c.error().message, "did you mean 'MinEfficiency'?"));
  CHECK_FALSE(provider.configFor(dir.write("l.cu", "")));
}

TEST_CASE("invalid command-line values are errors with suggestions too") {
  Options cli;
  cli.checks = "-uncoalesced-global-acess";
  auto c = Config::resolve(cli, "defaults < command line");
  REQUIRE_FALSE(c);
  CHECK(c.error().message ==
        "invalid settings (defaults < command line): unknown rule 'uncoalesced-global-acess' in Checks; did you "
        "mean 'uncoalesced-global-access'?");
}

TEST_CASE("per-rule values win over the global one, a rule's own default over the global default") {
  Options o;
  o.minEfficiency = 0.7;
  o.checkOptions["aos-field-access.MinEfficiency"] = "0.3";
  o.checkOptions["aos-field-access.Severity"] = "error";
  const Config c = *Config::resolve(o, "test");
  CHECK(c.minEfficiency("aos-field-access") == 0.3);
  CHECK(c.minEfficiency("uncoalesced-global-access") == 0.7);
  CHECK(c.minEfficiency("misaligned-global-access") == 0.95);
  CHECK(c.severity("aos-field-access") == Severity::Error);
  CHECK(c.severity("uncoalesced-global-access") == Severity::Warning);
  const Config d = Config::defaults();
  CHECK(d.minEfficiency("uncoalesced-global-access") == 0.8);
  CHECK(d.maxConflictDegree("shared-bank-conflict") == 1);
  CHECK(d.enabled("scattered-indirect-access"));
  CHECK_FALSE(d.warningAsError("aos-field-access"));
}

TEST_CASE("the dump prints every setting and reads back to the same settings") {
  Options o;
  o.checks = "*,-scattered-indirect-access";
  o.exclude = std::vector<std::string>{"it's/*"};
  o.checkOptions["shared-bank-conflict.MaxConflictDegree"] = "2";
  const Config c = *Config::resolve(o, "test");
  const std::string dump = dumpConfig(c);
  CHECK(contains(dump, "Checks: '*,-scattered-indirect-access'\n"));
  CHECK(contains(dump, "MinEfficiency: 0.8\n"));
  CHECK(contains(dump, "  - 'it''s/*'\n"));
  CHECK(contains(dump, "  misaligned-global-access.MinEfficiency: 0.95\n"));
  CHECK(contains(dump, "  shared-bank-conflict.MaxConflictDegree: 2\n"));
  CHECK(contains(dump, "  shared-bank-conflict.NoteUpToDegree: 2\n"));
  CHECK(contains(dump, "  aos-field-access.Severity: note\n"));
  CHECK(contains(dump, "  uncoalesced-global-access.Severity: warning\n"));
  auto reread = parseConfig(dump, "dump");
  REQUIRE(reread);
  auto again = Config::resolve(*reread, "test");
  REQUIRE(again);
  CHECK(dumpConfig(*again) == dump);
  CHECK_FALSE(again->enabled("scattered-indirect-access"));
}
