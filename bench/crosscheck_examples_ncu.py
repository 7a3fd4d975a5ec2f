#!/usr/bin/env python3
"""Cross-checks the verifier's per-instruction counters on kernels/examples/ against
Nsight Compute's SourceCounters for the same programs (bench/verify_examples_h200.sh).

    crosscheck_examples_ncu.py NCU_DIR MEASUREMENTS_DIR

NCU_DIR holds ncu_<example>.csv (`ncu --import R --page source --csv --print-source sass`),
MEASUREMENTS_DIR <example>.measurements.json (`coalesce-lint verify --keep`'s annotated_N.json,
renamed). For every global or shared memory instruction in the CSVs it prints both sets of
figures (ncu sums over every profiled launch of a kernel, as the collector does) and exits 1
if any differ. Kernels are matched by name (mangled, or the identifier of the demangled
name), instructions by their offset from the kernel's first instruction.
"""
import csv
import glob
import json
import os
import re
import sys

PAIRS = [  # (ncu column, CUPTI SASS metric)
    ("Instructions Executed", "smsp__sass_inst_executed"),
    ("L2 Theoretical Sectors Global", "smsp__sass_sectors_mem_global"),
    ("L2 Theoretical Sectors Global Ideal", "smsp__sass_sectors_mem_global_ideal"),
    ("L1 Wavefronts Shared", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"),
    ("L1 Wavefronts Shared Ideal", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"),
]


def base_name(name):
    """'void k<256>(float *, int)' -> 'k'; 'ns::k(float*)' -> 'k'; '_Z1kPf' -> '_Z1kPf'."""
    if name.startswith("_Z"):
        return name
    n = name.split("(")[0]
    depth, out = 0, ""
    for c in n:  # drop template arguments
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            out += c
    return out.strip().split(" ")[-1].split("::")[-1]


def ncu_kernels(path):
    """{kernel: {relative pc: row with the columns summed over the kernel's launches}}

    `--page source --csv` prints each profiled launch's listing twice, identically (seen on
    the H200 with ncu 2025.3); a block equal to one already read for that kernel is skipped.
    """
    blocks = []  # (kernel, [rows])
    header = None
    for row in csv.reader(open(path, newline="")):
        if not row:
            continue
        if row[0] == "Kernel Name":
            blocks.append((row[1], []))
            header = None
            continue
        if row[0] == "Address":
            header = row
            continue
        if not blocks or header is None or not row[0].startswith("0x"):
            continue
        blocks[-1][1].append(dict(zip(header, row)))
    kernels, seen = {}, set()
    for kernel, rows in blocks:
        sig = (kernel, tuple(tuple(sorted(r.items())) for r in rows))
        if sig in seen or not rows:
            continue
        seen.add(sig)
        first = int(rows[0]["Address"], 16)
        ks = kernels.setdefault(kernel, {})
        for rec in rows:
            pc = int(rec["Address"], 16) - first
            old = ks.get(pc)
            if old is None:
                ks[pc] = dict(rec)
            else:  # another launch of the same kernel: sum the counters
                for col, _ in PAIRS:
                    if col in rec:
                        old[col] = str(float(old.get(col) or 0) + float(rec[col] or 0))
    return kernels


def mangled_token(ident):
    return f"{len(ident)}{ident}"


def main():
    ncu_dir, meas_dir = sys.argv[1], sys.argv[2]
    compared = differ = 0
    per_kernel = []
    for path in sorted(glob.glob(os.path.join(ncu_dir, "ncu_*.csv"))):
        prog = os.path.basename(path)[4:-4]
        mpath = os.path.join(meas_dir, f"{prog}.measurements.json")
        if not os.path.exists(mpath):
            print(f"{prog}: no measurements ({mpath})")
            differ += 1
            continue
        meas = json.load(open(mpath))["instructions"]
        functions = sorted({m["function"] for m in meas})
        for kernel, rows in ncu_kernels(path).items():
            b = base_name(kernel)
            cands = [f for f in functions if f == kernel or f == b or
                     (f.startswith("_Z") and mangled_token(b) in f)]
            if len(cands) != 1:
                print(f"{prog} {kernel}: {len(cands)} kernels of that name in the measurements {cands}")
                differ += 1
                continue
            fn = cands[0]
            by_pc = {m["pc"]: m for m in meas if m["function"] == fn}
            n_k = d_k = 0
            for pc, row in sorted(rows.items()):
                space = row.get("Address Space", "-")
                if space not in ("Global", "Shared"):
                    continue
                m = by_pc.get(pc)
                if m is None:
                    print(f"DIFFER {prog} {b} +{pc:#06x}: not in the measurements")
                    differ += 1
                    d_k += 1
                    continue
                cells, bad = [], False
                for col, metric in PAIRS:
                    if col not in row:
                        continue
                    a = int(float(row[col] or 0))
                    c = m["metrics"].get(metric, 0)
                    if a == 0 and c == 0:
                        continue
                    cells.append(f"{col}: ncu {a} / cupti {c}")
                    bad |= a != c
                compared += 1
                n_k += 1
                differ += bad
                d_k += bad
                sass = row["Source"].strip()
                where = f"{m['file'].split('/')[-1]}:{m['line']}"
                if m.get("inlined_at"):
                    where += " inlined at " + ", ".join(f"{c['file'].split('/')[-1]}:{c['line']}" for c in m["inlined_at"])
                print(f"{'DIFFER' if bad else 'same  '} {prog} {b} +{pc:#06x} {sass[:34]:34s} {where}  " + "; ".join(cells))
            per_kernel.append((prog, b, n_k, d_k))
    print()
    for prog, b, n, d in per_kernel:
        print(f"kernel {prog}/{b}: {n} memory instructions, {d} differ")
    print(f"{len(per_kernel)} kernels, {compared} memory instructions compared, {differ} differ")
    return 1 if differ or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
