#!/usr/bin/env bash
# Session 11's one GPU call (one GPU lent, no two-GPU kind), from out/dev
# (scripts/stage-device.sh stages it; the device call carries out/dev):
#     cd out/dev && bash device-session11.sh "$OUT"
# - device-final.sh: health live, quick twice and thorough once against their stored
#   projections, every gpu test binary and gpu cli script (cli_test_gpu_health among them),
#   the one-node Slurm test;
# - device-health-fabric.sh: the NVML reads this session's health rules added and never ran
#   on a GPU before (the fabric health mask, v3 then v2; field 230, the recovery action),
#   beside nvidia-smi -q's own lines for the same values.
# Writes OUT/final/ (log.txt, logs.tgz) and OUT/fabric/ (log.txt, health.txt, health.json).
set -u
out=${1:?usage: device-session11.sh OUT_DIR}
mkdir -p "$out/final" "$out/fabric"
bash device-final.sh "$out/final"
BUILD=. bash device-health-fabric.sh "$out/fabric"
