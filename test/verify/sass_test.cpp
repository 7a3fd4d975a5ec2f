#include <catch2/catch.hpp>

#include "coalesce/verify/sass.h"

using namespace coalesce;
using namespace coalesce::verify;

TEST_CASE("sass: cuobjdump listing gives the opcode per function and PC") {
  const std::string text = R"SASS(
	code for sm_90
		Function : gatom_f32_s1_noret
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                                            /* 0x00000a00ff017b82 */
                                                                                                     /* 0x000fe40000000800 */
        /*0080*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R7 ;           /* 0x00000007020079a6 */
		Function : gld_f32_pred_t_lt_16
        /*00a0*/              @!P0 LDG.E R7, desc[UR4][R2.64] ;                                      /* 0x0000000402078981 */
        /*00e0*/                   STG.E.64 desc[UR4][R4.64], R6 ;
)SASS";
  const SassListing l = parseSassListing(text);
  REQUIRE(l.size() == 4);
  CHECK(l.at({"gatom_f32_s1_noret", 0}).opcode == "LDC");
  CHECK(l.at({"gatom_f32_s1_noret", 0x80}).opcode == "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU");
  CHECK(l.at({"gld_f32_pred_t_lt_16", 0xa0}).opcode == "LDG.E");  // predicate dropped
  CHECK(l.at({"gld_f32_pred_t_lt_16", 0xe0}).opcode == "STG.E.64");
  CHECK(l.at({"gld_f32_pred_t_lt_16", 0xa0}).location.empty());
}

TEST_CASE("sass: nvdisasm -gi listing gives the inline chain, innermost first") {
  const std::string text = R"SASS(
	.text.helperUnit:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/w/verify_demo.cu", line 57 inlined at "/w/verify_demo.cu", line 62
	//## File "/w/verify_demo.cu", line 62
        /*0080*/                   LDG.E R3, desc[UR4][R2.64] ;
        /*0090*/                   IMAD R0, R3, 2, RZ ;
	//## File "/w/verify_demo.cu", line 62
        /*00a0*/                   STG.E desc[UR4][R4.64], R3 ;
	.text.other:
        /*0000*/                   EXIT ;
)SASS";
  const SassListing l = parseSassListing(text);
  const SassInstruction& ld = l.at({"helperUnit", 0x80});
  CHECK(ld.opcode == "LDG.E");
  REQUIRE(ld.location.size() == 2);
  CHECK(ld.location[0] == std::pair<std::string, unsigned>{"/w/verify_demo.cu", 57});
  CHECK(ld.location[1] == std::pair<std::string, unsigned>{"/w/verify_demo.cu", 62});
  CHECK(l.at({"helperUnit", 0x90}).location.size() == 2);  // the block applies until the next one
  REQUIRE(l.at({"helperUnit", 0xa0}).location.size() == 1);
  CHECK(l.at({"helperUnit", 0xa0}).location[0].second == 62);
  CHECK(l.at({"other", 0}).location.empty());  // a new function starts without a location
}

TEST_CASE("sass: opcodes classify into space, kind and width") {
  auto c = [](const char* op) { return classifyOpcode(op); };
  REQUIRE(c("LDG.E"));
  CHECK(c("LDG.E")->space == model::Space::Global);
  CHECK(c("LDG.E")->kind == model::AccessKind::Load);
  CHECK(c("LDG.E")->bytes == 4);
  CHECK(c("LDG.E.U8")->bytes == 1);
  CHECK(c("STG.E.U16")->bytes == 2);
  CHECK(c("LDG.E.64.CONSTANT")->bytes == 8);
  CHECK(c("LDG.E.128")->bytes == 16);
  CHECK(c("STG.E.128")->kind == model::AccessKind::Store);
  CHECK(c("REDG.E.ADD.F32.FTZ.RN.STRONG.GPU")->kind == model::AccessKind::Atomic);
  CHECK(c("ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU")->space == model::Space::Global);
  CHECK(c("LDS.64")->space == model::Space::Shared);
  CHECK(c("LDS.64")->bytes == 8);
  CHECK(c("STS.128")->kind == model::AccessKind::Store);
  CHECK(c("ATOMS.ADD")->kind == model::AccessKind::Atomic);
  CHECK_FALSE(c("LDC.64"));
  CHECK_FALSE(c("LDL"));
  CHECK_FALSE(c("FFMA"));
}

TEST_CASE("sass: attaching a listing fills opcodes, inline chains and missing lines") {
  Measurements m;
  MeasuredInstruction a, b, c;
  a.function = b.function = c.function = "helperUnit";
  a.pc = 0x80;
  a.file = "/w/verify_demo.cu";
  a.line = 57;
  b.pc = 0xa0;  // CUPTI gave no line: the listing's is used
  c.pc = 0x400;  // not in the listing
  m.instructions = {a, b, c};
  SassListing l;
  l[{"helperUnit", 0x80}] = {"LDG.E", {{"/w/verify_demo.cu", 57}, {"/w/verify_demo.cu", 62}}};
  l[{"helperUnit", 0xa0}] = {"STG.E", {{"/w/verify_demo.cu", 62}}};
  CHECK(attachSass(m, l) == 2);
  CHECK(m.instructions[0].opcode == "LDG.E");
  REQUIRE(m.instructions[0].inlinedAt.size() == 1);
  CHECK(m.instructions[0].inlinedAt[0].second == 62);
  CHECK(m.instructions[1].line == 62);
  CHECK(m.instructions[1].inlinedAt.empty());
  CHECK(m.instructions[2].opcode.empty());
}
