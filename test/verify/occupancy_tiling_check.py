#!/usr/bin/env python3
"""Compares the tool's occupancy figures and shared-tiling-opportunity hints with what
bench/occupancy_tiling_h200.sh recorded on the H200 (docs/occupancy.md).

    occupancy_tiling_check.py --binary COALESCE_LINT --source-dir ROOT [--recorded FILE]

The predictions are made here, by running the tool over the recorded examples (the GPU
machine has no LLVM). Exit 77 (skipped) while the recorded file is not committed
(bench/occupancy_tiling/h200.json); 0 when every check holds, 1 otherwise.

Per kernel launch the checks are the Occupancy Calculator's steps, each against the
corresponding Nsight Compute metric:
  - blocks per SM allowed by the warp slots and by the block slots: equal;
  - static (and, when the analysis knows it, dynamic) shared memory per block: equal;
  - blocks allowed by shared memory: equal when shared memory is the predicted limit, else
    at least the predicted resident blocks (the driver may pick a smaller carveout that
    still does not limit: Nsight Compute reports the limit for the carveout it picked);
  - theoretical occupancy: the predicted resident blocks, capped by the measured register
    limit (the tool does not know the registers ptxas uses), times warps per block, over
    the SM's 64 warps: equal to sm__maximum_warps_per_active_cycle_pct within 0.5 points;
  - achieved occupancy at most the theoretical one (plus 1 point of measurement noise).
For the tiling hint: a kernel the hint names must show the reuse the hint predicts being
served from L1 today, its global-load sectors in L1 at least MinReuse (2) times the sectors
L1 read from L2. Kernels it stays quiet on are listed with the same ratio, unchecked.
"""
import argparse
import json
import os
import subprocess
import sys

SKIP = 77
MAX_WARPS = 64  # sm_90 (lib/model's Arch table); the recorded file says which GPU ran
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from occupancy_tiling_collect import kernel_identifier  # noqa: E402  (one reading of kernel names)

MIN_REUSE = 2.0


def predict(binary, root, files):
    cmd = [binary, "--format=json", "-q", "--no-cache", "--checks=*", "--arch=sm_90"] + files
    r = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=900)
    if r.returncode not in (0, 1):
        raise SystemExit(f"coalesce-lint failed ({r.returncode}): {r.stderr.strip()[:400]}")
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--recorded", default=None)
    a = ap.parse_args()
    recorded_path = a.recorded or os.path.join(a.source_dir, "bench", "occupancy_tiling", "h200.json")
    if not os.path.exists(recorded_path):
        print(f"skipped: {recorded_path} is not recorded yet (bench/occupancy_tiling_h200.sh on the H200)")
        return SKIP
    recorded = json.load(open(recorded_path))
    if recorded.get("format") != "coalesce-lint-occupancy-tiling/1":
        print(f"{recorded_path}: not a coalesce-lint-occupancy-tiling/1 file")
        return 1
    files = [e["file"] for e in recorded["examples"]]
    report = predict(a.binary, a.source_dir, files)

    kernels = {}
    for k in report["kernels"]:
        kernels[(os.path.normpath(k["file"]), kernel_identifier(k["name"]))] = k
    hinted = set()
    for f in report["findings"]:
        if f["rule"] == "shared-tiling-opportunity" and f.get("kernel"):
            hinted.add((os.path.normpath(f["file"]), kernel_identifier(f["kernel"])))

    failures, checked = [], 0
    print(f"{'kernel':<28} {'pred %':>7} {'limit':<14} {'regs':>4} {'theo %':>7} {'ach %':>7} "
          f"{'L1/L2 ld':>8}  tiling hint")
    for example in recorded["examples"]:
        path = os.path.normpath(example["file"])
        for launch in example["launches"]:
            m = launch["metrics"]
            ident = launch.get("identifier") or kernel_identifier(launch["kernel"])
            k = kernels.get((path, ident))
            where = f"{os.path.basename(path)}:{ident}"
            if not k or not k.get("occupancy") or not k["occupancy"]["threads_per_block"]:
                failures.append(f"{where}: no predicted occupancy")
                continue
            o = k["occupancy"]
            checked += 1

            def expect(label, measured_key, predicted, exact=True):
                got = m.get(measured_key)
                if got is None:
                    return
                ok = got == predicted if exact else got >= predicted
                if not ok:
                    failures.append(f"{where}: {label}: predicted {predicted}{'' if exact else ' or more'}, "
                                    f"{measured_key} = {got:g}")

            expect("blocks by warps", "launch__occupancy_limit_warps", o["blocks_limit_warps"])
            expect("blocks by block slots", "launch__occupancy_limit_blocks", o["blocks_limit_blocks"])
            expect("static shared bytes", "launch__shared_mem_per_block_static", o["static_shared_bytes"])
            if o["dynamic_shared_bytes"] is not None:
                expect("dynamic shared bytes", "launch__shared_mem_per_block_dynamic", o["dynamic_shared_bytes"])
            if o["limited_by"] == "shared_memory":
                expect("blocks by shared memory", "launch__occupancy_limit_shared_mem", o["blocks_limit_shared_memory"])
            else:
                expect("blocks by shared memory", "launch__occupancy_limit_shared_mem", o["active_blocks"], exact=False)
            warps_per_block = o["active_warps"] // max(1, o["active_blocks"])
            blocks = o["active_blocks"]
            regs_limit = m.get("launch__occupancy_limit_registers")
            if regs_limit is not None:
                blocks = min(blocks, int(regs_limit))
            expected = 100.0 * blocks * warps_per_block / MAX_WARPS
            theo = m.get("sm__maximum_warps_per_active_cycle_pct")
            if theo is not None and abs(theo - expected) > 0.5:
                failures.append(f"{where}: theoretical occupancy {theo:g} %, predicted {expected:g} % "
                                f"({blocks} blocks of {warps_per_block} warps, registers from ncu)")
            achieved = m.get("sm__warps_active.avg.pct_of_peak_sustained_active")
            if theo is not None and achieved is not None and achieved > theo + 1.0:
                failures.append(f"{where}: achieved occupancy {achieved:g} % above the theoretical {theo:g} %")

            l1 = m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
            l2 = m.get("lts__t_sectors_srcunit_tex_op_read.sum")
            ratio = (l1 / l2) if l1 is not None and l2 else None
            hint = (path, ident) in hinted
            if hint and (ratio is None or ratio < MIN_REUSE):
                failures.append(f"{where}: the tiling hint predicts reuse between warps, but L1 served "
                                f"{'no measured' if ratio is None else f'{ratio:.2f}x'} the sectors it read from L2")
            ratio_text = "-" if ratio is None else f"{ratio:.2f}"
            print(f"{ident:<28} {100 * o['occupancy']:7.2f} {o['limited_by']:<14} "
                  f"{int(m.get('launch__registers_per_thread', -1)):>4} {theo if theo is not None else -1:7.2f} "
                  f"{achieved if achieved is not None else -1:7.2f} {ratio_text:>8}  {'fires' if hint else 'quiet'}")
    for f in failures:
        print("FAIL " + f)
    print(f"{checked} launches checked, {len(failures)} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
