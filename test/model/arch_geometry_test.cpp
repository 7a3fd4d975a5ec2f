#include <catch2/catch.hpp>

#include "coalesce/model/arch.h"
#include "coalesce/model/geometry.h"

using namespace coalesce::model;

TEST_CASE("architectures sm_70 to sm_90 are described and parsed") {
  for (int sm : {70, 75, 80, 86, 89, 90}) {
    auto a = archForSm(sm);
    REQUIRE(a);
    CHECK(a->warpSize == 32);
    CHECK(a->sectorBytes == 32);
    CHECK(a->sharedBanks == 32);
    CHECK(a->bankWidthBytes == 4);
  }
  CHECK_FALSE(archForSm(60));
  CHECK(parseArch("sm_90a")->sm == 90);
  CHECK(parseArch("compute_80")->sm == 80);
  CHECK(parseArch("86")->sm == 86);
  CHECK_FALSE(parseArch("sm_x"));
  CHECK(defaultArch().name() == "sm_90");
}

TEST_CASE("shared-memory phases: whole warp up to 32 bits, half-warps for 64, quarter-warps for 128") {
  const Arch& a = defaultArch();
  CHECK(a.sharedPhaseLanes(1) == 32);
  CHECK(a.sharedPhaseLanes(4) == 32);
  CHECK(a.sharedPhaseLanes(8) == 16);
  CHECK(a.sharedPhaseLanes(16) == 8);
  // Single-address phases pair up: 2 half-warps (64-bit), 2 quarter-warps (128-bit).
  CHECK(a.sharedBroadcastPhases(4) == 1);
  CHECK(a.sharedBroadcastPhases(8) == 2);
  CHECK(a.sharedBroadcastPhases(16) == 2);
}

TEST_CASE("warp geometry: x fastest, small and multi-dimensional blocks, partial warps") {
  const Arch& a = defaultArch();
  SECTION("1D block of 256") {
    CHECK(warpCount({256, 1, 1}, a) == 8);
    auto w1 = warpThreads({256, 1, 1}, 1, a);
    REQUIRE(w1.size() == 32);
    CHECK(w1.front() == ThreadIdx{32, 0, 0});
    CHECK(w1.back() == ThreadIdx{63, 0, 0});
  }
  SECTION("blockDim.x = 16: one warp spans two rows") {
    auto w0 = warpThreads({16, 16, 1}, 0, a);
    REQUIRE(w0.size() == 32);
    CHECK(w0[15] == ThreadIdx{15, 0, 0});
    CHECK(w0[16] == ThreadIdx{0, 1, 0});
  }
  SECTION("3D block 8x2x4") {
    auto w0 = warpThreads({8, 2, 4}, 0, a);
    REQUIRE(w0.size() == 32);
    CHECK(w0[8] == ThreadIdx{0, 1, 0});
    CHECK(w0[16] == ThreadIdx{0, 0, 1});
    CHECK(w0[31] == ThreadIdx{7, 1, 1});
  }
  SECTION("partial last warp") {
    CHECK(warpCount({100, 1, 1}, a) == 4);
    CHECK(warpThreads({100, 1, 1}, 3, a).size() == 4);
  }
}
