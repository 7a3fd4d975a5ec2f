#!/usr/bin/env python3
"""Size of the HTML report on a large tree (docs/html-report.md records the figures).

    bench/html_size.py [--build-dir build] [--files 800] [--jobs 2]

Generates the tree bench/run_bench.py times (--tree-files; in a temporary folder, removed
afterwards), runs coalesce-lint --format=html and --format=json on it, and prints the page's
size, its findings and warp pictures, and the JSON report's size beside it. Target: the page
of an 800-file run under 20 MB.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_bench import generate_tree  # noqa: E402  (the tree of the speed benchmark)

LIMIT_BYTES = 20 * 1000 * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--files", type=int, default=800)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    binary = os.path.abspath(os.path.join(a.build_dir, "tools", "coalesce-lint", "coalesce-lint"))
    work = tempfile.mkdtemp(prefix="coalesce-html-size-")
    try:
        tree = os.path.join(work, "tree")
        generate_tree(tree, a.files)
        sizes = {}
        for fmt in ("html", "json"):
            out = os.path.join(work, f"report.{fmt}")
            start = time.monotonic()
            r = subprocess.run([binary, "-q", f"-j{a.jobs}", f"--format={fmt}", "-o", out, tree], capture_output=True,
                               text=True)
            if r.returncode not in (0, 1):
                sys.exit(f"coalesce-lint --format={fmt} exited {r.returncode}: {r.stderr[-2000:]}")
            sizes[fmt] = (os.path.getsize(out), time.monotonic() - start)
        with open(os.path.join(work, "report.html"), encoding="utf-8") as f:
            page = f.read()
        findings = len(re.findall(r'<div class="f ', page))
        pictures, drawings = page.count("<use href="), page.count("<symbol ")
        views = page.count('<section class="file"')
        html_bytes = sizes["html"][0]
        print(f"{a.files} files: page {html_bytes / 1e6:.2f} MB ({findings} findings, {pictures} warp pictures of "
              f"{drawings} distinct drawings, "
              f"{views} source views; {html_bytes / max(findings, 1) / 1e3:.1f} kB per finding), run {sizes['html'][1]:.1f} s; "
              f"JSON report {sizes['json'][0] / 1e6:.2f} MB")
        print("under 20 MB" if html_bytes < LIMIT_BYTES else "OVER 20 MB")
        return 0 if html_bytes < LIMIT_BYTES else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
