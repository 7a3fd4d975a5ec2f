#!/usr/bin/env python3
"""The analysis against the H200 on public programs (issue #13's real-code ground truth).

test/verify/data/realcode/ holds, per program of bench/realcode/programs.txt that ran on the
H200, its measurements (measurements_NAME.json.gz: the verifier's annotated measurements, kept to
the instructions of the program's own files) and the predictions made when they were recorded
(predictions_NAME.json.gz); COMMAND.txt says how. The programs' sources are public code that this
repository does not hold, so there are two modes:

  recorded (always): the recorded predictions against the measurements, through
      `coalesce-lint verify --measurements`. Guards the comparison and the list below.
  fresh (--fresh): predictions made now by the built tool from the sources staged in .realcode/
      (bench/realcode/stage_sources.sh); exits 77 (skipped) when they are not staged. Guards the
      analysis: run it after every analysis change, then `--update` records the new predictions.

Either way, every (program, line, space, operation) key whose verdict is not a match, and every
contradicted branch, must be listed in known_disagreements.txt with its cause; a new one fails,
and so does a listed one that no longer happens. The match rate is printed: matching keys over
keys the H200 measured (match, within-range, mismatch, unchecked = measured but predicted without
a figure, unpredicted = measured with no prediction), at verify's default tolerance (0.1 %), and
again at the issue's "within 5 %" (a second line; the list holds at 0.1 %).

    realcode_recorded.py --binary build/tools/coalesce-lint/coalesce-lint --source-dir . [--fresh] [--update]
"""
import argparse
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
DISAGREE = ("mismatch", "unchecked", "unpredicted")
MEASURED = ("match", "within-range") + DISAGREE
ISSUE_TOLERANCE = 5.0  # percent: issue #13's "within 5 %"; the list below holds at verify's default 0.1 %


def read_known(path):
    known = {}
    if os.path.exists(path):
        with open(path) as f:
            for raw in f:
                text, _, cause = raw.partition("#")
                key = " ".join(text.split())
                if key:
                    known[key] = cause.strip()
    return known


def fresh_predictions(binary, src, name, tmp, launch_info=None):
    """bench/realcode/predict.sh for one program; None when its sources are not staged."""
    env = dict(os.environ, ONLY=re.escape(name), REALCODE=".realcode")
    if launch_info:
        env["PREDICT_ARGS"] = "--launch-info " + launch_info
    out = os.path.join(tmp, "fresh")
    r = subprocess.run(["bash", "bench/realcode/predict.sh", binary, out], cwd=src, env=env,
                       capture_output=True, text=True, timeout=900)
    path = os.path.join(out, name + ".json")
    return path if r.returncode == 0 and os.path.exists(path) else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--fresh", action="store_true", help="predict now from the sources staged in .realcode/")
    ap.add_argument("--update", action="store_true",
                    help="rewrite the list (causes kept); with --fresh, also record the new predictions")
    ap.add_argument("--min-rate", type=float, default=0.0, help="lowest match rate accepted")
    ap.add_argument("--launch-info", action="store_true",
                    help="with --fresh: predict with the launches the H200 run recorded (launches.json.gz) and "
                         "print the match rate only (the list is for the static analysis)")
    ap.add_argument("--tolerance", type=float, default=None,
                    help="percent a figure may differ and match (verify --tolerance; default verify's 0.1); "
                         "prints the match rate only, as --launch-info does (the list holds at 0.1 %%)")
    ap.add_argument("--keep", metavar="DIR", help="copy each program's predictions and verify report into DIR")
    a = ap.parse_args()
    if a.update and (a.launch_info or a.tolerance is not None):
        ap.error("--update records the static predictions at the default tolerance: not with --launch-info or --tolerance")
    src = os.path.abspath(a.source_dir)
    binary = os.path.abspath(a.binary)
    data = os.path.join(src, "test", "verify", "data", "realcode")
    names = sorted(os.path.basename(p)[len("measurements_"):-len(".json.gz")]
                   for p in glob.glob(os.path.join(data, "measurements_*.json.gz")))
    if len(names) < 40:
        sys.exit(f"expected the recorded set (40 programs or more), found {len(names)}")
    if a.fresh and not os.path.isdir(os.path.join(src, ".realcode")):
        print("skipped: the public programs are not staged in .realcode/ (bench/realcode/stage_sources.sh)")
        return SKIP
    seen, counts, counts5 = {}, {v: 0 for v in MEASURED}, {v: 0 for v in MEASURED}
    launches = {}
    if a.launch_info:
        with gzip.open(os.path.join(data, "launches.json.gz"), "rt") as f:
            launches = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            meas = os.path.join(tmp, name + ".measurements.json")
            with gzip.open(os.path.join(data, f"measurements_{name}.json.gz"), "rb") as i, open(meas, "wb") as o:
                shutil.copyfileobj(i, o)
            if a.fresh:
                info = None
                if a.launch_info and name in launches and launches[name]["launch_configs"]:
                    info = os.path.join(tmp, name + ".launches.json")
                    with open(info, "w") as f:
                        json.dump({"schema": "coalesce-verify-measurements/1", "status": "ok",
                                   "launch_configs": launches[name]["launch_configs"], "instructions": []}, f)
                pred = fresh_predictions(binary, src, name, tmp, info)
                if pred is None:
                    seen[f"{name} analysis failed"] = "fresh"
                    continue
                if a.update:
                    with open(pred, "rb") as i, gzip.GzipFile(os.path.join(data, f"predictions_{name}.json.gz"),
                                                             "wb", mtime=0) as o:
                        shutil.copyfileobj(i, o)
            else:
                pred = os.path.join(tmp, name + ".predictions.json")
                with gzip.open(os.path.join(data, f"predictions_{name}.json.gz"), "rb") as i, open(pred, "wb") as o:
                    shutil.copyfileobj(i, o)
            out = os.path.join(tmp, name + ".report.json")
            tolerance = ["--tolerance", str(a.tolerance)] if a.tolerance is not None else []
            r = subprocess.run([binary, "verify", "--predictions", pred, "--measurements", meas, "--format", "json",
                                "-o", out] + tolerance, cwd=src, capture_output=True, text=True, timeout=600)
            if r.returncode not in (0, 1, 3):
                sys.exit(f"{name}: verify failed (exit {r.returncode}): {r.stderr}")
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                shutil.copy(out, os.path.join(a.keep, name + ".report.json"))
                shutil.copy(pred, os.path.join(a.keep, name + ".predictions.json"))
            with open(out) as f:
                report = json.load(f)
            if a.tolerance is None:
                # The issue's own measure (#13, "within 5 %"), printed beside the list's 0.1 %.
                loose = os.path.join(tmp, name + ".report5.json")
                r5 = subprocess.run([binary, "verify", "--predictions", pred, "--measurements", meas, "--format",
                                     "json", "-o", loose, "--tolerance", str(ISSUE_TOLERANCE)], cwd=src,
                                    capture_output=True, text=True, timeout=600)
                if r5.returncode not in (0, 1, 3):
                    sys.exit(f"{name}: verify --tolerance {ISSUE_TOLERANCE} failed (exit {r5.returncode}): {r5.stderr}")
                with open(loose) as f:
                    for line in json.load(f)["lines"]:
                        if line["verdict"] in counts5:
                            counts5[line["verdict"]] += 1
            for line in report["lines"]:
                v = line["verdict"]
                if v in counts:
                    counts[v] += 1
                if v in DISAGREE:
                    seen[f"{name} {os.path.basename(line['file'])}:{line['line']} {line['space']} {line['kind']} {v}"] = ""
            for b in report.get("branches", []):
                if b["verdict"] == "contradicted":
                    seen[f"{name} {os.path.basename(b['file'])}:{b['line']} branch contradicted"] = ""
    listing = os.path.join(data, "known_disagreements.txt")
    known = read_known(listing)
    if a.update:
        header = []
        if os.path.exists(listing):
            with open(listing) as f:
                header = [l for l in f if l.startswith("#")]
        with open(listing, "w") as f:
            f.writelines(header)
            for key in sorted(seen):
                cause = known.get(key, "")
                f.write(f"{key}  # {cause}\n" if cause else f"{key}\n")
        known = read_known(listing)
    measured = sum(counts.values())
    rate = (counts["match"] + counts["within-range"]) / measured if measured else 0.0
    print(f"{len(names)} programs; {measured} measured keys: " +
          ", ".join(f"{counts[v]} {v}" for v in MEASURED) + f"; match rate {100 * rate:.1f} %")
    measured5 = sum(counts5.values())
    if measured5:
        rate5 = (counts5["match"] + counts5["within-range"]) / measured5
        print(f"within {ISSUE_TOLERANCE:g} % (issue #13's measure): " +
              ", ".join(f"{counts5[v]} {v}" for v in MEASURED) + f"; match rate {100 * rate5:.1f} %")
    if a.launch_info or a.tolerance is not None:
        return 0
    new, gone = sorted(set(seen) - set(known)), sorted(set(known) - set(seen))
    uncaused = sorted(k for k in seen if k in known and not known[k])
    for x in new:
        print(f"NEW DISAGREEMENT: {x}")
    for x in gone:
        print(f"LISTED BUT NO LONGER SO (update known_disagreements.txt): {x}")
    for x in uncaused:
        print(f"LISTED WITHOUT A CAUSE: {x}")
    if rate < a.min_rate:
        print(f"match rate {100 * rate:.1f} % is below {100 * a.min_rate:.1f} %")
        return 1
    return 1 if new or gone or uncaused else 0


if __name__ == "__main__":
    sys.exit(main())
