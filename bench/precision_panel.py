#!/usr/bin/env python3
"""Draws a precision panel from sweeps of public trees (bench/sweep_tree.sh --out DIR): every
warning and error at a distinct place (file, line, column, rule), then N of them at random,
stratified by rule (proportional, at least MIN per rule), with paths relative to the trees' parent.
The judge (docs/precision.md) sees only these and the programs' sources.

    precision_panel.py --trees-parent /tmp/trees --n 150 --seed 11 -o panel.json SWEEP_OUT_DIR...
"""
import argparse
import collections
import glob
import json
import os
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sweeps", nargs="+")
    ap.add_argument("--trees-parent", required=True)
    ap.add_argument("--n", type=int, default=150)
    ap.add_argument("--min-per-rule", type=int, default=4)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    parent = os.path.abspath(a.trees_parent) + "/"
    places = {}
    for sweep in a.sweeps:
        for path in sorted(glob.glob(os.path.join(sweep, "json", "*.json"))):
            try:
                report = json.load(open(path))
            except (OSError, ValueError):
                continue
            for f in report.get("findings", []):
                if f.get("severity") not in ("warning", "error"):
                    continue
                file = os.path.normpath(os.path.abspath(f["file"]))
                key = (file, f["line"], f.get("column", 0), f["rule"])
                places.setdefault(key, f)
    by_rule = collections.defaultdict(list)
    for key, f in sorted(places.items()):
        by_rule[key[3]].append((key, f))
    rng = random.Random(a.seed)
    total = len(places)
    chosen = []
    for rule, items in sorted(by_rule.items()):
        want = max(a.min_per_rule, round(a.n * len(items) / total)) if total else 0
        chosen += rng.sample(items, min(want, len(items)))
    rng.shuffle(chosen)
    panel = []
    for i, (key, f) in enumerate(chosen):
        panel.append({"id": i, "file": key[0].replace(parent, ""), "line": key[1], "column": key[2],
                      "severity": f["severity"], "rule": key[3], "message": f["message"],
                      "kernel": f.get("kernel", ""), "notes": f.get("notes", [])})
    with open(a.output, "w") as out:
        json.dump(panel, out, indent=1)
    print(f"{total} places with a warning or error; {len(panel)} drawn:",
          dict(collections.Counter(p["rule"] for p in panel)))


if __name__ == "__main__":
    main()
