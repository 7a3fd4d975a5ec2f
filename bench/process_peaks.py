#!/usr/bin/env python3
"""Peak memory of each process of one run: the tool's parent and each worker apart.

    python3 bench/process_peaks.py [--period S] -- coalesce-lint -q --no-cache FILE

wait4's max RSS (what bench/access_scaling.py and bench/run_bench.py report) is that of the
largest process of the tree, without saying which. This samples, every --period seconds
(default 0.005), the high-water mark (VmHWM in /proc/PID/status) of the command and of every
descendant while it runs, and prints the last one seen for each, with its role (the command
itself, or a child) and the tree's wait4 figures. A process's last samples can miss what it
allocated in its final milliseconds; wait4's figure bounds the largest (session 14,
bench/RESULTS.md).
"""
import argparse
import os
import resource
import subprocess
import sys
import time


def children(pid):
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def high_water(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--period", type=float, default=0.005)
    a = ap.parse_args(argv[:argv.index("--")])
    command = argv[argv.index("--") + 1:]
    start = time.perf_counter()
    p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peaks, order = {}, []
    while p.poll() is None:
        todo = [p.pid]
        while todo:
            pid = todo.pop()
            kib = high_water(pid)
            if kib is not None:
                if pid not in peaks:
                    order.append(pid)
                peaks[pid] = kib
            todo += children(pid)
        time.sleep(a.period)
    wall = time.perf_counter() - start
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    for pid in order:
        role = "command" if pid == p.pid else "child"
        print(f"{role:8} pid {pid:8d}  peak {peaks[pid] / 1024:8.1f} MiB")
    print(f"tree (wait4): max RSS {ru.ru_maxrss / 1024:.1f} MiB, CPU {ru.ru_utime + ru.ru_stime:.2f} s, "
          f"wall {wall:.2f} s, exit {p.returncode}")


if __name__ == "__main__":
    main()
