#!/usr/bin/env python3
"""CI at scale (docs/ci.md, docs/cache.md): what the result cache, the kept precompiled header and the
compiler launcher cost and save, on a generated tree and on real trees, in one run.

    bench/ci_bench.py [--build-dir build] [--runs 3] [--tree-files 800] [--jobs 1]
                      [--real-tree NAME=DIR[:EXTRA,EXTRA...]]... [--per-file] [--launcher]
                      [--one-file] [--json FILE] [--markdown FILE]

(a) Cache runs, on the generated tree of bench/run_bench.py (--tree-files files) and on each
    --real-tree (DIR analysed as a folder, EXTRA the compiler arguments after --, e.g.
    cs=/tmp/cs/Samples:-I/tmp/cs/Common). Each repetition starts from an empty cache folder:
      no cache   --no-cache (what every run cost before the cache)
      cold       the first run into the empty cache
      warm       the same command again, nothing changed
      one file   one file's text changed (a line appended), then the same command
    CPU time (user + system, the tool and its workers, from wait4) is the measure; the
    summary line says how many files came from the cache, which shows that the one-file
    run analysed exactly one. The tool runs with --file-timeout 0: a time-out depends on
    the machine's load and is never cached, so a slow file that times out in one run and
    not in the next would move its cost from run to run.
(b) --per-file, real trees: every translation unit alone, clang++ -fsyntax-only with the tool's
    exact argument vector (bench/clang_args.cpp, as run_bench.py) against `coalesce-lint
    --no-cache FILE`, one process each; and the tree's no-cache run against the sum of the
    parses. Targets of issue 16: tree CPU <= 0.3 x the parses, no file above 2 x its parse.
    With --kept, also each file's run after earlier ones (a cache folder shared by the tree's
    files, the file's copy edited before each run so that its records are a miss; the first run
    leaves a mark, the second builds the file's preamble, the third is measured): it is parsed
    over the kept preambles and PCHs (docs/analysis-speed.md). Target: at most 0.3 x its parse.
(c) --launcher: test/launcher/example/ built by CMake + Ninja with the launcher: a cold build
    (empty cache), a no-op build, a build after one header edit; with --skip-compile, and
    with nvcc when there is one (and nvcc alone, without the launcher, for comparison).

(d) --one-file: each file of kernels/examples/ (a copy) alone, with a cache that already holds
    the CUDA headers' precompiled header (a run over another file kept it): the file's first
    run (parsed over the kept PCH), a run after a one-line edit (it builds and keeps the file's
    preamble, preamble_cache.h), one after a second edit (over that preamble) and one with
    nothing changed (a hit), against clang++'s parse of the file. Target of issue 16: a run after the first at most
    0.3 x the parse.

Medians of --runs repetitions. Files generated or copied go to a temporary folder, removed
afterwards; nothing is written into the real trees.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run_bench  # noqa: E402  (measure, generate_tree, the clang_args helper)


def run(argv, cwd=None, env=None):
    """(wall s, cpu s, peak KiB, exit status, stderr text) of argv, its children included."""
    err = tempfile.TemporaryFile()
    start = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err.seek(0)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status), err.read().decode(
        errors="replace")


def from_cache(stderr):
    m = re.search(r"; (\d+) files? from the cache;", stderr)
    return int(m.group(1)) if m else 0


def files_in_summary(stderr):
    m = re.search(r"coalesce-lint: (\d+) files?", stderr)
    return int(m.group(1)) if m else None


def med(xs):
    return statistics.median(xs) if xs else float("nan")


# ---- (a) cache runs ----------------------------------------------------------------------

def cache_runs(tool, name, inputs, extra, edit_file, runs, jobs, work):
    # The summary line (not -q) says what came from the cache. No time limit: a file that
    # times out is never cached (a time-out depends on the machine's load), so on a loaded
    # machine a slow file would be analysed again by every run and blur what the cache saves.
    base = [tool, f"-j{jobs}", "--file-timeout", "0", *inputs] + (["--", *extra] if extra else [])
    original = open(edit_file).read()
    reps = []
    for r in range(runs):
        cache = os.path.join(work, f"cache-{name}-{r}")
        shutil.rmtree(cache, ignore_errors=True)
        env = dict(os.environ, COALESCE_LINT_CACHE_DIR=cache)
        one = {}
        steps = [("no cache", [tool, "--no-cache", *base[1:]]), ("cold", base), ("warm", base), ("one file", base)]
        for step, argv in steps:
            if step == "one file":
                with open(edit_file, "a") as f:
                    f.write(f"// edited by bench/ci_bench.py, repetition {r}\n")
            w, c, k, rc, err = run(argv, env=env)
            if rc not in (0, 1, 3):
                sys.exit(f"{name}: {step}: coalesce-lint exited {rc}: {err[-2000:]}")
            one[step] = {"wall": w, "cpu": c, "kib": k, "rc": rc, "from_cache": from_cache(err),
                         "files": files_in_summary(err)}
        with open(edit_file, "w") as f:
            f.write(original)
        reps.append(one)
        print(f"  {name} run {r + 1}: " + "; ".join(
            f"{s} {v['cpu']:.2f} s cpu ({v['from_cache']} from cache)" for s, v in one.items()), flush=True)
    steps = list(reps[0])
    m = {s: {f: med([rep[s][f] for rep in reps]) for f in ("wall", "cpu", "kib")} for s in steps}
    for s in steps:
        m[s]["from_cache"] = reps[0][s]["from_cache"]
        m[s]["files"] = reps[0][s]["files"]
    return {"runs": reps, "medians": m, "command": " ".join(base)}


# ---- (b) per-file parses ---------------------------------------------------------------

def clang_jobs(clang_args, out, inputs):
    """bench/clang_args's jobs; it exits 1 when some input gets no job (a file another includes,
    one that cannot be read), which a real tree has: those are left out, as the tool leaves them."""
    text = subprocess.run([clang_args, out, *inputs], capture_output=True, text=True).stdout
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def per_file(tool, clang_args, name, tree, extra, jobs_flag, work, kept=False):
    after = ["--", *extra] if extra else []
    jobs = clang_jobs(clang_args, os.path.join(work, f"overlay-{name}"), [tree, *after])
    _, tree_cpu, _, tree_rc, _ = run([tool, "-q", "--no-cache", "--file-timeout", "0", f"-j{jobs_flag}", tree, *after])
    rows = []
    for job in jobs:
        cw, cc, ck, crc, _ = run(job["arguments"], cwd=job["directory"])
        tw, tc, tk, trc, terr = run([tool, "-q", "--no-cache", "--file-timeout", "0", job["arguments"][-1],
                                     *(["--", *extra] if extra else [])], cwd=job["directory"])
        rows.append({"file": os.path.relpath(job["file"], tree) if os.path.isabs(job["file"]) else job["file"],
                     "clang_cpu": cc, "clang_rc": crc, "tool_cpu": tc, "tool_rc": trc, "clang_kib": ck, "tool_kib": tk,
                     "ratio": tc / cc if cc else float("nan")})
        if kept:
            env = dict(os.environ, COALESCE_LINT_CACHE_DIR=os.path.join(work, f"kept-{name}"))
            argv = [tool, "-q", "--file-timeout", "0", job["arguments"][-1], *(["--", *extra] if extra else [])]
            path = os.path.join(job["directory"], job["arguments"][-1])
            # The first run leaves a mark, the second (a miss: the file edited) builds the
            # preamble (docs/cache.md), the third (edited again) is parsed over it: measured.
            for edit in ("", "\n// edited\n", "\n// edited again\n"):
                if edit:
                    with open(path, "a") as f:  # the tree is a copy
                        f.write(edit)
                _, kc, _, krc, _ = run(argv, cwd=job["directory"], env=env)
            rows[-1].update({"kept_cpu": kc, "kept_rc": krc, "kept_ratio": kc / cc if cc else float("nan")})
    ok = [r for r in rows if r["clang_rc"] == 0 and r["tool_rc"] in (0, 1)]
    kept_ok = [r for r in ok if r.get("kept_rc") in (0, 1)]
    kept_summary = {"kept_ratio_median": med([r["kept_ratio"] for r in kept_ok]),
                    "kept_ratio_max": max((r["kept_ratio"] for r in kept_ok), default=float("nan")),
                    "kept_above_0_3": sorted((r["file"], round(r["kept_ratio"], 2)) for r in kept_ok
                                             if r["kept_ratio"] > 0.3),
                    "kept_files": len(kept_ok)} if kept else {}
    return {**kept_summary,"files": rows, "parsed_by_clang": len(ok), "jobs": len(jobs), "tree_cpu": tree_cpu, "tree_rc": tree_rc,
            "ratio_median": med([r["ratio"] for r in ok]),
            "ratio_max": max((r["ratio"] for r in ok), default=float("nan")),
            "above_2x": sorted((r["file"], round(r["ratio"], 2)) for r in ok if r["ratio"] > 2),
            "clang_cpu_sum_ok": sum(r["clang_cpu"] for r in ok),
            "clang_cpu_sum_all": sum(r["clang_cpu"] for r in rows)}


# ---- (d) one file, after the first run -------------------------------------------------

def one_file_runs(tool, clang_args, runs, work):
    """Every file of kernels/examples/ (a copy) analysed alone with a cache that already holds the
    CUDA headers' PCH (kept by a run over another file), as a developer runs it while editing:
    its first run (a miss: the file is parsed over the kept PCH and leaves a mark), a run after
    a one-line edit (a miss: the file's preamble, its own #include lines, is built and kept:
    preamble_cache.h, docs/cache.md), a run after a second edit (a miss parsed over the kept
    preamble) and a run with nothing changed (a hit), each against clang++'s parse of the file."""
    source = os.path.join(ROOT, "kernels", "examples")
    copy = os.path.join(work, "examples-copy")  # the edits go to a copy, never the repository
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(source, copy)
    examples = sorted(os.path.join(copy, f) for f in os.listdir(copy) if f.endswith(".cu"))
    jobs = clang_jobs(clang_args, os.path.join(work, "overlay-examples"), examples)
    rows = []
    for r in range(runs):
        cache = os.path.join(work, f"one-file-cache-{r}")
        shutil.rmtree(cache, ignore_errors=True)
        env = dict(os.environ, COALESCE_LINT_CACHE_DIR=cache)
        run([tool, "-q", examples[0]], env=env)  # keeps the PCH of the examples' flags
        for i, job in enumerate(jobs):
            f = job["arguments"][-1]
            times, codes = {}, []
            # The three misses of an edit loop: the file as it is, then edited before each run.
            for k, edit in (("first", ""), ("second", f"\n// edited {r}\n"), ("edited", f"\n// edited again {r}\n")):
                if edit:
                    with open(os.path.join(job["directory"], f), "a") as out:  # the copy
                        out.write(edit)
                _, times[k], _, rc, _ = run([tool, "-q", f], cwd=job["directory"], env=env)
                codes.append(rc)
            _, times["hit"], _, rc, err = run([tool, f], cwd=job["directory"], env=env)
            codes.append(rc)
            _, times["parse"], _, crc, _ = run(job["arguments"], cwd=job["directory"])
            if any(rc not in (0, 1) for rc in codes) or crc or from_cache(err) != 1:
                sys.exit(f"one-file run on {f}: exits {codes}, clang {crc}; from cache {from_cache(err)}")
            if r == 0:
                rows.append({"file": os.path.basename(f), **{k: [] for k in times}})
            for k, v in times.items():
                rows[i][k].append(v)
    measured = ("first", "second", "edited", "hit")
    for row in rows:
        for k in (*measured, "parse"):
            row[k] = med(row[k])
        for k in measured:
            row[f"{k}_ratio"] = row[k] / row["parse"]
    summary = {"files": len(rows), "parse_median": med([r["parse"] for r in rows])}
    for k in measured:
        summary[f"{k}_ratio_median"] = med([r[f"{k}_ratio"] for r in rows])
        summary[f"{k}_ratio_max"] = max(r[f"{k}_ratio"] for r in rows)
    summary["edited_above_0_3"] = sorted((r["file"], round(r["edited_ratio"], 2)) for r in rows if r["edited_ratio"] > 0.3)
    print(f"  one file: {summary}", flush=True)
    return {"files": rows, "summary": summary}


# ---- (c) the launcher build of the example project -------------------------------------

def launcher_builds(tool, runs, work):
    out = {}
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK)
                                    else None)
    variants = [("launcher, --skip-compile", ["-DCOALESCE_EXAMPLE_NO_CUDA=ON"])]
    if nvcc:
        variants += [("launcher + nvcc", [f"-DCMAKE_CUDA_COMPILER={nvcc}"]),
                     ("nvcc alone", [f"-DCMAKE_CUDA_COMPILER={nvcc}"])]
    for label, flags in variants:
        reps = []
        for r in range(runs):
            src, build = os.path.join(work, "ex-src"), os.path.join(work, "ex-build")
            for d in (src, build):
                shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(os.path.join(ROOT, "test", "launcher", "example"), src)
            env = dict(os.environ, COALESCE_LINT_CACHE_DIR=os.path.join(work, f"ex-cache-{r}"))
            shutil.rmtree(env["COALESCE_LINT_CACHE_DIR"], ignore_errors=True)
            if label == "nvcc alone":  # the example sets the launcher itself: a copy without it
                text = open(os.path.join(src, "CMakeLists.txt")).read()
                with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
                    f.write(text.replace("set(CMAKE_CUDA_COMPILER_LAUNCHER ${COALESCE_LINT} launch --)", ""))
            c = subprocess.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", f"-DCOALESCE_LINT={tool}", *flags],
                               env=env, capture_output=True, text=True)
            if c.returncode:
                sys.exit(f"launcher example: configure failed ({label}): {c.stderr[-2000:]}")
            one = {}
            for step in ("cold build", "no-op build", "header edit"):
                if step == "header edit":
                    with open(os.path.join(src, "include", "tile.cuh"), "a") as f:
                        f.write(f"// edit {r}\n")
                w, cpu, k, rc, err = run(["cmake", "--build", build, "-j2"], env=env)
                if rc:
                    sys.exit(f"launcher example: {step} failed ({label}): {err[-2000:]}")
                one[step] = {"wall": w, "cpu": cpu}
            mw, mc, _, mrc, _ = run([tool, "merge", "-q", build], env=env)
            one["merge"] = {"wall": mw, "cpu": mc, "rc": mrc}
            reps.append(one)
        out[label] = {s: {f: med([rep[s][f] for rep in reps]) for f in ("wall", "cpu")} for s in reps[0]}
        print(f"  launcher ({label}): " + "; ".join(f"{s} {v['cpu']:.2f} s cpu, {v['wall']:.2f} s wall"
                                                   for s, v in out[label].items()), flush=True)
    return out


# ---- report ------------------------------------------------------------------------------

def markdown(record):
    out = [f"Command: `{record['command']}`  ", f"Machine: {record['machine']}  ",
           f"Load average before: {record['load_before']}; after: {record['load_after']}", ""]
    if record["cache"]:
        out += ["(a) Cache runs, CPU seconds (the tool and its workers), medians of "
                f"{record['runs']}; each repetition from an empty cache folder.", "",
                "| tree | files | no cache | cold | warm | warm / cold | one file changed | one file / cold | "
                "files from the cache (warm, one file) |", "|---|---|---|---|---|---|---|---|---|"]
        for name, r in record["cache"].items():
            m = r["medians"]
            out.append(f"| {name} | {m['cold']['files']} | {m['no cache']['cpu']:.2f} | {m['cold']['cpu']:.2f} | "
                       f"{m['warm']['cpu']:.2f} | {m['warm']['cpu'] / m['cold']['cpu']:.3f} | "
                       f"{m['one file']['cpu']:.2f} | {m['one file']['cpu'] / m['cold']['cpu']:.3f} | "
                       f"{m['warm']['from_cache']}, {m['one file']['from_cache']} |")
        out.append("")
    if record["per_file"]:
        out += ["(b) Real trees, every translation unit alone (one process each, `--no-cache`) against "
                "`clang++ -fsyntax-only` with the same arguments; the tree's no-cache run against the sum of the "
                "parses.", "", "| tree | files both parse | tree CPU / sum of parses | per file: median | worst | "
                "above 2 x |", "|---|---|---|---|---|---|"]
        for name, p in record["per_file"].items():
            tree_cpu = p["tree_cpu"]
            above = ", ".join(f"{f} ({x})" for f, x in p["above_2x"]) or "none"
            out.append(f"| {name} | {p['parsed_by_clang']} of {p['jobs']} | {tree_cpu / p['clang_cpu_sum_all']:.3f} "
                       f"({tree_cpu:.1f} s / {p['clang_cpu_sum_all']:.1f} s) | {p['ratio_median']:.2f} | "
                       f"{p['ratio_max']:.2f} | {above} |")
        out.append("")
        kept = {n: p for n, p in record["per_file"].items() if "kept_ratio_median" in p}
        if kept:
            out += ["Each file's third run (`--kept`: a cache folder shared by the tree, the file edited before the "
                    "second and the third; the second builds its preamble), against its parse:", "", "| tree | files | median x the parse | worst | "
                    "above 0.3 x |", "|---|---|---|---|---|"]
            for name, p in kept.items():
                above = ", ".join(f"{f} ({x})" for f, x in p["kept_above_0_3"]) or "none"
                out.append(f"| {name} | {p['kept_files']} | {p['kept_ratio_median']:.2f} | {p['kept_ratio_max']:.2f} | "
                           f"{above} |")
            out.append("")
    if record.get("one_file"):
        o = record["one_file"]["summary"]
        out += ["(d) One file while it is edited: each of the "
                f"{o['files']} files of kernels/examples/ (a copy) alone, CPU against clang++'s parse of it (median "
                f"{o['parse_median']:.3f} s), the cache already holding the CUDA headers' PCH.", "",
                "| run | median x the parse | worst |", "|---|---|---|",
                f"| the file's first run (over the kept PCH) | {o['first_ratio_median']:.3f} | {o['first_ratio_max']:.3f} |",
                f"| after a one-line edit (builds its preamble, kept unless it adds little) | {o['second_ratio_median']:.3f} | {o['second_ratio_max']:.3f} |",
                f"| after a second edit (over its kept preamble, or the headers' PCH) | {o['edited_ratio_median']:.3f} | {o['edited_ratio_max']:.3f} |",
                f"| nothing changed (its records from the cache) | {o['hit_ratio_median']:.3f} | {o['hit_ratio_max']:.3f} |",
                "", f"After an edit, above 0.3 x: {o['edited_above_0_3'] or 'none'}.", ""]
    if record["launcher"]:
        out += ["(c) test/launcher/example/ built with `cmake --build -j2` (CPU of the build and everything it "
                "runs), medians.", "", "| build | cold build | no-op build | header edit | merge |",
                "|---|---|---|---|---|"]
        for label, r in record["launcher"].items():
            out.append(f"| {label} | {r['cold build']['cpu']:.2f} s | {r['no-op build']['cpu']:.2f} s | "
                       f"{r['header edit']['cpu']:.2f} s | {r['merge']['cpu']:.2f} s |")
        out.append("")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tree-files", type=int, default=800, help="generated tree size (0: none)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--real-tree", action="append", default=[], help="NAME=DIR[:EXTRA,EXTRA...]")
    ap.add_argument("--per-file", action="store_true")
    ap.add_argument("--kept", action="store_true", help="(b): also each file's third run (edited before each; the second builds its preamble)")
    ap.add_argument("--launcher", action="store_true")
    ap.add_argument("--one-file", action="store_true", help="(d): kernels/examples/ one file at a time")
    ap.add_argument("--skip-real-cache", action="store_true", help="real trees: (b) only, not (a)")
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    build = os.path.abspath(a.build_dir)
    tool = os.path.join(build, "tools", "coalesce-lint", "coalesce-lint")
    cpu = run_bench.sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
    memory = run_bench.sh("free -g | awk '/Mem:/ {print $2}'")
    clang = run_bench.sh("clang++-19 --version | head -1")
    record = {"command": " ".join(["bench/ci_bench.py", *sys.argv[1:]]), "runs": a.runs,
              "machine": f"{os.cpu_count()} CPUs ({cpu}), {memory} GiB; {clang}",
              "load_before": run_bench.load_line(), "cache": {}, "per_file": {}, "launcher": {}}
    work = tempfile.mkdtemp(prefix="coalesce-ci-bench-")
    try:
        # First: it may fail.
        clang_args = run_bench.build_clang_args(build, work) if a.per_file or a.one_file else None
        if a.tree_files:
            tree = os.path.join(work, "tree")
            run_bench.generate_tree(tree, a.tree_files)
            files = sorted(os.path.join(d, f) for d, _, fs in os.walk(tree) for f in fs if f.endswith(".cu"))
            print(f"(a) generated tree: {len(files)} files", flush=True)
            record["cache"][f"generated ({a.tree_files} files)"] = cache_runs(
                tool, "generated", [tree], [], files[len(files) // 2], a.runs, a.jobs, work)
            save(record, a)
        for spec in a.real_tree:
            name, rest = spec.split("=", 1)
            src, _, extra = rest.partition(":")
            extra = [e for e in extra.split(",") if e]
            tree = os.path.join(work, "real-" + name)
            shutil.copytree(src, tree, symlinks=True, ignore=shutil.ignore_patterns(".git"))
            extra = [e.replace(src, tree) for e in extra]
            files = sorted(os.path.join(d, f) for d, _, fs in os.walk(tree) for f in fs if f.endswith(".cu"))
            print(f"(a) {name}: {len(files)} .cu files", flush=True)
            if not a.skip_real_cache:
                record["cache"][name] = cache_runs(tool, name, [tree], extra, files[len(files) // 2], a.runs, a.jobs,
                                                   work)
            save(record, a)
            if a.per_file:
                print(f"(b) {name}: per file", flush=True)
                record["per_file"][name] = per_file(tool, clang_args, name, tree, extra, a.jobs, work, a.kept)
                p = record["per_file"][name]
                print(f"  {name}: {p['parsed_by_clang']} files; per-file ratio median {p['ratio_median']:.2f}, "
                      f"worst {p['ratio_max']:.2f}; above 2x: {p['above_2x']}; tree {p['tree_cpu']:.1f} s cpu against "
                      f"{p['clang_cpu_sum_all']:.1f} s of parses", flush=True)
                if a.kept:
                    print(f"  {name}: after an earlier run, per-file ratio median {p['kept_ratio_median']:.2f}, worst "
                          f"{p['kept_ratio_max']:.2f}; above 0.3x: {p['kept_above_0_3']}", flush=True)
                save(record, a)
        if a.one_file:
            print("(d) one file after the first run", flush=True)
            record["one_file"] = one_file_runs(tool, clang_args, a.runs, work)
            save(record, a)
        if a.launcher:
            print("(c) launcher builds", flush=True)
            record["launcher"] = launcher_builds(tool, a.runs, work)
    finally:
        record["load_after"] = run_bench.load_line()
        shutil.rmtree(work, ignore_errors=True)
        print(save(record, a))


def save(record, a):
    """Writes what has been measured so far (a section that fails later loses only itself)."""
    record.setdefault("load_after", run_bench.load_line())
    text = markdown(record)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(record, f, indent=1)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    return text


if __name__ == "__main__":
    main()
