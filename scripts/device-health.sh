#!/usr/bin/env bash
# linkscope health on the live GPU machine, timed (issue 23: under 10 s on one GPU,
# healthy), with its probe and without (--no-probe), each probe step's seconds beside
# its projection. Builds nothing: run it from the repository root with the build folder carried
# (BUILD, default build). Writes OUT_DIR/health.txt, health.json, health-slurm.txt,
# labels.txt and what the kernel log and sysfs showed, for the lead to read.
# Usage: scripts/device-health.sh [OUT_DIR]   (the device tool's $OUT)
set -u
out=${1:-${OUT:-.}}
bin=${BUILD:-build}/linkscope
[ -x "$bin" ] || { echo "no $bin: carry the build folder"; exit 2; }
mkdir -p "$out"
{
    echo "--- nvidia-smi -L"; nvidia-smi -L 2>&1 | head -20
    t0=$(date +%s.%N)
    "$bin" health >"$out/health.txt" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "--- linkscope health: rc=$rc wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b - a}') s (budget 10 s)"
    cat "$out/health.txt"
    t0=$(date +%s.%N)
    "$bin" health --no-probe >"$out/health-no-probe.txt" 2>&1
    rc=$?
    echo "--- linkscope health --no-probe (the state checks alone): rc=$rc wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b - a}') s"
    "$bin" health --format json >"$out/health.json" 2>&1; echo "json rc=$?"
    python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["probe"]; print("probe:", p.get("status"), p.get("why", ""), "setup %.2f s" % p.get("setup_s", 0), "; ".join("%s %s %.2f s (projected %.2f)" % (s["step"], s["status"], s["seconds"], s.get("projected_s", 0)) for s in p.get("steps", [])))' "$out/health.json" 2>&1
    "$bin" health --slurm >"$out/health-slurm.txt" 2>&1; echo "slurm rc=$? $(cat "$out/health-slurm.txt")"
    "$bin" health --format labels >"$out/labels.txt" 2>&1; echo "labels rc=$?"; cat "$out/labels.txt"
    echo "--- NVRM lines in the kernel log"; dmesg 2>&1 | grep -c NVRM; dmesg 2>&1 | grep "NVRM: Xid" | tail -5
    echo "--- PCIe of each GPU (sysfs)"
    for d in /sys/bus/pci/devices/*; do
        [ "$(cat "$d/vendor" 2>/dev/null)" = 0x10de ] || continue
        case "$(cat "$d/class")" in 0x0302*|0x0300*) ;; *) continue ;; esac
        echo "$(basename "$d") $(cat "$d/current_link_speed") x$(cat "$d/current_link_width") of $(cat "$d/max_link_speed") x$(cat "$d/max_link_width")"
    done
    echo "--- nvidia-smi -q remapping and fabric"; nvidia-smi -q 2>&1 | grep -A6 -E "Remapped Rows|Fabric" | head -30
} 2>&1 | tee "$out/log.txt"
