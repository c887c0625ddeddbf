#!/usr/bin/env bash
# Issue 26's two-GPU work, for a call on nvidia-h200-x2, from out/dev
# (scripts/stage-device.sh stages it, with the anchors' tarball; carry out/dev):
#     cd out/dev && bash device-pair.sh checks "$OUT"     (about 4 minutes)
#     cd out/dev && bash device-pair.sh side "$OUT"       (about 6 minutes)
# checks: nvidia-smi nvlink -e before, device-final.sh (health, run quick twice and
#   thorough once against their stored projections, every gpu test binary, the two-GPU
#   ones included, every gpu cli script, Slurm where installed), nvidia-smi nvlink -e
#   after: the counters linkscope stored (telemetry nvlink_errors_before / _after of
#   each figure) are compared with nvidia-smi's own by the lead from the two files and
#   the documents in OUT/final/logs.tgz; run-quick-1.json is the new
#   examples/h200x2-run.json.
# side: bench-side-by-side.sh, 3 rounds interleaved, against nvbandwidth,
#   p2pBandwidthLatencyTest and nccl-tests (-g 2 and -t 2 -g 1) from ../shared/anchors.
set -u
mode=${1:?usage: device-pair.sh checks|side OUT_DIR}
out=${2:?usage: device-pair.sh checks|side OUT_DIR}
export NCCL_NVLS_ENABLE=0
nvidia-smi -L
case $mode in
checks)
    mkdir -p "$out/final"
    nvidia-smi nvlink -e >"$out/nvlink-e-before.txt" 2>&1
    bash device-final.sh "$out/final"
    nvidia-smi nvlink -e >"$out/nvlink-e-after.txt" 2>&1
    ;;
side)
    a=/tmp/anchors
    mkdir -p "$a" && tar xzf anchors-bin.tar.gz -C "$a" || { echo "no anchors tarball"; exit 1; }
    export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$PWD:${LD_LIBRARY_PATH:-}
    ANCHORS=$a LINKSCOPE=./linkscope TABLE=./side-by-side-table.py \
        timeout 560 bash bench-side-by-side.sh "$out" 3
    tar czf "$out/raw.tgz" -C "$out" raw && rm -rf "$out/raw"
    ;;
*) echo "device-pair.sh: unknown mode '$mode' (checks or side)"; exit 2 ;;
esac
