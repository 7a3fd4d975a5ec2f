// Which siblings are the program's (lib/analysis/src/sibling_text.h): a sibling the file's own
// parse included, or that another chosen sibling includes, is not read again (Rodinia's
// myocyte: main.cu includes work.cu, which includes kernel.cu and seven more; analysed alone,
// main.cu parsed every one of them a second time).
#include <catch2/catch.hpp>

#include "sibling_text.h"
#include "temp_dir.h"

using namespace coalesce;

namespace {

// The question the analysis of `file` asks of its folder (sibling_files.cpp).
analysis::SiblingCheck askedBy(const std::string& file, bool definesMain) {
  analysis::SiblingCheck check;
  check.asked = true;
  check.file = file;
  check.fileDefinesMain = definesMain;
  return check;
}

}  // namespace

TEST_CASE("sibling text: a sibling the file includes is not read again, the others are") {
  test::TempDir dir;
  dir.write("main.cu", "#include \"kernels.cu\"\nint main() { scaleAll(0); return 0; }\n");
  dir.write("kernels.cu", "__global__ void scaleK(float* p) { p[threadIdx.x] = 0; }\nvoid scaleAll(float* p) {}\n");
  dir.write("util.c", "int helper(int x) { return x + 1; }\n");

  analysis::SiblingCheck check = askedBy(dir.str("main.cu"), true);
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

TEST_CASE("sibling text: a sibling another sibling includes is read through that one") {
  test::TempDir dir;
  // myocyte's shape: main.cu includes work.cu, which includes the kernels' files.
  dir.write("main.cu", "#include \"work.cu\"\nint main() { run(); return 0; }\n");
  dir.write("work.cu", "#include \"k1.cu\"\n  # include \"k2.cu\"\n#include <cstdio>\nvoid run() {}\n");
  dir.write("k1.cu", "__global__ void k1(float* p) { p[threadIdx.x] = 0; }\n");
  dir.write("k2.cu", "__global__ void k2(float* p) { p[threadIdx.x] = 1; }\n");
  dir.write("util.c", "int helper(int x) { return x + 1; }\n");
  // Two files that include each other and that nothing else includes both stay.
  dir.write("ping.cu", "#include \"pong.cu\"\n");
  dir.write("pong.cu", "#include \"ping.cu\"\n");

  analysis::SiblingCheck check = askedBy(dir.str("k1.cu"), false);
  analysis::SiblingTexts texts;
  texts.choose(check);
  CHECK(check.oneProgram);
  CHECK(check.read == std::vector<std::string>{dir.str("main.cu"), dir.str("ping.cu"), dir.str("pong.cu"), dir.str("util.c")});
  CHECK(analysis::SiblingTexts().holds(check));

  // work.cu stops including k2.cu: k2.cu is read on its own again, and the earlier choice
  // no longer holds (a cached result that rests on it is not reused).
  dir.write("work.cu", "#include \"k1.cu\"\nvoid run() {}\n");
  CHECK_FALSE(analysis::SiblingTexts().holds(check));
  analysis::SiblingTexts fresh;
  fresh.choose(check);
  CHECK(check.read == std::vector<std::string>{dir.str("k2.cu"), dir.str("main.cu"), dir.str("ping.cu"), dir.str("pong.cu"),
                                               dir.str("util.c")});
}

TEST_CASE("sibling text: the quoted includes of a text") {
  CHECK(analysis::quotedIncludes("#include \"a.cu\"\n  #  include \"sub/b.h\" // x\n#include <c.h>\n// #include \"d.cu\"\n") ==
        std::vector<std::string>{"a.cu", "sub/b.h"});
}

// Before a file is parsed, the header PCH's decision counts the .cu siblings its analysis is
// likely to parse with its flags (analyze.cpp, HeaderCache): what the file includes, directly
// or through what it includes, is read by its own parse; C and C++ siblings are parsed with
// host flags; a folder of several programs reads none.
TEST_CASE("sibling text: the .cu siblings a lone file's analysis is likely to parse, from the texts") {
  test::TempDir dir;
  dir.write("main.cu", "int main() { return 0; }\n");
  dir.write("sort.cu", "#include \"sort_kernel.cu\"\nvoid sortAll() {}\n");
  dir.write("sort_kernel.cu", "#include \"sort_util.cu\"\n__global__ void k(float* p) { p[threadIdx.x] = 0; }\n");
  dir.write("sort_util.cu", "__device__ float twice(float x) { return 2 * x; }\n");
  dir.write("bucket.cu", "__global__ void b(float* p) { p[threadIdx.x] = 1; }\n");
  dir.write("host.cpp", "int helper(int x) { return x + 1; }\n");
  dir.write("setup.cu", "void pickDevice() {}\n");
  analysis::SiblingTexts texts;
  // main.cu, bucket.cu and setup.cu; not what sort.cu reaches by its includes (its kernel is
  // there), not host.cpp.
  CHECK(texts.likelyCudaSiblingParses(dir.str("sort.cu")) == 3);
  // A file with a main of its own launches its kernels itself; one without a kernel, in it
  // or in what it includes, never asks for the others.
  CHECK(texts.likelyCudaSiblingParses(dir.str("main.cu")) == 0);
  CHECK(texts.likelyCudaSiblingParses(dir.str("setup.cu")) == 0);
  // main.cu, setup.cu and sort.cu, whose parse reads the kernel and util files itself.
  CHECK(texts.likelyCudaSiblingParses(dir.str("bucket.cu")) == 3);

  test::TempDir examples;  // each file its own program: no sibling is read
  examples.write("a.cu", "int main() { return 0; }\n");
  examples.write("b.cu", "int main() { return 1; }\n");
  CHECK(analysis::SiblingTexts().likelyCudaSiblingParses(examples.str("a.cu")) == 0);
}

TEST_CASE("sibling text: in a library's folder, the siblings that launch the file's kernels are read") {
  // No `main`: a library (cuSZp's src/). Its entry file launches what the kernels file defines
  // (declared in a header both include); another file launches nothing of it; a third defines
  // the same kernel, another version linked instead.
  test::TempDir dir;
  dir.write("kernels.cu", "__global__ void compressK(float* p) { p[threadIdx.x] = 0; }\n");
  dir.write("entry.cu", "#include \"k.h\"\nvoid compress(float* p) { compressK <<<4, 32>>>(p); }\n");
  dir.write("timer.cu", "void tick() {}\nvoid other(float* p) { compressKOld<<<1, 1>>>(p); }\n");
  dir.write("kernels_v2.cu", "__global__ void compressK(float* p) { p[threadIdx.x] = 1; }\nvoid go(float* p) { compressK<<<1, 64>>>(p); }\n");

  analysis::SiblingCheck check = askedBy(dir.str("kernels.cu"), false);
  check.linked = {"compressK"};
  analysis::SiblingTexts texts;
  texts.choose(check);
  CHECK_FALSE(check.oneProgram);
  CHECK(check.read == std::vector<std::string>{dir.str("entry.cu")});
  CHECK(analysis::SiblingTexts().holds(check));
  // A file that defines no kernel of its own (nothing linked) reads nothing in such a folder.
  analysis::SiblingCheck none = askedBy(dir.str("timer.cu"), false);
  texts.choose(none);
  CHECK(none.read.empty());
  // The estimate before a parse: the kernels the file's text defines stand for the parse's list.
  CHECK(analysis::SiblingTexts().likelyCudaSiblingParses(dir.str("kernels.cu")) == 1);
}

TEST_CASE("sibling text: a launch of a kernel, and the kernels a text defines") {
  CHECK(analysis::textLaunchesKernel("k<<<g, b>>>(p);", "k"));
  CHECK(analysis::textLaunchesKernel("  k <<< g, b >>>(p);", "k"));
  CHECK(analysis::textLaunchesKernel("scan<float, 4><<<1, 32>>>(p);", "scan"));
  CHECK_FALSE(analysis::textLaunchesKernel("kk<<<1, 32>>>(p);", "k"));
  CHECK_FALSE(analysis::textLaunchesKernel("k(p); x << 3;", "k"));
  CHECK_FALSE(analysis::textLaunchesKernel("if (k < n) { m<<<1, 1>>>(); }", "k"));
  CHECK(analysis::textKernelNames("__global__ void a(int* p) {}\n"
                                  "template <int N> __global__ void\nb (float* q);\n"
                                  "static __global__ __launch_bounds__(256) void c(void) {}\n") ==
        std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("sibling text: a call, not a definition, of a function by name") {
  CHECK(analysis::textCallsFunction("void f() { lib::run (a, b); }", "run"));
  CHECK(analysis::textCallsFunction("void run(int);\n", "run"));
  CHECK_FALSE(analysis::textCallsFunction("void run(int n) { }\nvoid g() { run(1); }", "run"));
  CHECK_FALSE(analysis::textCallsFunction("int running = 0; int x = run;", "run"));
}
