// Which siblings are the program's (lib/analysis/src/sibling_text.h): a sibling the file's own
// parse included is not read again (Rodinia's myocyte: main.cu includes work.cu, which includes
// kernel.cu and seven more; analysed alone, main.cu parsed every one of them a second time).
#include <catch2/catch.hpp>

#include "sibling_text.h"
#include "temp_dir.h"

using namespace coalesce;

TEST_CASE("sibling text: a sibling the file includes is not read again, the others are") {
  test::TempDir dir;
  dir.write("main.cu", "#include \"kernels.cu\"\nint main() { scaleAll(0); return 0; }\n");
  dir.write("kernels.cu", "__global__ void scaleK(float* p) { p[threadIdx.x] = 0; }\nvoid scaleAll(float* p) {}\n");
  dir.write("util.c", "int helper(int x) { return x + 1; }\n");

  analysis::SiblingCheck check;
  check.asked = true;
  check.file = dir.str("main.cu");
  check.fileDefinesMain = true;
  analysis::SiblingTexts texts;
  texts.choose(check);
  CHECK(check.oneProgram);
  CHECK(check.read == std::vector<std::string>{dir.str("kernels.cu"), dir.str("util.c")});

  // The file's parse read kernels.cu (as SiblingCheck::included names it: absolute, normal).
  check.included = {dir.str("kernels.cu")};
  texts.choose(check);
  CHECK(check.read == std::vector<std::string>{dir.str("util.c")});
  CHECK(analysis::SiblingTexts().holds(check));
  // A choice made without the include is not the folder's any more.
  analysis::SiblingCheck without = check;
  without.read = {dir.str("kernels.cu"), dir.str("util.c")};
  CHECK_FALSE(analysis::SiblingTexts().holds(without));
}
