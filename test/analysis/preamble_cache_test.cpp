// A file's preamble kept between runs (lib/analysis/src/preamble_cache.h): a file's next parse
// reads its leading #include block from a PCH kept in the result cache's folder, with the
// records of a fresh parse; files with the same directives share one PCH, a file whose
// preamble holds other directives gets its own; a changed header of the preamble rebuilds
// it; a damaged PCH or record is a miss that is replaced; concurrent runs sharing the folder
// agree. (bench/snapshot_reports.py --cache-dir compares whole trees' reports.)
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/worker.h"  // recordsToJson: every field of every record, doubles by their bits
#include "header_pch_build.h"  // leadingAngleIncludes, chooseIncludePrefixes
#include "preamble_cache.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using namespace coalesce;

namespace {

// Its C++ headers make the preamble more than a few small headers over the CUDA headers' PCH
// (one that adds little is kept as "none", preamble_cache.cpp addsLittle).
constexpr const char* kHeader =
    "#pragma once\n"
    "#include <map>\n#include <string>\n#include <vector>\n"
    "#define STRIDE 2\n"
    "__device__ inline float twice(float x) { return 2 * x; }\n";
// The same directives under other comments and blank lines: one kept preamble for both.
constexpr const char* kFirst =
    "// first.cu: a strided kernel\n"
    "#include <stdio.h>\n"
    "#include \"stride.cuh\"  // STRIDE\n"
    "\n"
    "__global__ void first(const float* __restrict__ in, float* __restrict__ out) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = twice(in[STRIDE * i]);\n"
    "}\n";
constexpr const char* kSecond =
    "/* second.cu */\n"
    "#include <stdio.h>\n"
    "\n"
    "#include \"stride.cuh\"\n"
    "__global__ void second(float* __restrict__ out) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[STRIDE * i + 1] = 0.0f;\n"
    "}\n";
// A #define in the preamble: its PCH is this file's own.
constexpr const char* kDefines =
    "#include <stdio.h>\n"
    "#define WIDTH 4\n"
    "#include \"stride.cuh\"\n"
    "__global__ void third(float* __restrict__ out) {\n"
    "  out[(blockIdx.x * blockDim.x + threadIdx.x) * WIDTH] = 1.0f;\n"
    "}\n";

struct Tree {
  test::TempDir dir;
  Tree() {
    dir.write("src/stride.cuh", kHeader);
    dir.write("src/first.cu", kFirst);
    dir.write("src/second.cu", kSecond);
    dir.write("src/third.cu", kDefines);
  }
  analysis::AnalysisRequest request(const std::vector<std::string>& files, bool isolate = true) const {
    analysis::AnalysisRequest r;
    for (const std::string& f : files) r.inputs.push_back(dir.str("src/" + f));
    r.cacheDir = dir.str("cache");
    r.isolateFiles = isolate;
    r.jobs = 2;
    r.preambleOnFirstRun = true;  // the preambles' mechanics; the default's second-run rule is tested apart
    return r;
  }
  // Removes the records, keeps the PCHs: the next run parses every file over what is kept.
  void dropRecords() const { fs::remove_all(dir.str("cache/results-v1")); }
};

std::string records(const analysis::AnalysisRequest& r, analysis::AnalysisStats* stats = nullptr) {
  return analysis::recordsToJson(analysis::analyze(r, stats));
}
std::string fresh(analysis::AnalysisRequest r) {
  r.cacheDir.clear();
  return records(r);
}

// The kept PCHs that hold something (a preamble whose build failed is kept empty).
std::vector<fs::path> keptPchs(const std::string& cacheDir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(cacheDir) / "pch-v1", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".pch" && fs::file_size(it->path()) > 0) out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

ino_t inode(const fs::path& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

void writeAll(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST_CASE("preamble: the key's directives leave comments and blank lines out and tell what depends on the folder") {
  const analysis::PreambleDirectives a = analysis::preambleDirectives(
      "// a\n#include <stdio.h>  // c\n\n/* b */\n#include \"x.h\"\n");
  const analysis::PreambleDirectives b = analysis::preambleDirectives("#include <stdio.h>\n#include \"x.h\"\n");
  CHECK(a.text == b.text);
  CHECK(a.text == "#include <stdio.h>\n#include \"x.h\"");
  CHECK(a.onlyIncludes);
  CHECK(a.quotedInclude);
  const analysis::PreambleDirectives angled = analysis::preambleDirectives("#include <a/b.h>\n");
  CHECK(angled.onlyIncludes);
  CHECK_FALSE(angled.quotedInclude);
  CHECK_FALSE(analysis::preambleDirectives("#include <stdio.h>\n#define N 4\n").onlyIncludes);
  CHECK_FALSE(analysis::preambleDirectives("#ifdef X\n#include <a.h>\n#endif\n").onlyIncludes);
  CHECK_FALSE(analysis::preambleDirectives("#include HEADER\n").onlyIncludes);
  CHECK_FALSE(analysis::preambleDirectives("#include_next <a.h>\n").onlyIncludes);
  // `//` inside an angled name starts a comment for the lexer: the name is not whole, so
  // the exact text is keyed (two such names must not meet as `#include <a`).
  CHECK_FALSE(analysis::preambleDirectives("#include <a//b.h>\n").onlyIncludes);
}

TEST_CASE("include prefix: a file's leading `#include <x>` lines, up to anything else, and where each ends") {
  using V = std::vector<std::string>;
  auto names = [](const std::string& text) {
    V out;
    for (const analysis::AngleInclude& line : analysis::leadingAngleIncludes(text)) out.push_back(line.name);
    return out;
  };
  const std::string text = "// c\n#include <stdio.h>  // t\n\n/* b */ #include <cuda/std/atomic>\n"
                           "#include <b.h> /* two\nlines */\n  int x;\n#include <late.h>\n";
  CHECK(names(text) == V{"stdio.h", "cuda/std/atomic", "b.h"});
  const std::vector<analysis::AngleInclude> lines = analysis::leadingAngleIncludes(text);
  REQUIRE(lines.size() == 3);
  CHECK(text.substr(lines[0].end, 17) == "#include <cuda/st");  // the next line's first token, comments before it skipped
  CHECK(text.substr(lines[2].end, 5) == "int x");    // past the comment that ends on the next line
  CHECK(names("#include <a.h>\n#include \"q.h\"\n#include <c.h>\n") == V{"a.h"});
  CHECK(names("#define X 1\n#include <a.h>\n").empty());
  CHECK(names("#include <a.h> extra\n#include <b.h>\n").empty());
  CHECK(names("#include <a//b.h>\n").empty());  // `//` starts a comment: the name is not whole
  CHECK(names("#include_next <a.h>\n").empty());
  CHECK(analysis::leadingAngleIncludes("#include <a.h>").at(0).end == 14);  // no newline at the end: the text's size
  CHECK(names("").empty());
}

TEST_CASE("include prefix: each group chosen serves at least the minimum of files, with the longest prefix it can") {
  using P = std::vector<std::vector<std::string>>;
  const P files = {{"a", "b", "c"}, {"a", "b", "c"}, {"a", "b", "d"}, {"a", "x"}, {"q"}, {"a", "b", "c", "e"}};
  // Three share a,b,c (the first two and the last); a,b,d is alone, so it takes a,b, which is
  // then its own group of one: it goes down to `a`, shared by a,x, which alone would not make
  // a group either: together `a` has two, under three: none.
  CHECK(analysis::chooseIncludePrefixes(files, 3) == std::vector<size_t>{3, 3, 0, 0, 0, 3});
  CHECK(analysis::chooseIncludePrefixes(files, 2) == std::vector<size_t>{3, 3, 1, 1, 0, 3});
  CHECK(analysis::chooseIncludePrefixes({}, 3).empty());
  CHECK(analysis::chooseIncludePrefixes({{}, {}, {}}, 3) == std::vector<size_t>{0, 0, 0});
}

TEST_CASE("preamble: a file's next parse reads its kept preamble, with a fresh parse's records") {
  Tree tree;
  const analysis::AnalysisRequest first = tree.request({"first.cu"});
  const std::string firstFresh = fresh(first);
  CHECK(records(first) == firstFresh);  // built in this run, then parsed over
  const std::vector<fs::path> kept = keptPchs(tree.dir.str("cache"));
  REQUIRE(kept.size() == 1);  // the preamble's (the flag set's PCH is not needed)
  const ino_t built = inode(kept.front());
  tree.dropRecords();
  analysis::AnalysisStats stats;
  CHECK(records(first, &stats) == firstFresh);  // over the kept one
  CHECK(stats.cacheHits == 0);
  // The same directives under other comments: the same PCH, not rebuilt.
  tree.dropRecords();
  const analysis::AnalysisRequest second = tree.request({"second.cu"});
  CHECK(records(second) == fresh(second));
  CHECK(keptPchs(tree.dir.str("cache")) == kept);
  CHECK(inode(kept.front()) == built);
  // Its records depend on the shared PCH's inputs, not on first.cu, which the PCH was built from.
  std::vector<fs::path> entries;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(tree.dir.str("cache/results-v1")))
    if (e.path().extension() == ".entry") entries.push_back(e.path());
  REQUIRE(entries.size() == 1);
  std::ifstream in(entries.front());
  std::string header;
  std::getline(in, header);
  CHECK(header.find("stride.cuh") != std::string::npos);
  CHECK(header.find("second.cu") != std::string::npos);
  CHECK(header.find("first.cu") == std::string::npos);
  // A #define among the directives: a PCH of its own.
  const analysis::AnalysisRequest third = tree.request({"third.cu"});
  CHECK(records(third) == fresh(third));
  CHECK(keptPchs(tree.dir.str("cache")).size() == 2);
  // In process (threads) as in workers.
  tree.dropRecords();
  const analysis::AnalysisRequest all = tree.request({"first.cu", "second.cu", "third.cu"}, /*isolate=*/false);
  CHECK(records(all) == fresh(all));
  CHECK(keptPchs(tree.dir.str("cache")).size() == 2);
}

TEST_CASE("preamble: a header the PCH would rename (a `./` in its name) keeps the file off preambles, with its name") {
  // Clang's PCH writer stores `src/./k.cuh` as `src/k.cuh`: over such a PCH the records would
  // name the kernel's file otherwise than a fresh parse.
  Tree tree;
  tree.dir.write("src/k.cuh",
                 "__global__ void inHeader(float* __restrict__ out) { out[2 * threadIdx.x] = 0.0f; }\n");
  tree.dir.write("src/dot.cu", "#include <stdio.h>\n#include \"./k.cuh\"\nvoid host() {}\n");
  const analysis::AnalysisRequest dot = tree.request({"dot.cu"});
  const std::string expected = fresh(dot);
  CHECK(expected.find("/./k.cuh") != std::string::npos);
  CHECK(records(dot) == expected);
  tree.dropRecords();
  CHECK(records(dot) == expected);
  CHECK(keptPchs(tree.dir.str("cache")).size() == 1);  // the CUDA headers' PCH; the preamble kept as "none"
}

TEST_CASE("preamble: a changed header of the preamble rebuilds it, and the records are the new header's") {
  Tree tree;
  const analysis::AnalysisRequest first = tree.request({"first.cu"});
  const std::string before = records(first);
  const std::vector<fs::path> kept = keptPchs(tree.dir.str("cache"));
  REQUIRE(kept.size() == 1);
  const ino_t built = inode(kept.front());
  tree.dir.write("src/stride.cuh", "#pragma once\n#include <map>\n#include <string>\n#include <vector>\n#define STRIDE 4\n"
                                   "__device__ inline float twice(float x) { return x; }\n");
  const std::string after = records(first);
  CHECK(after != before);
  CHECK(after == fresh(first));
  const std::vector<fs::path> rebuilt = keptPchs(tree.dir.str("cache"));
  REQUIRE(rebuilt.size() == 1);  // the same key (the directives did not change), built again
  CHECK(inode(rebuilt.front()) != built);
}

TEST_CASE("preamble: a damaged kept preamble or record costs speed, not results, and is replaced") {
  Tree tree;
  const analysis::AnalysisRequest first = tree.request({"first.cu"});
  const std::string expected = fresh(first);
  records(first);
  const std::vector<fs::path> kept = keptPchs(tree.dir.str("cache"));
  REQUIRE(kept.size() == 1);
  const uintmax_t size = fs::file_size(kept.front());

  SECTION("the PCH damaged under a valid record of its inputs: removed by the run that finds it, rebuilt by the next") {
    writeAll(kept.front(), "not a precompiled header");
    tree.dropRecords();
    CHECK(records(first) == expected);  // parsed over the flag set's PCH instead
    CHECK_FALSE(fs::exists(kept.front()));
    tree.dropRecords();
    CHECK(records(first) == expected);
    REQUIRE(fs::exists(kept.front()));
    CHECK(fs::file_size(kept.front()) == size);
  }
  SECTION("the record of its inputs cut short or foreign: a miss, replaced in the same run") {
    const fs::path record = kept.front().string() + "inputs";
    for (const std::string& damage : {std::string("{\"format\":"), std::string("{\"format\":\"other/1\",\"key\":\"x\"}")}) {
      writeAll(record, damage);
      tree.dropRecords();
      CHECK(records(first) == expected);
      REQUIRE(keptPchs(tree.dir.str("cache")).size() == 1);
      std::ifstream in(record);
      std::stringstream text;
      text << in.rdbuf();
      CHECK(text.str().find("coalesce-lint-pch/1") != std::string::npos);
      CHECK(text.str().find("stride.cuh") != std::string::npos);  // its inputs listed again
    }
  }
}

TEST_CASE("preamble: a run over more files than preambleBuildLimit builds none, and uses those kept") {
  Tree tree;
  analysis::AnalysisRequest both = tree.request({"first.cu", "third.cu"});
  both.preambleBuildLimit = 1;
  const std::string expected = fresh(both);
  CHECK(records(both) == expected);
  CHECK(keptPchs(tree.dir.str("cache")).size() == 1);  // the CUDA headers' PCH alone
  const std::vector<fs::path> headers = keptPchs(tree.dir.str("cache"));
  tree.dropRecords();
  records(tree.request({"first.cu"}));  // a run over one file builds its preamble
  std::vector<fs::path> kept = keptPchs(tree.dir.str("cache"));
  REQUIRE(kept.size() == 2);
  const fs::path preamble = kept.front() == headers.front() ? kept.back() : kept.front();
  const auto old = fs::last_write_time(preamble) - std::chrono::hours(24);
  fs::last_write_time(preamble, old);
  tree.dropRecords();
  CHECK(records(both) == expected);
  CHECK(keptPchs(tree.dir.str("cache")) == kept);  // nothing built
  CHECK(fs::last_write_time(preamble) > old);  // first.cu's kept preamble was used (a use renews it)
}

TEST_CASE("preamble: concurrent runs sharing the cache folder build, keep and read preambles safely") {
  Tree tree;
  const analysis::AnalysisRequest all = tree.request({"first.cu", "second.cu", "third.cu"});
  const std::string expected = fresh(all);
  // Four processes at once on the empty folder (each a single-threaded analyze(), with its
  // own workers), then four more over what they kept.
  for (int round = 0; round < 2; ++round) {
    std::vector<pid_t> children;
    for (int k = 0; k < 4; ++k) {
      const pid_t pid = fork();
      REQUIRE(pid >= 0);
      if (pid == 0) {
        const std::string got = records(all);
        writeAll(tree.dir.str("out" + std::to_string(k)), got);
        _exit(got.empty() ? 1 : 0);
      }
      children.push_back(pid);
    }
    for (pid_t pid : children) {
      int status = 0;
      REQUIRE(waitpid(pid, &status, 0) == pid);
      CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
    for (int k = 0; k < 4; ++k) {
      std::ifstream in(tree.dir.str("out" + std::to_string(k)));
      std::stringstream text;
      text << in.rdbuf();
      CHECK(text.str() == expected);
    }
    CHECK(keptPchs(tree.dir.str("cache")).size() == 2);
    tree.dropRecords();
  }
  // No half-written file left behind.
  for (const fs::directory_entry& e : fs::directory_iterator(tree.dir.str("cache/pch-v1")))
    CHECK(e.path().filename().string().rfind("tmp.", 0) != 0);
}

TEST_CASE("preamble: by default a file's first run builds none, its second builds it, its third reads it") {
  Tree tree;
  analysis::AnalysisRequest first = tree.request({"first.cu"});
  first.preambleOnFirstRun = false;  // the default
  const std::string expected = fresh(first);
  CHECK(records(first) == expected);  // over the CUDA headers' PCH, a mark left
  const std::vector<fs::path> headers = keptPchs(tree.dir.str("cache"));
  CHECK(headers.size() == 1);  // the CUDA headers' PCH alone
  tree.dropRecords();
  // Another file with the same directives: its own first run, no preamble either.
  analysis::AnalysisRequest second = tree.request({"second.cu"});
  second.preambleOnFirstRun = false;
  CHECK(records(second) == fresh(second));
  CHECK(keptPchs(tree.dir.str("cache")) == headers);
  tree.dropRecords();
  CHECK(records(first) == expected);  // the second run: built
  const std::vector<fs::path> kept = keptPchs(tree.dir.str("cache"));
  REQUIRE(kept.size() == 2);
  const fs::path preamble = kept.front() == headers.front() ? kept.back() : kept.front();
  const auto old = fs::last_write_time(preamble) - std::chrono::hours(24);
  fs::last_write_time(preamble, old);
  tree.dropRecords();
  CHECK(records(second) == fresh(second));  // second.cu's second run reads the shared one
  CHECK(keptPchs(tree.dir.str("cache")) == kept);
  CHECK(fs::last_write_time(preamble) > old);
}

TEST_CASE("preamble: one that adds little to the CUDA headers' PCH is kept as none") {
  // A file that includes what the forced includes hold and a small header: its preamble would
  // save less than a parse over it costs beside one over the headers' PCH (preamble_cache.cpp).
  Tree tree;
  tree.dir.write("src/plain.cu", "#include <cuda_runtime.h>\n#include <cstdio>\n"
                                 "__global__ void k(float* p) { p[threadIdx.x * 2] = 0.0f; }\n"
                                 "void go(float* p) { k<<<1, 64>>>(p); }\n");
  analysis::AnalysisRequest plain = tree.request({"plain.cu"});
  plain.preambleOnFirstRun = false;  // the default: the first run keeps the headers' PCH
  const std::string expected = fresh(plain);
  CHECK(records(plain) == expected);
  const std::vector<fs::path> headers = keptPchs(tree.dir.str("cache"));
  REQUIRE(headers.size() == 1);
  tree.dropRecords();
  CHECK(records(plain) == expected);  // the second run builds the preamble: kept as "none"
  CHECK(keptPchs(tree.dir.str("cache")) == headers);
  tree.dropRecords();
  CHECK(records(plain) == expected);  // over the headers' PCH
  // A file whose preamble includes a header of its own keeps its preamble.
  analysis::AnalysisRequest first = tree.request({"first.cu"});
  first.preambleOnFirstRun = false;
  CHECK(records(first) == fresh(first));
  tree.dropRecords();
  CHECK(records(first) == fresh(first));
  CHECK(keptPchs(tree.dir.str("cache")).size() == 2);
}
