#!/usr/bin/env python3
"""Writes the warnings and errors of staged public-tree records (bench/sweep_records.sh) that no
blind panel has judged yet, as a panel file for the judge (docs/precision/judge-prompt.md):
the same shape as docs/precision/panel*-findings.json, ids continuing from --first-id.

    precision_unjudged.py --binary coalesce-lint --staged .precision --first-id 0 -o panel3-findings.json
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from precision_check import load_panels  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--staged", required=True)
    ap.add_argument("--panels", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "precision"))
    ap.add_argument("--first-id", type=int, default=0)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    verdicts = load_panels(a.panels)
    panel = []
    with tempfile.TemporaryDirectory() as scratch:
        for name in sorted(os.listdir(a.staged)):
            staged = os.path.join(a.staged, name)
            parent = os.path.dirname(open(os.path.join(staged, "tree.txt")).read().strip()) + "/"
            out = os.path.join(scratch, name + ".json")
            subprocess.run([a.binary, "merge", "-q", "--format=json", "-o", out, os.path.join(staged, "records")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            seen = set()
            for f in json.load(open(out)).get("findings", []):
                if f.get("severity") not in ("warning", "error"):
                    continue
                file = os.path.normpath(os.path.abspath(f["file"])).replace(parent, "")
                key = (file, f["line"], f.get("column", 0), f["rule"])
                if key in verdicts or key in seen:
                    continue
                seen.add(key)
                panel.append({"id": a.first_id + len(panel), "file": file, "line": f["line"], "column": key[2],
                              "severity": f["severity"], "rule": f["rule"], "message": f["message"],
                              "kernel": f.get("kernel", ""), "notes": f.get("notes", [])})
    with open(a.output, "w") as out:
        json.dump(panel, out, indent=1)
    print(f"{len(panel)} warnings and errors no panel has judged")


if __name__ == "__main__":
    main()
