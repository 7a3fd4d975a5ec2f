#!/usr/bin/env bash
# Copies the folders of the programs in bench/realcode/programs.txt from the public trees into
# .realcode/ (ignored by git; travels to the GPU machine with `carry`). Never commit them.
#   bench/realcode/stage_sources.sh CUDA_SAMPLES_CHECKOUT RODINIA_CHECKOUT
set -euo pipefail
SAMPLES=$(realpath "${1:?usage: stage_sources.sh CUDA_SAMPLES RODINIA}")
RODINIA=$(realpath "${2:?}")
source bench/realcode/realcode_lib.sh
rm -rf "$REALCODE" && mkdir -p "$REALCODE/samples" "$REALCODE/rodinia/cuda"
cp -r "$SAMPLES/Common" "$REALCODE/samples/"
cp -r "$RODINIA/common" "$REALCODE/rodinia/" 2> /dev/null || mkdir -p "$REALCODE/rodinia/common"
[ -d "$RODINIA/cuda/util" ] && cp -r "$RODINIA/cuda/util" "$REALCODE/rodinia/cuda/"
realcode_programs | while IFS='|' read -r name tree dir sources flags args; do
  src=$([ "$tree" = samples ] && echo "$SAMPLES/$dir" || echo "$RODINIA/$dir")
  mkdir -p "$REALCODE/$tree/$(dirname "$dir")"
  [ -d "$REALCODE/$tree/$dir" ] || cp -r "$src" "$REALCODE/$tree/$dir"
done
# Documents, project files and outputs of earlier runs are not needed to build or run.
find "$REALCODE" \( -name doc -o -name '*.vcxproj*' -o -name '*.sln' -o -name '*.flo' -o -name GL -o -name lib \) \
  -prune -exec rm -rf {} + 2> /dev/null
du -sh "$REALCODE"
