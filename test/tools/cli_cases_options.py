"""Cases of test/tools/cli_tests.py: every option (docs/cli.md)."""
from cli_harness import *  # noqa: F401,F403 (the cases use the harness's helpers and imports)


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


@case("option: --max-instantiations analyses that many of a template's, spread evenly")
def _(tmp):
    write(tmp, "t.cu", SIX_INSTANTIATIONS)
    cache = os.path.join(tmp, "cache")
    env = {"COALESCE_LINT_CACHE_DIR": cache}  # one cache for every run: the option is part of its key
    every = lint("--format=json", "t.cu", cwd=tmp, env=env)
    d = every.json()
    check(len(d["kernels"]) == 6, f"default: {len(d['kernels'])} kernels, expected all 6", every)
    check(all(k["template_instantiations"] == 0 for k in d["kernels"]), "default: an instantiation said sampled", every)
    check(d["summary"]["instantiations_not_analysed"] == 0, "default: instantiations said not analysed", every)
    r = lint("--format=json", "--max-instantiations", "2", "t.cu", cwd=tmp, env=env)
    d = r.json()
    names = sorted(k["name"] for k in d["kernels"])
    check(len(names) == 2 and "<0>" in names[0] and "<3>" in names[1],
          f"--max-instantiations 2 analysed {names}, expected the first and the fourth of six", r)
    check(all(k["template_instantiations"] == 6 for k in d["kernels"]), "the sampled kernels do not say 6", r)
    check(d["summary"]["instantiations_not_analysed"] == 4, "the summary does not count the 4 left out", r)
    check(any(f["rule"] == "uncoalesced-global-access" for f in d["findings"]), "S = 3's strided store not reported", r)
    t = lint("--max-instantiations", "2", "t.cu", cwd=tmp, env=env)
    check("and 4 instantiations not analysed (of 1 kernel template instantiated more than --max-instantiations "
          "times)" in t.err, "the text summary does not say what was left out", t)
    # An instantiation a recorded run launched is analysed too (verify predicts every kernel that ran).
    write(tmp, "run.json", json.dumps({
        "schema": "coalesce-verify-measurements/1", "status": "ok", "sampling": "config", "kernel_launches": 1,
        "launches_measured": 1, "instructions": [],
        "launch_configs": [{"kernel": "_Z6strideILi5EEvPfPKfi", "grid": [4096, 1, 1], "block": [256, 1, 1],
                            "shared_bytes": 0, "args": "00000000007f0000" + "00000000107f0000" + "00001000",
                            "arg_sizes": [8, 8, 4], "launches": 1, "measured": True}]}))
    r = lint("--format=json", "--max-instantiations", "2", "--launch-info", "run.json", "t.cu", cwd=tmp, env=env)
    d = r.json()
    names = sorted(k["name"] for k in d["kernels"])
    check(len(names) == 3 and "<5>" in names[2], f"with S = 5 recorded, {names} analysed", r)
    check(d["summary"]["instantiations_not_analysed"] == 3, "3 left out with the recorded one kept", r)
    r = lint("--format=json", "--max-instantiations", "0", "t.cu", cwd=tmp, env=env)
    check(len(r.json()["kernels"]) == 6, "--max-instantiations 0 does not analyse all", r)
    usage_error(lint("--max-instantiations", "-1", "t.cu", cwd=tmp), "--max-instantiations")


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


DEMO_ONCE = """#define DIM 256
__global__ void demo(float* image) {
  __shared__ float tile[16][16];
  const int x = threadIdx.x + blockIdx.x * blockDim.x, y = threadIdx.y + blockIdx.y * blockDim.y;
  tile[threadIdx.x][threadIdx.y] = x * y;
  __syncthreads();
  image[y * DIM + x] = tile[threadIdx.y][threadIdx.x];
}
int main() {
  float* image;
  cudaMalloc(&image, DIM * DIM * sizeof(float));
  demo<<<dim3(DIM / 16, DIM / 16), dim3(16, 16)>>>(image);
  return 0;
}
"""


# Issue #14, session 15: the absolute floor on a finding's waste per run (docs/findings.md,
# "Levels"): a one-launch demo over a constant-sized image is a note by default, a warning with
# the floor at 0; the option is dumped, read back and checked like the others.
@case("option: --min-waste-per-run")
def _(tmp):
    write(tmp, "demo.cu", DEMO_ONCE)
    r = lint("demo.cu", cwd=tmp)
    expect_rc(r, 0)
    check("demo.cu:5:" in r.out and "note: " in r.out and "MinWastePerRun" in r.out,
          "the demo's conflict is not a note that names MinWastePerRun", r)
    r = lint("--min-waste-per-run", "0", "demo.cu", cwd=tmp)
    expect_rc(r, 1)
    check("demo.cu:5:" in r.out and "warning: " in r.out, "with the floor at 0 the conflict is not a warning", r)
    r = lint("--dump-config", "--min-waste-per-run", "7.5", cwd=tmp)
    check("MinWastePerRun: 7.5" in r.out, "the floor is not dumped", r)
    write(tmp, ".coalesce-lint.yaml", "MinWastePerRun: -1\n")
    r = lint("demo.cu", cwd=tmp)
    expect_rc(r, 2)
    check("MinWastePerRun must be a number of microseconds" in r.err, "a negative floor is not refused", r)


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
    # A 2-way conflict is a note by default (NoteUpToDegree 2): reported, not gating.
    expect_rc(r, 0)
    degrees = [a["conflict_degree"] for a in r.json()["accesses"] if a["space"] == "shared"]
    check(2 in degrees, f"conflict degrees {degrees}, expected a 2", r)
    conflicts = [f for f in r.json()["findings"] if f["rule"] == "shared-bank-conflict"]
    check(conflicts and all(f["severity"] == "note" for f in conflicts), "no bank-conflict note", r)
    write(tmp, ".coalesce-lint.yaml", "CheckOptions:\n  shared-bank-conflict.NoteUpToDegree: 1\n")
    expect_rc(lint("-q", "sh.cu", cwd=tmp), 1)
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


@case("option: a header included through '..' from two folders is one place")
def _(tmp):
    # Each unit names the header through its own folder (`a/../inc`, `b/../inc`): the finding
    # is one, at the path without the dots (lib/analysis/src/record_builder.cpp, plainLocation).
    write(tmp, "inc/kern.cuh", "__global__ void inhdr(const float* __restrict__ in, float* __restrict__ out) {\n"
                               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[2 * i];\n}\n")
    for unit in ("a", "b"):
        write(tmp, f"{unit}/main.cu", '#include "../inc/kern.cuh"\n'
                                      "int main() { for (int r = 0; r < 1000; ++r) inhdr<<<4096, 256>>>(nullptr, nullptr); return 0; }\n")
    r = lint("--format=json", "a/main.cu", "b/main.cu", cwd=tmp)
    expect_rc(r, 1)
    places = [(f["file"], f["line"]) for f in r.json()["findings"] if f["rule"] == "uncoalesced-global-access"]
    check(len(places) == 1, f"one place expected, got {places}", r)
    check(bool(places) and ".." not in places[0][0] and places[0][0].endswith("inc/kern.cuh"),
          "the path keeps its dots", r)


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
    check("good.cu: no global or shared access, branch or barrier found at line 1" in r.err,
          "no error for a line without access", r)


# Issue #14: every location a finding names works with --explain, a barrier's and a branch's too.
@case("option: --explain at a barrier and at a branch")
def _(tmp):
    write(tmp, "sync.cu", """__global__ void k(float* out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 64) {
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x + 1];
  }
}
int main() { float* o; k<<<8, 256>>>(o); return 0; }
""")
    r = lint("-q", "--no-cache", "--explain", "sync.cu:5", cwd=tmp)
    expect_rc(r, 0)
    check("barrier '__syncthreads()'" in r.out and "`threadIdx.x < 64`" in r.out, "no barrier explained", r)
    check("warp  1  " + "1" * 32 in r.out and "warp  2  " + "0" * 32 in r.out, "no per-warp picture", r)
    r = lint("-q", "--no-cache", "--explain", "sync.cu:4", cwd=tmp)
    expect_rc(r, 0)
    check("branch `threadIdx.x < 64`" in r.out, "no branch explained", r)


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
