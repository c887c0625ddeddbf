#!/usr/bin/env bash
# The lead's last check after the review fixes, in one short call: every gpu-labelled
# test (binaries and scripts), then `linkscope run` whose document becomes
# examples/h200x2-run.json. Usage: device-final.sh OUT_DIR (from a folder like
# device-check.sh's, with the tests/cli scripts copied beside the binaries).
set -u
out=${1:?usage: device-final.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-} LS_FIXTURES=$PWD/fixtures-all
{
for t in ./test_*; do
  case "$t" in *.sh) continue ;; esac
  echo "--- $t"; timeout 100 "$t" 2>&1 | grep -E 'PASSED|FAILED|OK|error' | tail -4; echo "$t rc=${PIPESTATUS[0]}"
done
for s in test_gpu_nccl_graph_mpi.sh test_measure_opts.sh test_topo.sh test_inventory.sh; do
  echo "--- $s"; timeout 60 bash "$s" ./linkscope fixtures-all 2>&1 | tail -3; echo "$s rc=${PIPESTATUS[0]}"
done
echo "--- linkscope run"; timeout 90 ./linkscope run -o "$out/h200x2-run.json" >"$out/run.txt" 2>&1; echo "run rc=$?"
sed -n '/Findings/,/Islands/p' "$out/run.txt"
} 2>&1 | tee "$out/log.txt"
