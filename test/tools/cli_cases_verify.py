"""`coalesce-lint verify` in the full build (the verifier-only CLI is tested in test/verify/cli_test.cpp):
--analyze, which predicts on the fly from --sources or a compilation database (issue #19), on the
H200 recording of test/verify/data/programs/verify_demo.cu, so no GPU is needed.
"""
import json
import os
import shutil

from cli_harness import SETTINGS, case, check, lint, write

PROGRAMS = ("test", "verify", "data", "programs")


def demo(tmp):
    """verify_demo.cu copied into tmp, and the recorded measurements and listing beside it."""
    src = os.path.join(SETTINGS.source_dir, *PROGRAMS)
    shutil.copy(os.path.join(src, "verify_demo.cu"), tmp)
    return (os.path.join(src, "verify_demo.measurements.json"), os.path.join(src, "verify_demo.sass.txt"))


def one_error_line(run, rc, mention):
    lines = [line for line in run.err.splitlines() if line.strip()]
    check(run.rc == rc, f"exit code {run.rc}, expected {rc}", run)
    check(len(lines) == 1, f"expected one line on stderr, got {len(lines)}", run)
    check(mention in lines[0], f"stderr does not mention {mention!r}", run)


@case("verify: --analyze --sources predicts as the analyzer's JSON would")
def _(tmp):
    measurements, sass = demo(tmp)
    predicted = lint("-q", "--format=json", "-o", "p.json", "verify_demo.cu", cwd=tmp)
    # Its wasteful kernels each run once over 1 M elements: under a microsecond of waste per run,
    # less than a launch costs, so notes (MinWastePerRun, docs/findings.md "Levels"): exit 0.
    check(predicted.rc == 0 and os.path.exists(os.path.join(tmp, "p.json")), "verify_demo.cu's report: exit 0", predicted)
    given = lint("verify", "--predictions", "p.json", "--measurements", measurements, "--sass", sass, cwd=tmp)
    analyzed = lint("verify", "--analyze", "--sources", "verify_demo.cu", "--measurements", measurements, "--sass",
                    sass, cwd=tmp)
    check(given.rc == 3, "the recording has one line the compiler removed: exit 3", given)
    check(analyzed.rc == given.rc, f"exit codes differ: {analyzed.rc} vs {given.rc}", analyzed)
    check("verify_demo.cu:" in analyzed.out and ": match" in analyzed.out, "no compared line", analyzed)
    check(analyzed.out == given.out, "the report differs from the one on the analyzer's JSON", analyzed)


@case("verify: --analyze -p reads the sources from compile_commands.json")
def _(tmp):
    measurements, sass = demo(tmp)
    os.makedirs(os.path.join(tmp, "build"))
    write(tmp, "build/compile_commands.json", json.dumps([{
        "directory": tmp, "file": "verify_demo.cu",
        "arguments": ["nvcc", "-lineinfo", "-O2", "-c", "verify_demo.cu", "-o", "build/verify_demo.o"]}]))
    predicted = lint("-q", "--format=json", "-o", "p.json", "-p", "build", cwd=tmp)
    # Its wasteful kernels each run once over 1 M elements: under a microsecond of waste per run,
    # less than a launch costs, so notes (MinWastePerRun, docs/findings.md "Levels"): exit 0.
    check(predicted.rc == 0 and os.path.exists(os.path.join(tmp, "p.json")), "verify_demo.cu's report: exit 0", predicted)
    given = lint("verify", "--predictions", "p.json", "--measurements", measurements, "--sass", sass,
                 "--format", "json", cwd=tmp)
    analyzed = lint("verify", "--analyze", "-p", "build", "--measurements", measurements, "--sass", sass,
                    "--format", "json", cwd=tmp)
    check(analyzed.rc == given.rc, f"exit codes differ: {analyzed.rc} vs {given.rc}", analyzed)
    report = analyzed.json()
    check(report["summary"]["match"] >= 20, f"too few matches: {report['summary']}", analyzed)
    check(report == given.json(), "the JSON report differs from the one on the analyzer's JSON", analyzed)


@case("verify: --analyze without sources, with --predictions, or a bad -p is one error line, exit 2")
def _(tmp):
    measurements, _ = demo(tmp)
    write(tmp, "p.json", '{"schema": "coalesce-lint/1", "accesses": []}')
    one_error_line(lint("verify", "--analyze", "--", "./app", cwd=tmp), 2, "--analyze needs the program's sources")
    one_error_line(lint("verify", "--analyze", "--predictions", "p.json", "--sources", "verify_demo.cu",
                        "--measurements", measurements, cwd=tmp), 2, "not both")
    one_error_line(lint("verify", "--sources", "verify_demo.cu", "--predictions", "p.json", "--measurements",
                        measurements, cwd=tmp), 2, "add --analyze")
    one_error_line(lint("verify", "--analyze", "-p", "nowhere", "--", "./app", cwd=tmp), 2, "-p nowhere")
    os.makedirs(os.path.join(tmp, "empty"))
    one_error_line(lint("verify", "--analyze", "-p", "empty", "--", "./app", cwd=tmp), 2,
                   "no compile_commands.json")
    one_error_line(lint("verify", "--analyze", "--sources", "absent.cu", "--", "./app", cwd=tmp), 2, "absent.cu")
    # A source the analyzer cannot parse: named, and nothing is run.
    write(tmp, "broken.cu", "__global__ void k( {\n")
    one_error_line(lint("verify", "--analyze", "--sources", "broken.cu", "--measurements", measurements, cwd=tmp),
                   2, "broken.cu")
    check(sorted(os.listdir(tmp)) == ["broken.cu", "empty", "p.json", "verify_demo.cu"], "files were written", None)


@case("verify: --analyze predicts each configuration of another block shape with its own launch")
def _(tmp):
    src = os.path.join(SETTINGS.source_dir, *PROGRAMS)
    shutil.copy(os.path.join(src, "configs_demo.cu"), tmp)
    measurements = os.path.join(src, "configs_demo.measurements.json")
    # The H200 recording: columnStore ran with a 32x8 block (32 sectors per request) and an 8x32
    # block (8); the analyzer predicts the source's worst shape, 32x8, and predicts 8x32 again.
    run = lint("verify", "--analyze", "--sources", "configs_demo.cu", "--measurements", measurements,
               "--format", "json", cwd=tmp)
    check(run.rc == 0, f"every configuration matches with its own prediction: exit {run.rc}", run)
    configs = run.json()["configurations"]
    check([c["predicted_for"] for c in configs] == ["same-block", "repredicted"], f"{configs}", run)
    line = configs[1]["lines"][0]
    check(line["predicted"]["per_request"] == 8 and line["measured"]["per_request"] == 8 and
          line["verdict"] == "match", f"the 8x32 configuration: {line}", run)
    # With the analyzer's JSON instead, the 8x32 configuration is compared with the 32x8 prediction.
    lint("-q", "--format=json", "-o", "p.json", "configs_demo.cu", cwd=tmp)
    given = lint("verify", "--predictions", "p.json", "--measurements", measurements, "--format", "json", cwd=tmp)
    check(given.rc == 1, "the 8x32 configuration mismatches the 32x8 prediction: exit 1", given)
    check(given.json()["configurations"][1]["predicted_for"] == "other-shape", "not said to be another shape", given)
    # --keep DIR keeps the predictions --analyze made: the first as the analyzer's JSON, then one per re-prediction.
    kept = lint("verify", "--analyze", "--sources", "configs_demo.cu", "--measurements", measurements, "--keep", "kept",
                cwd=tmp)
    check(kept.rc == 0, f"exit {kept.rc}", kept)
    check(sorted(os.listdir(os.path.join(tmp, "kept"))) == ["predictions.json", "predictions_repredicted_0.json"],
          f"kept {os.listdir(os.path.join(tmp, 'kept'))}", kept)
    with open(os.path.join(tmp, "kept", "predictions.json")) as f:
        first = json.load(f)
    with open(os.path.join(tmp, "p.json")) as f:
        analyzer = json.load(f)
    # The predictions only: verify runs no rules, so the kept file has no findings.
    for key in ("kernels", "accesses", "branches", "barriers"):
        check(first.get(key) == analyzer.get(key), f"kept {key} differ from the analyzer's JSON", kept)
    check(first["findings"] == [], "verify runs no rules", kept)
    with open(os.path.join(tmp, "kept", "predictions_repredicted_0.json")) as f:
        again = json.load(f)
    block = [k["block"] for k in again["kernels"] if k["name"] == "columnStore"][0]
    check((block["x"], block["y"]) == (8, 32) and "recorded by verify" in block["detail"], f"block {block}", kept)


@case("verify: --tolerance sets how far a figure may be from the prediction and still match")
def _(tmp):
    measurements, sass = demo(tmp)
    lint("-q", "--format=json", "-o", "p.json", "verify_demo.cu", cwd=tmp)

    def verdicts(predictions, *extra):
        run = lint("verify", "--predictions", predictions, "--measurements", measurements, "--sass", sass,
                   "--format", "json", *extra, cwd=tmp)
        return {(x["line"], x["space"], x["kind"]): x["verdict"] for x in json.loads(run.out)["lines"]}, run

    exact, run = verdicts("p.json")
    d = json.load(open(os.path.join(tmp, "p.json")))
    # One global access of a line that matches, its figure made 2 % larger (alone on its line).
    on_line = {}
    for a in d["accesses"]:
        on_line.setdefault((a["line"], a["space"], a["kind"]), []).append(a)
    key = next(k for k, v in exact.items() if v == "match" and k[1] == "global" and len(on_line.get(k, [])) == 1)
    on_line[key][0]["sectors_per_request"] *= 1.02
    write(tmp, "p2.json", json.dumps(d))
    strict, run = verdicts("p2.json")
    check(strict[key] == "mismatch", f"2 % off is a mismatch at the default 0.1 %: {strict[key]}", run)
    loose, run = verdicts("p2.json", "--tolerance", "5")
    check(loose[key] == "match", f"2 % off matches at --tolerance 5: {loose[key]}", run)
    tight, run = verdicts("p2.json", "--tolerance", "1")
    check(tight[key] == "mismatch", f"2 % off is a mismatch at --tolerance 1: {tight[key]}", run)
