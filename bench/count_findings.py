#!/usr/bin/env python3
"""Counts the findings of a sweep (bench/sweep_tree.sh --out DIR) by level and rule.

    bench/count_findings.py DIR [DIR...]

Reads DIR/json/*.json (the per-folder reports) and prints, per rule, the warnings and errors
and the notes, the notes split by why (under MinCostShare, or a gather, which is a note by
default), and the five most expensive places. Places are counted once (file, line, column,
rule), as the merged output gives them.
"""
import collections
import glob
import json
import os
import sys


def main(dirs):
    seen = {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "json", "*.json"))):
            try:
                with open(path) as f:
                    report = json.load(f)
            except (OSError, ValueError):
                continue
            for f in report.get("findings", []):
                key = (f["file"], f["line"], f["column"], f["rule"])
                seen.setdefault(key, f)
    by_rule = collections.defaultdict(collections.Counter)
    for (_, _, _, rule), f in seen.items():
        level = f["severity"]
        if level == "note":
            if any(n.startswith("a note, not a warning") for n in f.get("notes", [])):
                level = "note (cost)"
            elif rule == "scattered-indirect-access":
                level = "note (gather)"
        by_rule[rule][level] += 1
    levels = ["error", "warning", "note (cost)", "note (gather)", "note"]
    print("| rule | " + " | ".join(levels) + " |")
    print("|---|" + "---|" * len(levels))
    total = collections.Counter()
    for rule in sorted(by_rule):
        total.update(by_rule[rule])
        print(f"| {rule} | " + " | ".join(str(by_rule[rule][l]) for l in levels) + " |")
    print("| **all** | " + " | ".join(f"**{total[l]}**" for l in levels) + " |")
    costed = [f for f in seen.values() if f.get("cost_sectors") or f.get("cost_wavefronts")]
    costed.sort(key=lambda f: -((f.get("cost_sectors") or 0) * 32 + (f.get("cost_wavefronts") or 0) * 128))
    print("\nmost expensive places:")
    for f in costed[:5]:
        b = (f.get("cost_sectors") or 0) * 32 + (f.get("cost_wavefronts") or 0) * 128
        print(f"  {f['file']}:{f['line']} [{f['rule']}] {f['severity']}, {b / 1e6:.3g} MB per launch, "
              f"{100 * (f.get('cost_share') or 0):.1f}% of kernel '{f.get('kernel')}'")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
