#!/usr/bin/env python3
"""The compiler launcher and `merge` end to end (docs/ci.md): test/launcher/example/, a small CMake
project, configured with coalesce-lint as its compiler launcher and built with Ninja; then
`coalesce-lint merge` over the build folder, in each format, with its gates and exit codes; then
an edit to a header, after which the build runs the launcher again for the one source that
includes it, and the merged report shows the new figure.

    launcher_build_test.py --binary PATH --source-dir DIR --variant skip-compile|nvcc

skip-compile: the sources are given to the launcher as C++ and it stands in for the compiler
(no CUDA compiler needed: what CI runs). nvcc: CMake's CUDA language with nvcc behind the
launcher; reported as skipped when no nvcc is installed. Everything happens in a temporary
folder, with a result cache of its own.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


class Failure(Exception):
    pass


def check(cond, message, proc=None):
    if not cond:
        if proc is not None:
            message += f"\n  command: {' '.join(map(str, proc.args))}\n  exit code: {proc.returncode}" \
                       f"\n  --- stdout ---\n{proc.stdout[-4000:]}\n  --- stderr ---\n{proc.stderr[-4000:]}"
        raise Failure(message)


def run(argv, cwd, env, timeout=300):
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def results(build):
    return sorted(glob.glob(os.path.join(build, "**", "*.coalesce-lint.json"), recursive=True))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--variant", choices=["skip-compile", "nvcc"], required=True)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)

    configure = ["-G", "Ninja", f"-DCOALESCE_LINT={binary}"]
    if a.variant == "nvcc":
        nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK)
                                        else None)
        if not nvcc:
            print("SKIPPED: no nvcc installed (the skip-compile variant covers the launcher without one)")
            return 0
        configure.append(f"-DCMAKE_CUDA_COMPILER={nvcc}")
    else:
        configure.append("-DCOALESCE_EXAMPLE_NO_CUDA=ON")

    tmp = tempfile.mkdtemp(prefix="coalesce-launcher-")
    try:
        src, build = os.path.join(tmp, "src"), os.path.join(tmp, "build")
        shutil.copytree(os.path.join(a.source_dir, "test", "launcher", "example"), src)
        env = dict(os.environ, COALESCE_LINT_CACHE_DIR=os.path.join(tmp, "cache"))
        env.pop("CUDA_PATH", None)

        p = run(["cmake", "-S", src, "-B", build, *configure], tmp, env)
        check(p.returncode == 0, "configure failed", p)
        p = run(["cmake", "--build", build, "-j", "2"], tmp, env)
        check(p.returncode == 0, "the build through the launcher failed", p)
        found = results(build)
        names = sorted(os.path.basename(f) for f in found)
        check(names == ["stride.cu.o.coalesce-lint.json", "tile.cu.o.coalesce-lint.json"],
              f"result files {names}, expected one next to each object")
        for f in found:
            check(os.path.isfile(f[: -len(".coalesce-lint.json")]), f"no object next to {f}")

        # One report from the two results, with the build's flags (TILE=32: a 32-way conflict).
        p = run([binary, "merge", build], tmp, env)
        check(p.returncode == 1, "merge: findings must exit 1", p)
        check(re.search(r"stride\.cu:4:12: warning: load of 'in\[2 \* i\]' uses 8 sectors", p.stdout),
              "merge: the strided load's finding", p)
        check(re.search(r"tile\.cu:8:\d+: warning: .*32-way", p.stdout), "merge: the 32-way conflict of TILE=32", p)
        check(re.search(r"coalesce-lint: 2 files, 2 kernels", p.stderr), "merge: summary line", p)
        p = run([binary, "merge", "--format=json", *found], tmp, env)
        d = json.loads(p.stdout)
        check(sorted(f["rule"] for f in d["findings"]) == ["shared-bank-conflict", "uncoalesced-global-access"],
              "merge --format=json: findings", p)
        check(len(d["files"]) == 2 and all(f["status"] == "analysed" for f in d["files"]), "merge: files", p)
        p = run([binary, "merge", "--format=sarif", build], tmp, env)
        check(len(json.loads(p.stdout)["runs"][0]["results"]) == 2, "merge --format=sarif: results", p)
        p = run([binary, "merge", "--checks=-*,uncoalesced-global-access", "--min-efficiency", "0.4", build], tmp, env)
        check(p.returncode == 0 and p.stdout == "", "merge: the gates apply (nothing left, exit 0)", p)
        p = run([binary, "merge", os.path.join(tmp, "nothing-here")], tmp, env)
        check(p.returncode == 2 and p.stderr.count("\n") == 1, "merge: a missing path is one usage error", p)

        # Up to date: the build runs nothing.
        p = run(["cmake", "--build", build, "-j", "2", "--", "-d", "explain"], tmp, env)
        check(p.returncode == 0 and "no work to do" in p.stdout, "a second build is not a no-op", p)

        # A header edit: only tile.cu's compile (and its analysis) runs again.
        before = {f: os.stat(f).st_mtime_ns for f in found}
        time.sleep(1.1)  # file systems with coarse time stamps
        with open(os.path.join(src, "include", "tile.cuh"), "a") as f:
            f.write("#define TILE_PADDING 0\n")
        p = run(["cmake", "--build", build, "-j", "2"], tmp, env)
        check(p.returncode == 0, "the rebuild failed", p)
        after = {f: os.stat(f).st_mtime_ns for f in found}
        changed = sorted(os.path.basename(f) for f in found if after[f] != before[f])
        check(changed == ["tile.cu.o.coalesce-lint.json"], f"re-analysed after a header edit: {changed}", p)
        print(f"PASS launcher ({a.variant})")
        return 0
    except Failure as e:
        print(f"FAIL launcher ({a.variant}): {e}")
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
