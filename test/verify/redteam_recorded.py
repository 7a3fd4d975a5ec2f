#!/usr/bin/env python3
"""The analysis against the H200 on programs written without looking at it.

For one recorded set (test/verify/data/<set>/: programs.txt names the programs, COMMAND.txt
says how the measurements were made), predicts the programs with the built tool, compares
the predictions with the measurements recorded on the H200 through `coalesce-lint verify
--measurements`, and checks that the lines that disagree are exactly the ones listed, with
their reasons, in known_disagreements.txt: a new disagreement fails, and so does a listed one
that no longer happens (the list must stay true).

    redteam_recorded.py --binary build/tools/coalesce-lint/coalesce-lint --source-dir . --set redteam
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--set", default="redteam", help="folder of test/verify/data/")
    ap.add_argument("--min-match", type=int, default=300, help="fewest matching lines accepted")
    a = ap.parse_args()
    src = os.path.abspath(a.source_dir)
    data = os.path.join(src, "test", "verify", "data", a.set)
    measurements = sorted(glob.glob(os.path.join(data, "measurements_*.json")))
    with open(os.path.join(data, "programs.txt")) as f:
        inputs = [line.strip() for line in f if line.strip()]
    programs = []
    for i in inputs:
        programs += sorted(glob.glob(os.path.join(src, i, "*.cu"))) if i.endswith("/") else [os.path.join(src, i)]
    if len(measurements) != len(programs) or len(programs) < 10:
        sys.exit(f"expected one recorded measurement per program: {len(measurements)} for {len(programs)}")
    with tempfile.TemporaryDirectory() as tmp:
        pred = os.path.join(tmp, "predictions.json")
        out = os.path.join(tmp, "verify.json")
        # Relative paths from the repository root, as on the H200.
        r = subprocess.run([a.binary, "--format=json", "-q", "--no-cache", "-o", pred, *inputs], cwd=src,
                           capture_output=True, text=True, timeout=600)
        if r.returncode not in (0, 1):
            sys.exit(f"prediction failed (exit {r.returncode}): {r.stderr}")
        r = subprocess.run([a.binary, "verify", "--predictions", pred, "--measurements", *measurements,
                            "--format", "json", "-o", out], cwd=src, capture_output=True, text=True, timeout=600)
        if r.returncode not in (0, 1):
            sys.exit(f"verify failed (exit {r.returncode}): {r.stderr}")
        with open(out) as f:
            report = json.load(f)
    seen = set()
    for line in report["lines"]:
        if line["verdict"] not in ("match", "within-range"):
            seen.add(f"{line['file']}:{line['line']} {line['space']} {line['kind']} {line['verdict']}")
    for b in report["branches"]:
        if b["verdict"] != "confirmed":
            seen.add(f"{b['file']}:{b['line']} branch {b['verdict']}")
    known = set()
    with open(os.path.join(data, "known_disagreements.txt")) as f:
        for raw in f:
            text = raw.split("#", 1)[0].strip()
            if text:
                known.add(" ".join(text.split()))
    new, gone = sorted(seen - known), sorted(known - seen)
    s = report["summary"]
    print(f"{s['lines']} lines: {s['match']} match, {s['mismatch']} mismatch, {s['within-range']} within-range, "
          f"{s['not-found']} not-found, {s['unpredicted']} unpredicted; branches: {report['branch_summary']}")
    for x in new:
        print(f"NEW DISAGREEMENT: {x}")
    for x in gone:
        print(f"LISTED BUT NO LONGER SO (update known_disagreements.txt): {x}")
    if s["match"] < a.min_match:
        print(f"too few matching lines: {s['match']}")
        return 1
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
