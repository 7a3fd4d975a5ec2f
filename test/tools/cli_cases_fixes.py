"""Cases of test/tools/cli_tests.py: fix-its (docs/fixes.md): --fix, --export-fixes, SARIF fixes.

Every case works on a copy of kernels/examples/ (or a generated file) in its temporary folder;
the source tree is never written.
"""
import glob
import json
import os
import re
import shutil
import stat
import subprocess

from cli_harness import *  # noqa: F401,F403 (the cases use the harness's helpers and imports)

# The examples' padding fixes, by file: what the declaration must read after --fix. The sizes
# written as names keep them; the constexpr itself is never edited.
EXPECTED_PADDINGS = {
    "shared_transpose_tiled.cu": ["__shared__ float tile[TILE_DIM][TILE_DIM + 1];"],
    # [ROWS][32] and [ROWS][34] (a 2-way conflict of doubles: rows 272 bytes apart); [ROWS][33] is the good one.
    "shared_double_tab_column.cu": ["__shared__ double tab[ROWS][33];", "__shared__ double tab[ROWS][35];"],
}
EXPECTED_FIXES = sum(len(v) for v in EXPECTED_PADDINGS.values())


def copy_examples(tmp):
    dst = os.path.join(tmp, "examples")
    shutil.copytree(os.path.join(SETTINGS.source_dir, "kernels", "examples"), dst)
    return dst


def read(path):
    with open(path, "rb") as f:
        return f.read()


def sources(root):
    return {os.path.relpath(p, root): read(p) for p in sorted(glob.glob(os.path.join(root, "*.cu")))}


def fix_notes(finding):
    return [n for n in finding["notes"] if n.startswith(("fix checked:", "fix withheld:", "no automatic fix:"))]


def place(f):
    return (f["rule"], os.path.basename(f["file"]), f["line"])


def access_figure(report, finding):
    """The figure that gets worse: (1 - eta) for global, the conflict degree for shared."""
    if finding["access"] is None:
        return 0.0
    a = report["accesses"][finding["access"]]
    if a["conflict_degree"] is not None:
        return a["conflict_degree"]
    return 1.0 - (a["efficiency"] if a["efficiency"] is not None else 1.0)


def fixed_tree(tmp, name, *extra):
    """A copy of the examples with --fix run over it: (folder, that run's JSON report, the run)."""
    root = os.path.join(tmp, name)
    shutil.copytree(os.path.join(SETTINGS.source_dir, "kernels", "examples"), root)
    r = lint("--format=json", "--fix", *extra, ".", cwd=root, limit=300)
    expect_rc(r, 1)
    return root, r.json(), r


@case("fix: --fix on a copy of kernels/examples removes every padding-fixable conflict and nothing gets worse")
def _(tmp):
    root = copy_examples(tmp)
    original = sources(root)
    before = lint("--format=json", ".", cwd=root, limit=300)
    expect_rc(before, 1)
    before = before.json()
    # A plain run writes nothing and prints no fix verdict: only --fix, --export-fixes and SARIF check fixes.
    check(sources(root) == original, "a run without --fix changed the tree")
    check(not any(fix_notes(f) for f in before["findings"]), "a plain run printed a fix verdict")

    r = lint("--format=json", "--fix", ".", cwd=root, limit=300)
    expect_rc(r, 1)
    fixing = r.json()
    checked = [f for f in fixing["findings"] if any(n.startswith("fix checked:") for n in f["notes"])]
    padding_findings = [f for f in fixing["findings"]
                        if f["rule"] in ("shared-bank-conflict", "wide-shared-access-conflict")]
    check(checked, "no fix was checked", r)
    check({os.path.basename(f["file"]) for f in checked} == set(EXPECTED_PADDINGS),
          f"fixed files {sorted({os.path.basename(f['file']) for f in checked})}, expected {sorted(EXPECTED_PADDINGS)}",
          r)
    # Every conflict finding either got its fix checked or says why it has none.
    for f in padding_findings:
        check(fix_notes(f) or not any("pad each row" in n for n in f["notes"]),
              f"{place(f)} proposes padding but has no fix verdict", r)
    applied = [line for line in r.err_lines() if line.startswith("coalesce-lint: applied ")]
    check(applied == [f"coalesce-lint: applied {EXPECTED_FIXES} fixes to {len(EXPECTED_PADDINGS)} files"],
          f"summary of applied fixes: {applied}", r)

    fixed = sources(root)
    for name, text in fixed.items():
        if name not in EXPECTED_PADDINGS:
            check(text == original[name], f"{name} changed although it has no checked fix")
            continue
        old_lines, new_lines = original[name].decode().splitlines(), text.decode().splitlines()
        check(len(old_lines) == len(new_lines), f"{name}: the fix changed the number of lines")
        changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
        check([b.strip().split("  //")[0] for _, b in changed] == EXPECTED_PADDINGS[name],
              f"{name}: changed lines {changed}, expected only the declarations {EXPECTED_PADDINGS[name]}")

    # The fixed files still parse (the tool's own device-side parse, the project's CUDA flags)
    # and every fixed finding is gone; no finding is new or worse.
    after = lint("--format=json", ".", cwd=root, limit=300)
    expect_rc(after, 1)
    after = after.json()
    status = {os.path.basename(f["path"]): (f["status"], f["host_errors"]) for f in after["files"]}
    status_before = {os.path.basename(f["path"]): (f["status"], f["host_errors"]) for f in before["files"]}
    check(status == status_before, f"files analysed differently after the fix: {status} vs {status_before}")
    check(all(k["status"] == "analysed" for k in after["kernels"]) ==
          all(k["status"] == "analysed" for k in before["kernels"]), "a kernel failed after the fix")
    after_places = {place(f): f for f in after["findings"]}
    for f in checked:
        check(place(f) not in after_places, f"the fixed finding {place(f)} is still reported")
    before_places = {place(f): f for f in before["findings"]}
    for key, f in after_places.items():
        check(key in before_places, f"new finding after the fix: {key} {f['message']}")
        old = before_places[key]
        check(access_figure(after, f) <= access_figure(before, old) + 1e-9,
              f"{key} got worse: {f['message']} (was {old['message']})")
        for cost in ("cost_sectors", "cost_wavefronts"):
            if f[cost] is not None and old[cost] is not None:
                check(f[cost] <= old[cost] * (1 + 1e-9) + 1e-9, f"{key}: {cost} grew from {old[cost]} to {f[cost]}")
    check(len(after["findings"]) == len(before["findings"]) - len(checked),
          f"{len(before['findings'])} findings before, {len(checked)} fixed, {len(after['findings'])} after")

    # A second --fix finds nothing left to fix.
    again = lint("--fix", ".", cwd=root, limit=300)
    check("coalesce-lint: applied 0 fixes to 0 files" in again.err, "a second --fix applied something", again)
    check(sources(root) == fixed, "a second --fix changed the tree", again)


def parse_fixes_yaml(text):
    """A reader of the YAML --export-fixes writes (double-quoted scalars): the replacements."""
    out = []
    current = None
    for line in text.splitlines():
        m = re.match(r"^\s*(- )?(FilePath|Offset|Length|ReplacementText):\s+(.*)$", line)
        if not m or "DiagnosticMessage" in line:
            continue
        key, value = m.group(2), m.group(3)
        if key == "FilePath" and m.group(1):
            current = {"FilePath": json.loads(value)}
            out.append(current)
        elif current is not None and key in ("Offset", "Length"):
            current[key] = int(value)
        elif current is not None and key == "ReplacementText":
            current[key] = json.loads(value)  # our scalars are JSON-compatible double-quoted strings
    return out


def apply_replacements(root, replacements):
    by_file = {}
    for r in replacements:
        by_file.setdefault(os.path.join(root, r["FilePath"]), []).append(r)
    for path, reps in by_file.items():
        data = read(path)
        for r in sorted(reps, key=lambda r: r["Offset"], reverse=True):
            data = data[:r["Offset"]] + r["ReplacementText"].encode() + data[r["Offset"] + r["Length"]:]
        with open(path, "wb") as f:
            f.write(data)


@case("fix: --export-fixes writes clang-apply-replacements YAML that gives what --fix gives")
def _(tmp):
    fixed_root, _, _ = fixed_tree(tmp, "by-fix")
    root = copy_examples(tmp)
    original = sources(root)
    out = os.path.join(tmp, "yaml", "fixes.yaml")
    os.makedirs(os.path.dirname(out))
    r = lint("--export-fixes", out, ".", cwd=root, limit=300)
    expect_rc(r, 1)
    check(sources(root) == original, "--export-fixes without --fix changed the tree", r)
    with open(out, encoding="utf-8") as f:
        text = f.read()
    check(text.startswith("---\nMainSourceFile:  \"\"\nDiagnostics:\n") and text.endswith("...\n") and
          f'FilePath:        "{os.path.realpath(root)}/' in text,
          "not clang-tidy's export layout", r)
    reps = parse_fixes_yaml(text)
    check(len(reps) == EXPECTED_FIXES, f"{len(reps)} replacements, expected {EXPECTED_FIXES}", r)
    for rep in reps:
        check(set(rep) == {"FilePath", "Offset", "Length", "ReplacementText"}, f"replacement fields {rep}", r)
    tool = shutil.which("/usr/lib/llvm-19/bin/clang-apply-replacements") or shutil.which("clang-apply-replacements")
    if tool:  # clang-tools-19 (dev.sh PACKAGES): the real reader applies it
        p = subprocess.run([tool, os.path.dirname(out)], cwd=root, capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, f"{tool} failed: {p.stderr}")
    else:  # without it, this file's reader applies the same fields
        apply_replacements(root, reps)
    check(sources(root) == sources(fixed_root), "the YAML applied does not give what --fix gives")

    bad = lint("--export-fixes", os.path.join(tmp, "no-such-dir", "fixes.yaml"), ".", cwd=root, limit=300)
    expect_rc(bad, 4)
    lines = [line for line in bad.err_lines() if "error" in line]
    check(len(lines) == 1 and "no-such-dir/fixes.yaml: cannot write the fixes" in lines[0],
          "no one-line error naming the --export-fixes path", bad)
    expect_clean_stderr(bad)


@case("fix: SARIF results carry the checked fixes, valid against the SARIF 2.1.0 schema")
def _(tmp):
    import jsonschema  # python3-jsonschema (dev.sh PACKAGES)
    fixed_root, _, _ = fixed_tree(tmp, "by-fix")
    root = copy_examples(tmp)
    r = lint("--format=sarif", ".", cwd=root, limit=300)
    expect_rc(r, 1)
    log = r.json()
    with open(os.path.join(SETTINGS.source_dir, "test", "report", "data", "sarif-schema-2.1.0.json")) as f:
        schema = json.load(f)
    errors = sorted(jsonschema.validators.validator_for(schema)(schema).iter_errors(log), key=str)
    check(not errors, f"schema errors: {[e.message for e in errors[:3]]}", r)
    with_fixes = [res for res in log["runs"][0]["results"] if res.get("fixes")]
    check(len(with_fixes) == EXPECTED_FIXES, f"{len(with_fixes)} results with fixes", r)
    reps = []
    for res in with_fixes:
        check("fix checked:" in res["message"]["text"], "a result with a fix does not say it was checked", r)
        for change in res["fixes"][0]["artifactChanges"]:
            for rep in change["replacements"]:
                reps.append({"FilePath": change["artifactLocation"]["uri"],
                             "Offset": rep["deletedRegion"]["byteOffset"],
                             "Length": rep["deletedRegion"]["byteLength"],
                             "ReplacementText": rep["insertedContent"]["text"]})
    apply_replacements(root, reps)
    check(sources(root) == sources(fixed_root), "the SARIF replacements do not give what --fix gives")


RESTRICT = """__global__ void copy(const float* in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
"""


@case("fix: --fix adds __restrict__ to the parameters missing-restrict names, and only when asked")
def _(tmp):
    path = write(tmp, "copy.cu", RESTRICT)
    r = lint("--checks=missing-restrict", "copy.cu", cwd=tmp)
    check(read(path) == RESTRICT.encode(), "a run without --fix wrote into the file", r)
    r = lint("--checks=missing-restrict", "--fix", "copy.cu", cwd=tmp)
    check(r.rc in (0, 1), f"exit code {r.rc}", r)
    check("fix checked: declare 'in' __restrict__" in r.out, "no checked restrict fix in the notes", r)
    want = RESTRICT.replace("const float* in", "const float* __restrict__ in").replace(
        "float *out", "float *__restrict__ out")
    check(read(path) == want.encode(), f"fixed file:\n{read(path).decode()}", r)
    again = lint("--checks=missing-restrict", "--format=json", "copy.cu", cwd=tmp)
    expect_rc(again, 0)
    check(again.json()["findings"] == [], "missing-restrict still fires after the fix", again)
    check(all(p["restrict"] for p in again.json()["pointer_params"]), "a parameter is not restrict", again)


ONE_D = """#define N 1024
__global__ void column(float* __restrict__ out) {
  __shared__ float s[N];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 32];
}
"""

ESCAPING = """__global__ void col(float* __restrict__ out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  float* row = t[threadIdx.y];
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y] + row[0];
}
"""


@case("fix: padding is withheld with its reason when it cannot be proven, and the swizzle is a note")
def _(tmp):
    write(tmp, "oned.cu", ONE_D)
    write(tmp, "escape.cu", ESCAPING)
    r = lint("--fix", "--block-dim", "32x32", "oned.cu", "escape.cu", cwd=tmp)
    expect_rc(r, 1)
    check(read(os.path.join(tmp, "oned.cu")) == ONE_D.encode(), "oned.cu was changed", r)
    check(read(os.path.join(tmp, "escape.cu")) == ESCAPING.encode(), "escape.cu was changed", r)
    check("no automatic fix: it is one-dimensional" in r.out, "no reason for the 1D array", r)
    check("XOR swizzle" in r.out, "the swizzle is not offered as a note", r)
    check("no automatic fix: 't' is used at line 5 otherwise than as an element" in r.out,
          "no reason naming the row pointer's line", r)


@case("fix: a read-only file is left as it was, one error line, exit 4")
def _(tmp):
    src = os.path.join(SETTINGS.source_dir, "kernels", "examples", "shared_transpose_tiled.cu")
    path = os.path.join(tmp, "tiled.cu")
    shutil.copy(src, path)
    os.chmod(path, 0o444)
    os.chmod(tmp, 0o755)
    args = ["--no-cache", "--fix", "tiled.cu"]
    if os.geteuid() == 0:
        # root writes through any mode: run as nobody, for whom the file is read-only.
        setpriv = shutil.which("setpriv")
        check(setpriv is not None, "running as root and setpriv (util-linux) is missing")
        os.chmod(os.path.dirname(tmp), os.stat(os.path.dirname(tmp)).st_mode | stat.S_IXOTH)
        r = lint_as_nobody(setpriv, args, cwd=tmp)
    else:
        r = lint(*args, cwd=tmp)
    expect_rc(r, 4)
    errors = [line for line in r.err_lines() if line.startswith("coalesce-lint: error:")]
    check(len(errors) == 1 and errors[0].startswith("coalesce-lint: error: tiled.cu: cannot write the fixes"),
          f"error lines {errors}", r)
    expect_clean_stderr(r)
    check(read(path) == read(src), "the read-only file was changed", r)


def lint_as_nobody(setpriv, args, cwd):
    env = dict(os.environ)
    env.pop("COALESCE_LINT_CACHE_DIR", None)
    argv = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", SETTINGS.binary] + list(args)
    p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=RUN_LIMIT_S)
    return Run(argv, p.returncode, p.stdout, p.stderr, 0.0)
