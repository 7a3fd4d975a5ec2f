// ptxas's resource usage read from cuobjdump's listing, and carried in the measurements JSON.
#include <catch2/catch.hpp>

#include "coalesce/verify/measurements.h"
#include "coalesce/verify/resource_usage.h"

using namespace coalesce::verify;

namespace {

// The shape of `cuobjdump --dump-resource-usage` (CUDA 12 and 13) on a two-kernel program.
const char* kListing =
    "\n"
    "Fatbin elf code:\n"
    "================\n"
    "arch = sm_90\n"
    "code version = [1,8]\n"
    "host = linux\n"
    "compile_size = 64bit\n"
    "\n"
    "Resource usage:\n"
    " Common:\n"
    "  GLOBAL:0\n"
    " Function _Z10matmulTiledPKfS0_Pfi:\n"
    "  REG:38 STACK:0 SHARED:2048 LOCAL:0 CONSTANT[0]:556 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
    " Function _Z11matmulNaivePKfS0_Pfi:\n"
    "  REG:32 STACK:8 SHARED:0 LOCAL:16 CONSTANT[0]:556 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
    " Function _Z9noResourcev:\n";

}  // namespace

TEST_CASE("resource usage: registers, shared, stack and local memory per kernel") {
  const auto r = parseResourceUsage(kListing);
  REQUIRE(r.size() == 2);
  CHECK(r[0].kernel == "_Z10matmulTiledPKfS0_Pfi");
  CHECK(r[0].registers == 38);
  CHECK(r[0].sharedBytes == 2048);
  CHECK(r[1].kernel == "_Z11matmulNaivePKfS0_Pfi");
  CHECK(r[1].registers == 32);
  CHECK(r[1].stackBytes == 8);
  CHECK(r[1].localBytes == 16);
  CHECK(parseResourceUsage("").empty());
  CHECK(parseResourceUsage("REG:12 before any function\n").empty());
}

TEST_CASE("resource usage: merged once per kernel, and round-tripped through the measurements JSON") {
  std::vector<KernelResources> all = parseResourceUsage(kListing);
  mergeResources(all, parseResourceUsage(kListing));
  CHECK(all.size() == 2);
  Measurements m;
  m.kernelResources = all;
  const Measurements back = measurementsFromJson(toJson(m));
  CHECK(back.kernelResources == all);
  // Measurements without them keep their exact text (recorded files stay byte-identical).
  CHECK(toJson(Measurements{}).find("kernel_resources") == std::string::npos);
}
