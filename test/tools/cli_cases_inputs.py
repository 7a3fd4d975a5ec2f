"""Cases of test/tools/cli_tests.py: hostile inputs and crash containment (docs/reliability.md)."""
from cli_harness import *  # noqa: F401,F403 (the cases use the harness's helpers and imports)


# ---- hostile inputs (docs/reliability.md) --------------------------------------------------------

@case("bad-input: empty file")
def _(tmp):
    write(tmp, "empty.cu", "")
    write(tmp, "good.cu", GOOD)
    r = lint("empty.cu", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_message(r, "note", "empty.cu", "no kernel")
    expect_good_reported(r)
    expect_summary(r, 2)


@case("bad-input: a file whose kernels are in a file it includes gets no 'no kernel' note")
def _(tmp):
    # Rodinia's unity builds (srad.cu includes srad_kernel.cu): the kernels are the unit's.
    write(tmp, "good.cu", GOOD)
    write(tmp, "unity.cu", '#include "good.cu"\nint main() { return 0; }\n')
    r = lint("unity.cu", cwd=tmp)
    check(not any("no kernel" in line for line in r.err_lines()), "a 'no kernel' note for unity.cu", r)
    expect_good_reported(r)
    expect_clean_stderr(r)


@case("bad-input: binary file")
def _(tmp):
    data = bytes((i * 131 + 7) % 256 for i in range(8192)) + b"\0\0\xff\xfe" * 256
    write(tmp, "binary.cu", data, mode="wb")
    write(tmp, "good.cu", GOOD)
    r = lint("binary.cu", "good.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "binary.cu", r"error")
    expect_good_reported(r)
    expect_summary(r, 2, failed=1)


@case("bad-input: source text that is not UTF-8")
def _(tmp):
    # A Latin-1 comment on the flagged line: every format still writes valid output.
    write(tmp, "latin1.cu", GOOD.replace("in[2 * i];", "in[2 * i];  // d\xe9cimation").encode("latin-1"), mode="wb")
    for fmt in ("text", "json", "sarif"):
        r = lint("-q", "--format", fmt, "latin1.cu", cwd=tmp)
        expect_rc(r, 1)
        check("[uncoalesced-global-access]" in r.out or "uncoalesced-global-access" in r.out, f"{fmt}: no finding", r)
        if fmt != "text":
            r.json()
    r = lint("--write-baseline", "base.json", "latin1.cu", cwd=tmp)
    expect_rc(r, 1)
    r = lint("--baseline", "base.json", "latin1.cu", cwd=tmp)
    expect_rc(r, 0)  # the baseline written from that line matches it again


@case("bad-input: plain C++ without a kernel")
def _(tmp):
    write(tmp, "plain.cpp", "#include <vector>\nint sum(const std::vector<int>& v) {\n"
                            "  int s = 0;\n  for (int x : v) s += x;\n  return s;\n}\n")
    write(tmp, "good.cu", GOOD)
    r = lint("plain.cpp", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_message(r, "note", "plain.cpp", "no kernel")
    expect_good_reported(r)
    expect_summary(r, 2)


@case("bad-input: syntax errors")
def _(tmp):
    write(tmp, "syntax.cu", "__global__ void broken(float* a) {\n  a[threadIdx.x] = 1.0f +;\n  if (\n}\n")
    write(tmp, "good.cu", GOOD)
    r = lint("syntax.cu", "good.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "syntax.cu", "expected expression")
    expect_good_reported(r)
    expect_summary(r, 2, failed=1)


@case("bad-input: missing include")
def _(tmp):
    # The kernel does not need the header: it is analysed, and the missing header is named
    # in a warning (errors outside the analysed kernels do not change the exit code).
    write(tmp, "missing.cu", '#include "does_not_exist.h"\n__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n')
    write(tmp, "good.cu", GOOD)
    r = lint("missing.cu", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_message(r, "warning", "missing.cu", "error: 'does_not_exist.h' file not found")
    expect_good_reported(r)
    expect_summary(r, 2)


@case("bad-input: missing include that a kernel needs")
def _(tmp):
    # Clang reports nothing after a fatal error but goes on parsing, dropping what it cannot
    # make sense of: the kernel that uses the header's names came out "analysed" with its
    # access gone. A missing header is now a plain error: that kernel fails with the reason,
    # the one that does not need the header is still analysed, the file's other errors are
    # named in a warning.
    write(tmp, "needs.cu", '#include "params.h"\n'
                           '__global__ void uses(float* p) { p[threadIdx.x * STRIDE] = scale(1.0f); }\n'
                           '__global__ void fine(float* p) { p[threadIdx.x * 2] = 1.0f; }\n')
    r = lint("--format=json", "needs.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "needs.cu:2", r"kernel 'uses' not analysed: needs.cu:2: use of undeclared identifier 'STRIDE'")
    expect_message(r, "warning", "needs.cu", "error: 'params.h' file not found")
    kernels = {k["name"]: k for k in r.json()["kernels"]}
    check(kernels["uses"]["status"] == "failed", "the kernel that needs the header was not failed", r)
    check(kernels["fine"]["status"] == "analysed" and kernels["fine"]["accesses"] == 1,
          "the kernel that does not need the header was not analysed", r)


@case("bad-input: names the build defines with -D")
def _(tmp):
    # Real code leaves BLOCK_SIZE or a `dfloat` typedef to the build's -D flags: the error
    # says which names are missing and how to pass them; with them the file is analysed.
    write(tmp, "defs.cu", "__global__ void k(dfloat* a) {\n"
                          "  __shared__ dfloat s[BLOCK_SIZE];\n"
                          "  s[threadIdx.x] = a[threadIdx.x];\n"
                          "  a[threadIdx.x] = s[BLOCK_SIZE - 1 - threadIdx.x];\n}\n")
    r = lint("defs.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "defs.cu", r"if the build defines 'dfloat' and 'BLOCK_SIZE', pass them after -- "
                                          r"\(coalesce-lint FILE -- -DBLOCK_SIZE=\.\.\.\)")
    r = lint("--format=json", "defs.cu", "--", "-Ddfloat=float", "-DBLOCK_SIZE=256", cwd=tmp)
    check(r.rc in (0, 1), "with the -D flags the file was not analysed", r)
    check(r.json()["kernels"][0]["status"] == "analysed" and r.json()["kernels"][0]["accesses"] == 4,
          "with the -D flags the kernel's four accesses were not analysed", r)


@case("bad-input: a type whose header an #ifdef of the build leaves out")
def _(tmp):
    # ASTRA's gpu_fft_wrapper.h includes <cufft.h> only under `#ifdef ASTRA_BUILDING_CUDA`
    # (blind panel 32's sweep): without the flag `cufftComplex` is unknown, and the plain hint
    # told the user to define cufftComplex. The hint names the flag that brings the header in
    # (build_hints.cpp); with it the file is analysed. An #ifdef'd header that does not declare
    # the name is not named.
    write(tmp, "inc/wrapper.h", "#pragma once\n#ifdef USE_OTHER\n#include \"other.h\"\n#endif\n"
                                "#ifdef BUILDING_WITH_FFT\n#include \"fftdefs.h\"\n#endif\n")
    write(tmp, "inc/fftdefs.h", "#pragma once\ntypedef float2 fftComplexT;\n")
    write(tmp, "inc/other.h", "#pragma once\ntypedef int unrelated_t;\n")
    write(tmp, "fft.cu", '#include "wrapper.h"\n'
                         "__global__ void scale(fftComplexT* a) { a[threadIdx.x].x *= 2.0f; }\n")
    r = lint("fft.cu", "--", "-Iinc", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "fft.cu", r"'fftComplexT' is declared in \"fftdefs.h\", which wrapper.h:6 includes only "
                                         r"when `BUILDING_WITH_FFT` is defined: if the build defines it, pass it after -- "
                                         r"\(coalesce-lint FILE -- -DBUILDING_WITH_FFT\)")
    check("USE_OTHER" not in r.out + r.err, "a guarded header without the name was named", r)
    r = lint("--format=json", "fft.cu", "--", "-Iinc", "-DBUILDING_WITH_FFT", cwd=tmp)
    check(r.rc in (0, 1), "with the flag the file was not analysed", r)
    check(r.json()["kernels"][0]["status"] == "analysed", "with the flag the kernel was not analysed", r)


@case("bad-input: a record with an invalid field")
def _(tmp):
    # Clang gives a record with an erroneous field a made-up layout: the kernel that reads it
    # used to be analysed with wrong strides. It fails with the reason; the other is analysed.
    write(tmp, "rec.cu", 'struct P { float x; unknown_t y; float z; };\n'
                         '__global__ void k(const P* in, float* out) { out[threadIdx.x] = in[threadIdx.x].z; }\n'
                         '__global__ void fine(float* p) { p[threadIdx.x * 2] = 1.0f; }\n')
    r = lint("--format=json", "rec.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "rec.cu:2", r"kernel 'k' not analysed: uses 'P', whose declaration has errors \(rec.cu:1\)")
    kernels = {k["name"]: k for k in r.json()["kernels"]}
    check(kernels["k"]["status"] == "failed", "the kernel reading the invalid record was not failed", r)
    check(kernels["fine"]["status"] == "analysed", "the other kernel was not analysed", r)


@case("bad-input: #error")
def _(tmp):
    # Inside a kernel: that kernel and its file fail (exit 3), the reason named.
    write(tmp, "refuses.cu", '__global__ void k(float* a) {\n#ifndef TILE\n#error "TILE must be set"\n#endif\n'
                             '  a[threadIdx.x] = 1.0f;\n}\n')
    # Outside any kernel: a warning, the kernel analysed; launched nowhere in host code that had
    # an error, its finding is a note saying a launch may not have been read (launch_level.cpp).
    write(tmp, "hostonly.cu", '#error "host configuration missing"\n'
                              '__global__ void k(float* a) { a[2 * threadIdx.x] = 1.0f; }\n')
    write(tmp, "good.cu", GOOD)
    r = lint("refuses.cu", "hostonly.cu", "good.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "refuses.cu", "TILE must be set")
    expect_message(r, "warning", "hostonly.cu", "host configuration missing")
    check("hostonly.cu:2:31: note: store" in r.out, "hostonly.cu's kernel not reported", r)
    check("no launch of k was found in hostonly.cu, but its host code has 1 error" in r.out,
          "hostonly.cu's note does not say its launch may be in code that did not parse", r)
    expect_good_reported(r)
    expect_summary(r, 3, failed=1)


@case("bad-input: unreadable files (dangling link, FIFO)")
def _(tmp):
    # Root reads through chmod 000, so unreadable means: a link to nothing, and a FIFO,
    # which would block any open() forever (it used to hang the whole run).
    write(tmp, "tree/good.cu", GOOD.replace("good", "good"))
    os.symlink("nowhere.cu", os.path.join(tmp, "tree", "dangling.cu"))
    os.mkfifo(os.path.join(tmp, "tree", "pipe.cu"))
    os.mkfifo(os.path.join(tmp, "named.cu"))
    write(tmp, "good.cu", GOOD)
    r = lint("tree", "named.cu", os.path.join("tree", "dangling.cu"), "good.cu", cwd=tmp, limit=60)
    expect_rc(r, 3)
    expect_message(r, "error", "tree/pipe.cu", r"not a regular file \(a FIFO\)")
    expect_message(r, "error", "named.cu", r"not a regular file \(a FIFO\)")
    expect_message(r, "error", "tree/dangling.cu", "broken symbolic link|no such file")
    expect_good_reported(r, times=2)  # good.cu and tree/good.cu


@case("bad-input: symbolic link loops in a directory")
def _(tmp):
    write(tmp, "tree/good.cu", GOOD)
    os.makedirs(os.path.join(tmp, "tree", "sub"))
    os.symlink("..", os.path.join(tmp, "tree", "sub", "up"))           # a folder loop
    os.symlink("loop_b.cu", os.path.join(tmp, "tree", "loop_a.cu"))   # a file loop
    os.symlink("loop_a.cu", os.path.join(tmp, "tree", "loop_b.cu"))
    r = lint("tree", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "tree/loop_a.cu", "symbolic link")
    expect_message(r, "error", "tree/loop_b.cu", "symbolic link")
    expect_good_reported(r, times=1)  # the folder loop is walked once


@case("bad-input: a 100,000-line file")
def _(tmp):
    lines = ["__global__ void big(float* __restrict__ out, const float* __restrict__ in) {",
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;", "  int acc = 0;"]
    # Signed int additions: long, and no arithmetic the kernel's time floor counts (a float
    # chain of 50,000 adds would outlast the load, which would rightly be a note).
    lines += ["  acc += 1;" if k % 2 else f"  // filler line {k}" for k in range(99995)]
    lines += ["  out[i] = acc + in[4 * i];", "}"]
    write(tmp, "big.cu", "\n".join(lines) + "\n")
    write(tmp, "good.cu", GOOD)
    check(sum(1 for _ in open(os.path.join(tmp, "big.cu"))) >= 100000, "the generated file is too short")
    r = lint("big.cu", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    check(re.search(r"big\.cu:99999:\d+: warning: load of 'in\[4 \* i\]' uses 16 sectors", r.out),
          "the access on line 99,999 is not reported", r)
    expect_good_reported(r)
    expect_clean_stderr(r)


@case("bad-input: deeply nested macros")
def _(tmp):
    # 300 nested macro expansions, each adding a bracket: Clang's limit is 256.
    text = "#define M0(x) (x)\n" + "".join(f"#define M{k}(x) M{k - 1}((x) + 0)\n" for k in range(1, 300))
    text += "__global__ void mac(float* a) { a[M299(threadIdx.x)] = 1.0f; }\n"
    write(tmp, "macros.cu", text)
    # 200 nested macros that expand fine.
    text2 = "#define N0(x) x\n" + "".join(f"#define N{k}(x) N{k - 1}(x)\n" for k in range(1, 200))
    text2 += "__global__ void deep(float* a) { a[N199(2 * threadIdx.x)] = 1.0f; }\n"
    write(tmp, "deepok.cu", text2)
    write(tmp, "good.cu", GOOD)
    r = lint("macros.cu", "deepok.cu", "good.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "macros.cu", "bracket nesting level exceeded")
    check(re.search(r"deepok\.cu:\d+:\d+: warning: store of 'a\[N199\(2 \* threadIdx\.x\)\]' uses 8 sectors", r.out),
          "deepok.cu's access is not reported", r)
    expect_good_reported(r)


@case("bad-input: deeply nested templates")
def _(tmp):
    # Legal depth (600 < 1024): analysed. Too deep (5000): Clang's error, named.
    write(tmp, "tdeep.cu", "template <int N> struct D { static constexpr int v = D<N - 1>::v + 1; };\n"
                           "template <> struct D<0> { static constexpr int v = 0; };\n"
                           "__global__ void t(float* a) { a[threadIdx.x * (D<600>::v / 300)] = 1.0f; }\n")
    write(tmp, "ttoodeep.cu", "template <int N> struct E { static constexpr int v = E<N - 1>::v + 1; };\n"
                              "template <> struct E<0> { static constexpr int v = 0; };\n"
                              "constexpr int kDeep = E<5000>::v;\n"
                              "__global__ void u(float* a) { a[threadIdx.x] = 1.0f; }\n")
    write(tmp, "good.cu", GOOD)
    r = lint("tdeep.cu", "ttoodeep.cu", "good.cu", cwd=tmp)
    check(re.search(r"tdeep\.cu:3:\d+: warning: store of .* uses 8 sectors", r.out), "tdeep.cu's access not reported", r)
    # The error is outside the kernel: a warning, the kernel analysed, the exit code from
    # the findings; an error line would mean the file failed, exit 3. Either way it is named.
    warned = [l for l in r.err_lines() if l.startswith("coalesce-lint: warning: ttoodeep.cu: ")]
    failed = [l for l in r.err_lines() if l.startswith("coalesce-lint: error: ttoodeep.cu")]
    check(warned or failed, "ttoodeep.cu's error is not named", r)
    check(any("recursive template instantiation exceeded maximum depth" in l for l in warned + failed),
          "the reason (template depth) is not given", r)
    expect_rc(r, 3 if failed else 1)
    expect_clean_stderr(r)
    expect_good_reported(r)


@case("bad-input: a kernel with 10,000 accesses")
def _(tmp):
    # 16 KiB apart: no two accesses share or touch a sector, so none is judged with another
    # (accesses served together form one group, docs/findings.md) and each keeps its finding.
    body = "".join(f"  acc += in[{2 + k % 7} * i + {k * 4096}];\n" for k in range(10000))
    write(tmp, "many.cu", "__global__ void many(float* __restrict__ out, const float* __restrict__ in) {\n"
                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float acc = 0.0f;\n" + body +
                          "  out[i] = acc;\n}\n")
    write(tmp, "good.cu", GOOD)
    r = lint("-q", "--format=json", "many.cu", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    d = r.json()
    many = [a for a in d["accesses"] if a["file"] == "many.cu"]
    check(len(many) == 10001, f"{len(many)} accesses of many.cu, expected 10,001", r)
    flagged = [f for f in d["findings"] if f["file"] == "many.cu" and f["rule"] == "uncoalesced-global-access"]
    check(len(flagged) == 10000, f"{len(flagged)} findings in many.cu, expected 10,000", r)
    check(any(f["file"] == "good.cu" for f in d["findings"]), "good.cu's finding is missing", r)


@case("bad-input: invalid configuration files")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    write(tmp, "broken.yaml", "Checks: [unclosed\nMinEfficiency: abc\n")
    usage_error(lint("--config", "broken.yaml", "good.cu", cwd=tmp), "broken.yaml:1:")
    write(tmp, "range.yaml", "MinEfficiency: 2\n")
    usage_error(lint("--config", "range.yaml", "good.cu", cwd=tmp), "range.yaml:1:16: MinEfficiency must be between")
    write(tmp, "typo.yaml", "Chekcs: '*'\n")
    usage_error(lint("--config", "typo.yaml", "good.cu", cwd=tmp), "unknown key 'Chekcs'; did you mean 'Checks'?")
    write(tmp, "binary.yaml", "\0\1\2\xff", mode="w")
    usage_error(lint("--config", "binary.yaml", "good.cu", cwd=tmp), "binary.yaml")
    usage_error(lint("--config", "absent.yaml", "good.cu", cwd=tmp), "absent.yaml: cannot read configuration")
    # Found by fuzzing: a YAML alias where a value belongs crashed the run (SIGSEGV); a key
    # that spans lines gave a two-line message.
    write(tmp, "alias.yaml", "#\nHeaderFilter: '.*'\nHeaderFilter: *''\\#c.\n% se>t")
    usage_error(lint("--config", "alias.yaml", "good.cu", cwd=tmp), "alias.yaml: YAML aliases (*name) are not supported")
    write(tmp, "key.yaml", "#\nExclude2 - x\n  uncoalesced-global-access.Severity: error\n")
    usage_error(lint("--config", "key.yaml", "good.cu", cwd=tmp), "key.yaml:")
    # Found by the lookup, not named: still a configuration error for the whole run.
    write(tmp, "sub/k.cu", GOOD)
    write(tmp, "sub/.coalesce-lint.yaml", "MaxConflictDegree: zero\n")
    usage_error(lint("good.cu", "sub", cwd=tmp), "sub/.coalesce-lint.yaml:1:")


@case("bad-input: malformed compile_commands.json")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    write(tmp, "build/compile_commands.json", '[{"file": "good.cu", "directory": ')
    r = lint("-p", "build", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "build/compile_commands.json", "not a valid compilation database: invalid JSON")
    check(r.err.count("build/compile_commands.json") == 1, "the path is repeated in the message", r)
    # An entry without its directory: the whole database is refused (wrong flags would give
    # confident wrong answers), named with the entry.
    write(tmp, "build2/compile_commands.json",
          json.dumps([{"file": "good.cu", "directory": tmp, "command": "nvcc -c good.cu"}, {"file": "other.cu"}]))
    r = lint("-p", "build2", "good.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "build2/compile_commands.json", "entry 2 has no string \"directory\"")
    write(tmp, "build3/compile_commands.json", '{"not": "a list"}')
    r = lint("-p", "build3", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "build3/compile_commands.json", "not a valid compilation database")


@case("bad-input: baselines in the wrong format")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    write(tmp, "b.csv", "rule,path,line\nuncoalesced-global-access,good.cu,x\n")
    usage_error(lint("--baseline", "b.csv", "good.cu", cwd=tmp), "b.csv: not a coalesce-lint baseline")
    write(tmp, "b2.json", '{"version": 1, "entries": {"a": 1}}')
    usage_error(lint("--baseline", "b2.json", "good.cu", cwd=tmp), "b2.json: not a coalesce-lint baseline")
    write(tmp, "b3.json", '{"version": 7, "entries": []}')
    usage_error(lint("--baseline", "b3.json", "good.cu", cwd=tmp), "baseline version 7 is not supported")
    write(tmp, "b4.json", '{"version": 1, "entries": [{"rule": "x", "path": 3, "line_text": ""}]}')
    usage_error(lint("--baseline", "b4.json", "good.cu", cwd=tmp), "entry 0 needs strings")
    usage_error(lint("--baseline", "absent.json", "good.cu", cwd=tmp), "absent.json: cannot read baseline")
    # A count past an int used to wrap negative and silently never match.
    write(tmp, "b5.json", '{"version": 1, "entries": [{"rule": "uncoalesced-global-access", "path": "good.cu", '
                          '"line_text": "out[i] = in[2 * i];", "count": 4294967296}]}')
    usage_error(lint("--baseline", "b5.json", "good.cu", cwd=tmp), "entry 0 has a count above 1000000000")
    write(tmp, "b6.json", '{"version": 1, "entries": [{"rule": "uncoalesced-global-access", "path": "good.cu", '
                          '"line_text": "out[i] = in[2 * i];", "count": "2"}]}')
    usage_error(lint("--baseline", "b6.json", "good.cu", cwd=tmp), "entry 0 has a count that is not an integer")


@case("bad-input: options with wrong values")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    for args, mention in [
        (["--format", "xml"], "--format"),
        (["--arch", "sm_12"], "sm_12"),
        (["--block-dim", "0x8"], "--block-dim"),
        (["--block-dim", "64x64"], "--block-dim"),
        (["--assume", "width"], "--assume"),
        (["--assume", "width=wide"], "--assume"),
        (["--min-efficiency", "2"], "--min-efficiency"),
        (["--min-efficiency", "half"], "--min-efficiency"),
        (["--max-conflict-degree", "-1"], "--max-conflict-degree"),
        (["-j", "many"], "--jobs"),
        (["--file-timeout", "-3"], "--file-timeout"),
        (["--checks", "nosuch-rule"], "nosuch-rule"),
        (["--warnings-as-errors", "bogus"], "bogus"),
        (["--header-filter", "("], "HeaderFilter"),
        (["--explain", "good.cu:abc"], "--explain"),
        (["--no-such-option"], "--no-such-option"),
    ]:
        usage_error(lint(*args, "good.cu", cwd=tmp), mention)
    usage_error(lint(cwd=tmp), "no input")


# ---- crash containment (docs/reliability.md) ----------------------------------------------------

@case("containment: a worker that crashes")
def _(tmp):
    write(tmp, "crashme.cu", GOOD.replace("decimate", "victim"))
    write(tmp, "good.cu", GOOD)
    r = lint("crashme.cu", "good.cu", cwd=tmp, env={"COALESCE_TEST_CRASH_ON": "crashme"})
    expect_rc(r, 3)
    expect_message(r, "error", "crashme.cu", r"crashed: its worker process was killed by SIGABRT")
    expect_good_reported(r)
    expect_summary(r, 2, failed=1)
    check("victim" not in r.out, "the crashed file's kernel was reported", r)


@case("containment: a worker that hangs")
def _(tmp):
    write(tmp, "hangme.cu", GOOD.replace("decimate", "victim"))
    write(tmp, "good.cu", GOOD)
    mark = "COALESCE_CLI_TEST_MARK=" + tmp
    r = lint("--file-timeout", "3", "-j", "2", "hangme.cu", "good.cu", cwd=tmp,
             env={"COALESCE_TEST_HANG_ON": "hangme", "COALESCE_CLI_TEST_MARK": tmp})
    expect_rc(r, 3)
    expect_message(r, "error", "hangme.cu", r"timed out: not analysed within 3 s")
    expect_good_reported(r)
    check(r.seconds < 30, f"took {r.seconds:.1f} s with a 3 s limit", r)
    # The hung worker was killed, not left behind: no process carries this run's mark.
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if mark.encode() in f.read().split(b"\0"):
                    left.append(pid)
        except OSError:
            pass
    check(not left, f"processes of this run still alive: {left}", r)


@case("containment: the triggers are ignored in process")
def _(tmp):
    # --in-process has no worker to sacrifice: the triggers are worker-only, so this proves
    # they cannot fire in a normal run's own process.
    write(tmp, "crashme.cu", GOOD)
    r = lint("--in-process", "crashme.cu", cwd=tmp, env={"COALESCE_TEST_CRASH_ON": "crashme"})
    expect_rc(r, 1)
    check("crashme.cu:3:12: warning" in r.out, "the file was not analysed", r)


@case("containment: worker and in-process runs give identical records")
def _(tmp):
    src = os.path.join(SETTINGS.source_dir, "kernels", "examples")
    shutil.copytree(src, os.path.join(tmp, "examples"))
    a = lint("-q", "--format=json", "examples", cwd=tmp)
    b = lint("-q", "--format=json", "--in-process", "examples", cwd=tmp)
    check(a.rc == b.rc, f"exit codes differ: {a.rc} vs {b.rc}")
    da, db = a.json(), b.json()
    for d in (da, db):
        d["summary"].pop("seconds", None)
    check(len(da["accesses"]) > 100, "too few accesses to compare", a)
    check(da == db, "the JSON reports differ between worker and in-process runs")


# --launch-info: the launches `verify` recorded replace the analysis' guesses (issue #13).
LAUNCHED = ("__global__ void k(float* a, int stride, int n) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (i < n) a[i * stride] = 0.0f;\n}\n")


def launch_info(configs):
    import json
    return json.dumps({"schema": "coalesce-verify-measurements/1", "status": "ok", "sampling": "config",
                       "kernel_launches": 1, "launches_measured": 1, "launch_configs": configs,
                       "instructions": []})


def launch_config(args_hex, sizes, block=(128, 1, 1)):
    return {"kernel": "_Z1kPfii", "grid": [64, 1, 1], "block": list(block), "shared_bytes": 0, "args": args_hex,
            "arg_sizes": sizes, "launches": 1, "measured": True}


@case("launch info: recorded block and arguments replace the guesses")
def _(tmp):
    write(tmp, "k.cu", LAUNCHED)
    # a = 0x7f0000000000 (aligned), stride = 1, n = 1000000, little-endian.
    write(tmp, "run.json", launch_info([launch_config("00000000007f0000" + "01000000" + "40420f00", [8, 4, 4])]))
    guessed = lint("-q", "--format=json", "k.cu", cwd=tmp).json()
    recorded = lint("-q", "--format=json", "--launch-info", "run.json", "k.cu", cwd=tmp)
    expect_rc(recorded, 0)
    d = recorded.json()
    block = d["kernels"][0]["block"]
    check(block["x"] == 128 and "recorded by verify in run.json" in block["detail"], f"block {block}", recorded)
    store = [a for a in d["accesses"] if a["kind"] == "store"][0]
    check(store["sectors_per_request"] == 4, f"stride 1 gives 4 sectors per request, got {store}", recorded)
    before = [a for a in guessed["accesses"] if a["kind"] == "store"][0]
    check(before["sectors_per_request"] > 4, f"without it the stride is guessed: {before}", recorded)
    # A pointer 4 bytes past a 256-byte boundary: the store straddles one more sector.
    write(tmp, "offset.json", launch_info([launch_config("04000000007f0000" + "01000000" + "40420f00", [8, 4, 4])]))
    shifted = lint("-q", "--format=json", "--launch-info", "offset.json", "k.cu", cwd=tmp).json()
    s2 = [a for a in shifted["accesses"] if a["kind"] == "store"][0]
    check(s2["sectors_per_request"] == 5, f"an address 4 bytes past alignment gives 5 sectors, got {s2}", recorded)


@case("launch info: several recorded configurations give their request-weighted mix")
def _(tmp):
    write(tmp, "k.cu", LAUNCHED)

    def cfg(stride, n, launches):
        c = launch_config("00000000007f0000" + stride.to_bytes(4, "little").hex() + n.to_bytes(4, "little").hex(),
                          [8, 4, 4])
        c["launches"] = launches
        return c

    # stride 1 (4 sectors a request) launched 3 times, stride 2 (8 sectors) once, the same
    # requests each: the run's counters read (3 * 4 + 8) / 4 = 5 sectors per request; the
    # worst launch alone would say 8.
    write(tmp, "two.json", launch_info([cfg(1, 1000000, 3), cfg(2, 1000000, 1)]))
    r = lint("-q", "--format=json", "--launch-info", "two.json", "k.cu", cwd=tmp)
    store = [a for a in r.json()["accesses"] if a["kind"] == "store"][0]
    check(abs(store["sectors_per_request"] - 5) < 1e-9, f"mix of 3 x 4 and 1 x 8 sectors is 5, got {store}", r)
    check(any("mix" in x for x in store["assumptions"]), f"the mix is stated: {store['assumptions']}", r)
    # 40 configurations, more than the analysis evaluates (32): the last one (stride 8, 32
    # sectors) still counts, for its own launches: (39 * 4 + 32) / 40 = 4.7.
    many = [cfg(1, 1000000 + k, 1) for k in range(39)] + [cfg(8, 1000000, 1)]
    write(tmp, "many.json", launch_info(many))
    r = lint("-q", "--format=json", "--launch-info", "many.json", "k.cu", cwd=tmp)
    store = [a for a in r.json()["accesses"] if a["kind"] == "store"][0]
    check(abs(store["sectors_per_request"] - 4.7) < 1e-9, f"every configuration weighs in: 4.7, got {store}", r)


@case("launch info: a file it cannot use is a usage error naming it")
def _(tmp):
    write(tmp, "k.cu", LAUNCHED)
    write(tmp, "bad.json", "{not json")
    usage_error(lint("--launch-info", "bad.json", "k.cu", cwd=tmp), "bad.json")
    write(tmp, "empty.json", launch_info([]))
    usage_error(lint("--launch-info", "empty.json", "k.cu", cwd=tmp), "empty.json: no launch configurations")
    usage_error(lint("--launch-info", "absent.json", "k.cu", cwd=tmp), "absent.json")
