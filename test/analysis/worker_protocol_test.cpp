// The worker's wire format (analysis/worker.h): every field of every record survives the
// trip, bit for bit; a real run through forked worker processes gives the records an
// in-process run gives; a crash in one costs its file only.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>

#include "coalesce/analysis/analyze.h"
#include "coalesce/analysis/worker.h"
#include "coalesce/records/fields.h"

#include <nlohmann/json.hpp>

using namespace coalesce;

namespace {

BlockShape block(int seed) {
  return {{32 + seed, 2 + seed, 3}, BlockSource::Annotation, "block detail " + std::to_string(seed),
          {"16x" + std::to_string(seed) + "x1"}, true};
}
SourceLocation where(int seed) { return {"dir/file" + std::to_string(seed) + ".cu", 10u + seed, 3u + seed}; }

model::GlobalFigures globalFigures(double x) {
  return {x, x / 3, x / 7, 11, 12, true, 13};
}
model::SharedFigures sharedFigures(double x) { return {x, x / 5, x / 9, 21, 22, 23}; }

// Every field set to something other than its default.
AnalysisResult everything() {
  AnalysisResult r;
  FileRecord f;
  f.path = "dir/file0.cu";
  f.status = Status::Failed;
  f.error = "reason \xe9 not UTF-8";  // a Latin-1 byte
  f.hostErrors = 4;
  f.diagnostics = {"first", "second \"quoted\"\n"};
  r.files.push_back(f);

  KernelRecord k;
  k.name = "kernel<3>";
  k.loc = where(1);
  k.status = Status::Failed;
  k.reason = "why";
  k.accesses = 7;
  k.block = block(1);
  r.kernels.push_back(k);

  AccessSite a;
  a.id = 5;
  a.loc = where(2);
  a.kernel = "kernel<3>";
  a.function = "helper";
  a.expression = "a[2 * i]";
  a.lineText = "  x = a[2 * i];  // \xff\xfe";
  a.elementType = "struct P::x";
  a.access.space = model::Space::Shared;
  a.access.kind = model::AccessKind::Atomic;
  a.access.bytesPerLane = 12;
  a.access.pattern.kind = model::PatternKind::Enumerated;
  a.access.pattern.affine = {-4, 8, 16};
  a.access.pattern.threadOffsets = {0, std::nullopt, -8, std::numeric_limits<int64_t>::min(),
                                    std::numeric_limits<int64_t>::max()};
  a.access.pattern.base = {-96, 64};
  a.block = block(2);
  a.figures.global = model::AlignmentCases<model::GlobalFigures>{globalFigures(0.1), globalFigures(1.0 / 3),
                                                                 globalFigures(1e300), false};
  a.figures.shared = model::AlignmentCases<model::SharedFigures>{
      sharedFigures(std::nextafter(1.0, 2.0)), sharedFigures(-0.0), sharedFigures(5e-324), false};
  a.figures.sectorRange = std::make_pair(std::numeric_limits<double>::infinity(), -2.5);
  a.figures.wavefrontRange = std::make_pair(std::numeric_limits<double>::quiet_NaN(), 0.0);
  a.figures.activeLanesPerWarp = 31;
  a.assumptions = {"n = 4096", "w = 2"};
  a.indirectRowGather = true;
  r.accesses.push_back(a);
  AccessSite plain;  // the defaults (no figures at all) survive too
  plain.loc = where(3);
  r.accesses.push_back(plain);

  BranchSite b;
  b.id = 2;
  b.loc = where(4);
  b.kernel = "kb";
  b.function = "fb";
  b.kind = BranchKind::Loop;
  b.condition = "i < n";
  b.lineText = "for (...)";
  b.block = block(4);
  b.evaluated = true;
  b.threadDependent = true;
  b.warpRequests = 1234567890123;
  b.divergentRequests = 17;
  b.onlyPartialWarps = true;
  b.assumptions = {"a"};
  b.split = {3, 1, 2, 5, 7, {"-9000000000", "4"}, {-1, 0, 1, 1}, {"-9000000000", "4", "7"}, {"-ab?", "cc--"}};
  b.remappedDivergentRequests = 9876543210;
  r.branches.push_back(b);

  BarrierSite s;
  s.id = 3;
  s.loc = where(5);
  s.kernel = "ks";
  s.function = "fs";
  s.call = "__syncthreads()";
  s.lineText = "  __syncthreads();";
  s.block = block(5);
  s.reach = BarrierSite::Reach::Unknown;
  s.condition = "tid < 5";
  s.assumptions = {"b", "c"};
  r.barriers.push_back(s);

  PointerParam p;
  p.kernel = "kp";
  p.loc = where(6);
  p.name = "ptr";
  p.isRestrict = true;
  p.read = true;
  p.written = true;
  r.pointerParams.push_back(p);
  return r;
}

// Calls fn on every double of a record, walking the field list of
// coalesce/records/fields.h, so no field is left out of the comparison below.
template <class Fn>
struct EachDouble {
  Fn fn;
  template <class T>
  void field(std::string_view, T& value, unsigned = kPlainField) {
    visit(value);
  }
  template <class T>
  void visit(T& value) {
    using U = std::remove_const_t<T>;
    if constexpr (std::is_same_v<U, double>) {
      fn(value);
    } else if constexpr (kIsOptional<U>) {
      if (value) visit(*value);
    } else if constexpr (kIsPair<U>) {
      visit(value.first);
      visit(value.second);
    } else if constexpr (kIsVector<U>) {
      for (auto& x : value) visit(x);
    } else if constexpr (std::is_class_v<U> && !std::is_same_v<U, std::string>) {
      describeFields(*this, value);
    }
  }
};
template <class Fn>
EachDouble(Fn) -> EachDouble<Fn>;

std::vector<uint64_t> doubleBits(const AnalysisResult& r) {
  std::vector<uint64_t> bits;
  EachDouble each{[&](const double& d) { bits.push_back(std::bit_cast<uint64_t>(d)); }};
  each.visit(r);
  return bits;
}

// operator== on the records, with every double compared by its bit pattern instead (NaN
// equals itself, -0.0 differs from 0.0): the wire format promises bit for bit.
void checkSame(const AnalysisResult& x, const AnalysisResult& y) {
  CHECK(doubleBits(x) == doubleBits(y));
  AnalysisResult a = x, b = y;
  EachDouble zero{[](double& d) { d = 0; }};
  zero.visit(a);
  zero.visit(b);
  CHECK(a.files == b.files);
  CHECK(a.kernels == b.kernels);
  CHECK(a.accesses == b.accesses);
  CHECK(a.branches == b.branches);
  CHECK(a.barriers == b.barriers);
  CHECK(a.pointerParams == b.pointerParams);
  CHECK(a == b);
}

}  // namespace

TEST_CASE("every field of every record survives the worker's wire format, bit for bit") {
  const AnalysisResult original = everything();
  const std::string text = analysis::recordsToJson(original);
  AnalysisResult back;
  REQUIRE(analysis::recordsFromJson(text, back).empty());
  checkSame(original, back);
  // Without the NaN (which operator== calls unequal to itself) the records compare equal as
  // they are.
  AnalysisResult comparable = original;
  comparable.accesses[0].figures.wavefrontRange->first = 1.5;
  AnalysisResult comparableBack;
  REQUIRE(analysis::recordsFromJson(analysis::recordsToJson(comparable), comparableBack).empty());
  CHECK(comparableBack == comparable);
  // The reference is not vacuous: a changed figure is seen.
  AnalysisResult changed = back;
  changed.accesses[0].figures.global->worst.efficiency = std::nextafter(changed.accesses[0].figures.global->worst.efficiency, 0.0);
  CHECK(analysis::recordsToJson(changed) != text);
  CHECK(analysis::recordsToJson(back) == text);
}

TEST_CASE("the worker's wire format refuses what it did not write") {
  AnalysisResult out;
  out.files.resize(3);
  CHECK_THAT(analysis::recordsFromJson("", out), Catch::Contains("not JSON"));
  CHECK_THAT(analysis::recordsFromJson("[]", out), Catch::Contains("expected an object"));
  CHECK_THAT(analysis::recordsFromJson(R"({"protocol": 99})", out), Catch::Contains("protocol"));
  std::string text = analysis::recordsToJson(everything());
  const auto at = text.find("\"host_errors\":4");
  REQUIRE(at != std::string::npos);
  text.replace(at, 15, "\"host_errors\":\"4\"");
  CHECK_THAT(analysis::recordsFromJson(text, out), Catch::Contains("files[0].host_errors"));
  std::string unknownKind = analysis::recordsToJson(everything());
  const auto kindAt = unknownKind.find("\"kind\":\"loop\"");
  REQUIRE(kindAt != std::string::npos);
  unknownKind.replace(kindAt, 13, "\"kind\":\"lop\"");
  CHECK_THAT(analysis::recordsFromJson(unknownKind, out), Catch::Contains("branches[0].kind"));
  CHECK(out.files.size() == 3);  // untouched on failure
}

// A field added after result files were first written (kMayBeAbsent, fields.h) reads its default
// from a record an earlier tool wrote; a field without the flag is still required.
TEST_CASE("the worker's wire format reads a record without the fields added later") {
  AnalysisResult all = everything();
  REQUIRE(!all.kernels.empty());
  all.kernels[0].templateInstantiations = 5;
  all.kernels[0].instantiationsLeftOut = 3;
  nlohmann::json older = nlohmann::json::parse(analysis::recordsToJson(all));
  for (auto& k : older["kernels"]) {
    k.erase("template_instantiations");
    k.erase("instantiations_left_out");
  }
  AnalysisResult back;
  REQUIRE(analysis::recordsFromJson(older.dump(), back).empty());
  CHECK(back.kernels[0].templateInstantiations == 0);
  CHECK(back.kernels[0].instantiationsLeftOut == 0);
  CHECK(back.kernels[0].name == all.kernels[0].name);
  older["kernels"][0].erase("launches_basis");
  CHECK_THAT(analysis::recordsFromJson(older.dump(), back), Catch::Contains("kernels[0].launches_basis"));
}

// The reader finds the top-level members by name and parses one record of a list at a
// time (worker_protocol.cpp): the members' order must not matter (entries written before
// had them sorted), and a text cut or damaged inside a record is refused, not half read.
TEST_CASE("the worker's wire format reads members in any order, and refuses a damaged record") {
  const std::string text = analysis::recordsToJson(everything());
  REQUIRE(text.find("{\"protocol\":2,\"files\":") == 0);  // the writer's own order: the field list's
  const std::string sorted = nlohmann::json::parse(text).dump();  // members sorted by name
  REQUIRE(sorted != text);
  REQUIRE(sorted.find("{\"accesses\":") == 0);
  AnalysisResult back;
  REQUIRE(analysis::recordsFromJson(sorted, back).empty());
  CHECK(analysis::recordsToJson(back) == text);
  // Spaces between the tokens, as another writer may put them.
  const std::string spaced = nlohmann::json::parse(text).dump(2);
  AnalysisResult spacedBack;
  REQUIRE(analysis::recordsFromJson(spaced, spacedBack).empty());
  CHECK(analysis::recordsToJson(spacedBack) == text);

  AnalysisResult out;
  out.files.resize(3);
  // Cut inside the accesses' list, then a record whose closing bracket is wrong.
  const auto accesses = text.find("\"accesses\":[");
  REQUIRE(accesses != std::string::npos);
  CHECK_THAT(analysis::recordsFromJson(text.substr(0, accesses + 20), out), Catch::Contains("not JSON"));
  std::string damaged = text;
  damaged.insert(accesses + 12, "{\"x\":]");
  CHECK_THAT(analysis::recordsFromJson(damaged, out), Catch::Contains("not JSON"));
  CHECK_THAT(analysis::recordsFromJson(text + " x", out), Catch::Contains("not JSON"));
  std::string notAList = text;
  notAList.replace(accesses, 11, "\"accesses\":7,\"unused\":");
  CHECK_THAT(analysis::recordsFromJson(notAList, out), Catch::Contains("accesses: expected an array"));
  CHECK(out.files.size() == 3);  // untouched on failure
}

// The binary form (lib/analysis/src/worker_binary.cpp) is what a worker writes to its parent
// and the result cache keeps (issue 16: the JSON form was a third of a file's cost on a kernel
// of 16,384 accesses): every field survives it bit for bit, as the JSON form's.
TEST_CASE("every field of every record survives the binary form, bit for bit") {
  const AnalysisResult original = everything();
  const std::string data = analysis::recordsToBinary(original);
  AnalysisResult back;
  REQUIRE(analysis::recordsFromBinary(data, back).empty());
  checkSame(original, back);
  CHECK(analysis::recordsToJson(back) == analysis::recordsToJson(original));
  CHECK(analysis::recordsToBinary(back) == data);
  // Smaller than the text (the point of it).
  CHECK(data.size() * 2 < analysis::recordsToJson(original).size());
  // A changed figure is seen.
  AnalysisResult changed = back;
  changed.accesses[0].figures.global->worst.efficiency = std::nextafter(changed.accesses[0].figures.global->worst.efficiency, 0.0);
  CHECK(analysis::recordsToBinary(changed) != data);
}

// A cut-short, damaged or foreign text is refused (a cache entry's body, a worker's pipe cut
// by its death): every prefix, a wrong magic, a byte left over, a boolean or an enumerator
// out of range, a list longer than what is left. Never read past the end (the sanitizer
// builds run this), never half filled.
TEST_CASE("the binary form refuses what it did not write") {
  const std::string data = analysis::recordsToBinary(everything());
  AnalysisResult out;
  out.files.resize(3);
  for (size_t n = 0; n < data.size(); ++n) {
    INFO("cut at " << n << " of " << data.size());
    CHECK_FALSE(analysis::recordsFromBinary(data.substr(0, n), out).empty());
  }
  CHECK_THAT(analysis::recordsFromBinary("{\"protocol\":2}", out), Catch::Contains("not the records' binary form"));
  std::string other = data;
  other[3] = '\x02';  // another version
  CHECK_THAT(analysis::recordsFromBinary(other, out), Catch::Contains("not the records' binary form"));
  CHECK_THAT(analysis::recordsFromBinary(data + "x", out), Catch::Contains("bytes left"));
  // The first record: files, one FileRecord whose path, "dir/file0.cu", comes first and whose
  // status (an enumerator, zigzag 1: failed) follows it.
  const size_t path = data.find("dir/file0.cu");
  REQUIRE(path == 6);  // magic (4), the list's length (1), the string's length (1)
  std::string badEnum = data;
  REQUIRE(badEnum[path + 12] == '\x02');
  badEnum[path + 12] = '\x7e';
  CHECK_THAT(analysis::recordsFromBinary(badEnum, out), Catch::Contains("files.status: expected a known enumerator"));
  std::string longList = data;
  longList[4] = '\x7f';  // 127 files, not there
  CHECK_FALSE(analysis::recordsFromBinary(longList, out).empty());
  std::string hugeList = data;
  hugeList.replace(4, 1, std::string("\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 9));
  CHECK_THAT(analysis::recordsFromBinary(hugeList, out), Catch::Contains("a list's elements"));
  CHECK(out.files.size() == 3);  // untouched on failure
}

TEST_CASE("a run through forked worker processes gives the records of an in-process run") {
  namespace fs = std::filesystem;
  const fs::path examples = fs::path(COALESCE_SOURCE_DIR) / "kernels" / "examples";
  REQUIRE(fs::is_directory(examples));
  analysis::AnalysisRequest request;
  request.inputs = {examples.string()};
  request.jobs = 2;
  const AnalysisResult inProcess = analysis::analyze(request);
  request.isolateFiles = true;
  std::vector<int> children;  // the progress callback runs in the parent, once per file
  request.progress = [&](const std::string&, size_t, size_t) { children.push_back(getpid()); };
  const AnalysisResult isolated = analysis::analyze(request);
  REQUIRE(inProcess.files.size() > 40);
  REQUIRE(inProcess.accesses.size() > 200);
  CHECK(children.size() == inProcess.files.size());
  CHECK(std::all_of(children.begin(), children.end(), [](int pid) { return pid == getpid(); }));
  for (const auto& f : isolated.files) {
    INFO(f.path << ": " << f.error);
    CHECK(f.status == Status::Analysed);
  }
  checkSame(inProcess, isolated);
  CHECK(analysis::recordsToJson(inProcess) == analysis::recordsToJson(isolated));
}

TEST_CASE("a crashing child costs its file only, and leaves the run's precompiled headers in place") {
  namespace fs = std::filesystem;
  const fs::path examples = fs::path(COALESCE_SOURCE_DIR) / "kernels" / "examples";
  analysis::AnalysisRequest request;
  for (const char* name : {"global_stride2.cu", "global_aos.cu", "shared_stride1.cu"})
    request.inputs.push_back((examples / name).string());
  request.jobs = 1;  // in turn: the files after the crash read the same PCH
  request.isolateFiles = true;
  // Temporary files in a folder of the test's own, to watch the PCH.
  const fs::path tmp = fs::temp_directory_path() / ("coalesce-crash-test-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  const char* oldTmp = getenv("TMPDIR");
  const std::string savedTmp = oldTmp ? oldTmp : "";
  setenv("TMPDIR", tmp.c_str(), 1);
  setenv("COALESCE_TEST_CRASH_ON", "global_aos", 1);
  std::vector<size_t> pchs;
  // The run's sibling summaries (a folder of their own, sibling_summaries.h) are not a PCH.
  request.progress = [&](const std::string&, size_t, size_t) {
    pchs.push_back(static_cast<size_t>(std::count_if(fs::directory_iterator(tmp), fs::directory_iterator(), [](const fs::directory_entry& e) {
      return e.path().filename().string().rfind("coalesce-lint-siblings", 0) != 0;
    })));
  };
  const AnalysisResult r = analysis::analyze(request);
  unsetenv("COALESCE_TEST_CRASH_ON");
  if (oldTmp) setenv("TMPDIR", savedTmp.c_str(), 1);
  else unsetenv("TMPDIR");
  const bool leftOver = !fs::is_empty(tmp);
  fs::remove_all(tmp);

  REQUIRE(r.files.size() == 3);
  for (const auto& f : r.files) {
    INFO(f.path << ": " << f.error);
    const bool crashed = f.path.find("global_aos") != std::string::npos;
    CHECK(f.status == (crashed ? Status::Failed : Status::Analysed));
    if (crashed) CHECK_THAT(f.error, Catch::Contains("killed by SIGABRT"));
  }
  CHECK(pchs == std::vector<size_t>{1, 1, 1});  // still there after the crash (the second file)
  CHECK(!leftOver);                              // and removed when the run ends
}

TEST_CASE("a caller with threads of its own gets the records in process (fork would be unsafe)") {
  analysis::AnalysisRequest request;
  request.inputs = {std::string(COALESCE_SOURCE_DIR) + "/kernels/examples/global_stride2.cu"};
  const AnalysisResult reference = analysis::analyze(request);
  request.isolateFiles = true;
  setenv("COALESCE_TEST_CRASH_ON", "global_stride2", 1);  // would fail the file in a child
  std::atomic<bool> stop = false;
  std::thread other([&] {
    while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  const AnalysisResult r = analysis::analyze(request);
  stop = true;
  other.join();
  unsetenv("COALESCE_TEST_CRASH_ON");
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].status == Status::Analysed);
  CHECK(analysis::recordsToJson(r) == analysis::recordsToJson(reference));
}

// Memory (docs/analysis-speed.md, "Memory"): a record list grown by push_back holds up to
// twice its records (an AccessSite is about 1.4 KB), and both buffers while it moves them;
// the run's lists are sized to the records they take, in process and through a worker.
TEST_CASE("the run's record lists are sized to their records, not doubled") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("coalesce-capacity-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "unrolled.cu";
  {
    // 1,024 loads through nested macros (bench/access_scaling.py's kernel) and one store:
    // 1,025 accesses, which doubling would give room for 2,048.
    std::ofstream out(file);
    out << "#define L1(b) acc += in[(b) * 1024 + idx];\n";
    for (int size = 1; size < 1024; size *= 2)
      out << "#define L" << size * 2 << "(b) L" << size << "(b) L" << size << "((b) + " << size << ")\n";
    out << "__global__ void unrolled(const float* __restrict__ in, float* __restrict__ out) {\n"
           "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n  float acc = 0.0f;\n  L1024(0)\n"
           "  out[idx] = acc;\n}\n"
           "void launch(const float* in, float* out) { unrolled<<<64, 256>>>(in, out); }\n";
  }
  analysis::AnalysisRequest request;
  request.inputs = {file.string()};
  for (const bool isolated : {false, true}) {
    INFO("worker processes: " << isolated);
    request.isolateFiles = isolated;
    const AnalysisResult r = analysis::analyze(request);
    REQUIRE(r.files.size() == 1);
    CHECK(r.files[0].status == Status::Analysed);
    REQUIRE(r.accesses.size() == 1025);
    CHECK(r.accesses.capacity() == r.accesses.size());
  }
  fs::remove_all(dir);
}
