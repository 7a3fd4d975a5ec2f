"""Cases of test/tools/cli_tests.py: the result cache (docs/cache.md) and diff-aware gating
(docs/ci.md), end to end."""
import glob
import json
import re
import subprocess

from cli_harness import *  # noqa: F401,F403 (the cases use the harness's helpers and imports)

# A header whose device helper reads at a stride, and two kernels, one using it.
HELPER = """#pragma once
__device__ inline float pick(const float* p, int i) {
  return p[i];
}
"""
USES_HELPER = """#include "helper.cuh"
__global__ void user(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = pick(in, i);
}
"""


def cache_env(folder):
    return {"COALESCE_LINT_CACHE_DIR": folder}


def entries(folder):
    return sorted(glob.glob(os.path.join(folder, "**", "*.entry"), recursive=True))


def summary_line(run):
    lines = [line for line in run.err_lines() if line.startswith("coalesce-lint: ") and line.rstrip().endswith(" s")]
    check(lines, "no summary line", run)
    return lines[-1]


def from_cache(run):
    m = re.search(r"; (\d+) files? from the cache;", summary_line(run))
    return int(m.group(1)) if m else 0


def without_seconds(text):
    return re.sub(r'"seconds": [0-9.e+-]+', '"seconds": 0', text)


def copy_examples(tmp, count=None):
    src = os.path.join(SETTINGS.source_dir, "kernels", "examples")
    names = sorted(n for n in os.listdir(src) if n.endswith(".cu"))[:count]
    os.makedirs(os.path.join(tmp, "examples"))
    for n in names:
        shutil.copy(os.path.join(src, n), os.path.join(tmp, "examples", n))
    return len(names)


# ---- the result cache (docs/cache.md) ----------------------------------------------------------

@case("cache: cached and fresh reports are byte-identical (text, JSON, SARIF)")
def _(tmp):
    n = copy_examples(tmp)
    cache = os.path.join(tmp, "cache")
    first = lint("-j", "2", "examples", cwd=tmp, env=cache_env(cache))
    check(first.rc == 1 and from_cache(first) == 0, "the first run did not analyse every file", first)
    check(len(entries(cache)) == n, f"{len(entries(cache))} entries for {n} files", first)
    for fmt in ("text", "json", "sarif"):
        fresh = lint("--no-cache", "--format", fmt, "-j", "2", "examples", cwd=tmp)
        cached = lint("--format", fmt, "-j", "2", "examples", cwd=tmp, env=cache_env(cache))
        check(from_cache(cached) == n, f"{fmt}: {from_cache(cached)} of {n} files from the cache", cached)
        check(fresh.rc == cached.rc, f"{fmt}: exit codes {fresh.rc} fresh, {cached.rc} cached", cached)
        same = without_seconds(fresh.out) == without_seconds(cached.out) if fmt == "json" else fresh.out == cached.out
        check(same and fresh.out, f"{fmt}: the cached report differs from the fresh one", cached)


@case("cache: where it lives (XDG_CACHE_HOME, COALESCE_LINT_CACHE_DIR, --cache-dir) and --no-cache")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    r = lint("good.cu", cwd=tmp, env={"HOME": home, "XDG_CACHE_HOME": ""})
    check(len(entries(os.path.join(home, ".cache", "coalesce-lint"))) == 1, "not under $HOME/.cache", r)
    xdg = os.path.join(tmp, "xdg")
    r = lint("good.cu", cwd=tmp, env={"HOME": home, "XDG_CACHE_HOME": xdg})
    check(len(entries(os.path.join(xdg, "coalesce-lint"))) == 1, "not under $XDG_CACHE_HOME/coalesce-lint", r)
    check(os.path.isfile(os.path.join(xdg, "coalesce-lint", "CACHEDIR.TAG")), "no CACHEDIR.TAG", r)
    own = os.path.join(tmp, "own")
    r = lint("good.cu", cwd=tmp, env={"HOME": home, "XDG_CACHE_HOME": xdg, "COALESCE_LINT_CACHE_DIR": own})
    check(len(entries(own)) == 1, "COALESCE_LINT_CACHE_DIR not used", r)
    opt = os.path.join(tmp, "opt")
    r = lint("--cache-dir", opt, "good.cu", cwd=tmp, env={"HOME": home, "COALESCE_LINT_CACHE_DIR": own})
    check(len(entries(opt)) == 1, "--cache-dir not used", r)
    check(from_cache(r) == 0, "a new folder answered from a cache", r)
    nothing = os.path.join(tmp, "nothing")
    before = tree_listing(tmp)
    r = lint("--no-cache", "good.cu", cwd=tmp, env={"HOME": nothing, "COALESCE_LINT_CACHE_DIR": nothing + "2"})
    expect_rc(r, 1)
    expect_good_reported(r)
    check(tree_listing(tmp) == before, "--no-cache wrote something", r)


@case("cache: a one-line change re-analyses only the files it affects")
def _(tmp):
    write(tmp, "tree/helper.cuh", HELPER)
    write(tmp, "tree/user.cu", USES_HELPER)
    for k in range(4):
        write(tmp, f"tree/other{k}.cu", GOOD.replace("decimate", f"other{k}"))
    cache = cache_env(os.path.join(tmp, "cache"))
    first = lint("tree", cwd=tmp, env=cache)
    expect_rc(first, 1)
    again = lint("tree", cwd=tmp, env=cache)
    check(from_cache(again) == 5, "an unchanged tree was not taken from the cache", again)
    check(again.out == first.out, "the report changed", again)
    # One line of the header: only its includer is analysed again, and its new figure shows.
    write(tmp, "tree/helper.cuh", HELPER.replace("p[i]", "p[4 * i]"))
    r = lint("tree", cwd=tmp, env=cache)
    check(from_cache(r) == 4, f"{from_cache(r)} files from the cache after a header change, expected 4", r)
    check("helper.cuh:3:10: warning: load of 'p[4 * i]' uses 16 sectors" in r.out, "the header's new finding", r)
    # One line of one file.
    write(tmp, "tree/other0.cu", GOOD.replace("decimate", "other0").replace("2 * i", "3 * i"))
    r = lint("tree", cwd=tmp, env=cache)
    check(from_cache(r) == 4, f"{from_cache(r)} files from the cache after a file change, expected 4", r)
    check("load of 'in[3 * i]'" in r.out, "the changed file's new finding", r)


@case("cache: concurrent runs share one folder")
def _(tmp):
    for k in range(6):
        write(tmp, f"tree/k{k}.cu", GOOD.replace("decimate", f"k{k}"))
    cache = os.path.join(tmp, "cache")
    env = dict(os.environ, COALESCE_LINT_CACHE_DIR=cache)
    procs = [subprocess.Popen([SETTINGS.binary, "-j", "2", "tree"], cwd=tmp, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(3)]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=RUN_LIMIT_S)
        outs.append(out)
        check(p.returncode == 1, f"a concurrent run exited {p.returncode}: {err.decode()[-2000:]}")
    check(outs[0] and outs[0] == outs[1] == outs[2], "concurrent runs gave different reports")
    r = lint("-j", "2", "tree", cwd=tmp, env=cache_env(cache))
    check(from_cache(r) == 6, "the runs after them are not answered from the cache", r)
    check(r.out.encode() == outs[0], "the cached report differs", r)
    left = [p for p in glob.glob(os.path.join(cache, "**", "tmp.*"), recursive=True)]
    check(not left, f"temporary files left in the cache: {left}", r)


@case("cache: a folder that cannot be used is one warning, and the run goes on")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    write(tmp, "afile", "not a folder")
    r = lint("--cache-dir", "afile/cache", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    expect_good_reported(r)
    expect_message(r, "warning", "afile/cache", "cannot use the result cache folder")
    usage_error(lint("--cache-max-size", "lots", "good.cu", cwd=tmp), "--cache-max-size")


@case("cache: a corrupt entry is ignored and replaced")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    cache = os.path.join(tmp, "cache")
    first = lint("good.cu", cwd=tmp, env=cache_env(cache))
    (entry,) = entries(cache)
    with open(entry, "wb") as f:
        f.write(b"{\"format\": \"coalesce-lint-cache/1\"}\n{ not records")
    r = lint("good.cu", cwd=tmp, env=cache_env(cache))
    check(from_cache(r) == 0 and r.out == first.out and r.rc == first.rc, "the corrupt entry was used", r)
    r = lint("good.cu", cwd=tmp, env=cache_env(cache))
    check(from_cache(r) == 1 and r.out == first.out, "the corrupt entry was not replaced", r)


# ---- diff-aware gating (docs/ci.md) ------------------------------------------------------------

def git(repo, *args):
    p = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false",
                        *args], cwd=repo, capture_output=True, text=True)
    check(p.returncode == 0, f"git {' '.join(args)} failed: {p.stderr}")
    return p.stdout


def diff_repo(tmp):
    """A committed tree, then a working tree with: a new strided load in changed.cu (line 5),
    one line of a header that user.cu includes (its helper now strided), and untouched.cu
    (which has an old finding) as it was."""
    repo = os.path.join(tmp, "repo")
    write(repo, "src/changed.cu", GOOD.replace("decimate", "changed"))
    write(repo, "src/untouched.cu", GOOD.replace("decimate", "untouched"))
    write(repo, "src/helper.cuh", HELPER)
    write(repo, "src/user.cu", USES_HELPER)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    write(repo, "src/changed.cu", GOOD.replace("decimate", "changed").replace(
        "  out[i] = in[2 * i];\n", "  out[i] = in[2 * i];\n  out[i] = in[8 * i];\n"))
    write(repo, "src/helper.cuh", HELPER.replace("p[i]", "p[4 * i]"))
    return repo


def expect_diff_findings(r):
    expect_rc(r, 1)
    found = re.findall(r"^(\S+?):(\d+):\d+: warning: .*\[(\S+)\]$", r.out, re.M)
    check(sorted((os.path.basename(f), int(l)) for f, l, _ in found) == [("changed.cu", 4), ("helper.cuh", 3)],
          f"findings {found}, expected changed.cu:4 and helper.cuh:3 only", r)
    line = summary_line(r)
    check("1 file left out" in line, "untouched.cu was not left out", r)
    check("untouched" not in r.out, "untouched.cu was reported", r)
    check(re.search(r"; 1 not on changed lines", line), "changed.cu's old finding was not counted as dropped", r)


@case("diff: --diff-base reports only changed lines and analyses only the files the diff reaches")
def _(tmp):
    repo = diff_repo(tmp)
    r = lint("--diff-base", "HEAD", "src", cwd=repo)
    expect_diff_findings(r)
    # From a folder below the top: git's paths are the top's, the inputs the folder's.
    r = lint("--diff-base", "HEAD", ".", cwd=os.path.join(repo, "src"))
    expect_diff_findings(r)
    # Nothing changed against the working tree's own commit: nothing analysed, exit 0.
    git(repo, "commit", "-q", "-am", "changes")
    r = lint("--diff-base", "HEAD", "--format=json", "src", cwd=repo)
    expect_rc(r, 0)
    d = r.json()
    check(d["findings"] == [] and d["files"] == [] and d["summary"]["unchanged"] == 0, "an empty diff", r)
    # Against the commit before: the same findings as before the commit.
    r = lint("--diff-base", "HEAD~1", "src", cwd=repo)
    expect_diff_findings(r)


@case("diff: --changed-lines reads a unified diff from a file or stdin")
def _(tmp):
    repo = diff_repo(tmp)
    with open(os.path.join(tmp, "u3.diff"), "w") as f:  # with context lines
        f.write(git(repo, "diff"))
    r = lint("--changed-lines", os.path.join(tmp, "u3.diff"), "src", cwd=repo)
    expect_diff_findings(r)
    with open(os.path.join(tmp, "u3.diff")) as f:
        r = lint("--changed-lines", "-", "src", cwd=repo, stdin=f)
    expect_diff_findings(r)
    # Without git's a/ b/ prefixes (--no-prefix), as diff -u writes names.
    with open(os.path.join(tmp, "noprefix.diff"), "w") as f:
        f.write(git(repo, "diff", "--no-prefix", "-U0"))
    expect_diff_findings(lint("--changed-lines", os.path.join(tmp, "noprefix.diff"), "src", cwd=repo))


@case("diff: bad diffs, revisions and combinations are usage errors")
def _(tmp):
    repo = diff_repo(tmp)
    usage_error(lint("--changed-lines", "missing.diff", "src", cwd=repo), "missing.diff")
    write(tmp, "bad.diff", "--- a/src/changed.cu\n+++ b/src/changed.cu\n@@ -1,2 +x,3 @@\n")
    usage_error(lint("--changed-lines", os.path.join(tmp, "bad.diff"), "src", cwd=repo), "bad.diff:3")
    write(tmp, "short.diff", "--- a/src/changed.cu\n+++ b/src/changed.cu\n@@ -1,2 +1,3 @@\n+one\n")
    usage_error(lint("--changed-lines", os.path.join(tmp, "short.diff"), "src", cwd=repo), "ends inside a hunk")
    usage_error(lint("--diff-base", "no-such-revision", "src", cwd=repo), "no-such-revision")
    usage_error(lint("--diff-base", "--output=x", "src", cwd=repo), "expected a git revision")
    write(tmp, "outside/k.cu", GOOD)
    usage_error(lint("--diff-base", "HEAD", "k.cu", cwd=os.path.join(tmp, "outside")), "not inside a git work tree")
    usage_error(lint("--diff-base", "HEAD", "--changed-lines", "x.diff", "src", cwd=repo), "give one of them")


# ---- the compiler launcher and merge, without a build system (docs/ci.md) ----------------------
# (A real CMake + Ninja build through the launcher: test/launcher/launcher_build_test.py.)

@case("launch: a compile is analysed next to its object, anything else goes to the compiler")
def _(tmp):
    write(tmp, "src/good.cu", GOOD)
    write(tmp, "src/broken.cu", "__global__ void k( {\n")
    os.makedirs(os.path.join(tmp, "obj"))
    cc = ["c++", "-DUNUSED_FLAG=1", "-c", "src/good.cu", "-o", "obj/good.o", "-MD", "-MT", "obj/good.o", "-MF", "obj/good.d"]
    r = lint("launch", "--skip-compile", "--", *cc, cwd=tmp)
    expect_rc(r, 0)
    check(r.out == "" and r.err == "", "the launcher printed something for a clean compile", r)
    check(os.path.isfile(os.path.join(tmp, "obj/good.o")), "no object stood in for the compiler", r)
    deps = open(os.path.join(tmp, "obj/good.d")).read()
    check(deps.startswith("obj/good.o:") and os.path.join(tmp, "src/good.cu") in deps, "the depfile", r)
    check(os.path.isfile(os.path.join(tmp, "obj/good.o.coalesce-lint.json")), "no result next to the object", r)
    # A file the analysis cannot parse: a warning, the build goes on, merge exits 3.
    r = lint("launch", "--skip-compile", "--", "c++", "-c", "src/broken.cu", "-o", "obj/broken.o", cwd=tmp)
    expect_rc(r, 0)
    expect_message(r, "warning", "src/broken.cu", "not analysed")
    r = lint("merge", "obj", cwd=tmp)
    expect_rc(r, 3)
    expect_good_reported(r)
    # Not a compile of one CUDA source: straight to the compiler, its exit status returned.
    expect_rc(lint("launch", "--", "true", "--version", cwd=tmp), 0)
    expect_rc(lint("launch", "--", "false", "-o", "x", cwd=tmp), 1)
    r = lint("launch", "--", "no-such-compiler-here", "-c", "src/good.cu", "-o", "obj/x.o", cwd=tmp)
    expect_rc(r, 127)
    expect_message(r, "error", "no-such-compiler-here", "cannot run the compiler")
    usage_error(lint("launch", cwd=tmp), "no compiler command")
    usage_error(lint("launch", "--arch", "sm_1", "--", "c++", "-c", "src/good.cu", "-o", "obj/y.o", cwd=tmp), "sm_1")


@case("launch: merged results report what a run over the same files reports (groups included)")
def _(tmp):
    # Fields of one record read through a reference: a group whose members the aos-field-access
    # message counts; in the second translation unit its id must name the merged accesses.
    record = ("struct Term { short2 zero; short2 one; float diff; bool valid; };\n"
              "__global__ void fields(const Term* __restrict__ t, const float* img, float* out, int n) {\n"
              "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {\n"
              "    const Term& c = t[i];\n"
              "    float r = 0;\n"
              "    if (c.valid) r = c.diff * img[c.zero.y * 640 + c.zero.x] + img[c.one.y * 640 + c.one.x];\n"
              "    out[i] = r;\n"
              "  }\n"
              "}\n"
              "int main() { Term* t; float *img, *o; for (int i = 0; i < 10; ++i) fields<<<64, 256>>>(t, img, o, 1 << 20); }\n")
    write(tmp, "src/a_first.cu", GOOD)
    write(tmp, "src/b_record.cu", record)
    os.makedirs(os.path.join(tmp, "obj"))
    for name in ("a_first", "b_record"):
        lint("launch", "--skip-compile", "--", "nvcc", "-c", f"src/{name}.cu", "-o", f"obj/{name}.o", cwd=tmp)
    merged = lint("merge", "--format=json", "obj", cwd=tmp)
    direct = lint("--format=json", "--no-cache", "src/a_first.cu", "src/b_record.cu", cwd=tmp)
    def findings(r):
        return sorted((os.path.basename(f["file"]), f["line"], f["column"], f["rule"], f["severity"], f["message"])
                      for f in r.json()["findings"])
    check(findings(merged) == findings(direct), "merged findings differ from the direct run's", merged)
    check(any("reads 13 of the 16 bytes" in f[5] for f in findings(merged)),
          "the record's group was not read in the merged report", merged)


@case("launch: --max-instantiations, and merge counts the instantiations left out")
def _(tmp):
    write(tmp, "t.cu", SIX_INSTANTIATIONS)
    lint("launch", "--skip-compile", "--max-instantiations", "2", "--", "nvcc", "-c", "t.cu", "-o", "t.o", cwd=tmp)
    r = lint("merge", "--format=json", "t.o.coalesce-lint.json", cwd=tmp)
    d = r.json()
    check(len(d["kernels"]) == 2 and all(k["template_instantiations"] == 6 for k in d["kernels"]),
          "the launcher did not analyse 2 of the 6 instantiations", r)
    check(d["summary"]["instantiations_not_analysed"] == 4, "merge does not count the 4 left out", r)
    usage_error(lint("launch", "--max-instantiations", "x", "--", "nvcc", "-c", "t.cu", "-o", "u.o", cwd=tmp),
                "--max-instantiations")


@case("launch: the architecture comes from the command, unless --arch says otherwise")
def _(tmp):
    write(tmp, "k.cu", GOOD)
    lint("launch", "--skip-compile", "--", "nvcc", "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
         "-x", "cu", "-c", "k.cu", "-o", "a.o", cwd=tmp)
    lint("launch", "--skip-compile", "--arch", "sm_70", "--", "nvcc", "-arch=sm_86", "-c", "k.cu", "-o", "b.o", cwd=tmp)
    header_a = json.loads(open(os.path.join(tmp, "a.o.coalesce-lint.json")).readline())
    header_b = json.loads(open(os.path.join(tmp, "b.o.coalesce-lint.json")).readline())
    check(header_a["arch"] == "sm_80" and header_b["arch"] == "sm_70", f"archs {header_a['arch']}, {header_b['arch']}")
    usage_error(lint("merge", "a.o.coalesce-lint.json", "b.o.coalesce-lint.json", cwd=tmp), "analysed for")
    r = lint("merge", "--format=json", "a.o.coalesce-lint.json", "a.o.coalesce-lint.json", cwd=tmp)
    check(len(r.json()["files"]) == 1, "the same result given twice counts once", r)
    write(tmp, "bogus.coalesce-lint.json", "{}\n")
    usage_error(lint("merge", "bogus.coalesce-lint.json", cwd=tmp), "not a coalesce-lint result file")
    os.makedirs(os.path.join(tmp, "empty"))
    usage_error(lint("merge", "empty", cwd=tmp), "no .coalesce-lint.json file")
