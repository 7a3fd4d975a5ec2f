#!/usr/bin/env python3
"""Gathers what bench/occupancy_tiling_h200.sh recorded into one JSON and one CSV.

    occupancy_tiling_collect.py RAW_DIR OUT_JSON OUT_CSV FILES...

RAW_DIR holds, per example NAME: NAME.ncu.csv (`ncu --metrics ... --csv --print-units base`,
the details page: one row per metric and launch), NAME.resources.txt (`cuobjdump
--dump-resource-usage`) and NAME.nvcc.txt (`nvcc -Xptxas -v`). The JSON lists every kernel
launch with its metrics (numbers; ncu's thousands separators removed), and the registers and
static shared memory ptxas gave each kernel; test/verify/occupancy_tiling_check.py reads it.
Exits 1 when an example left no launch (ncu failed or profiled nothing).
"""
import csv
import json
import os
import re
import sys

FORMAT = "coalesce-lint-occupancy-tiling/1"


def kernel_identifier(name):
    """'_Z11matmulNaivePKfS0_Pfi' -> 'matmulNaive'; 'void k<256>(float *)' -> 'k'; 'k(int)' -> 'k'."""
    if name.startswith("_Z"):
        # <length><identifier>, repeated inside N...E for a nested name: the last one is the kernel's.
        pos, ident = (3 if name.startswith("_ZN") else 2), ""
        while True:
            m = re.compile(r"\d+").match(name, pos)
            if not m:
                break
            n = int(m.group(0))
            ident, pos = name[m.end():m.end() + n], m.end() + n
            if not name.startswith("_ZN"):
                break
        return ident
    head, depth, out = name.split("(")[0], 0, ""
    for c in head:  # drop template arguments
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            out += c
    return out.strip().split(" ")[-1].split("::")[-1]


def number(text):
    t = text.replace(",", "").strip()
    try:
        return float(t)
    except ValueError:
        return None


def read_ncu(path):
    """[{id, kernel, metrics}] in launch order, from the details-page CSV."""
    rows = [line for line in open(path, errors="replace") if line.startswith('"')]
    launches = {}
    for row in csv.DictReader(rows):
        key = row.get("ID")
        if key is None or "Metric Name" not in row:
            continue
        launch = launches.setdefault(key, {"id": int(key) if key.isdigit() else key,
                                           "kernel": row.get("Kernel Name", ""),
                                           "block_size": row.get("Block Size", ""),
                                           "grid_size": row.get("Grid Size", ""),
                                           "metrics": {}})
        value = number(row.get("Metric Value", ""))
        if value is not None:
            launch["metrics"][row["Metric Name"]] = value
    return list(launches.values())


def read_resources(path):
    """{kernel identifier: {registers, shared, stack, local, mangled}} from cuobjdump."""
    out, current = {}, None
    if not os.path.exists(path):
        return out
    for line in open(path, errors="replace"):
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            current = m.group(1)
            continue
        if current and "REG:" in line:
            fields = dict(re.findall(r"(\w+):(\d+)", line))
            out[kernel_identifier(current)] = {"mangled": current,
                                               **{k.lower(): int(v) for k, v in fields.items()
                                                  if k in ("REG", "SHARED", "STACK", "LOCAL")}}
            current = None
    return out


def read_ptxas(path):
    """{kernel identifier: registers} from `nvcc -Xptxas -v`."""
    out, current = {}, None
    if not os.path.exists(path):
        return out
    for line in open(path, errors="replace"):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            out[kernel_identifier(current)] = int(m.group(1))
            current = None
    return out


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    raw, out_json, out_csv, files = argv[0], argv[1], argv[2], argv[3:]
    result = {"format": FORMAT, "environment": "", "examples": []}
    env = os.path.join(raw, "environment.txt")
    if os.path.exists(env):
        result["environment"] = open(env, errors="replace").read()
    missing = []
    for f in files:
        name = os.path.splitext(os.path.basename(f))[0]
        csv_path = os.path.join(raw, name + ".ncu.csv")
        launches = read_ncu(csv_path) if os.path.exists(csv_path) else []
        resources = read_resources(os.path.join(raw, name + ".resources.txt"))
        ptxas = read_ptxas(os.path.join(raw, name + ".nvcc.txt"))
        for launch in launches:
            ident = kernel_identifier(launch["kernel"])
            launch["identifier"] = ident
            launch["resources"] = resources.get(ident)
            launch["ptxas_registers"] = ptxas.get(ident)
        if not launches:
            missing.append(name)
        result["examples"].append({"file": f, "launches": launches})
    with open(out_json, "w") as out:
        json.dump(result, out, indent=1, sort_keys=True)
        out.write("\n")
    metric_names = sorted({m for e in result["examples"] for l in e["launches"] for m in l["metrics"]})
    with open(out_csv, "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["file", "kernel", "ptxas_registers"] + metric_names)
        for e in result["examples"]:
            for l in e["launches"]:
                w.writerow([e["file"], l["identifier"], l["ptxas_registers"]] +
                           [l["metrics"].get(m, "") for m in metric_names])
    launches = sum(len(e["launches"]) for e in result["examples"])
    print(f"{launches} launches from {len(files)} files; no launch from: {', '.join(missing) or 'none'}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
