#!/usr/bin/env python3
"""coalesce-lint end to end: the real binary on hostile inputs (docs/reliability.md) and every
option (docs/cli.md), one ctest test per case (test/tools/CMakeLists.txt registers them from --list).

    cli_tests.py --binary PATH --source-dir DIR --case NAME   run one case
    cli_tests.py --list                                       the case names

Every input is generated at test time into a fresh temporary folder, never into the source
tree. Every run of the binary is timed by this harness and must finish within RUN_LIMIT_S.
A case fails with a message saying which check failed and what the binary printed. The
harness is cli_harness.py; the cases are cli_cases_inputs.py, cli_cases_options.py and
cli_cases_html.py; cli_cases_ci.py (the result cache, diff-aware gating); cli_cases_fixes.py (--fix,
--export-fixes, SARIF fixes).
"""
import argparse
import os
import shutil
import sys
import tempfile

import cli_cases_html  # noqa: F401 (registers its cases)
import cli_cases_ci  # noqa: F401 (registers its cases)
import cli_cases_fixes  # noqa: F401 (registers its cases)
import cli_cases_inputs  # noqa: F401 (registers its cases)
import cli_cases_options  # noqa: F401 (registers its cases)
import cli_cases_verify  # noqa: F401 (registers its cases)
from cli_harness import CASES, SETTINGS, CaseFailure


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary")
    ap.add_argument("--source-dir")
    ap.add_argument("--case")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    SETTINGS.binary, SETTINGS.source_dir = os.path.abspath(args.binary), os.path.abspath(args.source_dir)
    names = [args.case] if args.case else list(CASES)
    failed = 0
    for name in names:
        if name not in CASES:
            print(f"unknown case {name!r}", file=sys.stderr)
            return 2
        tmp = tempfile.mkdtemp(prefix="coalesce-cli-")
        try:
            CASES[name](tmp)
            print(f"PASS {name}")
        except CaseFailure as e:
            failed += 1
            print(f"FAIL {name}: {e}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
