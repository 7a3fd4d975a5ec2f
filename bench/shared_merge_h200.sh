#!/usr/bin/env bash
# GPU check of the "What the compiler merges" model (docs/model.md;
# lib/analysis/src/compiler_vectorised.cpp) on test/analysis/golden/findings/unrolled_shared_words.cu:
# the tool says nvcc merges unrolledTileRows' and externRows' four 4-byte shared reads into one
# LDS.128 per lane (no bank conflict) and keeps runtimeCountRows' (a trip count known at run
# time) as four loads with a 4-way conflict. Session 16's run (bench/shared_merge/h200/) found
# externRows merged (the tool said 4-way before it) and runtimeCountRows paired into LDS.64.
# Counts LDS / LDS.64 / LDS.128 per kernel in the SASS, and reads under ncu the shared-load
# instructions, wavefronts and bank conflicts of the first launch of each kernel.
#   bash bench/shared_merge_h200.sh OUTDIR [SOURCE KERNEL...]   (from the repository root, on the GPU machine)
# SOURCE and its KERNELs default to the file and kernels above; session 34 ran it on
# test/analysis/golden/findings/vector_components_merged.cu (centroid stage): the components of a
# shared uint4/float4 that nvcc merges into one vector access (bench/shared_merge/h200-components/).
# Writes at most 8 files into OUTDIR: env.txt build.log sass.txt sass_counts.csv ncu.csv
# ncu_extra.csv ncu_summary.csv run.log
set -uo pipefail
OUT=$(mkdir -p "${1:?usage: shared_merge_h200.sh OUTDIR}" && cd "$1" && pwd)
SRC=${2:-test/analysis/golden/findings/unrolled_shared_words.cu}
shift $(( $# < 2 ? $# : 2 ))
KERNELS=${*:-unrolledTileRows runtimeCountRows externRows}
export KERNELS
BIN=$(basename "$SRC" .cu)
CUDA_BIN=${CUDA_HOME:-/usr/local/cuda}/bin
NVCC=$(command -v nvcc || echo "$CUDA_BIN/nvcc")
CUOBJDUMP=$(command -v cuobjdump || echo "$CUDA_BIN/cuobjdump")
NCU=$(command -v ncu || ls "$CUDA_BIN/ncu" /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/nsight-compute*/ncu 2>/dev/null | head -1)
WORK=$(mktemp -d)
LOG="$OUT/run.log"
: > "$LOG"

{
  echo "date_utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host_kernel: $(uname -r)"
  echo "--- nvidia-smi -L"; nvidia-smi -L
  echo "--- nvidia-smi query"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  echo "--- nvcc ($NVCC)"; "$NVCC" --version
  echo "--- cuobjdump ($CUOBJDUMP)"; "$CUOBJDUMP" --version 2>&1 | tail -2
  echo "--- ncu ($NCU)"; "$NCU" --version
} > "$OUT/env.txt" 2>&1

# Build: the binary stays outside OUTDIR; the build log holds ptxas' resource report and the
# PTX-level shared loads per kernel (whether the merge already happened before ptxas).
{
  echo "\$ $NVCC -arch=sm_90 -O3 -lineinfo -Xptxas -v -o $WORK/$BIN $SRC"
  "$NVCC" -arch=sm_90 -O3 -lineinfo -Xptxas -v -o "$WORK/$BIN" "$SRC"
  echo "rc=$?"
  "$NVCC" -arch=sm_90 -O3 -lineinfo -ptx -o "$WORK/$BIN.ptx" "$SRC" &&
  echo "--- PTX shared loads per .entry (opcode count)" &&
  awk '/\.entry/ {fn=$3; sub(/\(.*/, "", fn)} /ld\.shared/ {op=$1; if (op ~ /^@/) op=$2; n[fn" "op]++}
       END {for (k in n) print k, n[k]}' "$WORK/$BIN.ptx" | sort
} > "$OUT/build.log" 2>&1
[ -x "$WORK/$BIN" ] || { echo "build failed, see build.log" | tee -a "$LOG"; exit 1; }

"$CUOBJDUMP" -sass "$WORK/$BIN" > "$OUT/sass.txt" 2>&1
python3 - "$OUT/sass.txt" > "$OUT/sass_counts.csv" <<'PY'
import os, re, sys
kernels = os.environ["KERNELS"].split()
counts, fn = {}, None
for line in open(sys.argv[1]):
    m = re.search(r"Function\s*:\s*(\S+)", line)
    if m:
        fn = next((k for k in kernels if k in m.group(1)), None)
        if fn: counts[fn] = dict(LDS=0, LDS64=0, LDS128=0, LDS_other=0, STS=0, STS64=0, STS128=0)
        continue
    if fn is None: continue
    m = re.match(r"\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)\s", line)
    if not m: continue
    op = m.group(1); parts = op.split(".")
    if parts[0] == "LDS":
        if "128" in parts[1:]: counts[fn]["LDS128"] += 1
        elif "64" in parts[1:]: counts[fn]["LDS64"] += 1
        elif len(parts) == 1 or parts[1:] == ["U"]: counts[fn]["LDS"] += 1
        else: counts[fn]["LDS_other"] += 1
    elif parts[0] == "STS":
        counts[fn]["STS"] += 1
        if "128" in parts[1:]: counts[fn]["STS128"] += 1
        elif "64" in parts[1:]: counts[fn]["STS64"] += 1
print("kernel,LDS,LDS.64,LDS.128,LDS_other,STS_all,STS.64,STS.128")
for k in kernels:
    c = counts.get(k)
    print(",".join([k] + ([str(c[x]) for x in ("LDS", "LDS64", "LDS128", "LDS_other", "STS", "STS64", "STS128")] if c else ["NA"] * 7)))
PY

# Profile the first launch of each kernel (the program loops 1000 times over the three).
METRICS=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,launch__grid_size,launch__block_size
NKERNELS=$(echo $KERNELS | wc -w)
NCU_ARGS=(--clock-control none --csv --page raw --print-units base
          -k "regex:$(echo $KERNELS | tr ' ' '|')" --launch-skip 0 --launch-count "$NKERNELS")
echo "\$ $NCU ${NCU_ARGS[*]} --metrics $METRICS --log-file ncu.csv $BIN" >> "$LOG"
"$NCU" "${NCU_ARGS[@]}" --metrics "$METRICS" --log-file "$OUT/ncu.csv" "$WORK/$BIN" >> "$LOG" 2>&1
echo "ncu rc=$?" >> "$LOG"
# Extra counters (may be absent under this ncu version; a failure here is only logged).
EXTRA=l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum,sm__sass_inst_executed_op_shared_ld.sum,sm__sass_data_bytes_mem_shared_op_ld.sum
echo "\$ $NCU ${NCU_ARGS[*]} --metrics $EXTRA --log-file ncu_extra.csv $BIN" >> "$LOG"
"$NCU" "${NCU_ARGS[@]}" --metrics "$EXTRA" --log-file "$OUT/ncu_extra.csv" "$WORK/$BIN" >> "$LOG" 2>&1
echo "ncu extra rc=$?" >> "$LOG"

python3 - "$OUT/ncu.csv" "$OUT/sass_counts.csv" "$OUT/ncu_extra.csv" > "$OUT/ncu_summary.csv" 2>> "$LOG" <<'PY'
import csv, sys, os
kernels = os.environ["KERNELS"].split()
def rows(path):
    if not os.path.exists(path): return []
    lines = [l for l in open(path) if l.startswith('"')]   # drop ==PROF== / app lines
    r = list(csv.reader(lines))
    if not r: return []
    head, data = r[0], r[1:]
    if data and "Kernel Name" in head and data[0][head.index("Kernel Name")] == "":
        data = data[1:]                                        # units row
    return [dict(zip(head, d)) for d in data]
def num(s):
    try: return float(str(s).replace(",", ""))
    except ValueError: return None
def first(kernel, table):
    for d in table:
        if kernel in d.get("Kernel Name", ""): return d
    return {}
ncu, extra = rows(sys.argv[1]), rows(sys.argv[3])
sass = {d["kernel"]: d for d in csv.DictReader(open(sys.argv[2]))}
W = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
I = "smsp__inst_executed_op_shared_ld.sum"
C = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
R = "l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum"
SW, SI, SC = (m.replace("_op_ld", "_op_st") for m in (W, I, C))
cols = ["kernel", "sass_LDS", "sass_LDS.64", "sass_LDS.128", "warps", "shared_ld_inst",
        "shared_ld_wavefronts", "bank_conflicts", "wavefronts_per_inst", "conflicts_per_inst",
        "inst_per_warp", "wavefronts_per_warp", "shared_ld_requests", "wavefronts_per_request",
        "sass_STS", "sass_STS.64", "sass_STS.128", "shared_st_inst", "shared_st_wavefronts",
        "st_bank_conflicts", "st_wavefronts_per_inst", "st_inst_per_warp"]
print(",".join(cols))
def fmt(x): return "NA" if x is None else ("%d" % x if float(x).is_integer() else "%.4f" % x)
for k in kernels:
    d, e, s = first(k, ncu), first(k, extra), sass.get(k, {})
    w, i, c, r = num(d.get(W)), num(d.get(I)), num(d.get(C)), num(e.get(R))
    g, b = num(d.get("launch__grid_size")), num(d.get("launch__block_size"))
    warps = g * (b // 32) if g is not None and b is not None else None
    div = lambda a, z: a / z if a is not None and z else None
    vals = [k, s.get("LDS", "NA"), s.get("LDS.64", "NA"), s.get("LDS.128", "NA"), fmt(warps),
            fmt(i), fmt(w), fmt(c), fmt(div(w, i)), fmt(div(c, i)), fmt(div(i, warps)),
            fmt(div(w, warps)), fmt(r), fmt(div(w, r))]
    sw, si, sc = num(d.get(SW)), num(d.get(SI)), num(d.get(SC))
    vals += [s.get("STS_all", "NA"), s.get("STS.64", "NA"), s.get("STS.128", "NA"), fmt(si), fmt(sw), fmt(sc),
             fmt(div(sw, si)), fmt(div(si, warps))]
    print(",".join(str(v) for v in vals))
PY
rm -rf "$WORK"
echo "=== sass_counts.csv"; cat "$OUT/sass_counts.csv"
echo "=== ncu_summary.csv"; cat "$OUT/ncu_summary.csv"
echo "=== run.log (tail)"; tail -20 "$LOG"
