#!/usr/bin/env bash
# One device call at the start of session 4: records the live H200 node's state as the
# health command reads it (nvidia-smi views, the kernel log's NVRM lines, PCIe sysfs,
# InfiniBand sysfs, processes), then compute-sanitizer's four tools over the one-GPU
# commands of the current build. Run from out/dev (scripts/stage-device.sh).
# usage: device-snapshot.sh OUT_DIR
set -u
out=${1:?usage: device-snapshot.sh OUT_DIR}
snap=$out/snap; mkdir -p "$snap"
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
{
nvidia-smi -q > "$snap/nvidia-smi-q.txt" 2>&1
nvidia-smi nvlink -s > "$snap/nvlink-s.txt" 2>&1
nvidia-smi nvlink -e > "$snap/nvlink-e.txt" 2>&1
nvidia-smi topo -m > "$snap/topo-m.txt" 2>&1
nvidia-smi topo -p2p r > "$snap/topo-p2p-r.txt" 2>&1
nvidia-smi --query-remapped-rows=gpu_bus_id,remapped_rows.correctable,remapped_rows.uncorrectable,remapped_rows.pending,remapped_rows.failure --format=csv > "$snap/remapped.csv" 2>&1
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv > "$snap/apps.csv" 2>&1
nvidia-smi -q -d PAGE_RETIREMENT,ROW_REMAPPER,ECC > "$snap/q-ecc.txt" 2>&1
(dmesg 2>&1 | grep -E "NVRM|nvidia|Xid" | tail -200) > "$snap/dmesg-nvrm.txt"
ls -l /dev/kmsg > "$snap/kmsg-ls.txt" 2>&1
for d in /sys/bus/pci/devices/*; do
  [ "$(cat "$d/vendor" 2>/dev/null)" = 0x10de ] || continue
  b=$(basename "$d"); echo "== $b class $(cat "$d/class")"
  for f in current_link_speed current_link_width max_link_speed max_link_width numa_node local_cpulist; do
    printf '%s: %s\n' "$f" "$(cat "$d/$f" 2>/dev/null)"; done
  ls "$d" | grep -i -E "aer|replay" ; ls "$d/../" | head -3
done > "$snap/pci-sysfs.txt" 2>&1
ls -la /sys/class/infiniband /sys/class/net > "$snap/ib-net.txt" 2>&1
nvidia-smi -q -d FABRIC > "$snap/fabric.txt" 2>&1
cp /proc/driver/nvidia/version "$snap/driver-version.txt" 2>/dev/null
echo "=== run quick (timed)"
s=$(date +%s.%N); timeout 120 ./linkscope run -o "$out/run.json" > "$snap/run.txt" 2>&1; echo "run rc=$? wall $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{print b-a}') s"
./linkscope run --dry-run 2>&1 | tail -12
echo "=== compute-sanitizer"
for tool in memcheck racecheck synccheck initcheck; do
  for cmd in "hbm" "host" "latency"; do
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 ./linkscope $cmd -o /tmp/cs.json > "$out/cs-$tool-$cmd.log" 2>&1
    echo "$tool $cmd rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/cs-$tool-$cmd.log" | tail -1)"
  done
done
} 2>&1 | tee "$out/log.txt"
tar czf "$out/snap.tgz" -C "$out" snap $(cd "$out" && ls cs-*.log) && rm -rf "$snap" "$out"/cs-*.log
