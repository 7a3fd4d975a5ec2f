#!/usr/bin/env python3
"""Holds a sweep of the public trees to the blind panels (docs/precision.md): fails when a place
a panel judged false is again a warning or an error, and prints, for the warnings and errors of
the sweep, how many places each panel's verdicts cover and the share judged worth fixing.

    precision_check.py --trees-parent /tmp/trees SWEEP_OUT_DIR...   (each with json/*.json)

Exit 0: no judged-false place fires; 1: some do (listed); 77: no sweep given or found (the trees
are not committed, so CI has none: the CTest entry shows as skipped).
"""
import argparse
import collections
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PANELS = [("panel", "panel-findings.json", "panel-judgments.json"),
          ("panel2", "panel2-findings.json", "panel2-judgments.json"),
          ("panel3", "panel3-findings.json", "panel3-judgments.json")]


def load_panels(folder):
    verdicts = {}  # (file, line, column, rule) -> (panel, verdict, cause)
    for name, findings, judgments in PANELS:
        fp, jp = os.path.join(folder, findings), os.path.join(folder, judgments)
        if not (os.path.exists(fp) and os.path.exists(jp)):
            continue
        judged = {j["id"]: j for j in json.load(open(jp))}
        for f in json.load(open(fp)):
            j = judged.get(f["id"])
            if j:
                key = (f["file"], f["line"], f.get("column", 0), f["rule"])
                verdict = {"true-worth-fixing": "worth-fixing", "true-noise": "noise"}.get(j["verdict"], j["verdict"])
                verdicts[key] = (name, verdict, j.get("cause", ""))  # later panels win
    return verdicts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sweeps", nargs="*")
    ap.add_argument("--trees-parent", required=True)
    ap.add_argument("--panels", default=os.path.join(HERE, "..", "docs", "precision"))
    a = ap.parse_args()
    parent = os.path.abspath(a.trees_parent) + "/"
    reports = [p for s in a.sweeps for p in sorted(glob.glob(os.path.join(s, "json", "*.json")))]
    if not reports:
        print("precision_check: no sweep reports (the public trees are not staged): skipped")
        return 77
    fired = {}
    for path in reports:
        for f in json.load(open(path)).get("findings", []):
            if f.get("severity") in ("warning", "error"):
                file = os.path.normpath(os.path.abspath(f["file"])).replace(parent, "")
                fired[(file, f["line"], f.get("column", 0), f["rule"])] = f
    verdicts = load_panels(a.panels)
    counts = collections.Counter(verdicts[k][1] if k in verdicts else "unjudged" for k in fired)
    print(f"{len(fired)} warnings and errors at distinct places; by the panels' verdicts:", dict(counts))
    judged = sum(v for k, v in counts.items() if k != "unjudged")
    if judged:
        print(f"worth fixing among the judged: {counts['worth-fixing']} of {judged} "
              f"({100.0 * counts['worth-fixing'] / judged:.0f} %)")
    false_again = sorted(k for k in fired if k in verdicts and verdicts[k][1] == "false")
    for k in false_again:
        print(f"judged false in {verdicts[k][0]} ({verdicts[k][2]}), fires again: {k[0]}:{k[1]}:{k[2]} {k[3]}")
    return 1 if false_again else 0


if __name__ == "__main__":
    sys.exit(main())
