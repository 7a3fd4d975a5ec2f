// Command lines: nvcc and Clang flag translation, compile_commands.json, input expansion,
// and the final argument vector.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "coalesce/analysis/builtin_files.h"
#include "coalesce/analysis/command_line.h"
#include "skip_test.h"
#include "temp_dir.h"

using namespace coalesce;
using namespace coalesce::analysis;
using Args = std::vector<std::string>;
namespace fs = std::filesystem;

namespace {

bool contains(const Args& args, const std::string& s) { return std::find(args.begin(), args.end(), s) != args.end(); }

bool anyContains(const Args& args, const std::string& part) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) { return a.find(part) != std::string::npos; });
}

// Index of `s` in `args`, or args.size().
size_t indexOf(const Args& args, const std::string& s) {
  return static_cast<size_t>(std::find(args.begin(), args.end(), s) - args.begin());
}

// Runs collectJobs from `dir` as the working directory, as the CLI would.
struct InDirectory {
  explicit InDirectory(const fs::path& dir) : saved(fs::current_path()) { fs::current_path(dir); }
  ~InDirectory() { fs::current_path(saved); }
  fs::path saved;
};

Toolchain fakeRealToolchain() {
  Toolchain tc;
  tc.resourceDir = "/res";
  tc.cudaPath = "/opt/cuda";
  tc.cudaVersion = "13.0";
  tc.hasCccl = true;
  tc.gpuArch = "sm_80";
  return tc;
}

}  // namespace

// ---- nvcc -------------------------------------------------------------------------------

TEST_CASE("a CMake nvcc command line keeps only what shapes the parse", "[command_line][nvcc]") {
  const Args cmd = {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DFOO=1", "-I/abs/inc",
                    "-Irel/inc", "-isystem=/sys/inc", "-O3", "-DNDEBUG",
                    "--generate-code=arch=compute_80,code=[compute_80,sm_80]", "-Xcompiler=-fPIC,-DHOSTDEF",
                    "-std=c++17", "-x", "cu", "-rdc=true", "-c", "/src/a.cu", "-o", "CMakeFiles/a.o", "-MD", "-MT",
                    "CMakeFiles/a.o", "-MF", "CMakeFiles/a.o.d", "--expt-relaxed-constexpr", "--expt-extended-lambda",
                    "--use_fast_math", "-Xptxas", "-v", "-ccbin", "/usr/bin/g++", "-Werror", "all-warnings",
                    "-Wno-deprecated-gpu-targets", "-gencode", "arch=compute_90,code=sm_90", "-arch=sm_90", "-code",
                    "sm_90", "-lineinfo", "-fPIC", "-Wall"};
  const TranslatedFlags t = translateCompileCommand(cmd, "/build");
  CHECK(t.error.empty());
  CHECK(t.kept == Args{"-DFOO=1", "-I/abs/inc", "-I/build/rel/inc", "-isystem", "/sys/inc", "-DNDEBUG", "-DHOSTDEF",
                       "-std=c++17", "-fgpu-rdc", "-fcuda-approx-transcendentals"});
  // Everything else is accounted for as dropped, none of it leaking into the parse.
  for (const char* gone : {"-O3", "-c", "/src/a.cu", "-MD", "-MF", "-lineinfo", "-fPIC", "-Wall", "-ccbin",
                           "-Xptxas", "-Wno-deprecated-gpu-targets", "--expt-relaxed-constexpr"})
    CHECK(anyContains(t.dropped, gone));
  CHECK_FALSE(anyContains(t.kept, "sm_"));
  CHECK_FALSE(contains(t.kept, "all-warnings"));
}

TEST_CASE("nvcc long option names, '=' and list values translate alike", "[command_line][nvcc]") {
  coalesce::test::TempDir dir;
  dir.write("pre.h", "");
  const Args cmd = {"nvcc", "--include-path=/a,/b", "--define-macro", "X", "--undefine-macro=Y", "--system-include",
                    "/s", "--pre-include", "pre.h", "--std", "c++14", "--relocatable-device-code=false",
                    "--compiler-bindir=/usr/bin", "--gpu-architecture", "sm_70", "--output-file", "-DNOT_A_MACRO"};
  const TranslatedFlags t = translateCompileCommand(cmd, dir.str());
  CHECK(t.kept == Args{"-I/a", "-I/b", "-DX", "-UY", "-isystem", "/s", "-include", dir.str("pre.h"), "-std=c++14"});
}

TEST_CASE("nvcc -Werror takes a warning kind only when one follows", "[command_line][nvcc]") {
  CHECK(translateCompileCommand({"nvcc", "-Werror", "cross-execution-space-call,reorder", "-DA"}, "/").kept ==
        Args{"-DA"});
  CHECK(translateCompileCommand({"nvcc", "-Werror", "-DA"}, "/").kept == Args{"-DA"});
  CHECK(translateCompileCommand({"nvcc", "-Werror=all-warnings", "-DB"}, "/").kept == Args{"-DB"});
}

TEST_CASE("nvcc -Xcompiler contributes only preprocessor flags", "[command_line][nvcc]") {
  const TranslatedFlags t =
      translateCompileCommand({"nvcc", "-Xcompiler", "-fopenmp,-O2", "-Xcompiler", "-Wall -DA=1 -Iinc", "--compiler-options=-std=gnu++14"}, "/w");
  CHECK(t.kept == Args{"-DA=1", "-I/w/inc"});  // the host's -std is not the device pass's
  CHECK(anyContains(t.dropped, "-fopenmp"));
}

TEST_CASE("nvcc mode switches: -dc, --default-stream, -x", "[command_line][nvcc]") {
  CHECK(translateCompileCommand({"nvcc", "-dc", "a.cu"}, "/").kept == Args{"-fgpu-rdc"});
  CHECK(translateCompileCommand({"nvcc", "--default-stream", "per-thread"}, "/").kept ==
        Args{"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"});
  CHECK(translateCompileCommand({"nvcc", "--default-stream=legacy"}, "/").kept.empty());
  CHECK(translateCompileCommand({"nvcc", "-x", "cu", "-M", "-E"}, "/").kept.empty());
}

TEST_CASE("nvcc --options-file and @file are read relative to the entry's directory", "[command_line][nvcc]") {
  coalesce::test::TempDir dir;
  dir.write("opts.txt", "-DFROMFILE \"-I/with space\" -gencode arch=compute_80,code=sm_80\n");
  dir.write("more.rsp", "-DFROMRSP\n");
  const TranslatedFlags t = translateCompileCommand({"nvcc", "--options-file", "opts.txt", "@more.rsp"}, dir.str());
  CHECK(t.error.empty());
  CHECK(t.kept == Args{"-DFROMFILE", "-I/with space", "-DFROMRSP"});

  const TranslatedFlags missing = translateCompileCommand({"nvcc", "-optf", "nope.txt"}, dir.str());
  CHECK_THAT(missing.error, Catch::Contains("nope.txt"));
}

TEST_CASE("compiler launchers are skipped to find the compiler family", "[command_line]") {
  CHECK(compilerFamily({"ccache", "/usr/local/cuda/bin/nvcc", "-DX"}) == CompilerFamily::Nvcc);
  CHECK(compilerFamily({"/usr/bin/clang++", "-x", "cuda"}) == CompilerFamily::ClangOrGcc);
  CHECK(translateCompileCommand({"sccache", "nvcc", "-isystem=/x"}, "/").kept == Args{"-isystem", "/x"});
}

// ---- Clang / GCC ------------------------------------------------------------------------

TEST_CASE("a Clang CUDA command line keeps preprocessor flags and drops the rest", "[command_line][clang]") {
  const Args cmd = {"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_80", "--cuda-path=/opt/cuda", "-I", "inc",
                    "-isystem", "/s", "-Xclang", "-DNOPE", "-DYES", "-std=c++20", "-o", "a.o", "-MF", "a.d", "-fPIC",
                    "-O2", "-Wall", "-fgpu-rdc", "--sysroot=/sr", "-isystem/j", "-iquote", "q", "-c", "a.cu"};
  const TranslatedFlags t = translateCompileCommand(cmd, "/b");
  CHECK(t.kept == Args{"-I/b/inc", "-isystem", "/s", "-DYES", "-std=c++20", "-fgpu-rdc", "--sysroot=/sr", "-isystem",
                       "/j", "-iquote", "/b/q"});
  CHECK_FALSE(contains(t.kept, "-DNOPE"));  // a -Xclang value is not an option of ours
}

// ---- final argument vector ----------------------------------------------------------------

TEST_CASE("the argument vector for a toolkit", "[command_line][arguments]") {
  const Args a = buildClangArguments(fakeRealToolchain(), {"-DUSER", "-include", "user.h"}, {"-DEXTRA"}, "k.cu");
  CHECK(a.front() == "clang++");
  CHECK(a.back() == "k.cu");
  for (const char* s : {"--cuda-device-only", "-fsyntax-only", "--cuda-gpu-arch=sm_80", "--cuda-path=/opt/cuda",
                        "/opt/cuda/include/cccl", "-Wno-unknown-cuda-version", "-ferror-limit=0",
                        "-fno-spell-checking"})
    CHECK(contains(a, s));
  // -nocudalib would stop the driver from passing the CUDA version to the parser.
  CHECK_FALSE(contains(a, "-nocudalib"));
  CHECK(a[indexOf(a, "-resource-dir") + 1] == "/res");
  CHECK(a[indexOf(a, "-idirafter") + 1] == shimIncludeDir());
  CHECK_FALSE(contains(a, "-nocudainc"));
  // The prelude comes before the user's own pre-includes; extra arguments after the database's.
  CHECK(indexOf(a, preludePath()) < indexOf(a, "user.h"));
  CHECK(indexOf(a, "-DUSER") < indexOf(a, "-DEXTRA"));
  CHECK(indexOf(a, "-DEXTRA") < indexOf(a, "k.cu"));
  CHECK(indexOf(a, "-x") < indexOf(a, "k.cu"));
}

TEST_CASE("the argument vector without a CCCL folder has no -isystem for it", "[command_line][arguments]") {
  Toolchain tc = fakeRealToolchain();
  tc.hasCccl = false;
  CHECK_FALSE(anyContains(buildClangArguments(tc, {}, {}, "k.cu"), "cccl"));
}

TEST_CASE("the argument vector in built-in headers mode", "[command_line][arguments]") {
  Toolchain tc;
  tc.resourceDir = "/res";
  tc.builtinCuda = true;
  const Args a = buildClangArguments(tc, {}, {}, "k.cu");
  CHECK(contains(a, "-nocudainc"));
  CHECK(contains(a, "-nocudalib"));
  CHECK(contains(a, "--cuda-path=" + builtinCudaRoot()));
  CHECK(contains(a, builtinCudaIncludeDir() + "/cuda_runtime.h"));
  CHECK(indexOf(a, builtinCudaIncludeDir() + "/cuda_runtime.h") < indexOf(a, preludePath()));
  CHECK_FALSE(anyContains(a, "cccl"));
}

// ---- compile_commands.json ----------------------------------------------------------------

namespace {
// What CMake writes for a CUDA project built with nvcc, plus a C++ file and an "arguments" entry.
std::string cmakeDatabase(const std::string& root) {
  return R"([
{
  "directory": ")" + root + R"(/build",
  "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DKERNELS_DEF -I)" + root +
         R"(/include -isystem=/opt/thirdparty --generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC -std=c++17 -x cu -c )" +
         root + R"(/src/a.cu -o CMakeFiles/k.dir/src/a.cu.o",
  "file": ")" + root + R"(/src/a.cu",
  "output": "CMakeFiles/k.dir/src/a.cu.o"
},
{
  "directory": ")" + root + R"(/build",
  "command": "/usr/bin/c++ -DHOST_ONLY -O2 -o CMakeFiles/h.dir/main.cpp.o -c )" + root + R"(/src/main.cpp",
  "file": ")" + root + R"(/src/main.cpp"
},
{
  "directory": ")" + root + R"(/build",
  "arguments": ["/usr/local/cuda/bin/nvcc", "-DSECOND", "-Irelative", "-c", "../src/deep/b.cu"],
  "file": "../src/deep/b.cu"
}
])";
}
}  // namespace

TEST_CASE("a CMake compile_commands.json with nvcc entries becomes one job per CUDA file", "[command_line][database]") {
  coalesce::test::TempDir dir;
  dir.write("build/compile_commands.json", cmakeDatabase(dir.str()));
  dir.write("src/a.cu", "");
  dir.write("src/deep/b.cu", "");

  const CompilationDatabase db = loadCompilationDatabase(dir.str("build"));
  REQUIRE(db.error.empty());
  CHECK(db.entries.size() == 3);

  AnalysisRequest request;
  request.buildDir = dir.str("build");
  std::vector<FileRecord> failures;
  const std::vector<CompileJob> jobs = collectJobs(request, fakeRealToolchain(), failures);
  CHECK(failures.empty());
  REQUIRE(jobs.size() == 2);  // main.cpp is host code compiled by c++: not ours

  CHECK(jobs[0].file == dir.str("src/a.cu"));
  CHECK(jobs[0].directory == dir.str("build"));
  CHECK(jobs[0].arguments.back() == dir.str("src/a.cu"));
  CHECK(contains(jobs[0].arguments, "-DKERNELS_DEF"));
  CHECK(contains(jobs[0].arguments, "-I" + dir.str("include")));
  CHECK(contains(jobs[0].arguments, "/opt/thirdparty"));
  CHECK(contains(jobs[0].arguments, "-std=c++17"));
  CHECK_FALSE(anyContains(jobs[0].arguments, "compute_80"));
  CHECK_FALSE(anyContains(jobs[0].arguments, "-fPIC"));

  CHECK(jobs[1].file == "../src/deep/b.cu");  // as the database spells it, relative to its directory
  CHECK(jobs[1].arguments.back() == "../src/deep/b.cu");
  CHECK(contains(jobs[1].arguments, "-I" + dir.str("build/relative")));
}

TEST_CASE("an input missing from the database borrows its nearest neighbour's flags", "[command_line][database]") {
  coalesce::test::TempDir dir;
  dir.write("build/compile_commands.json", cmakeDatabase(dir.str()));
  dir.write("src/a.cu", "");
  dir.write("src/deep/b.cu", "");
  dir.write("src/deep/helpers.cuh", "");
  dir.write("src/new.cu", "");

  AnalysisRequest request;
  request.buildDir = dir.str("build");
  request.inputs = {"src/deep/helpers.cuh", "src/new.cu", "src/a.cu"};
  std::vector<FileRecord> failures;
  std::vector<CompileJob> jobs;
  {
    InDirectory cwd(dir.path());
    jobs = collectJobs(request, fakeRealToolchain(), failures);
  }
  CHECK(failures.empty());
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].file == "src/deep/helpers.cuh");
  CHECK(contains(jobs[0].arguments, "-DSECOND"));   // b.cu is its neighbour
  CHECK(contains(jobs[1].arguments, "-DKERNELS_DEF"));  // a.cu is new.cu's
  CHECK(jobs[2].file == "src/a.cu");                 // its own entry: run from the build folder
  CHECK(jobs[2].directory == dir.str("build"));
  CHECK(jobs[2].arguments.back() == dir.str("src/a.cu"));
}

TEST_CASE("a malformed compilation database is one clear line and no job", "[command_line][database]") {
  coalesce::test::TempDir dir;
  AnalysisRequest request;
  request.buildDir = dir.str();
  request.inputs = {dir.write("k.cu", "")};

  SECTION("missing") {
    std::vector<FileRecord> failures;
    CHECK(collectJobs(request, fakeRealToolchain(), failures).empty());
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].status == Status::Failed);
    CHECK_THAT(failures[0].error, Catch::Contains("compile_commands.json") && Catch::Contains("cannot read"));
  }
  SECTION("not JSON") {
    dir.write("compile_commands.json", "[{\"directory\": \"/x\",\n");
    const CompilationDatabase db = loadCompilationDatabase(dir.str());
    CHECK_THAT(db.error, Catch::Contains("invalid JSON"));
    CHECK(db.error.find('\n') == std::string::npos);
  }
  SECTION("wrong shape") {
    dir.write("compile_commands.json", R"([{"directory": "/x", "command": "nvcc -c k.cu"}])");
    std::vector<FileRecord> failures;
    CHECK(collectJobs(request, fakeRealToolchain(), failures).empty());
    REQUIRE(failures.size() == 1);
    CHECK_THAT(failures[0].error, Catch::Contains("entry 1 has no string \"file\""));
  }
  SECTION("no CUDA in it") {
    dir.write("compile_commands.json", R"([{"directory": "/x", "file": "m.cpp", "command": "c++ -c m.cpp"}])");
    request.inputs.clear();
    std::vector<FileRecord> failures;
    CHECK(collectJobs(request, fakeRealToolchain(), failures).empty());
    REQUIRE(failures.size() == 1);
    CHECK_THAT(failures[0].error, Catch::Contains("no CUDA source"));
  }
}

// ---- input expansion ----------------------------------------------------------------------

TEST_CASE("directories are searched recursively for .cu and .cuh, sorted", "[command_line][inputs]") {
  coalesce::test::TempDir dir;
  dir.write("b.cu", "");
  dir.write("a.cu", "");
  dir.write("sub/c.cuh", "");
  dir.write("sub/d.cpp", "");
  dir.write("CMakeFiles/3.28/CompilerIdCUDA/CMakeCUDACompilerId.cu", "");
  dir.write(".git/x.cu", "");
  fs::create_directory_symlink(dir.path(), dir.path() / "sub" / "loop");  // back up the tree
  fs::create_symlink(dir.path() / "nowhere.cu", dir.path() / "broken.cu");

  const ExpandedInputs in = expandInputs({dir.str(), dir.str("a.cu"), dir.str("sub/d.cpp"), dir.str("missing.cu")});
  CHECK(in.files == Args{dir.str("a.cu"), dir.str("b.cu"), dir.str("sub/c.cuh"), dir.str("sub/d.cpp")});
  REQUIRE(in.failures.size() == 2);
  CHECK(in.failures[0].path == dir.str("broken.cu"));
  CHECK_THAT(in.failures[0].error, Catch::Contains("broken symbolic link"));
  CHECK(in.failures[1].path == dir.str("missing.cu"));
  CHECK(in.failures[1].error == "no such file or directory");
}

TEST_CASE("an unreadable folder is reported and the rest still expanded", "[command_line][inputs]") {
  if (geteuid() == 0)
    COALESCE_SKIP_TEST("running as root, which reads any folder whatever its permissions");
  coalesce::test::TempDir dir;
  dir.write("ok.cu", "");
  dir.write("locked/x.cu", "");
  fs::permissions(dir.path() / "locked", fs::perms::none);
  const ExpandedInputs in = expandInputs({dir.str()});
  fs::permissions(dir.path() / "locked", fs::perms::owner_all);
  CHECK(in.files == Args{dir.str("ok.cu")});
  REQUIRE(in.failures.size() == 1);
  CHECK_THAT(in.failures[0].error, Catch::Contains("cannot read directory"));
}

TEST_CASE("plain files without a database become jobs with no extra flags", "[command_line]") {
  coalesce::test::TempDir dir;
  dir.write("k.cu", "");
  AnalysisRequest request;
  request.inputs = {"k.cu", "nope.cu"};
  request.extraArgs = {"-DFROM_CLI"};
  std::vector<FileRecord> failures;
  std::vector<CompileJob> jobs;
  {
    InDirectory cwd(dir.path());
    jobs = collectJobs(request, fakeRealToolchain(), failures);
  }
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].file == "k.cu");
  CHECK(fs::equivalent(jobs[0].directory, dir.path()));
  CHECK(jobs[0].arguments == buildClangArguments(fakeRealToolchain(), {}, {"-DFROM_CLI"}, "k.cu"));
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].path == "nope.cu");
}

// ---- inputs that other inputs include ---------------------------------------------------------

TEST_CASE("a .cu file that another input #includes is parsed with its includer", "[command_line][inputs]") {
  // The layout of many benchmark suites: main.cu defines the types, then includes the kernel
  // files, and only main.cu is compiled. Alone, a kernel file fails for want of those types.
  coalesce::test::TempDir dir;
  dir.write("app/main.cu", "typedef float fp;\n#include \"kernel.cu\"\n  #  include \"sub/more.cuh\"\n");
  dir.write("app/kernel.cu", "__global__ void k(fp* a) { a[threadIdx.x] = 0; }\n");
  dir.write("app/sub/more.cuh", "#include \"../deep.cu\" // relative to the header\n");
  dir.write("app/deep.cu", "__global__ void d(fp* a) { a[threadIdx.x] = 1; }\n");
  dir.write("app/alone.cu", "// #include \"kernel.cu\" is a comment here\n#include <cstdio>\n");
  dir.write("app/angled.cu", "#include <lib.cu>\n#include <near.cu>\n");
  dir.write("app/near.cu", "");  // Clang finds <near.cu> next to its includer, with an error
  dir.write("inc/lib.cu", "__global__ void l(float* a) {}\n");
  dir.write("app/cycle_a.cu", "#include \"cycle_b.cu\"\n");
  dir.write("app/cycle_b.cu", "#include \"cycle_a.cu\"\n");

  const Args files = expandInputs({dir.str("app"), dir.str("inc")}).files;
  const auto included = inputsIncludedByOthers(files, {});
  CHECK(included.size() == 4);
  CHECK(included.at(dir.str("app/near.cu")) == dir.str("app/angled.cu"));
  CHECK(included.at(dir.str("app/kernel.cu")) == dir.str("app/main.cu"));
  CHECK(included.at(dir.str("app/deep.cu")) == dir.str("app/main.cu"));    // through a header
  CHECK(included.at(dir.str("app/sub/more.cuh")) == dir.str("app/main.cu"));
  CHECK_FALSE(included.count(dir.str("inc/lib.cu")));   // <lib.cu> is found only with -I
  CHECK_FALSE(included.count(dir.str("app/cycle_a.cu")));  // a cycle with no outside includer
  CHECK_FALSE(included.count(dir.str("app/cycle_b.cu")));

  const auto withInc = inputsIncludedByOthers(files, {dir.str("inc")});
  CHECK(withInc.at(dir.str("inc/lib.cu")) == dir.str("app/angled.cu"));
}

TEST_CASE("an included input gets no job, and a record naming its includer", "[command_line][inputs]") {
  coalesce::test::TempDir dir;
  dir.write("main.cu", "#include \"kernel.cu\"\n");
  dir.write("kernel.cu", "__global__ void k(float* a) {}\n");
  AnalysisRequest request;
  request.inputs = {"."};
  std::vector<FileRecord> records;
  std::vector<CompileJob> jobs;
  {
    InDirectory cwd(dir.path());
    jobs = collectJobs(request, fakeRealToolchain(), records);
  }
  REQUIRE(jobs.size() == 1);
  CHECK(fs::path(jobs[0].file).filename() == "main.cu");
  REQUIRE(records.size() == 1);
  CHECK(fs::path(records[0].path).filename() == "kernel.cu");
  CHECK(records[0].status == Status::Analysed);
  REQUIRE(records[0].diagnostics.size() == 1);
  CHECK_THAT(records[0].diagnostics[0], Catch::Contains("main.cu includes it"));

  // Named alone, the same file is analysed on its own: nothing else includes it.
  request.inputs = {"kernel.cu"};
  records.clear();
  {
    InDirectory cwd(dir.path());
    jobs = collectJobs(request, fakeRealToolchain(), records);
  }
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].file == "kernel.cu");
  CHECK(records.empty());
}

TEST_CASE("a file the database lists is a job even when another input includes it", "[command_line][inputs]") {
  coalesce::test::TempDir dir;
  dir.write("main.cu", "#include \"kernel.cu\"\n");
  dir.write("kernel.cu", "");
  dir.write("build/compile_commands.json",
            "[{\"directory\": \"" + dir.str() + "\", \"file\": \"kernel.cu\", \"command\": \"nvcc -c kernel.cu\"}]");
  AnalysisRequest request;
  request.buildDir = dir.str("build");
  request.inputs = {"main.cu", "kernel.cu"};
  std::vector<FileRecord> records;
  std::vector<CompileJob> jobs;
  {
    InDirectory cwd(dir.path());
    jobs = collectJobs(request, fakeRealToolchain(), records);
  }
  CHECK(jobs.size() == 2);
  CHECK(records.empty());
}
