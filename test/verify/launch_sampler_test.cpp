// The collector's launch selection (coalesce/verify/launch_sampler.h), without a GPU.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <stdexcept>

#include "coalesce/verify/launch_sampler.h"
#include "coalesce/verify/measurements.h"

using namespace coalesce::verify;

namespace {
LaunchConfig launch(const std::string& kernel, uint32_t gridX, const std::string& args = "") {
  LaunchConfig c;
  c.kernel = kernel;
  c.grid = {gridX, 1, 1};
  c.block = {256, 1, 1};
  c.args = args;
  return c;
}
}  // namespace

TEST_CASE("sampler: the first launch of each distinct configuration is measured, repeats are not") {
  LaunchSampler s{SamplingOptions{}};
  CHECK(s.onLaunch(launch("_Z1kPf", 64, "00"), ""));
  CHECK_FALSE(s.onLaunch(launch("_Z1kPf", 64, "00"), ""));
  CHECK_FALSE(s.onLaunch(launch("_Z1kPf", 64, "00"), ""));
  CHECK(s.onLaunch(launch("_Z1kPf", 128, "00"), ""));  // another grid
  CHECK(s.onLaunch(launch("_Z1kPf", 64, "01"), ""));   // another argument
  CHECK(s.onLaunch(launch("_Z1gPf", 64, "00"), ""));   // another kernel
  CHECK(s.measured() == 4);
  CHECK(s.unmeasured() == 2);
  REQUIRE(s.configs().size() == 4);
  CHECK(s.configs()[0].launches == 3);
  CHECK(s.configs()[0].measured);
}

TEST_CASE("sampler: all measures every launch, up to the per-kernel count") {
  SamplingOptions o;
  o.mode = SamplingMode::All;
  o.launchCount = 2;
  LaunchSampler s{o};
  CHECK(s.onLaunch(launch("k", 1), ""));
  CHECK(s.onLaunch(launch("k", 1), ""));
  CHECK_FALSE(s.onLaunch(launch("k", 1), ""));
  CHECK(s.onLaunch(launch("g", 1), ""));
}

TEST_CASE("sampler: skip leaves the first launches of each kernel unmeasured") {
  SamplingOptions o;
  o.launchSkip = 2;
  LaunchSampler s{o};
  CHECK_FALSE(s.onLaunch(launch("k", 1), ""));
  CHECK_FALSE(s.onLaunch(launch("k", 2), ""));
  CHECK(s.onLaunch(launch("k", 1), ""));  // third launch: its configuration was not measured yet
  CHECK_FALSE(s.onLaunch(launch("k", 1), ""));
}

TEST_CASE("sampler: the kernel regex matches the mangled or the demangled name") {
  SamplingOptions o;
  o.kernelRegex = "^transpose";
  LaunchSampler s{o};
  CHECK(s.onLaunch(launch("_Z13transposeFastPfS_", 1), "transposeFast(float*, float*)"));
  CHECK_FALSE(s.onLaunch(launch("_Z4copyPfS_", 1), "copy(float*, float*)"));
}

TEST_CASE("sampler: by default every distinct configuration is measured once, however many there are") {
  // Rodinia gaussian's Fan2 takes the pivot row as an argument: a new configuration at every launch.
  LaunchSampler s{SamplingOptions{}};
  int measured = 0;
  for (int t = 0; t < 1500; ++t) measured += s.onLaunch(launch("fan", 1, std::to_string(t)), "") ? 1 : 0;
  for (int t = 0; t < 1500; ++t) measured += s.onLaunch(launch("fan", 1, std::to_string(t)), "") ? 1 : 0;
  CHECK(measured == 1500);
  CHECK(s.unmeasured() == 1500);
  CHECK(s.configs().size() == 1500);
  CHECK(s.configsOverCap() == 0);
}

TEST_CASE("sampler: --max-configs caps the configurations measured per kernel and counts the rest") {
  SamplingOptions o;
  o.maxConfigsPerKernel = 3;
  LaunchSampler s{o};
  int measured = 0;
  for (int t = 0; t < 200; ++t) measured += s.onLaunch(launch("fan", 1, std::to_string(t)), "") ? 1 : 0;
  for (int t = 0; t < 10; ++t) measured += s.onLaunch(launch("fan", 1, std::to_string(t)), "") ? 1 : 0;
  CHECK(measured == 3);
  CHECK(s.unmeasured() == 207);
  CHECK(s.configsOverCap() == 197);  // distinct configurations, not launches
  CHECK(s.configs().size() == 200);  // each listed, with measured = false
  CHECK_FALSE(s.configs()[3].measured);
  CHECK(s.onLaunch(launch("other", 1, "0"), ""));  // the cap is per kernel
}

TEST_CASE("sampler: configurations past the list's cap run unmeasured and are counted once each") {
  SamplingOptions o;
  o.maxConfigsKept = 4;
  LaunchSampler s{o};
  int measured = 0;
  for (int round = 0; round < 2; ++round)
    for (int t = 0; t < 10; ++t) measured += s.onLaunch(launch("fan", 1, std::to_string(t)), "") ? 1 : 0;
  CHECK(measured == 4);
  CHECK(s.configs().size() == 4);
  CHECK(s.configsOverCap() == 6);
}

TEST_CASE("sampler: first measures the first launch of each kernel, as Nsight Compute's --kernel-id ::regex:.:1") {
  SamplingOptions o;
  o.mode = SamplingMode::First;
  LaunchSampler s{o};
  CHECK(s.onLaunch(launch("k", 1, "00"), ""));
  CHECK_FALSE(s.onLaunch(launch("k", 2, "01"), ""));  // another configuration of k: not measured
  CHECK_FALSE(s.onLaunch(launch("k", 1, "00"), ""));
  CHECK(s.onLaunch(launch("g", 1), ""));
  CHECK(s.measured() == 2);
  CHECK(s.configsOverCap() == 0);
  REQUIRE(s.configs().size() == 3);
  CHECK_FALSE(s.configs()[1].measured);
  // With a skip: the first launch after it.
  o.launchSkip = 1;
  LaunchSampler skipping{o};
  CHECK_FALSE(skipping.onLaunch(launch("k", 1), ""));
  CHECK(skipping.onLaunch(launch("k", 1), ""));
  CHECK_FALSE(skipping.onLaunch(launch("k", 3), ""));
}

TEST_CASE("sampler: options from the environment, and a bad value is refused") {
  ::setenv("COALESCE_VERIFY_SAMPLING", "all", 1);
  ::setenv("COALESCE_VERIFY_LAUNCH_COUNT", "5", 1);
  SamplingOptions o = SamplingOptions::fromEnvironment();
  CHECK(o.mode == SamplingMode::All);
  CHECK(o.launchCount == 5);
  CHECK(o.maxConfigsPerKernel == 0);  // no cap unless asked
  ::setenv("COALESCE_VERIFY_SAMPLING", "first", 1);
  CHECK(SamplingOptions::fromEnvironment().mode == SamplingMode::First);
  ::setenv("COALESCE_VERIFY_LAUNCH_COUNT", "five", 1);
  CHECK_THROWS_AS(SamplingOptions::fromEnvironment(), std::invalid_argument);
  ::setenv("COALESCE_VERIFY_SAMPLING", "every", 1);
  ::unsetenv("COALESCE_VERIFY_LAUNCH_COUNT");
  CHECK_THROWS_AS(SamplingOptions::fromEnvironment(), std::invalid_argument);
  ::unsetenv("COALESCE_VERIFY_SAMPLING");
}

TEST_CASE("measurements: launch configurations survive the JSON round trip") {
  Measurements m;
  m.sampling = "config";
  m.kernelLaunches = 10;
  m.launchesMeasured = 2;
  m.configsOverCap = 7;
  LaunchConfig c = launch("k", 8, "deadbeef");
  c.argSizes = {4};
  c.launches = 9;
  c.measured = true;
  m.launchConfigs = {c};
  const Measurements back = measurementsFromJson(toJson(m));
  CHECK(back.sampling == "config");
  CHECK(back.launchesMeasured == 2);
  CHECK(back.configsOverCap == 7);
  REQUIRE(back.launchConfigs.size() == 1);
  CHECK(back.launchConfigs[0] == c);
}

TEST_CASE("sampler: each launch says which configuration it is, for the counters kept per configuration") {
  LaunchSampler s{SamplingOptions{}};
  s.onLaunch(launch("_Z1kPf", 64), "");
  CHECK(s.lastConfigIndex() == std::optional<size_t>{0});
  s.onLaunch(launch("_Z1kPf", 128), "");
  CHECK(s.lastConfigIndex() == std::optional<size_t>{1});
  s.onLaunch(launch("_Z1kPf", 64), "");
  CHECK(s.lastConfigIndex() == std::optional<size_t>{0});
  s.record(launch("_Z1gPf", 8), true);
  CHECK(s.lastConfigIndex() == std::optional<size_t>{2});
  // Past the per-kernel list's cap a configuration has no index.
  SamplingOptions o;
  o.maxConfigsKept = 64;
  LaunchSampler capped{o};
  for (uint32_t g = 1000; g < 1100; ++g) capped.onLaunch(launch("_Z1hPf", g), "");
  CHECK_FALSE(capped.lastConfigIndex().has_value());
}

namespace {
Measurements twoConfigurations() {
  Measurements m;
  m.sampling = "config";
  LaunchConfig a = launch("_Z1kPf", 8), b = launch("_Z1kPf", 16), g = launch("_Z1gPf", 8);
  a.measured = b.measured = g.measured = true;
  m.launchConfigs = {a, b, g};
  for (const char* f : {"_Z1kPf", "_Z1gPf"}) {
    MeasuredInstruction in;
    in.function = f;
    in.pc = 16;
    in.file = "k.cu";
    in.line = 3;
    in.metrics = {{metric::kGlobalLd, 30}, {metric::kSectors, 150}};
    m.instructions.push_back(in);
  }
  m.configCounters = {{0, 0, {{metric::kGlobalLd, 10}, {metric::kSectors, 10}}},
                      {1, 0, {{metric::kGlobalLd, 20}, {metric::kSectors, 140}}}};
  return m;
}
}  // namespace

TEST_CASE("measurements: counters per configuration survive the JSON round trip and give one view each") {
  const Measurements m = twoConfigurations();
  const Measurements back = measurementsFromJson(toJson(m));
  CHECK(back.configCounters == m.configCounters);
  CHECK(kernelsMeasuredPerConfiguration(back) == std::vector<std::string>{"_Z1kPf"});
  const Measurements second = configurationView(back, 1);
  REQUIRE(second.instructions.size() == 1);
  CHECK(second.instructions[0].function == "_Z1kPf");
  CHECK(second.instructions[0].get(metric::kSectors) == 140);
  REQUIRE(second.launchConfigs.size() == 1);
  CHECK(second.launchConfigs[0].grid[0] == 16);
  // Without config_counters the document is written as before (no new field).
  Measurements pooled = m;
  pooled.configCounters.clear();
  CHECK(toJson(pooled).find("config_counters") == std::string::npos);
  // An index past the lists is refused, naming the field.
  std::string text = toJson(m);
  text.replace(text.find("\"config\":1"), 10, "\"config\":7");
  CHECK_THROWS_WITH(measurementsFromJson(text), Catch::Contains("config_counters"));
}

TEST_CASE("measurements: two programs side by side keep their counters per configuration") {
  Measurements a = twoConfigurations();
  appendMeasurements(a, twoConfigurations());
  REQUIRE(a.configCounters.size() == 4);
  CHECK(a.configCounters[2].config == 3);
  CHECK(a.configCounters[2].instruction == 2);
  CHECK(configurationView(a, 4).instructions.at(0).get(metric::kSectors) == 140);
}

TEST_CASE("measurements: a copy without instructions keeps every other field") {
  Measurements m = twoConfigurations();
  m.kernelLaunches = 12;
  m.launchesMeasured = 3;
  m.configsOverCap = 2;
  m.processes = 2;
  m.notes = {"a note"};
  m.kernelResources = {{"_Z1kPf", 32, 1024, 0, 0}};
  Measurements expected = m;
  expected.instructions.clear();
  expected.configCounters.clear();
  const Measurements copy = withoutInstructions(m);
  CHECK(copy.instructions.empty());
  CHECK(copy.configCounters.empty());
  CHECK(toJson(copy) == toJson(expected));
  // The index of counters per configuration gives the same view as the scan.
  const auto index = countersByConfiguration(m);
  REQUIRE(index.size() == 3);
  CHECK(index[1] == std::vector<size_t>{1});
  CHECK(index[2].empty());
  CHECK(toJson(configurationView(m, 1, index[1])) == toJson(configurationView(m, 1)));
}
