#include <catch2/catch.hpp>

#include "calibration_util.h"
#include "coalesce/verify/measurements.h"

using namespace coalesce::verify;

TEST_CASE("measurements: the H200 recording parses, with device, metrics and source lines") {
  const Measurements m = loadMeasurements(test::dataPath("calibration/measurements_calib_gld.json"));
  CHECK(m.ok());
  CHECK(m.device.name == "NVIDIA H200");
  CHECK(m.device.chip == "GH100");
  CHECK(m.device.sm == 90);
  CHECK(m.kernelLaunches == 80);
  CHECK(std::find(m.metricsCollected.begin(), m.metricsCollected.end(), metric::kSectors) !=
        m.metricsCollected.end());
  REQUIRE(m.instructions.size() > 500);
  size_t withLine = 0;
  for (const auto& in : m.instructions) withLine += in.line > 0 && in.file.find("calib_gld.cu") != std::string::npos;
  CHECK(withLine > m.instructions.size() / 2);
  // The stride-2 float load of gld_f32_s2_o0: 64 blocks x 8 warps, 8 sectors each.
  bool found = false;
  for (const auto& in : m.instructions)
    if (in.function == "gld_f32_s2_o0" && in.get(metric::kGlobalLd) > 0) {
      found = true;
      CHECK(in.get(metric::kGlobalLd) == 512);
      CHECK(in.get(metric::kSectors) == 4096);
      CHECK(in.get(metric::kSectorsIdeal) == 2048);
    }
  CHECK(found);
}

TEST_CASE("measurements: write then read gives the same document") {
  Measurements m;
  m.device = {"NVIDIA H200", "GH100", 90};
  m.metricsCollected = {metric::kInstExecuted, metric::kSectors};
  m.kernelLaunches = 3;
  m.notes = {"a note"};
  MeasuredInstruction in;
  in.moduleCrc = 42;
  in.function = "_Z4copyPKfPf";
  in.demangled = "copy(float const*, float*)";
  in.pc = 0x90;
  in.file = "/src/a.cu";
  in.line = 12;
  in.inlinedAt = {{"/src/k.cu", 30}};
  in.opcode = "LDG.E";
  in.metrics = {{metric::kInstExecuted, 512}, {metric::kSectors, 2048}};
  m.instructions = {in, in};
  m.instructions[1].pc = 0xa0;
  const Measurements back = measurementsFromJson(toJson(m));
  CHECK(back.device.chip == "GH100");
  CHECK(back.kernelLaunches == 3);
  CHECK(back.notes == m.notes);
  REQUIRE(back.instructions.size() == 2);
  CHECK(back.instructions[0].function == in.function);
  CHECK(back.instructions[0].inlinedAt == in.inlinedAt);
  CHECK(back.instructions[1].pc == 0xa0);
  CHECK(back.instructions[0].get(metric::kSectors) == 2048);
  CHECK(back.instructions[0].opcode == "LDG.E");
}

TEST_CASE("measurements: an error document keeps its kind and message") {
  Measurements m;
  m.status = "error";
  m.errorKind = ErrorKind::NoPermission;
  m.error = "no permission to read GPU performance counters (ERR_NVGPUCTRPERM, cuptiProfilerInitialize)";
  const Measurements back = measurementsFromJson(toJson(m));
  CHECK_FALSE(back.ok());
  CHECK(back.errorKind == ErrorKind::NoPermission);
  CHECK(back.error == m.error);
}

TEST_CASE("measurements: malformed input gives one-line errors") {
  CHECK_THROWS_WITH(measurementsFromJson("{"), Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(measurementsFromJson(R"({"schema":"other"})"), Catch::Contains("coalesce-verify-measurements/1"));
  CHECK_THROWS_WITH(measurementsFromJson(R"({"schema":"coalesce-verify-measurements/1","instructions":[{"pc":"x"}]})"),
                    Catch::Contains("unexpected field type"));
  CHECK_THROWS_WITH(loadMeasurements("/nonexistent/m.json"), Catch::Contains("cannot read"));
}

TEST_CASE("measurements: CUPTI failures are named by cause") {
  CHECK(errorKindForCuptiResult(35) == ErrorKind::NoPermission);  // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
  CHECK(errorKindForCuptiResult(40) == ErrorKind::NoPermission);
  CHECK(errorKindForCuptiResult(27) == ErrorKind::UnsupportedDevice);
  CHECK(errorKindForCuptiResult(2) == ErrorKind::UnsupportedDevice);
  CHECK(errorKindForCuptiResult(39) == ErrorKind::CuptiError);
  const std::string perm = cuptiFailureMessage(35, "cuptiProfilerInitialize", "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
  CHECK(perm.find("ERR_NVGPUCTRPERM") != std::string::npos);
  CHECK(perm.find("cuptiProfilerInitialize") != std::string::npos);
  CHECK(perm.find('\n') == std::string::npos);
  CHECK(cuptiFailureMessage(27, "cuptiSassMetricsSetConfig", "CUPTI_ERROR_NOT_SUPPORTED")
            .find("does not support CUPTI SASS metrics") != std::string::npos);
  CHECK(cuptiFailureMessage(1, "cuptiSubscribe", "CUPTI_ERROR_INVALID_PARAMETER") ==
        "cuptiSubscribe failed: CUPTI_ERROR_INVALID_PARAMETER");
}
