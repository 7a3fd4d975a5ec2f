#!/usr/bin/env python3
"""Turns "// expect:" comments in a .cu file into a predictions file in the analyzer's
JSON schema (coalesce-lint/1), so the verifier can be tested end to end without the
analyzer. Grammar, per access, accesses separated by ';':

    // expect: SPACE KIND BYTES [sectors=N] [ideal=N] [wavefronts=N] [range=LO,HI]
    //         [pattern=NAME] [kernel=NAME]

SPACE is global or shared, KIND load, store or atomic. The kernel defaults to the
__global__ function the line is in.

    make_predictions.py FILE.cu [--path-as NAME] > FILE.predictions.json
"""
import json
import re
import sys


def main():
    args = sys.argv[1:]
    src = args[0]
    path_as = src
    if "--path-as" in args:
        path_as = args[args.index("--path-as") + 1]
    accesses = []
    kernel = ""
    for lineno, line in enumerate(open(src), start=1):
        m = re.search(r"__global__\s+void\s+(\w+)\s*\(", line)
        if m:
            kernel = m.group(1)
        if "// expect:" not in line:
            continue
        for clause in line.split("// expect:", 1)[1].split(";"):
            words = clause.split()
            if not words:
                continue
            space, kind, nbytes = words[0], words[1], int(words[2])
            kv = dict(w.split("=", 1) for w in words[3:])
            a = {
                "file": path_as, "line": lineno, "column": 0, "kernel": kv.get("kernel", kernel),
                "space": space, "kind": kind, "bytes": nbytes, "pattern": kv.get("pattern", "affine"),
                "sectors_per_request": None, "ideal_sectors": None, "efficiency": None, "sectors_range": None,
                "wavefronts": None, "ideal_wavefronts": None, "conflict_degree": None, "wavefronts_range": None,
            }
            rng = [float(x) for x in kv["range"].split(",")] if "range" in kv else None
            if space == "global":
                if "sectors" in kv:
                    a["sectors_per_request"] = float(kv["sectors"])
                    a["ideal_sectors"] = float(kv.get("ideal", kv["sectors"]))
                    a["efficiency"] = a["ideal_sectors"] / a["sectors_per_request"]
                a["sectors_range"] = rng
            else:
                if "wavefronts" in kv:
                    a["wavefronts"] = float(kv["wavefronts"])
                    a["ideal_wavefronts"] = float(kv.get("ideal", kv["wavefronts"]))
                    a["conflict_degree"] = a["wavefronts"] / a["ideal_wavefronts"]
                a["wavefronts_range"] = rng
            accesses.append(a)
    json.dump({"schema": "coalesce-lint/1", "generator": "test/verify/make_predictions.py", "accesses": accesses},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
