#!/usr/bin/env python3
"""Cross-checks the injection library's per-instruction counters against Nsight
Compute's SourceCounters for the same kernels.

    crosscheck_ncu.py DIR

DIR holds ncu_<program>.csv (`ncu --import R --page source --csv --print-source sass`)
and measurements_<program>.json (libcoalesce_verify_inject.so). For every memory
instruction of every kernel in the CSVs it prints both sets of figures and exits 1 if
any differ.
"""
import csv
import glob
import json
import os
import sys

PAIRS = [  # (ncu column, CUPTI SASS metric)
    ("Instructions Executed", "smsp__sass_inst_executed"),
    ("L2 Theoretical Sectors Global", "smsp__sass_sectors_mem_global"),
    ("L2 Theoretical Sectors Global Ideal", "smsp__sass_sectors_mem_global_ideal"),
    ("L1 Wavefronts Shared", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"),
    ("L1 Wavefronts Shared Ideal", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"),
]


def ncu_kernels(path):
    """{kernel: {relative pc: {column: value, 'Source': sass}}}"""
    kernels, kernel, header, first = {}, None, None, None
    for row in csv.reader(open(path, newline="")):
        if not row:
            continue
        if row[0] == "Kernel Name":
            kernel, header, first = row[1], None, None
            kernels[kernel] = {}
            continue
        if row[0] == "Address":
            header = row
            continue
        if kernel is None or header is None or not row[0].startswith("0x"):
            continue
        addr = int(row[0], 16)
        first = addr if first is None else first
        kernels[kernel][addr - first] = dict(zip(header, row))
    return kernels


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    compared = differ = 0
    for path in sorted(glob.glob(os.path.join(d, "ncu_*.csv"))):
        prog = os.path.basename(path)[4:-4]
        meas = json.load(open(os.path.join(d, f"measurements_{prog}.json")))["instructions"]
        by_key = {(m["function"], m["pc"]): m for m in meas}
        for kernel, rows in ncu_kernels(path).items():
            for pc, row in sorted(rows.items()):
                space = row.get("Address Space", "-")
                if space not in ("Global", "Shared"):
                    continue
                m = by_key.get((kernel, pc))
                if m is None:
                    print(f"{prog} {kernel} +{pc:#06x}: not in measurements")
                    differ += 1
                    continue
                cells = []
                bad = False
                for col, metric in PAIRS:
                    if col not in row:
                        continue
                    a = int(float(row[col] or 0))
                    b = m["metrics"].get(metric, 0)
                    if a == 0 and b == 0:
                        continue
                    cells.append(f"{col}: ncu {a} / cupti {b}")
                    bad |= a != b
                compared += 1
                differ += bad
                sass = row["Source"].strip()
                print(f"{'DIFFER' if bad else 'same  '} {kernel} +{pc:#06x} {sass[:40]:40s} {m['file'].split('/')[-1]}:{m['line']}  "
                      + "; ".join(cells))
    print(f"{compared} memory instructions compared, {differ} differ")
    return 1 if differ or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
