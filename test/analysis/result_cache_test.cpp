// The result cache between runs (docs/cache.md, lib/analysis/src/result_cache.h): a second
// run takes every unchanged file from it with the very records a fresh run makes; a change to
// a file, to a header it includes, or to an option that shapes records is a miss for the files
// it touches only; corrupt, cut-short and foreign entries are misses that the fresh result
// replaces; the folder stays under its size; a folder that cannot be used costs the cache,
// not the run. (The byte-identical reports are test/tools/cli_cases_ci.py's.)
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/worker.h"  // recordsToJson: every field of every record, doubles by their bits
#include "temp_dir.h"

namespace fs = std::filesystem;
using namespace coalesce;

namespace {

constexpr const char* kHeader = "#define STRIDE 2\n";
constexpr const char* kStrided =
    "#include \"stride.cuh\"\n"
    "__global__ void strided(const float* __restrict__ in, float* __restrict__ out) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = in[STRIDE * i];\n"
    "}\n";
constexpr const char* kPlain =
    "__global__ void plain(const float* __restrict__ in, float* __restrict__ out) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = 2 * in[i];\n"
    "}\n";
constexpr const char* kShared =
    "__global__ void conflict(float* __restrict__ out) {\n"
    "  __shared__ float s[1024];\n"
    "  s[threadIdx.x * 2 % 1024] = 1.0f;\n"
    "  __syncthreads();\n"
    "  out[threadIdx.x] = s[threadIdx.x];\n"
    "}\n";

struct Tree {
  test::TempDir dir;
  Tree() {
    dir.write("src/stride.cuh", kHeader);
    dir.write("src/strided.cu", kStrided);
    dir.write("src/plain.cu", kPlain);
    dir.write("src/shared.cu", kShared);
  }
  analysis::AnalysisRequest request(bool isolate = true) const {
    analysis::AnalysisRequest r;
    r.inputs = {dir.str("src")};
    r.cacheDir = dir.str("cache");
    r.isolateFiles = isolate;
    r.jobs = 2;
    return r;
  }
};

struct Run {
  AnalysisResult result;
  analysis::AnalysisStats stats;
};
Run run(const analysis::AnalysisRequest& request) {
  Run r;
  r.result = analysis::analyze(request, &r.stats);
  return r;
}

std::vector<fs::path> entries(const std::string& cacheDir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(cacheDir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".entry") out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
void writeAll(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

double sectorsOf(const AnalysisResult& r, const std::string& expression) {
  for (const AccessSite& a : r.accesses)
    if (a.expression == expression && a.figures.global) return a.figures.global->aligned.sectorsPerRequest;
  return -1;
}

}  // namespace

TEST_CASE("result cache: a second run takes every file from the cache, with a fresh run's records") {
  Tree tree;
  const Run first = run(tree.request());
  REQUIRE(first.stats.jobs == 3);
  CHECK(first.stats.cacheHits == 0);
  CHECK(first.stats.cacheStored == 3);
  CHECK(first.stats.cacheProblem.empty());
  CHECK(entries(tree.dir.str("cache")).size() == 3);
  CHECK(sectorsOf(first.result, "in[STRIDE * i]") == 8);

  const Run second = run(tree.request());
  CHECK(second.stats.cacheHits == 3);
  CHECK(second.stats.cacheStored == 0);
  CHECK(analysis::recordsToJson(second.result) == analysis::recordsToJson(first.result));

  analysis::AnalysisRequest uncached = tree.request();
  uncached.cacheDir.clear();
  CHECK(analysis::recordsToJson(run(uncached).result) == analysis::recordsToJson(first.result));
}

TEST_CASE("result cache: runs in process and in worker processes share the entries") {
  Tree tree;
  const Run inProcess = run(tree.request(false));
  CHECK(inProcess.stats.cacheStored == 3);
  const Run isolated = run(tree.request(true));
  CHECK(isolated.stats.cacheHits == 3);
  CHECK(analysis::recordsToJson(isolated.result) == analysis::recordsToJson(inProcess.result));
}

TEST_CASE("result cache: a changed header re-analyses only the file that includes it") {
  Tree tree;
  run(tree.request());
  tree.dir.write("src/stride.cuh", "#define STRIDE 4\n");
  const Run after = run(tree.request());
  CHECK(after.stats.cacheHits == 2);
  CHECK(after.stats.cacheStored == 1);
  CHECK(sectorsOf(after.result, "in[STRIDE * i]") == 16);  // the new stride, not the cached 8

  analysis::AnalysisRequest uncached = tree.request();
  uncached.cacheDir.clear();
  CHECK(analysis::recordsToJson(run(uncached).result) == analysis::recordsToJson(after.result));
}

TEST_CASE("result cache: a changed file is a miss for that file only") {
  Tree tree;
  run(tree.request());
  tree.dir.write("src/plain.cu", std::string(kPlain) + "// a comment at the end\n");
  const Run after = run(tree.request());
  CHECK(after.stats.cacheHits == 2);
  CHECK(after.stats.cacheStored == 1);
}

TEST_CASE("result cache: options that shape the records are part of the key") {
  Tree tree;
  run(tree.request());
  analysis::AnalysisRequest r = tree.request();
  SECTION("block shape") { r.blockDim = model::Dim3{64, 1, 1}; }
  SECTION("an assumed value") { r.assumedValues["n"] = 7; }
  SECTION("architecture") { r.gpuArch = "sm_80"; }
  SECTION("compiler arguments") { r.extraArgs = {"-DUNUSED=1"}; }
  const Run other = run(r);
  CHECK(other.stats.cacheHits == 0);
  CHECK(other.stats.cacheStored == 3);
  // Options that change the speed only reuse the entries.
  analysis::AnalysisRequest speed = tree.request();
  speed.reuseHeaders = false;
  speed.skipSystemHostBodies = false;
  speed.jobs = 1;
  CHECK(run(speed).stats.cacheHits == 3);
}

TEST_CASE("result cache: corrupt, cut short and foreign entries are misses, and are replaced") {
  Tree tree;
  const Run first = run(tree.request());
  const std::vector<fs::path> files = entries(tree.dir.str("cache"));
  REQUIRE(files.size() == 3);
  const std::string a = readAll(files[0]), b = readAll(files[1]);
  SECTION("garbage") {
    for (const fs::path& f : files) writeAll(f, "\x01\x02 not an entry");
  }
  SECTION("cut short") {
    for (const fs::path& f : files) {
      const std::string text = readAll(f);
      writeAll(f, text.substr(0, text.size() / 2));
    }
  }
  SECTION("another key's entry") {
    writeAll(files[0], b);
    writeAll(files[1], a);
    writeAll(files[2], a);
  }
  SECTION("empty") {
    for (const fs::path& f : files) writeAll(f, "");
  }
  const Run second = run(tree.request());
  CHECK(second.stats.cacheHits == 0);
  CHECK(second.stats.cacheStored == 3);
  CHECK(analysis::recordsToJson(second.result) == analysis::recordsToJson(first.result));
  const Run third = run(tree.request());
  CHECK(third.stats.cacheHits == 3);
  CHECK(analysis::recordsToJson(third.result) == analysis::recordsToJson(first.result));
}

TEST_CASE("result cache: the folder is kept under its size, the least recently used entries first") {
  Tree tree;
  run(tree.request());
  uintmax_t largest = 0, total = 0;
  for (const fs::path& f : entries(tree.dir.str("cache"))) {
    largest = std::max(largest, fs::file_size(f));
    total += fs::file_size(f);
  }
  // A bound that holds two entries but not three: the next run that writes must trim.
  analysis::AnalysisRequest r = tree.request();
  r.cacheMaxBytes = total - 1;
  tree.dir.write("src/plain.cu", std::string(kPlain) + "// changed\n");
  const Run after = run(r);
  CHECK(after.stats.cacheStored == 1);
  uintmax_t kept = 0;
  for (const fs::path& f : entries(tree.dir.str("cache"))) kept += fs::file_size(f);
  CHECK(kept <= r.cacheMaxBytes);
  CHECK(kept > 0);
  // The entry just written is the most recent: it stays, and answers the next run.
  const Run again = run(r);
  CHECK(again.stats.cacheHits >= 1);
  CHECK(largest > 0);
}

TEST_CASE("result cache: a folder that cannot be used is reported, and the run goes on without it") {
  Tree tree;
  tree.dir.write("not-a-folder", "a file where the cache folder should be");
  analysis::AnalysisRequest r = tree.request();
  r.cacheDir = tree.dir.str("not-a-folder/cache");
  const Run result = run(r);
  CHECK_FALSE(result.stats.cacheProblem.empty());
  CHECK(result.stats.cacheProblem.find("not-a-folder/cache") != std::string::npos);
  CHECK(result.stats.cacheHits == 0);
  CHECK(result.result.kernels.size() == 3);
}

TEST_CASE("result cache: an entry lists what the file's parse read, the precompiled headers' inputs included") {
  // With header reuse the file is parsed over a PCH of the CUDA headers, which its own parse
  // does not open: the entry must still list them, as the entry of a parse without it does.
  Tree tree;
  analysis::AnalysisRequest withPch = tree.request();
  withPch.reuseHeaders = true;
  run(withPch);
  std::vector<std::string> listed;
  for (const fs::path& f : entries(tree.dir.str("cache"))) {
    const std::string text = readAll(f);
    listed.push_back(text.substr(0, text.find('\n')));
  }
  fs::remove_all(tree.dir.str("cache"));
  analysis::AnalysisRequest withoutPch = tree.request();
  withoutPch.reuseHeaders = false;
  run(withoutPch);
  std::vector<std::string> listedWithout;
  for (const fs::path& f : entries(tree.dir.str("cache"))) {
    const std::string text = readAll(f);
    listedWithout.push_back(text.substr(0, text.find('\n')));
  }
  CHECK(listed == listedWithout);
  REQUIRE(!listed.empty());
  const std::string strided = tree.dir.str("src/stride.cuh");
  bool headerListed = false;
  for (const std::string& header : listed) headerListed |= header.find(strided) != std::string::npos;
  CHECK(headerListed);
}

namespace {

std::vector<fs::path> keptPchs(const std::string& cacheDir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(cacheDir) / "pch-v1", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".pch") out.push_back(it->path());
  return out;
}

ino_t inode(const fs::path& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

}  // namespace

TEST_CASE("result cache: the CUDA headers' precompiled header is kept, and the next run parses only its files") {
  Tree tree;
  analysis::AnalysisRequest r = tree.request();
  r.keepPreambles = false;  // the flag set's PCH alone (preambles: preamble_cache_test.cpp)
  r.inputs = {tree.dir.str("src/plain.cu")};  // one file: with a cache, it gets a PCH too
  const Run first = run(r);
  const std::vector<fs::path> pchs = keptPchs(tree.dir.str("cache"));
  REQUIRE(pchs.size() == 1);
  const ino_t built = inode(pchs.front());
  // Another file of the same flags: a miss, parsed over the kept PCH (the same file, not rebuilt).
  r.inputs = {tree.dir.str("src/strided.cu")};
  const Run second = run(r);
  CHECK(second.stats.cacheHits == 0);
  CHECK(keptPchs(tree.dir.str("cache")) == pchs);
  CHECK(inode(pchs.front()) == built);
  analysis::AnalysisRequest fresh = r;
  fresh.cacheDir.clear();
  CHECK(analysis::recordsToJson(second.result) == analysis::recordsToJson(run(fresh).result));
  CHECK(sectorsOf(second.result, "in[STRIDE * i]") == 8);
}

TEST_CASE("result cache: a folder named relative to the working directory stores and finds entries too") {
  // A file parsed over the kept PCH lists what it read; the PCH itself, named by the folder's
  // path, must be left out (its time stamp is renewed by every run that uses it). Under a
  // relative folder it was not, and nothing was ever stored.
  Tree tree;
  const fs::path before = fs::current_path();
  fs::current_path(tree.dir.str(""));
  analysis::AnalysisRequest r = tree.request();
  r.cacheDir = "cache";
  r.inputs = {tree.dir.str("src/plain.cu")};  // one file: with a cache, it gets a PCH too
  const Run first = run(r);
  const Run second = run(r);
  fs::current_path(before);
  CHECK(first.stats.cacheStored == 1);
  CHECK(second.stats.cacheHits == 1);
  CHECK(keptPchs(tree.dir.str("cache")).size() == 1);
}

TEST_CASE("result cache: a kept precompiled header that cannot be used costs speed, not results, and is rebuilt") {
  Tree tree;
  analysis::AnalysisRequest r = tree.request();
  r.keepPreambles = false;  // the flag set's PCH alone (preambles: preamble_cache_test.cpp)
  r.inputs = {tree.dir.str("src/plain.cu")};
  run(r);
  const std::vector<fs::path> pchs = keptPchs(tree.dir.str("cache"));
  REQUIRE(pchs.size() == 1);
  const uintmax_t size = fs::file_size(pchs.front());
  writeAll(pchs.front(), "not a precompiled header");  // its record of inputs still matches
  r.inputs = {tree.dir.str("src/strided.cu")};
  const Run damaged = run(r);
  analysis::AnalysisRequest fresh = r;
  fresh.cacheDir.clear();
  CHECK(analysis::recordsToJson(damaged.result) == analysis::recordsToJson(run(fresh).result));
  CHECK(keptPchs(tree.dir.str("cache")).empty());  // removed by the run that found it damaged
  r.inputs = {tree.dir.str("src/shared.cu")};
  run(r);
  REQUIRE(keptPchs(tree.dir.str("cache")).size() == 1);
  CHECK(fs::file_size(keptPchs(tree.dir.str("cache")).front()) == size);
}
