#!/usr/bin/env bash
# The lead's GPU check of session 2, in one call on the device machine: the packed
# binary (cpack tarball) runs `linkscope run`, then every gpu-labelled test binary and
# script, then `run --dry-run`. Run from a folder holding the tarball, the gpu test
# binaries with libcmocka beside them, tests/cli/*.sh, fixtures/ and examples/.
# usage: device-session2.sh OUT_DIR TARBALL
set -u
out=${1:?usage: device-session2.sh OUT_DIR TARBALL}
tarball=${2:?tarball}
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
here=$PWD
{
nvidia-smi -L
echo "=== packed binary: linkscope run"
start=$(date +%s.%N)
bash "$here/device-pack-check.sh" "$out" "$tarball" > /dev/null 2>&1
echo "pack check wall: $(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{print b-a}") s"
tail -30 "$out/pack-check.txt"
bin=$(ls -d /tmp/tmp.*/linkscope-*/bin/linkscope 2>/dev/null | head -1)
[ -x "$bin" ] || { mkdir -p /tmp/lsbin && tar xzf "$tarball" -C /tmp/lsbin && bin=$(ls /tmp/lsbin/linkscope-*/bin/linkscope); }
echo "=== gpu test binaries"
export LD_LIBRARY_PATH=$here:${LD_LIBRARY_PATH:-} LS_FIXTURES=$here/fixtures
for t in test_inventory_smi test_measure_p2p test_measure_rtimer test_measure_latency test_measure_hbm test_measure_host \
         test_measure_fabric test_measure_burn test_nccl_collectives test_nccl_graph test_nccl_shm test_nccl_launch; do
  [ -x "./$t" ] || { echo "$t missing"; continue; }
  timeout 120 "./$t" > "$out/$t.log" 2>&1; rc=$?
  echo "$t rc=$rc $(grep -E 'PASSED|FAILED|SKIP' "$out/$t.log" | tail -1)"
  [ "$rc" = 0 ] || [ "$rc" = 77 ] || tail -15 "$out/$t.log"
done
echo "=== gpu cli tests"
for s in $(cd cli && ls test_gpu_*.sh); do
  timeout 200 bash "cli/$s" "$bin" "$here/fixtures" > "$out/$s.log" 2>&1; rc=$?
  echo "$s rc=$rc"; tail -5 "$out/$s.log"
done
echo "=== dry run"
"$bin" run --dry-run
echo "=== check --spec on the packed run"
"$bin" check --spec "$out/pack-run.json"; echo "check rc=$?"
} 2>&1 | tee "$out/session2.txt"
tar czf "$out/logs.tgz" -C "$out" --exclude logs.tgz . 2>/dev/null
