#!/usr/bin/env python3
"""Every Catch2 test executable starts and lists its tests.

Catch2 v2's --list-test-names-only exits with the number of tests it listed, and CMake's
test discovery treats any positive exit code as success. So an executable that dies while
starting (a sanitizer finding in a static initialiser, a missing library) registers no test,
and ctest then reports 100 % passed over a suite that silently lost those tests. This runs
each executable the way discovery does and fails unless it lists tests and exits cleanly, and
unless no test name holds a ';' (discovery would split it into entries that run nothing).
"""
import subprocess
import sys

failed = 0
for exe in sys.argv[1:]:
    p = subprocess.run([exe, "--list-test-names-only"], capture_output=True, text=True, timeout=120)
    names = [line for line in p.stdout.splitlines() if line.strip()]
    problems = []
    if not names:
        problems.append("lists no test")
    if p.returncode != len(names) % 256:
        problems.append(f"exit code {p.returncode} for {len(names)} tests (a crash while starting?)")
    # CMake's discovery splits a test name at ';' into two ctest entries whose filters match no
    # test, and Catch2 v2 then exits 0: both "pass" without running anything.
    split = [n for n in names if ";" in n]
    if split:
        problems.append(f"test name with ';' (ctest would split it and run nothing): {split[0].strip()}")
    if p.stderr.strip():
        problems.append("stderr: " + p.stderr.strip().splitlines()[0])
    if problems:
        failed += 1
        print(f"FAIL {exe}: " + "; ".join(problems))
    else:
        print(f"ok   {exe}: {len(names)} tests")
print(f"{len(sys.argv) - 1 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
