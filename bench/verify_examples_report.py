#!/usr/bin/env python3
"""Renders what bench/verify_examples_h200.sh brought back (CPU side, no GPU needed).

    verify_examples_report.py REPORT_JSON RAW_DIR DATA_DIR > tables.md

REPORT_JSON is the script's verify_examples.json (`coalesce-lint verify --format json`),
RAW_DIR the `raw/` folder of its h200_examples.tar.gz. Writes DATA_DIR/measurements.json:
the memory instructions of every example's measurements merged into one document
(schema coalesce-verify-measurements/1, instructions without a global or shared request
left out), from which

    coalesce-lint verify --predictions P.json --measurements DATA_DIR/measurements.json

recomputes the report offline. Prints the per-file summary and the per-line table of
docs/verification/h200.md as Markdown.
"""
import collections
import glob
import json
import os
import sys


def num(v):
    if v is None:
        return "-"
    return str(int(round(v))) if abs(v - round(v)) < 1e-9 else f"{v:.3f}"


def cell(text):
    return text.replace("|", "\\|").replace("`", "'")


def merge_measurements(raw_dir, out_path):
    docs = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(raw_dir, "*.measurements.json")))]
    head = {k: v for k, v in docs[0].items() if k != "instructions"}
    head["kernel_launches"] = sum(d["kernel_launches"] for d in docs)
    head["dropped_records"] = sum(d["dropped_records"] for d in docs)
    head["notes"] = sorted({n for d in docs for n in d["notes"]}) + [
        f"merged from {len(docs)} programs by bench/verify_examples_report.py; only instructions with a "
        "global or shared request kept"]
    ins = [i for d in docs for i in d["instructions"]
           if any(k.startswith("smsp__sass_inst_executed_op_") and v > 0 for k, v in i["metrics"].items())]
    text = json.dumps(head, indent=1)[:-2] + ',\n "instructions": [\n  '
    text += ",\n  ".join(json.dumps(i, separators=(",", ":")) for i in ins) + "\n ]\n}\n"
    with open(out_path, "w") as f:
        f.write(text)
    return len(docs), len(ins)


def main():
    report_path, raw_dir, data_dir = sys.argv[1:4]
    r = json.load(open(report_path))
    os.makedirs(data_dir, exist_ok=True)
    progs, n_ins = merge_measurements(raw_dir, os.path.join(data_dir, "measurements.json"))
    print(f"<!-- {progs} programs, {n_ins} memory instructions merged into measurements.json -->")

    by_file = collections.OrderedDict()
    for l in r["lines"]:
        by_file.setdefault(l["file"], []).append(l)

    print("| example | lines | accesses | match | by ratio to ideal | within range | mismatch | not found | unpredicted |")
    print("|---|---|---|---|---|---|---|---|---|")
    for f, ls in by_file.items():
        c = collections.Counter(l["verdict"] for l in ls)
        ratio = sum(1 for l in ls if l["basis"] == "ratio-to-ideal")
        acc = sum(len(l["predicted"]["accesses"]) for l in ls)
        print(f"| `{os.path.basename(f)}` | {len(ls)} | {acc} | {c['match']} | {ratio} | {c['within-range']} | "
              f"{c['mismatch']} | {c['not-found']} | {c['unpredicted']} |")
    print()
    print("| example:line | kernel | class | access(es) | predicted | measured | ideal pred / meas | instr. | requests | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for f, ls in by_file.items():
        for l in ls:
            p, m = l["predicted"], l["measured"]
            pred = f"[{num(p['range'][0])}, {num(p['range'][1])}]" if p["range"] else num(p["per_request"])
            exprs = "; ".join(f"`{cell(a['expression'])}`" for a in p["accesses"]) or "-"
            verdict = l["verdict"] + (" (by ratio to ideal)" if l["basis"] == "ratio-to-ideal" else "")
            unit = "wf" if l["unit"] == "wavefronts" else "sec"
            print(f"| `{os.path.basename(f)}:{l['line']}` | {','.join(l['kernels'])} | {l['space']} {l['kind']} | "
                  f"{exprs} | {pred} {unit} | {num(m['per_request'])} | {num(p['ideal_per_request'])} / "
                  f"{num(m['ideal_per_request'])} | {m['instructions']} | {m['requests']} | {verdict} |")


if __name__ == "__main__":
    main()
