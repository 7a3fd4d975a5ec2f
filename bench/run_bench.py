#!/usr/bin/env python3
"""Speed of coalesce-lint against Clang's own parse, in one run
(docs/architecture.md says why it can be faster).

    bench/run_bench.py [--build-dir build] [--runs 5] [--tree-files 200] [--jobs 2]

Both sides parse with the same flags and headers: the clang++ side gets, for every file,
the exact argument vector coalesce-lint builds (bench/clang_args.cpp, compiled here against
the build folder's libraries, calls collectJobs/buildClangArguments), and the files the
tool serves from memory (prelude, shim, patched driver_types.h) are written to a temporary
folder and mapped to the same paths with -ivfsoverlay.

  (a) every file of kernels/examples/, one process per file and tool;
  (b) a generated tree of --tree-files .cu files that include the CUDA runtime headers
      (in a temporary folder, removed afterwards): coalesce-lint on the whole tree with
      -j1 and -j<jobs>, against clang++ on each file in turn ("the serial parses").

Runs alternate between the tools (and their order flips every repetition); figures are
medians of --runs repetitions. CPU time (user + system) and peak memory (maximum resident
set) come from wait4(), the counters GNU time prints, at microsecond resolution; they
include the tool's worker processes. Wall time is measured around each process.

Targets: one file: wall <= 1.10 x the parse; tree: CPU <= 0.5 x the sum of the
parses, wall with -j2 <= 0.3 x the serial parses; peak memory <= 1.5 x the parse's.
"""
import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()


def measure(argv, cwd=None):
    """Runs argv, output discarded; returns (wall s, cpu s, peak KiB, exit status)."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, p.returncode


def process_tree(pid):
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return pids


def footprint(argv, cwd=None, period=0.01):
    """Runs argv and samples, every `period` s, the memory of it and all its descendants at
    once: returns (peak of the summed RSS, peak of the summed anonymous RSS plus the largest
    file-backed RSS), in KiB. The first counts the shared libraries once per process (an
    upper bound); the second once in all (closer to what the machine holds)."""
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_sum = peak_est = 0
    while p.poll() is None:
        total = anon = file_max = 0
        for pid in process_tree(p.pid):
            try:
                with open(f"/proc/{pid}/status") as f:
                    st = dict(line.split(":", 1) for line in f if line.startswith(("VmRSS", "RssAnon", "RssFile",
                                                                                      "RssShmem")))
            except OSError:
                continue
            kib = {k: int(v.split()[0]) for k, v in st.items()}
            total += kib.get("VmRSS", 0)
            anon += kib.get("RssAnon", 0) + kib.get("RssShmem", 0)
            file_max = max(file_max, kib.get("RssFile", 0))
        peak_sum = max(peak_sum, total)
        peak_est = max(peak_est, anon + file_max)
        time.sleep(period)
    return peak_sum, peak_est


def build_clang_args(build_dir, work):
    exe = os.path.join(work, "clang_args")
    libs = [os.path.join(build_dir, "lib", d, f"lib{n}.a")
            for d, n in (("analysis", "coalesce_analysis"), ("report", "coalesce_report"), ("model", "coalesce_model"))]
    cmd = ["g++", "-std=c++20", "-O1", "-o", exe, os.path.join(ROOT, "bench", "clang_args.cpp"),
           "-I", os.path.join(ROOT, "lib/analysis/include"), "-I", os.path.join(ROOT, "lib/model/include"),
           "-I", os.path.join(ROOT, "lib/report/include"), "-I", os.path.join(ROOT, "lib/records/include"),
           "-isystem", "/usr/lib/llvm-19/include", *libs,
           "-Wl,-rpath,/usr/lib/llvm-19/lib", "-L/usr/lib/llvm-19/lib", "-lclang-cpp", "-lLLVM", "-lfmt"]
    subprocess.run(cmd, check=True)
    return exe


def clang_jobs(clang_args_exe, work, inputs):
    out = subprocess.run([clang_args_exe, os.path.join(work, "overlay"), *inputs], capture_output=True, text=True,
                         check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# ---- (b) the generated tree --------------------------------------------------------------

KERNELS = [
    # name, body (uses idx/n/in/out), block
    ("stride", "  if (idx * {s} < n) out[idx] = in[idx * {s}] * {c}.0f;\n", "256"),
    ("copy2d", "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
               "  if (x < n && y < n) out[{t}] = in[y * n + x] + {c}.0f;\n", "dim3(32, 8)"),
    ("tile", "  __shared__ float tile[32][33];\n"
             "  tile[threadIdx.y][threadIdx.x] = in[(blockIdx.y * 32 + threadIdx.y) * n + blockIdx.x * 32 + threadIdx.x];\n"
             "  __syncthreads();\n"
             "  out[(blockIdx.x * 32 + threadIdx.y) * n + blockIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y] * {c}.0f;\n",
             "dim3(32, 32)"),
    ("reduce", "  __shared__ float part[256];\n"
               "  part[threadIdx.x] = idx < n ? in[idx] : 0.0f;\n  __syncthreads();\n"
               "  for (int w = blockDim.x / 2; w > 0; w >>= 1) {{\n"
               "    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];\n    __syncthreads();\n  }}\n"
               "  if (threadIdx.x == 0) out[blockIdx.x] = part[0] * {c}.0f;\n", "256"),
    ("gather", "  if (idx < n) out[idx] = in[(idx * {p}) % n];\n", "128"),
    ("aos", "  struct P {{ float x, y, z, w; }};\n"
            "  const P* ps = reinterpret_cast<const P*>(in);\n"
            "  if (idx < n) out[idx] = ps[idx].x + ps[idx].{f} * {c}.0f;\n", "256"),
]
EXTRA_INCLUDES = ["", "", "", "", "", "", "#include <cstdio>\n", "#include <cuda_fp16.h>\n",
                  "#include <cstdint>\n#include <cstdio>\n", ""]


def generate_tree(root, count):
    rnd = random.Random(6)
    for i in range(count):
        sub = os.path.join(root, f"module{i % 10:02d}", "kernels" if i % 3 else "ops")
        os.makedirs(sub, exist_ok=True)
        name, body, block = KERNELS[i % len(KERNELS)]
        body = body.format(s=rnd.choice([1, 2, 4, 8, 32]), c=rnd.randint(1, 9), p=rnd.choice([7, 31, 97]),
                           t=rnd.choice(["y * n + x", "x * n + y"]), f=rnd.choice("yzw"))
        grid = "dim3((n + 31) / 32, (n + 31) / 32)" if block.startswith("dim3") else "(n + 255) / 256"
        text = (f"// Generated by bench/run_bench.py (file {i}).\n#include <cuda_runtime.h>\n"
                f"{EXTRA_INCLUDES[i % len(EXTRA_INCLUDES)]}\n"
                f"__global__ void {name}_{i}(const float* __restrict__ in, float* out, int n) {{\n"
                f"  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n{body}}}\n\n"
                f"void launch_{name}_{i}(const float* in, float* out, int n, cudaStream_t stream) {{\n"
                f"  {name}_{i}<<<{grid}, {block}, 0, stream>>>(in, out, n);\n}}\n")
        with open(os.path.join(sub, f"{name}_{i:03d}.cu"), "w") as f:
            f.write(text)


# ---- reporting ---------------------------------------------------------------------------

def med(xs):
    return statistics.median(xs)


def load_line():
    return sh("uptime").split("load average:")[-1].strip()


LOADS = []  # 1-minute load average, sampled after every measured file or tree repetition


def note_load():
    LOADS.append(os.getloadavg()[0])


def ratio(a, b):
    return a / b if b else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=5, help="repetitions per measurement (median taken)")
    ap.add_argument("--tree-files", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2, help="-j of the parallel tree run")
    ap.add_argument("--skip-examples", action="store_true")
    ap.add_argument("--skip-tree", action="store_true")
    ap.add_argument("--no-in-process", action="store_true",
                    help="do not also time `coalesce-lint --in-process` (when the tool has that option)")
    ap.add_argument("--tool-arg", action="append", default=[], help="extra coalesce-lint argument (repeatable)")
    ap.add_argument("--json", help="write every measurement here")
    ap.add_argument("--markdown", help="write the figures as Markdown tables here (for bench/RESULTS.md)")
    args = ap.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be at least 1")

    build_dir = os.path.abspath(args.build_dir)
    tool = os.path.join(build_dir, "tools", "coalesce-lint", "coalesce-lint")
    # The tool as users run it ("tool"), and, where it has the option, in one process.
    # Every run analyses: the result cache between runs (docs/cache.md; bench/ci_bench.py
    # measures it) would answer every repetition after the first.
    help_text = sh(f"{tool} --help")
    no_cache = ["--no-cache"] if "--no-cache" in help_text else []
    variants = {"tool": [tool, "-q", *no_cache, *args.tool_arg]}
    if not args.no_in_process and "--in-process" in help_text:
        variants["tool_in_process"] = [tool, "-q", "--in-process", *no_cache, *args.tool_arg]
    work = tempfile.mkdtemp(prefix="coalesce-bench-")
    record = {"command": " ".join(["bench/run_bench.py", *sys.argv[1:]]), "runs": args.runs,
              "machine": {"cpus": os.cpu_count(), "memory": sh("free -g | awk '/Mem:/ {print $2 \" GiB\"}'"),
                          "cpu": sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip(),
                          "kernel": platform.release()},
              "load_before": load_line(), "top_before": sh("top -bn1 | head -15"),
              "variants": variants, "clang": sh("clang++-19 --version | head -1")}
    print(f"machine: {record['machine']}\nload before: {record['load_before']}\n{record['top_before']}\n", flush=True)
    try:
        clang_args = build_clang_args(build_dir, work)

        if not args.skip_examples:
            examples = sorted(os.path.join(ROOT, "kernels", "examples", f)
                              for f in os.listdir(os.path.join(ROOT, "kernels", "examples")) if f.endswith(".cu"))
            jobs = clang_jobs(clang_args, os.path.join(work, "ex"), examples)
            per_file = []
            print(f"(a) kernels/examples/: {len(jobs)} files, {args.runs} alternated runs each; "
                  "ratios tool / clang++ (medians)")
            print(f"{'file':40} {'clang s':>7} " + " ".join(f"{v[:14] + ' wall':>19} {'cpu':>5} {'mem':>5}"
                                                             for v in variants))
            for job in jobs:
                kinds = [("clang", job["arguments"])] + [(v, cmd + [job["arguments"][-1]]) for v, cmd in
                                                         variants.items()]
                ms = {k: [] for k, _ in kinds}
                for r in range(args.runs):
                    rot = kinds[r % len(kinds):] + kinds[:r % len(kinds)]
                    for kind, argv in rot:
                        m = measure(argv, job["directory"])
                        if kind == "clang" and m[3] != 0:
                            sys.exit(f"clang++ failed on {job['file']}: {' '.join(argv)}")
                        if kind != "clang" and m[3] not in (0, 1):
                            sys.exit(f"coalesce-lint failed on {job['file']} (exit {m[3]})")
                        ms[kind].append(m)
                row = {"file": os.path.relpath(job["file"], ROOT)}
                for k in ms:
                    row[k] = {"wall": med([m[0] for m in ms[k]]), "cpu": med([m[1] for m in ms[k]]),
                              "kib": med([m[2] for m in ms[k]])}
                for v in variants:
                    row[v]["wall_ratio"] = ratio(row[v]["wall"], row["clang"]["wall"])
                    row[v]["cpu_ratio"] = ratio(row[v]["cpu"], row["clang"]["cpu"])
                    row[v]["mem_ratio"] = ratio(row[v]["kib"], row["clang"]["kib"])
                    sum_kib, est_kib = footprint(variants[v] + [job["arguments"][-1]], job["directory"])
                    row[v]["footprint_kib"] = {"summed_rss": sum_kib, "estimate": est_kib}
                    row[v]["footprint_ratio"] = ratio(est_kib, row["clang"]["kib"])
                per_file.append(row)
                note_load()
                print(f"{os.path.basename(row['file']):40} {row['clang']['wall']:7.3f} " +
                      " ".join(f"{row[v]['wall']:7.3f} s {row[v]['wall_ratio']:5.2f}x {row[v]['cpu_ratio']:5.2f} "
                               f"{row[v]['mem_ratio']:5.2f}" for v in variants), flush=True)
            summary = {}
            for v in variants:
                sv = {k: {"median": med([r[v][k] for r in per_file]), "max": max(r[v][k] for r in per_file),
                          "min": min(r[v][k] for r in per_file)}
                      for k in ("wall_ratio", "cpu_ratio", "mem_ratio", "footprint_ratio")}
                sv["files_meeting_wall_1.10"] = sum(r[v]["wall_ratio"] <= 1.10 for r in per_file)
                sv["files_meeting_mem_1.5"] = sum(r[v]["mem_ratio"] <= 1.5 for r in per_file)
                sv["wall_median_s"] = med([r[v]["wall"] for r in per_file])
                sv["cpu_median_s"] = med([r[v]["cpu"] for r in per_file])
                sv["kib_max"] = max(r[v]["kib"] for r in per_file)
                summary[v] = sv
            summary["files"] = len(per_file)
            summary["clang"] = {"wall_median_s": med([r["clang"]["wall"] for r in per_file]),
                                "cpu_median_s": med([r["clang"]["cpu"] for r in per_file]),
                                "kib_max": max(r["clang"]["kib"] for r in per_file)}
            record["examples"] = {"files": per_file, "summary": summary}
            print("(a) summary: " + json.dumps(summary, indent=1) + "\n", flush=True)

        if not args.skip_tree:
            tree = os.path.join(work, "tree")
            generate_tree(tree, args.tree_files)
            jobs = clang_jobs(clang_args, os.path.join(work, "tr"), [tree])
            assert len(jobs) == args.tree_files, len(jobs)
            print(f"(b) generated tree: {len(jobs)} files under {tree}; {args.runs} alternated runs", flush=True)

            def clang_serial():
                ms = [measure(j["arguments"], j["directory"]) for j in jobs]
                bad = [j["file"] for j, m in zip(jobs, ms) if m[3] != 0]
                if bad:
                    sys.exit(f"clang++ failed on {bad[:3]}")
                return {"wall": sum(m[0] for m in ms), "cpu": sum(m[1] for m in ms), "kib": max(m[2] for m in ms)}

            def tool_run(cmd):
                m = measure(cmd)
                if m[3] not in (0, 1):
                    sys.exit(f"coalesce-lint failed on the tree (exit {m[3]}): {' '.join(cmd)}")
                return {"wall": m[0], "cpu": m[1], "kib": m[2]}

            steps = [("clang", clang_serial)]
            for v, cmd in variants.items():
                for j in (1, args.jobs):
                    steps.append((f"{v}_j{j}", lambda c=cmd + [f"-j{j}", tree]: tool_run(c)))
            runs = []
            for r in range(args.runs):
                one = {}
                for name, fn in (steps if r % 2 == 0 else steps[::-1]):
                    one[name] = fn()
                runs.append(one)
                note_load()
                print(f"  run {r + 1}: " + "; ".join(f"{k} {v['wall']:.2f} s wall, {v['cpu']:.2f} s cpu, "
                                                     f"{v['kib'] / 1024:.0f} MiB" for k, v in one.items()), flush=True)
            m = {k: {f: med([run[k][f] for run in runs]) for f in ("wall", "cpu", "kib")} for k, _ in steps}
            summary = {"medians": m}
            for k, _ in steps[1:]:
                summary[k] = {"cpu_ratio": ratio(m[k]["cpu"], m["clang"]["cpu"]),
                              "wall_ratio": ratio(m[k]["wall"], m["clang"]["wall"]),
                              "mem_ratio": ratio(m[k]["kib"], m["clang"]["kib"])}
                v, j = k.rsplit("_j", 1)
                sum_kib, est_kib = footprint(variants[v] + [f"-j{j}", tree])
                summary[k]["footprint_kib"] = {"summed_rss": sum_kib, "estimate": est_kib}
                summary[k]["footprint_ratio"] = ratio(est_kib, m["clang"]["kib"])
                summary[k]["summed_rss_ratio"] = ratio(sum_kib, m["clang"]["kib"])
            record["tree"] = {"files": len(jobs), "runs": runs, "summary": summary}
            print("(b) summary: " + json.dumps(summary, indent=1) + "\n", flush=True)
    finally:
        record["load_after"] = load_line()
        if LOADS:
            record["load_during"] = {"min": min(LOADS), "median": med(LOADS), "max": max(LOADS), "samples": LOADS}
        record["top_after"] = sh("top -bn1 | head -15")
        shutil.rmtree(work, ignore_errors=True)

    print(f"load after: {record['load_after']}")
    if "load_during" in record:
        ld = record["load_during"]
        print(f"load during (1-minute average, {len(LOADS)} samples): min {ld['min']:.2f}, median {ld['median']:.2f}, "
              f"max {ld['max']:.2f}")
    verdicts = []
    for v in variants:
        if "examples" in record:
            s = record["examples"]["summary"][v]
            verdicts.append((v, "one file: wall <= 1.10 x the parse (every file)", s["wall_ratio"]["max"] <= 1.10,
                             f"median {s['wall_ratio']['median']:.3f}, worst {s['wall_ratio']['max']:.3f}, "
                             f"{s['files_meeting_wall_1.10']}/{record['examples']['summary']['files']} files"))
            verdicts.append((v, "one file: peak memory <= 1.5 x the parse's (max RSS)", s["mem_ratio"]["max"] <= 1.5,
                             f"median {s['mem_ratio']['median']:.3f}, worst {s['mem_ratio']['max']:.3f}; "
                             f"all processes at once: worst {s['footprint_ratio']['max']:.3f}"))
        if "tree" in record:
            s = record["tree"]["summary"]
            pj, sj = s[f"{v}_j{args.jobs}"], s[f"{v}_j1"]
            verdicts.append((v, "tree: CPU <= 0.5 x the sum of the parses", pj["cpu_ratio"] <= 0.5,
                             f"-j{args.jobs} {pj['cpu_ratio']:.3f}, -j1 {sj['cpu_ratio']:.3f}"))
            verdicts.append((v, f"tree: wall with -j{args.jobs} <= 0.3 x the serial parses", pj["wall_ratio"] <= 0.3,
                             f"{pj['wall_ratio']:.3f} (-j1: {sj['wall_ratio']:.3f})"))
            verdicts.append((v, "tree: peak memory <= 1.5 x the parse's (max RSS)", pj["mem_ratio"] <= 1.5,
                             f"-j{args.jobs} {pj['mem_ratio']:.3f}, -j1 {sj['mem_ratio']:.3f}; all processes at "
                             f"once, -j{args.jobs}: {pj['footprint_ratio']:.3f} (summed RSS "
                             f"{pj['summed_rss_ratio']:.3f})"))
    record["verdicts"] = [{"variant": v, "target": t, "met": ok, "figures": f} for v, t, ok, f in verdicts]
    for v, t, ok, f in verdicts:
        print(f"{'MET    ' if ok else 'NOT MET'} [{v}] {t}: {f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(record, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(record, args.jobs))


def markdown(rec, jobs):
    out = [f"Command: `{rec['command']}`  ", f"Machine: {rec['machine']['cpus']} CPUs ({rec['machine']['cpu']}), "
           f"{rec['machine']['memory']}, Linux {rec['machine']['kernel']}; {rec['clang']}  ",
           f"Load average before: {rec['load_before']}; after: {rec['load_after']}" + (
               f"; during (1-minute, sampled after each file / repetition): min {rec['load_during']['min']:.2f}, "
               f"median {rec['load_during']['median']:.2f}, max {rec['load_during']['max']:.2f}"
               if "load_during" in rec else ""), ""]
    out += ["| variant | target | met | figures |", "|---|---|---|---|"]
    out += [f"| {v['variant']} | {v['target']} | {'yes' if v['met'] else '**no**'} | {v['figures']} |"
            for v in rec["verdicts"]]
    variants = list(rec["variants"])
    if "examples" in rec:
        s = rec["examples"]["summary"]
        out += ["", f"(a) kernels/examples/, {s['files']} files, one process per file, medians of {rec['runs']} runs. "
                f"clang++: median {s['clang']['wall_median_s']:.3f} s wall, {s['clang']['cpu_median_s']:.3f} s CPU, "
                f"largest max RSS {s['clang']['kib_max'] / 1024:.0f} MiB.", "",
                "| variant | wall s (median file) | wall x median / worst | CPU x median / worst | "
                "max RSS x median / worst | all processes at once x worst | files with wall <= 1.10 x |",
                "|---|---|---|---|---|---|---|"]
        for v in variants:
            sv = s[v]
            out.append(f"| {v} | {sv['wall_median_s']:.3f} | {sv['wall_ratio']['median']:.3f} / "
                       f"{sv['wall_ratio']['max']:.3f} | {sv['cpu_ratio']['median']:.3f} / {sv['cpu_ratio']['max']:.3f} "
                       f"| {sv['mem_ratio']['median']:.3f} / {sv['mem_ratio']['max']:.3f} | "
                       f"{sv['footprint_ratio']['max']:.3f} | {sv['files_meeting_wall_1.10']}/{s['files']} |")
        out += ["", "<details><summary>per file</summary>", "",
                "| file | clang++ wall s | " + " | ".join(f"{v} wall s | x | CPU x | RSS x" for v in variants) + " |",
                "|---|---|" + "---|---|---|---|" * len(variants)]
        for r in rec["examples"]["files"]:
            out.append(f"| {os.path.basename(r['file'])} | {r['clang']['wall']:.3f} | " + " | ".join(
                f"{r[v]['wall']:.3f} | {r[v]['wall_ratio']:.3f} | {r[v]['cpu_ratio']:.3f} | {r[v]['mem_ratio']:.3f}"
                for v in variants) + " |")
        out += ["", "</details>"]
    if "tree" in rec:
        s = rec["tree"]["summary"]
        m = s["medians"]
        out += ["", f"(b) generated tree of {rec['tree']['files']} files, medians of {rec['runs']} runs.", "",
                "| run | wall s | CPU s | max RSS MiB | CPU x serial parses | wall x serial parses | max RSS x | "
                "all processes at once x (summed RSS x) |", "|---|---|---|---|---|---|---|---|",
                f"| clang++, file by file | {m['clang']['wall']:.2f} | {m['clang']['cpu']:.2f} | "
                f"{m['clang']['kib'] / 1024:.0f} | 1 | 1 | 1 | |"]
        for k in m:
            if k == "clang":
                continue
            out.append(f"| {k.replace('_j', ' -j')} | {m[k]['wall']:.2f} | {m[k]['cpu']:.2f} | {m[k]['kib'] / 1024:.0f} | "
                       f"{s[k]['cpu_ratio']:.3f} | {s[k]['wall_ratio']:.3f} | {s[k]['mem_ratio']:.3f} | "
                       f"{s[k]['footprint_ratio']:.3f} ({s[k]['summed_rss_ratio']:.3f}) |")
        # Run by run: whether a run costs less once an earlier one has been made (a cache
        # between runs would show here; runs alternate their order, see the docstring).
        runs = rec["tree"]["runs"]
        out += ["", "Run by run, wall s / CPU s (the first run against the later ones):", "",
                "| step | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " |",
                "|---|" + "---|" * len(runs)]
        for k in m:
            out.append(f"| {k.replace('_j', ' -j')} | " +
                       " | ".join(f"{r[k]['wall']:.2f} / {r[k]['cpu']:.2f}" for r in runs) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
