#!/usr/bin/env bash
# Sweep coalesce-lint over every .cu file of a CUDA source tree nobody here wrote, as a new
# user would run it, and count files and kernels analysed, failures by cause, crashes and hangs.
#
#   bench/sweep_tree.sh [options] TREE
#     --tool PATH      coalesce-lint binary (default: build/tools/coalesce-lint/coalesce-lint)
#     --include DIR    add -I DIR after -- for every folder (repeatable; e.g. TREE/Common)
#     --local-inc      also add -I for an `inc` folder inside the folder or beside it (the
#                      CUDA samples keep some headers there and their CMakeLists add it)
#     --jobs N         the tool's -j (default 1)
#     --timeout S      time limit per file in seconds (default 120): the tool's --file-timeout,
#                      and S per file (plus 60 s) for a whole invocation
#     --out DIR        keep the per-folder JSON reports and the summary there (default: a temp dir)
#     --list           also print every failed file and kernel with its reason
#     --report-only    do not run anything: summarise what an earlier run left in --out
#
# One invocation per folder holding .cu files (the files directly in it), with
# `--format=json -j N --file-timeout S -- -I<include>...`. The tool analyses each file in a
# worker process and reports a file that takes longer than S as failed; the invocation as a
# whole runs under `timeout` (S per file plus 60 s), so a time-out there means the tool itself
# hung. An invocation that ends by a signal (exit >= 128) or runs out of time is run again file
# by file, so a crash or a hang is charged to the file that caused it and the other files still
# count. Nothing is written into TREE. The summary is printed and kept in OUT/summary.txt (and
# OUT/summary.json).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$here/build/tools/coalesce-lint/coalesce-lint"
jobs=1
limit=120
out=""
list=0
report_only=0
local_inc=0
includes=()
tree=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --include) includes+=("-I$(cd "$2" && pwd)"); shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --list) list=1; shift ;;
    --report-only) report_only=1; shift ;;
    --local-inc) local_inc=1; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) tree=$1; shift ;;
  esac
done
[ -n "$tree" ] && [ -d "$tree" ] || { echo "usage: $0 [options] TREE" >&2; exit 2; }
[ -x "$tool" ] || { echo "$0: no coalesce-lint at $tool" >&2; exit 2; }
tree=$(cd "$tree" && pwd)
# Every file analysed afresh, whatever an earlier sweep left in the result cache (docs/cache.md).
no_cache=()
"$tool" --help 2>/dev/null | grep -q -- --no-cache && no_cache=(--no-cache)
[ -n "$out" ] || out=$(mktemp -d /tmp/sweep.XXXXXX)
if [ "$report_only" = 0 ]; then
mkdir -p "$out/json"
rm -f "$out"/json/*.json "$out"/json/*.log "$out/runs.tsv"

run() {  # run ID FILES... -> appends "id<TAB>rc<TAB>seconds<TAB>files" to runs.tsv
  local id=$1; shift
  local t0 t1 rc d
  local extra=("${includes[@]}")
  if [ "$local_inc" = 1 ]; then
    d=$(dirname "$1")
    for inc in "$d/inc" "$d/../inc"; do [ -d "$inc" ] && extra+=("-I$(cd "$inc" && pwd)"); done
  fi
  t0=$(date +%s.%N)
  timeout -k 5 $((limit * $# + 60)) "$tool" --format=json -q "${no_cache[@]}" -j "$jobs" --file-timeout "$limit" \
    -o "$out/json/$id.json" "$@" -- "${extra[@]}" >"$out/json/$id.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  printf '%s\t%s\t%s\t%s\n' "$id" "$rc" "$(echo "$t1 - $t0" | bc)" "$*" >>"$out/runs.tsv"
  echo "$rc"
}

start=$(date +%s.%N)
n=0
while IFS= read -r dir; do
  mapfile -t files < <(find "$dir" -maxdepth 1 -type f -name '*.cu' | LC_ALL=C sort)
  [ ${#files[@]} -gt 0 ] || continue
  n=$((n + 1))
  id=$(printf 'd%04d' "$n")
  rc=$(run "$id" "${files[@]}")
  if [ "$rc" -ge 124 ]; then  # signal or time limit: charge it to one file
    rm -f "$out/json/$id.json"
    k=0
    for f in "${files[@]}"; do
      k=$((k + 1))
      run "$id-$k" "$f" >/dev/null
    done
  fi
done < <(find "$tree" \( -type d -name '.*' -not -path "$tree" -prune \) -o -type d -print | LC_ALL=C sort)
end=$(date +%s.%N)
echo "$end - $start" | bc >"$out/wall.txt"
fi

python3 - "$tree" "$out" "$(cat "$out/wall.txt")" "$list" <<'EOF'
import json, os, re, sys, collections
tree, out, wall, show = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] == "1"
runs = [l.rstrip("\n").split("\t", 3) for l in open(os.path.join(out, "runs.tsv"))]
files, kernels, crashes, hangs = {}, {}, [], []
def rel(p):
    return os.path.relpath(p, tree) if os.path.isabs(p) else p
def short(reason):
    # group reasons: drop paths, line numbers and error counts, keep the message
    r = reason or "(no reason)"
    r = re.sub(r"^\S+:\d+(:\d+)?: ", "", r)
    r = re.sub(r"^(fatal )?error: ", "", r)
    r = re.sub(r" \(and \d+ more errors?\)$", "", r)
    return r[:160]
for rid, rc, secs, args in runs:
    rc = int(rc)
    path = os.path.join(out, "json", rid + ".json")
    if "-" not in rid and rc >= 124:
        continue  # run again file by file below
    if rc >= 124 or not os.path.exists(path):
        kind = "time limit" if rc in (124, 137) else "crash" if rc > 128 else "no report"
        (hangs if rc in (124, 137) else crashes).append((args, rc))
        for a in args.split(" "):  # a retried invocation names one file; else all of them
            files[rel(a)] = {"status": "failed", "error": f"{kind} (exit {rc})"}
        continue
    d = json.load(open(path))
    for f in d["files"]:
        files[rel(f["path"])] = f
    for k in d["kernels"]:
        key = (rel(k["file"]), k["line"], k["name"])
        # A kernel several translation units parse (a header's) counts once: analysed if
        # any of them analysed it.
        prev = kernels.get(key)
        if prev is None or (prev["status"] != "analysed" and k["status"] == "analysed"):
            kernels[key] = k
# Kernels the tool never saw: a file that fails before its kernels are parsed (a missing
# header that is a fatal error, say) reports none. They are counted here by looking for
# __global__ in the failed file and in the local headers it includes with quotes (not
# reported from anywhere else), so that the share below does not leave them out.
def local_includes(path, depth=0, seen=None):
    seen = seen if seen is not None else set()
    if path in seen or depth > 4 or not os.path.isfile(path):
        return seen
    seen.add(path)
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return seen
    for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
        local_includes(os.path.normpath(os.path.join(os.path.dirname(path), name)), depth + 1, seen)
    return seen
reported_files = {p for (p, _, _) in kernels}
unseen = []
for p, f in files.items():
    if f["status"] == "analysed" or any(kp == p for kp in reported_files):
        continue
    for src in sorted(local_includes(os.path.join(tree, p))):
        r = rel(src) if os.path.isabs(src) else src
        if r in reported_files:
            continue
        text = open(src, errors="replace").read()
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("//")[0]
            if re.search(r"\b__global__\b", code) and not re.match(r"\s*#", code):
                unseen.append((os.path.relpath(src, tree), n, p))
nf = len(files)
fa = sum(1 for f in files.values() if f["status"] == "analysed")
fh = sum(1 for f in files.values() if f["status"] == "analysed" and f.get("host_errors"))
fi = sum(1 for f in files.values() if f["status"] == "analysed" and any(
    "not parsed on its own" in d for d in (f.get("diagnostics") or [])))
nk = len(kernels)
ka = sum(1 for k in kernels.values() if k["status"] == "analysed")
fail_f = collections.Counter(short(f.get("error")) for f in files.values() if f["status"] != "analysed")
fail_k = collections.Counter(short(k.get("reason")) for k in kernels.values() if k["status"] != "analysed")
lines = []
P = lines.append
P(f"tree: {tree}")
P(f"invocations: {len(runs)}  wall time: {wall:.1f} s")
P(f"files: {nf}  analysed: {fa} ({100.0*fa/max(nf,1):.1f} %), of which with host-side errors: {fh}, "
  f"parsed as part of the file that includes them: {fi}  failed: {nf-fa}")
P(f"kernels reported: {nk}  analysed: {ka} ({100.0*ka/max(nk,1):.1f} %)  failed: {nk-ka}")
P(f"kernels in failed files the tool never reached (grep __global__): {len(unseen)}")
P(f"kernels in all: {nk + len(unseen)}  analysed: {ka} ({100.0*ka/max(nk + len(unseen),1):.1f} %)")
P(f"crashes (signals) or runs without a report: {len(crashes)}  hangs (time limit): {len(hangs)}")
for a, rc in crashes: P(f"  {'crash' if rc > 128 else 'no report'} rc={rc}: {a}")
for a, rc in hangs: P(f"  hang rc={rc}: {a}")
if fail_f:
    P("failed files by cause:")
    for r, c in fail_f.most_common(): P(f"  {c:4d}  {r}")
if fail_k:
    P("failed kernels by cause:")
    for r, c in fail_k.most_common(): P(f"  {c:4d}  {r}")
if show:
    P("failed files:")
    for p, f in sorted(files.items()):
        if f["status"] != "analysed": P(f"  {p}: {f.get('error')}")
    P("kernels never reached (file:line, in the failed file):")
    for src, n, p in unseen: P(f"  {src}:{n} (in {p})")
    P("analysed files with host-side errors (first error):")
    for p, f in sorted(files.items()):
        if f["status"] == "analysed" and f.get("host_errors"):
            P(f"  {p}: {f['host_errors']}: {(f.get('diagnostics') or ['?'])[0]}")
    P("failed kernels:")
    for (p, l, n), k in sorted(kernels.items()):
        if k["status"] != "analysed": P(f"  {p}:{l} {n}: {k.get('reason')}")
text = "\n".join(lines)
print(text)
open(os.path.join(out, "summary.txt"), "w").write(text + "\n")
json.dump({"tree": tree, "wall_s": wall, "files": nf, "files_analysed": fa, "files_host_errors": fh,
           "files_included": fi,
           "kernels": nk, "kernels_analysed": ka, "kernels_unreached": len(unseen), "crashes": len(crashes), "hangs": len(hangs),
           "failed_files": {p: f.get("error") for p, f in files.items() if f["status"] != "analysed"},
           "failed_kernels": {f"{p}:{l} {n}": k.get("reason") for (p, l, n), k in kernels.items()
                              if k["status"] != "analysed"}},
          open(os.path.join(out, "summary.json"), "w"), indent=1)
EOF
