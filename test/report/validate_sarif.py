#!/usr/bin/env python3
"""Validates the SARIF coalesce-lint writes against the SARIF 2.1.0 JSON schema, plus
the subset GitHub code scanning relies on. Usage:
    validate_sarif.py SCHEMA -- COMMAND...   (COMMAND prints the SARIF on stdout)
Exits non-zero with the reasons when anything is wrong."""
import copy
import json
import subprocess
import sys

import jsonschema


def github_problems(log):
    """What code scanning needs beyond the schema (field notes, section 4)."""
    problems = []
    for run in log["runs"]:
        driver = run["tool"]["driver"]
        rule_ids = [r["id"] for r in driver["rules"]]
        for r in driver["rules"]:
            for key in ("shortDescription", "fullDescription", "help"):
                if not r.get(key, {}).get("text"):
                    problems.append(f"rule {r['id']}: no {key}.text")
        for i, res in enumerate(run["results"]):
            where = f"result {i}"
            if res.get("ruleId") not in rule_ids:
                problems.append(f"{where}: ruleId {res.get('ruleId')} not in the rules table")
            elif rule_ids[res["ruleIndex"]] != res["ruleId"]:
                problems.append(f"{where}: ruleIndex does not point at its rule")
            if res.get("level") not in ("note", "warning", "error"):
                problems.append(f"{where}: level {res.get('level')}")
            if not res.get("message", {}).get("text"):
                problems.append(f"{where}: no message.text")
            if "partialFingerprints" in res:
                problems.append(f"{where}: partialFingerprints belong to the uploader")
            for loc in res.get("locations", []):
                phys = loc["physicalLocation"]
                uri = phys["artifactLocation"]["uri"]
                if uri.startswith("/") or "\\" in uri or ":" in uri:
                    problems.append(f"{where}: uri {uri!r} is not repo-relative with forward slashes")
                if phys["region"]["startLine"] < 1:
                    problems.append(f"{where}: startLine < 1")
        if len(run["results"]) > 25000:
            problems.append("more than 25,000 results in a run")
    return problems


def main():
    schema_path, sep, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    assert sep == "--" and command, __doc__
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    log = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]
    errors += github_problems(log)
    if not log["runs"][0]["results"]:
        errors.append("the fixture produced no results: nothing was validated")

    # The validator must be able to fail: a log without its version is invalid.
    broken = copy.deepcopy(log)
    del broken["version"]
    if validator.is_valid(broken):
        errors.append("the schema accepted a log without 'version': the validator is not working")

    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(log['runs'][0]['results'])} results, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
