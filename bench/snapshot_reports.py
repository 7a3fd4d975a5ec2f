#!/usr/bin/env python3
"""Writes the `--format json` report of every file given (folders: their .cu files, sorted) to
OUT, one file each, with the timing members dropped, so that two binaries' snapshots can be
compared with `diff -r` (a speed change must leave every report bit for bit the same).

    python3 bench/snapshot_reports.py --binary OLD --out /tmp/before kernels/examples /tmp/trees/rodinia/cuda
    python3 bench/snapshot_reports.py --binary NEW --out /tmp/after  kernels/examples /tmp/trees/rodinia/cuda
    diff -r /tmp/before /tmp/after

Extra tool arguments (after the files) follow `--`, as for the tool: `... DIR -- -I Common`.
Each file runs alone (`--no-cache --file-timeout 0`), from its own folder, --jobs at a time.

--cache-dir DIR runs each file with that cache folder instead of `--no-cache`: the files'
preambles (and the CUDA headers' PCH) are built into it and kept, so that a second snapshot
after `rm -r DIR/results-v1` parses every file over the kept ones (docs/analysis-speed.md):

    python3 bench/snapshot_reports.py --binary NEW --cache-dir /tmp/c --out /tmp/cold  DIRS...
    rm -r /tmp/c/results-v1
    python3 bench/snapshot_reports.py --binary NEW --cache-dir /tmp/c --out /tmp/kept  DIRS...
    diff -r /tmp/before /tmp/cold; diff -r /tmp/before /tmp/kept"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

TIMING_KEYS = {"seconds", "elapsed", "elapsed_seconds", "cpu_seconds", "wall_seconds"}


def drop_timing(v):
    if isinstance(v, dict):
        return {k: drop_timing(x) for k, x in v.items() if k not in TIMING_KEYS}
    if isinstance(v, list):
        return [drop_timing(x) for x in v]
    return v


def sources(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in sorted(os.walk(p)):
                for n in sorted(names):
                    if n.endswith(".cu"):
                        yield os.path.join(d, n)
        else:
            yield p


def snapshot(binary, path, out, extra, cache_dir=None):
    cache = ["--cache-dir", os.path.abspath(cache_dir)] if cache_dir else ["--no-cache"]
    r = subprocess.run([binary, "-q", *cache, "--file-timeout", "0", "--format=json", os.path.abspath(path),
                        *(["--", *extra] if extra else [])],
                       capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(path)))
    name = os.path.abspath(path).strip("/").replace("/", "__") + ".json"
    try:
        text = json.dumps(drop_timing(json.loads(r.stdout)), indent=1, sort_keys=True)
    except json.JSONDecodeError:
        text = "not JSON:\n" + r.stdout
    with open(os.path.join(out, name), "w") as f:
        f.write(f"exit {r.returncode}\n{text}\n")
    return path, r.returncode


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache-dir", help="a cache folder instead of --no-cache (kept preambles)")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    files = list(sources(a.paths))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for path, rc in pool.map(lambda p: snapshot(os.path.abspath(a.binary), p, a.out, extra, a.cache_dir), files):
            if rc not in (0, 1):
                print(f"{path}: exit {rc}", file=sys.stderr)
    print(f"{len(files)} reports in {a.out}")


if __name__ == "__main__":
    main()
