#!/usr/bin/env bash
# compute-sanitizer's synccheck and initcheck over `linkscope burn` with its own FMA
# kernel (--no-cublas): the two tools that did not finish over cuBLAS's GEMMs within
# device-sanitize.sh's share of time (session 5). Run from out/dev (stage-device.sh):
#     cd out/dev && bash device-sanitize-burn.sh "$OUT"
# Prints device-sanitize.sh's one line per tool; the logs go to OUT.
set -u
out=${1:?usage: device-sanitize-burn.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-} LS_GATE_TIMEOUT_MS=200
mkdir -p "$out"
for tool in synccheck initcheck memcheck racecheck; do
    timeout 240 compute-sanitizer --tool "$tool" --print-limit 50 ./linkscope burn --seconds 3 --no-cublas \
        -o /tmp/burn-$tool.json >"$out/$tool-burn.log" 2>&1 &
done
wait
for tool in synccheck initcheck memcheck racecheck; do
    bash device-sanitize.sh --line "$tool" "burn (--no-cublas)" 0 "$out/$tool-burn.log"
done | tee "$out/log.txt"
