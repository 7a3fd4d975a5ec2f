"""The harness of test/tools/cli_tests.py: the case registry, timed runs of the binary and
the checks the cases share. The cases are in cli_cases_inputs.py and cli_cases_options.py.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

RUN_LIMIT_S = 60.0  # generous: this machine is slow and shared; a run takes about a second
CASES = {}


class Settings:
    """Set once by cli_tests.py's main() from its arguments."""
    binary = None      # the coalesce-lint under test
    source_dir = None  # the repository root (kernels/examples/ is read from it)


SETTINGS = Settings()

# A kernel with one known finding: a float read at a stride of 2 elements, eta = 50 %.
GOOD = """__global__ void decimate(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}
"""
GOOD_FINDING = re.compile(r"good\.cu:3:12: warning: load of 'in\[2 \* i\]' uses 8 sectors per request.*"
                          r"\[uncoalesced-global-access\]")

# Six instantiations of one kernel template, made in the order S = 0 to 5; only S = 3 strides
# (--max-instantiations: 2 of them analysed are S = 0 and S = 3).
SIX_INSTANTIATIONS = ("template <int S>\n__global__ void stride(float* out, const float* in, int n) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "  if (i < n) out[S == 3 ? 4 * i : i] = in[i];\n}\n"
                      "int main() {\n  float *a, *b;\n  int n = 1 << 20;\n" +
                      "".join(f"  stride<{s}><<<n / 256, 256>>>(a, b, n);\n" for s in range(6)) +
                      "  return 0;\n}\n")

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


CACHE_VARIABLES = ("COALESCE_LINT_CACHE_DIR", "XDG_CACHE_HOME", "HOME")


def lint(*args, cwd, env=None, limit=RUN_LIMIT_S, stdin=subprocess.DEVNULL):
    """Runs the binary, timed; a run over `limit` seconds fails the case (and is killed).

    Unless `env` names a cache folder (COALESCE_LINT_CACHE_DIR, XDG_CACHE_HOME or HOME), each run
    gets a fresh, empty result cache (docs/cache.md), removed afterwards: no run reads what
    another left, whatever order the cases run in, and nothing is written to the user's
    ~/.cache. The cache's own cases pass the folder they share between runs.
    """
    full_env = dict(os.environ)
    for var in ("COALESCE_TEST_CRASH_ON", "COALESCE_TEST_HANG_ON", "CUDA_PATH", "COALESCE_LINT_CACHE_DIR"):
        full_env.pop(var, None)
    fresh_cache = None
    if not any(var in (env or {}) for var in CACHE_VARIABLES):
        fresh_cache = tempfile.mkdtemp(prefix="coalesce-cli-cache-")
        full_env["COALESCE_LINT_CACHE_DIR"] = fresh_cache
    full_env.update(env or {})
    argv = [SETTINGS.binary] + [str(a) for a in args]
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
    finally:
        if fresh_cache:
            shutil.rmtree(fresh_cache, ignore_errors=True)
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
