#!/usr/bin/env python3
"""coalesce-lint end to end: the real binary on hostile inputs (docs/reliability.md) and every
option (docs/cli.md), one ctest test per case (test/tools/CMakeLists.txt registers them from --list).

    cli_tests.py --binary PATH --source-dir DIR --case NAME   run one case
    cli_tests.py --list                                       the case names

Every input is generated at test time into a fresh temporary folder, never into the source
tree. Every run of the binary is timed by this harness and must finish within RUN_LIMIT_S.
A case fails with a message saying which check failed and what the binary printed.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

RUN_LIMIT_S = 60.0  # generous: this machine is slow and shared; a run takes about a second
CASES = {}
BIN = None
SOURCE_DIR = None

# A kernel with one known finding: a float read at a stride of 2 elements, eta = 50 %.
GOOD = """__global__ void decimate(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}
"""
GOOD_FINDING = re.compile(r"good\.cu:3:12: warning: load of 'in\[2 \* i\]' uses 8 sectors per request.*"
                          r"\[uncoalesced-global-access\]")

# Two-way shared bank conflict (stride 2 words), no global access that could be flagged.
SHARED2 = """__global__ void conflict(float* __restrict__ out) {
  __shared__ float s[1024];
  s[threadIdx.x * 2 % 1024] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
"""


class CaseFailure(Exception):
    pass


def case(name):
    def register(fn):
        assert name not in CASES, name
        CASES[name] = fn
        return fn
    return register


def check(condition, message, run=None):
    if not condition:
        detail = ""
        if run is not None:
            detail = (f"\n  command: {' '.join(run.args)}\n  exit code: {run.rc}\n  seconds: {run.seconds:.2f}"
                      f"\n  --- stderr ---\n{run.err[-4000:]}\n  --- stdout ---\n{run.out[-4000:]}")
        raise CaseFailure(message + detail)


class Run:
    def __init__(self, args, rc, out, err, seconds):
        self.args, self.rc, self.out, self.err, self.seconds = args, rc, out, err, seconds

    def err_lines(self):
        return [line for line in self.err.splitlines() if line.strip()]

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError as e:
            check(False, f"stdout is not JSON: {e}", self)


def lint(*args, cwd, env=None, limit=RUN_LIMIT_S, stdin=subprocess.DEVNULL):
    """Runs the binary, timed; a run over `limit` seconds fails the case (and is killed)."""
    full_env = dict(os.environ)
    for var in ("COALESCE_TEST_CRASH_ON", "COALESCE_TEST_HANG_ON", "CUDA_PATH"):
        full_env.pop(var, None)
    full_env.update(env or {})
    argv = [BIN] + [str(a) for a in args]
    start = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, env=full_env, stdin=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        run = Run(argv, None, out.decode(errors="replace"), err.decode(errors="replace"), time.monotonic() - start)
        check(False, f"did not finish within {limit:.0f} s", run)
    seconds = time.monotonic() - start
    run = Run(argv, p.returncode, out.decode(errors="replace"), err.decode(errors="replace"), seconds)
    check(run.rc >= 0, f"killed by signal {-run.rc}", run)
    check(seconds < limit, f"took {seconds:.1f} s (limit {limit:.0f} s)", run)
    return run


def write(root, rel, text, mode="w"):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)
    return path


def tree_listing(root):
    """Every path under root (files, links, folders) with its size and mtime."""
    out = {}
    for base, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            p = os.path.join(base, name)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


# ---- shared checks -------------------------------------------------------------------------

def expect_rc(run, rc):
    check(run.rc == rc, f"exit code {run.rc}, expected {rc}", run)


def expect_clean_stderr(run):
    """Every line on stderr is one of ours, one line per message: no Clang or CLI11 dump."""
    for line in run.err_lines():
        check(line.startswith("coalesce-lint: "), f"stray stderr line: {line!r}", run)


def expect_message(run, level, path, reason):
    """A one-line message 'coalesce-lint: LEVEL: PATH: ...REASON...' on stderr."""
    pattern = re.compile(r"^coalesce-lint: " + level + r": " + re.escape(path) + r"(:\d+)?: .*" + reason)
    hits = [line for line in run.err_lines() if pattern.search(line)]
    check(hits, f"no '{level}' line naming {path} with reason /{reason}/", run)
    expect_clean_stderr(run)


def expect_good_reported(run, times=1):
    n = len(GOOD_FINDING.findall(run.out))
    check(n == times, f"good.cu's finding reported {n} times, expected {times}", run)


def expect_summary(run, files, failed=0):
    want = f"{files} file{'s' if files != 1 else ''}" + (f" ({failed} failed)" if failed else "")
    lines = [line for line in run.err_lines() if line.startswith("coalesce-lint: ") and " kernel" in line and
             " access" in line and line.rstrip().endswith(" s")]
    check(lines and want + "," in lines[-1], f"summary line does not say '{want}'", run)


def usage_error(run, mention):
    """Exit 2, exactly one stderr line, naming what is wrong, and no report on stdout."""
    expect_rc(run, 2)
    lines = run.err_lines()
    check(len(lines) == 1, f"{len(lines)} stderr lines, expected exactly one", run)
    check(lines[0].startswith("coalesce-lint: error: "), "the line is not 'coalesce-lint: error: ...'", run)
    check(mention in lines[0], f"the line does not mention {mention!r}", run)
    check(run.out == "", "something was printed on stdout", run)


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
    # Outside any kernel: a warning, the kernel analysed.
    write(tmp, "hostonly.cu", '#error "host configuration missing"\n'
                              '__global__ void k(float* a) { a[2 * threadIdx.x] = 1.0f; }\n')
    write(tmp, "good.cu", GOOD)
    r = lint("refuses.cu", "hostonly.cu", "good.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "refuses.cu", "TILE must be set")
    expect_message(r, "warning", "hostonly.cu", "host configuration missing")
    check("hostonly.cu:2:31: warning: store" in r.out, "hostonly.cu's kernel not reported", r)
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
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;", "  float acc = 0.0f;"]
    lines += ["  acc += 1.0f;" if k % 2 else f"  // filler line {k}" for k in range(99995)]
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
    body = "".join(f"  acc += in[{2 + k % 7} * i + {k}];\n" for k in range(10000))
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
    src = os.path.join(SOURCE_DIR, "kernels", "examples")
    shutil.copytree(src, os.path.join(tmp, "examples"))
    a = lint("-q", "--format=json", "examples", cwd=tmp)
    b = lint("-q", "--format=json", "--in-process", "examples", cwd=tmp)
    check(a.rc == b.rc, f"exit codes differ: {a.rc} vs {b.rc}")
    da, db = a.json(), b.json()
    for d in (da, db):
        d["summary"].pop("seconds", None)
    check(len(da["accesses"]) > 100, "too few accesses to compare", a)
    check(da == db, "the JSON reports differ between worker and in-process runs")


# ---- every option (docs/cli.md) -----------------------------------------------------------------

@case("option: --format text")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--format", "text", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_good_reported(r)
    check("note: fix:" in r.out, "no fix note in the text report", r)
    expect_summary(r, 1)


@case("option: --format json")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--format=json", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    d = r.json()
    check(d["version"] == "coalesce-lint/1", "schema version", r)
    load = [a for a in d["accesses"] if a["expression"] == "in[2 * i]"]
    check(len(load) == 1 and load[0]["sectors_per_request"] == 8 and load[0]["efficiency"] == 0.5,
          "the load's figures are not 8 sectors, eta 0.5", r)
    check([f["rule"] for f in d["findings"]] == ["uncoalesced-global-access"], "findings", r)


@case("option: --format sarif and --source-root")
def _(tmp):
    write(tmp, "src/good.cu", GOOD)
    r = lint("--format=sarif", "--source-root", "src", "src/good.cu", cwd=tmp)
    expect_rc(r, 1)
    d = r.json()
    check(d["version"] == "2.1.0", "SARIF version", r)
    res = d["runs"][0]["results"]
    check(len(res) == 1 and res[0]["ruleId"] == "uncoalesced-global-access", "SARIF results", r)
    uri = res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    check(uri == "good.cu", f"uri {uri!r} is not relative to --source-root", r)


@case("option: -o writes the report there and nothing else")
def _(tmp):
    write(tmp, "tree/good.cu", GOOD)
    write(tmp, "tree/sub/k.cu", GOOD.replace("decimate", "other"))
    write(tmp, "tree/.coalesce-lint.yaml", "MinEfficiency: 0.8\n")
    before = tree_listing(os.path.join(tmp, "tree"))
    outside = os.path.join(tmp, "report.json")
    r = lint("-o", outside, "--format=json", "tree", cwd=tmp)
    expect_rc(r, 1)
    check(r.out == "", "stdout is not empty with -o", r)
    check(json.load(open(outside))["summary"]["files"] == 2, "the -o file does not hold the report", r)
    check(tree_listing(os.path.join(tmp, "tree")) == before, "the analysed tree changed", r)
    # Named inside the tree: that one file appears, nothing else.
    r = lint("-o", "tree/out.sarif", "--format=sarif", "tree", cwd=tmp)
    after = tree_listing(os.path.join(tmp, "tree"))
    check(set(after) - set(before) == {"out.sarif"}, f"new paths: {sorted(set(after) - set(before))}", r)
    check({k: v for k, v in after.items() if k != "out.sarif"} == before, "an existing path changed", r)
    # And the same for --write-baseline.
    r = lint("--write-baseline", "tree/base.json", "tree", cwd=tmp)
    after2 = tree_listing(os.path.join(tmp, "tree"))
    check(set(after2) - set(after) == {"base.json"}, f"new paths: {sorted(set(after2) - set(after))}", r)
    # An -o that cannot be written: a usage error naming it.
    r = lint("-o", "no/such/dir/out.txt", "tree", cwd=tmp)
    expect_rc(r, 2)
    check("no/such/dir/out.txt: cannot write the report" in r.err, "the unwritable -o is not named", r)


@case("option: --arch")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    for arch in ("sm_70", "sm_80", "sm_90"):
        r = lint("--arch", arch, "--format=json", "good.cu", cwd=tmp)
        expect_rc(r, 1)
        check(r.json()["arch"] == arch, f"arch is not {arch}", r)
    r = lint("--arch", "sm_100", "good.cu", cwd=tmp)
    usage_error(r, "sm_100")


@case("option: --block-dim")
def _(tmp):
    write(tmp, "t.cu", "__global__ void t(float* __restrict__ a) { a[threadIdx.x * 32 + threadIdx.y] = 0.0f; }\n")
    d0 = lint("-q", "--format=json", "t.cu", cwd=tmp).json()
    check(d0["accesses"][0]["block"]["source"] == "assumed", "without --block-dim the block is not assumed")
    r = lint("-q", "--format=json", "--block-dim", "32x8", "t.cu", cwd=tmp)
    a = r.json()["accesses"][0]
    check(a["block"]["x"] == 32 and a["block"]["y"] == 8 and a["block"]["source"] == "option", "block", r)
    r = lint("-q", "--format=json", "--block-dim", "1,32", "t.cu", cwd=tmp)
    a = r.json()["accesses"][0]
    # Block 1x32: lane k has threadIdx.y = k, so the store is contiguous.
    check(a["block"]["y"] == 32 and a["efficiency"] == 1, f"1x32 block: eta {a['efficiency']}", r)


@case("option: --assume")
def _(tmp):
    write(tmp, "s.cu", "__global__ void s(const float* __restrict__ in, float* __restrict__ out, int w) {\n"
                       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[w * i];\n}\n")
    r = lint("-q", "--assume", "w=1", "s.cu", cwd=tmp)
    expect_rc(r, 0)
    r = lint("-q", "--format=json", "--assume", "w=2", "s.cu", cwd=tmp)
    expect_rc(r, 1)
    load = [a for a in r.json()["accesses"] if a["expression"] == "in[w * i]"][0]
    check(load["sectors_per_request"] == 8, f"w=2: {load['sectors_per_request']} sectors", r)
    # Repeatable, and it never swallows the paths after it.
    r = lint("-q", "--assume", "w=1", "--assume", "unused=3", "s.cu", cwd=tmp)
    expect_rc(r, 0)


@case("option: -j gives the same output for 1 and 2 jobs")
def _(tmp):
    for k in range(6):
        write(tmp, f"src/k{k}.cu", GOOD.replace("decimate", f"kernel{k}").replace("2 * i", f"{k + 1} * i"))
    a = lint("-q", "-j", "1", "--format=json", "src", cwd=tmp)
    b = lint("-q", "-j", "2", "--format=json", "src", cwd=tmp)
    da, db = a.json(), b.json()
    for d in (da, db):
        d["summary"].pop("seconds", None)
    check(da == db, "-j1 and -j2 reports differ")
    check(len(da["findings"]) == 5, f"{len(da['findings'])} findings, expected 5", a)
    ta = lint("-q", "-j1", "src", cwd=tmp).out
    tb = lint("-q", "-j2", "src", cwd=tmp).out
    check(ta == tb and ta.count("[uncoalesced-global-access]") == 5, "-j1 and -j2 text reports differ")


@case("option: --config and .coalesce-lint.yaml lookup")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    write(tmp, "lenient.yaml", "MinEfficiency: 0.4\n")
    r = lint("--config", "lenient.yaml", "good.cu", cwd=tmp)
    expect_rc(r, 0)
    write(tmp, "quiet/.coalesce-lint.yaml", "Checks: '-*'\n")
    write(tmp, "quiet/k.cu", GOOD.replace("decimate", "hushed"))
    r = lint("good.cu", "quiet/k.cu", cwd=tmp)
    expect_rc(r, 1)
    check("quiet/k.cu:3" not in r.out and GOOD_FINDING.search(r.out), "the lookup did not apply per folder", r)
    # --config replaces the lookup for every file.
    write(tmp, "strict.yaml", "MinEfficiency: 0.8\n")
    r = lint("--config", "strict.yaml", "quiet/k.cu", cwd=tmp)
    check("quiet/k.cu:3:12: warning" in r.out, "--config did not replace the folder's file", r)


@case("option: --dump-config")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--dump-config", cwd=tmp)
    expect_rc(r, 0)
    check("MinEfficiency: 0.8" in r.out and "CheckOptions:" in r.out, "defaults not dumped", r)
    r = lint("--dump-config", "--min-efficiency", "0.3", "--checks", "*,-divergent-branch", "good.cu", cwd=tmp)
    check("MinEfficiency: 0.3" in r.out and "-divergent-branch" in r.out, "command-line values not dumped", r)
    write(tmp, "dumped.yaml", r.out)
    again = lint("--dump-config", "--config", "dumped.yaml", "good.cu", cwd=tmp)
    expect_rc(again, 0)
    strip = lambda text: [l for l in text.splitlines() if not l.startswith("#")]
    check(strip(again.out) == strip(r.out), "the dump does not read back to the same settings", again)
    # Found by fuzzing: values with line breaks, tabs or non-ASCII bytes were dumped in
    # single quotes, which YAML folds or refuses: the dump no longer read back the same.
    write(tmp, "blocks.yaml", "Checks: >\n  *,\n  -aos-field-access\nHeaderFilter: \"src/\\t\u00e9.*\"\n"
                              "Exclude: [\"caf\u00e9/*\"]\n")
    first = lint("--dump-config", "--config", "blocks.yaml", "good.cu", cwd=tmp)
    expect_rc(first, 0)
    write(tmp, "blocks-dumped.yaml", first.out)
    second = lint("--dump-config", "--config", "blocks-dumped.yaml", "good.cu", cwd=tmp)
    expect_rc(second, 0)
    check(strip(second.out) == strip(first.out), "a dump with a line break, a tab and UTF-8 does not read back", second)


@case("option: --checks")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--checks", "*,-uncoalesced-global-access", "good.cu", cwd=tmp)
    expect_rc(r, 0)
    check("[uncoalesced-global-access]" not in r.out, "disabled rule still reported", r)
    r = lint("--checks", "-*,uncoalesced-*", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_good_reported(r)


@case("option: --warnings-as-errors")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--warnings-as-errors", "uncoalesced-*", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    check(re.search(r"good\.cu:3:12: error: load of 'in\[2 \* i\]'", r.out), "the finding is not an error", r)
    d = lint("-q", "--format=json", "--warnings-as-errors", "*", "good.cu", cwd=tmp).json()
    check(d["findings"][0]["severity"] == "error", "JSON severity is not error")


@case("option: --min-efficiency")
def _(tmp):
    write(tmp, "good.cu", GOOD)  # eta = 0.5
    expect_rc(lint("--min-efficiency", "0.4", "good.cu", cwd=tmp), 0)
    expect_rc(lint("--min-efficiency", "0.5", "good.cu", cwd=tmp), 0)  # below, not at
    r = lint("--min-efficiency", "0.6", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_good_reported(r)


@case("option: --max-conflict-degree")
def _(tmp):
    write(tmp, "sh.cu", SHARED2)
    r = lint("-q", "--format=json", "sh.cu", cwd=tmp)
    expect_rc(r, 1)
    degrees = [a["conflict_degree"] for a in r.json()["accesses"] if a["space"] == "shared"]
    check(2 in degrees, f"conflict degrees {degrees}, expected a 2", r)
    check(any(f["rule"] == "shared-bank-conflict" for f in r.json()["findings"]), "no bank-conflict finding", r)
    expect_rc(lint("-q", "--max-conflict-degree", "2", "sh.cu", cwd=tmp), 0)
    expect_rc(lint("-q", "--max-conflict-degree", "1.5", "sh.cu", cwd=tmp), 1)


@case("option: --header-filter")
def _(tmp):
    write(tmp, "inc/kern.cuh", "__global__ void inhdr(const float* __restrict__ in, float* __restrict__ out) {\n"
                               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[2 * i];\n}\n")
    write(tmp, "main.cu", '#include "inc/kern.cuh"\n' + GOOD)
    r = lint("main.cu", cwd=tmp)
    check("inc/kern.cuh:3:12: warning" in r.out, "the header's finding is not shown by default", r)
    r = lint("--header-filter", "nomatch", "main.cu", cwd=tmp)
    check("kern.cuh:3" not in r.out and "main.cu:4:12: warning" in r.out, "--header-filter did not hide it", r)
    r = lint("--header-filter", ".*kern\\.cuh", "main.cu", cwd=tmp)
    check("inc/kern.cuh:3:12: warning" in r.out, "--header-filter matching the header hid it", r)


@case("option: --exclude")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    write(tmp, "vendor/k.cu", GOOD.replace("decimate", "vendored"))
    r = lint("--exclude", "vendor/*", "good.cu", "vendor", cwd=tmp)
    expect_rc(r, 1)
    check("vendor/k.cu:3" not in r.out, "excluded path reported", r)
    expect_good_reported(r)
    r = lint("--exclude", "vendor/*", "--exclude", "good.cu", "good.cu", "vendor", cwd=tmp)
    expect_rc(r, 0)
    expect_summary(r, 2)  # both analysed (no path swallowed by --exclude), both hidden


@case("option: --baseline and --write-baseline")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--write-baseline", "base.json", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    base = json.load(open(os.path.join(tmp, "base.json")))
    check(base["version"] == 1 and len(base["entries"]) == 1, "baseline content", r)
    r = lint("--baseline", "base.json", "good.cu", cwd=tmp)
    expect_rc(r, 0)
    check("1 baselined" in r.err, "the summary does not count the baselined finding", r)
    # Lines inserted above: still matched (keyed on line text); a new finding: reported.
    write(tmp, "good.cu", "// moved down\n\n" + GOOD.replace("out[i] = in[2 * i];", "out[i] = in[2 * i];\n"
                                                             "  out[i + 1] = in[3 * i];"))
    r = lint("--baseline", "base.json", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    check("good.cu:6:16: warning: load of 'in[3 * i]'" in r.out and "in[2 * i]'" not in r.out,
          "the baseline did not keep only the new finding", r)


@case("option: --explain and --explain-warp")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("-q", "--explain", "good.cu:3", cwd=tmp)
    expect_rc(r, 0)
    check("load of 'in[2 * i]'" in r.out and "lanes  0-15: 0 0 0 0 1 1 1 1" in r.out, "no lane picture", r)
    check("warp 0 of 8" in r.out, "not warp 0 of 8", r)
    r = lint("-q", "--explain", "good.cu:3", "--explain-warp", "3", cwd=tmp)
    check("warp 3 of 8" in r.out, "--explain-warp 3 not drawn", r)
    r = lint("-q", "--explain", "good.cu:1", cwd=tmp)
    expect_rc(r, 2)
    check("good.cu: no global or shared access found at line 1" in r.err, "no error for a line without access", r)


@case("option: --list-rules")
def _(tmp):
    r = lint("--list-rules", cwd=tmp)
    expect_rc(r, 0)
    ids = [line.split()[0] for line in r.out.splitlines() if line.strip()]
    for rule in ("uncoalesced-global-access", "shared-bank-conflict", "divergent-branch", "missing-restrict"):
        check(rule in ids, f"{rule} not listed", r)
    check(len(ids) == len(set(ids)) >= 10, "rules missing or repeated", r)


@case("option: --version and --help")
def _(tmp):
    r = lint("--version", cwd=tmp)
    expect_rc(r, 0)
    check(re.fullmatch(r"coalesce-lint \d+\.\d+\.\d+\n", r.out), f"version line {r.out!r}", r)
    r = lint("--help", cwd=tmp)
    expect_rc(r, 0)
    check("--file-timeout" in r.out and "--in-process" in r.out and "--worker" not in r.out, "help text", r)


@case("option: compiler arguments after -- and --extra-arg")
def _(tmp):
    write(tmp, "d.cu", "#ifndef STRIDE\n#error STRIDE must be given\n#endif\n" + GOOD.replace("2 * i", "STRIDE * i"))
    r = lint("d.cu", cwd=tmp)
    expect_rc(r, 3)
    expect_message(r, "error", "d.cu", "STRIDE must be given")
    r = lint("-q", "--format=json", "d.cu", "--", "-DSTRIDE=4", cwd=tmp)
    expect_rc(r, 1)
    load = [a for a in r.json()["accesses"] if a["expression"] == "in[STRIDE * i]"][0]
    check(load["sectors_per_request"] == 16, "-DSTRIDE=4 after -- not applied", r)
    r = lint("-q", "--format=json", "--extra-arg", "-DSTRIDE=1", "d.cu", cwd=tmp)
    expect_rc(r, 0)


@case("option: -p with a compile_commands.json")
def _(tmp):
    write(tmp, "src/d.cu", "#ifndef STRIDE\n#error STRIDE must be given\n#endif\n" +
           GOOD.replace("2 * i", "STRIDE * i"))
    write(tmp, "src/inc/tile.h", "#define TILE 8\n")
    write(tmp, "src/e.cu", '#include "tile.h"\n' + GOOD.replace("decimate", "e").replace("2 * i", "TILE * i"))
    db = [{"directory": os.path.join(tmp, "build"), "file": os.path.join(tmp, "src", "d.cu"),
           "command": f"/usr/local/cuda/bin/nvcc -DSTRIDE=4 -O2 -arch=sm_80 -c {os.path.join(tmp, 'src', 'd.cu')}"},
          {"directory": os.path.join(tmp, "build"), "file": "../src/e.cu",
           "arguments": ["clang++", "-x", "cuda", "-I../src/inc", "-c", "../src/e.cu"]}]
    write(tmp, "build/compile_commands.json", json.dumps(db))
    r = lint("-q", "--format=json", "-p", "build", cwd=tmp)
    expect_rc(r, 1)
    acc = {a["expression"]: a for a in r.json()["accesses"]}
    check(acc["in[STRIDE * i]"]["sectors_per_request"] == 16, "nvcc -DSTRIDE=4 from the database not applied", r)
    check(acc["in[TILE * i]"]["sectors_per_request"] == 32, "-I from the database not applied", r)
    # With a file named: that file only, with its database flags.
    r = lint("-q", "-p", "build", "src/d.cu", cwd=tmp)
    expect_rc(r, 1)
    check("d.cu:6:12: warning: load of 'in[STRIDE * i]' uses 16 sectors" in r.out, "named file with -p", r)
    check("TILE" not in r.out, "a file not named was analysed", r)


@case("option: --file-timeout and --in-process")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--file-timeout", "0", "good.cu", cwd=tmp)  # 0: no limit
    expect_rc(r, 1)
    expect_good_reported(r)
    r = lint("--in-process", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_good_reported(r)


@case("option: --quiet")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("-q", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    check(r.err == "", "stderr is not empty with -q", r)
    expect_good_reported(r)


@case("option: --builtin-cuda and --cuda-path")
def _(tmp):
    write(tmp, "good.cu", "#include <cuda_runtime.h>\n" + GOOD)
    r = lint("-q", "--builtin-cuda", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    check("good.cu:4:12: warning" in r.out, "not analysed with the built-in headers", r)
    r = lint("-q", "--cuda-path", os.path.join(tmp, "no-cuda-here"), "good.cu", cwd=tmp)
    expect_rc(r, 1)  # no toolkit there: the built-in headers are used
    check("good.cu:4:12: warning" in r.out, "not analysed without a toolkit", r)


def main():
    global BIN, SOURCE_DIR
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary")
    ap.add_argument("--source-dir")
    ap.add_argument("--case")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    BIN, SOURCE_DIR = os.path.abspath(args.binary), os.path.abspath(args.source_dir)
    names = [args.case] if args.case else list(CASES)
    failed = 0
    for name in names:
        if name not in CASES:
            print(f"unknown case {name!r}", file=sys.stderr)
            return 2
        tmp = tempfile.mkdtemp(prefix="coalesce-cli-")
        try:
            CASES[name](tmp)
            print(f"PASS {name}")
        except CaseFailure as e:
            failed += 1
            print(f"FAIL {name}: {e}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
