#!/usr/bin/env bash
# Analyse every .cu file of a CUDA source tree nobody here wrote through the compiler
# launcher, keeping each translation unit's records (OUT/records/NNNN.coalesce-lint.json),
# so that the report stage can be run again over them with any later build of the tool
# (`coalesce-lint merge --format=json OUT/records`) without analysing anything again: what
# the precision panels (docs/precision.md) and report-layer changes need. The compile itself
# is skipped (--skip-compile); nothing is written into TREE.
#
#   bench/sweep_records.sh [--tool PATH] [--include DIR]... [--local-inc] [--jobs N] --out OUT TREE
#     --include DIR   -I DIR for every file (repeatable; e.g. TREE/Common)
#     --define D      -D D for every file (repeatable; what the tree's build defines, e.g. GPU)
#     --flag F        any other nvcc flag for every file (repeatable; e.g. -std=c++14 for a tree
#                     whose headers do not compile as C++17)
#     --local-inc     also -I the file's folder's `inc` folder, or the one beside it (cuda-samples)
#     --no-self-inc   no -I of the file's own folder (on by default, as most trees' builds have it;
#                     off where that folder holds a header named as a system one: popsift's features.h)
#     --jobs N        files analysed at once (default 2)
# OUT/files.tsv maps each record number to its source file; OUT/tree.txt names TREE.
# Staged as .precision/NAME (ignored), the records feed the CTest entry that holds the report
# to the blind panels (bench/precision_check.py --staged .precision).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$here/build/tools/coalesce-lint/coalesce-lint"
jobs=2
out=""
local_inc=0
self_inc=1
includes=()
tree=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --include) includes+=("-I$(cd "$2" && pwd)"); shift 2 ;;
    --define) includes+=("-D$2"); shift 2 ;;
    --flag) includes+=("$2"); shift 2 ;;
    --local-inc) local_inc=1; shift ;;
    --no-self-inc) self_inc=0; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -*) echo "sweep_records.sh: unknown option $1" >&2; exit 2 ;;
    *) tree=$1; shift ;;
  esac
done
[ -n "$tree" ] && [ -d "$tree" ] && [ -n "$out" ] || { echo "usage: sweep_records.sh [options] --out OUT TREE" >&2; exit 2; }
tree=$(cd "$tree" && pwd)
mkdir -p "$out/records"
out=$(cd "$out" && pwd)
: > "$out/files.tsv"
echo "$tree" > "$out/tree.txt"
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  printf '%04d\t%s\n' "$n" "$f" >> "$out/files.tsv"
done < <(find "$tree" -name '*.cu' -xtype f -print0 | sort -z)  # a link to a source is a unit too (warp-ctc)

analyse_one() {  # NUMBER FILE
  local d self=() extra=()
  d=$(dirname "$2")
  [ "$self_inc" = 1 ] && self=("-I$d")
  if [ "$local_inc" = 1 ]; then
    for inc in "$d/inc" "$d/../inc"; do [ -d "$inc" ] && extra+=("-I$(cd "$inc" && pwd)"); done
  fi
  (cd "$d" && "$tool" launch --skip-compile -q -- nvcc -c "$2" -o "$out/records/$1.o" "${self[@]}" "${includes[@]}" "${extra[@]}") \
    > "$out/records/$1.log" 2>&1 || echo "$1 $2: exit $?" >> "$out/failed.txt"
}
export -f analyse_one
export tool out local_inc self_inc
export includes_flat="${includes[*]:-}"
# Functions cannot take arrays across xargs: the includes travel as one word list.
analyse_wrapped() { IFS=' ' read -r -a includes <<< "$includes_flat"; analyse_one "$@"; }
export -f analyse_wrapped
cut -f1,2 "$out/files.tsv" | tr '\t' '\n' | xargs -d '\n' -n 2 -P "$jobs" bash -c 'analyse_wrapped "$0" "$1"'
echo "records: $(ls "$out/records" | grep -c '\.coalesce-lint\.json$') of $n files; failed: $(cat "$out/failed.txt" 2>/dev/null | wc -l)"
# The launcher writes a record, and exits 0, for a file it could not analyse too (a parse error, the
# per-file time limit): each record's files say which.
python3 - "$out/records" <<'PY'
import glob, json, os, sys
status = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.coalesce-lint.json"))):
    for line in open(path):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        for f in record.get("files", []) if isinstance(record, dict) else []:
            status[f.get("status")] = status.get(f.get("status"), 0) + 1
print("files by status inside the records:", ", ".join(f"{k} {v}" for k, v in sorted(status.items(), key=str)))
PY
