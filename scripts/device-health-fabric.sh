#!/usr/bin/env bash
# What a GPU node shows of linkscope health's NVSwitch fabric checks (docs/health.md, "The
# NVSwitch fabric"), to hold them against the recorded fixtures (tests/fixtures/health:
# hgx-fm-running, fm-down, sxid-fatal): NVIDIA's class-0x0680 functions in sysfs (the
# NVSwitches the rule fabric_manager counts), /dev/nvidia-nvswitch*, the Fabric Manager
# process as /proc shows it (comm "nv-fabricmanage") and the PID namespace health runs in,
# systemd's view of the unit where systemctl answers within 2 s (for comparison only:
# health never runs it), the kernel log's SXid lines (as the rule sxid reads them), each
# GPU's NVML fabric state, nvidia-smi -q's GPU Recovery Action and fabric Health lines
# (health reads both through NVML: recovery_action, fabric_health), then health --no-probe in text and JSON with its wall time (the
# fabric checks inside the budget). Builds nothing: run from the repository root with the
# build folder carried (BUILD, default build). Writes OUT_DIR/log.txt, health.txt,
# health.json.
# Usage: scripts/device-health-fabric.sh [OUT_DIR]   (the device tool's $OUT)
set -u
out=${1:-${OUT:-.}}
bin=${BUILD:-build}/linkscope
[ -x "$bin" ] || { echo "no $bin: carry the build folder"; exit 2; }
mkdir -p "$out"
{
    echo "--- nvidia-smi -L"; nvidia-smi -L 2>&1 | head -20
    echo "--- NVIDIA class 0x0680 functions in sysfs (NVSwitches)"
    n=0
    for d in /sys/bus/pci/devices/*; do
        [ "$(cat "$d/vendor" 2>/dev/null)" = 0x10de ] || continue
        case "$(cat "$d/class" 2>/dev/null)" in 0x0680*) ;; *) continue ;; esac
        n=$((n + 1))
        echo "$(basename "$d") device $(cat "$d/device") driver $(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)"
    done
    echo "count: $n"
    echo "--- /dev/nvidia-nvswitch*"; ls -l /dev/nvidia-nvswitch* 2>&1 | head -8
    echo "--- the process list as health reads it"
    echo "pid namespace: $(readlink /proc/self/ns/pid) (host's: pid:[4026531836]); uid $(id -u)"
    echo "/proc/1/comm: $(cat /proc/1/comm 2>&1)"
    grep -lx "nv-fabricmanage" /proc/[0-9]*/comm 2>/dev/null | head -3
    echo "--- systemctl is-active nvidia-fabricmanager (comparison only)"
    timeout 2 systemctl is-active nvidia-fabricmanager 2>&1; echo "rc=$?"
    echo "--- SXid lines in the kernel log"; dmesg 2>&1 | grep -c "SXid"; dmesg 2>&1 | grep "SXid" | tail -8
    echo "--- NVML fabric state"; nvidia-smi --query-gpu=index,fabric.state,fabric.status --format=csv 2>&1 | head -10
    echo "--- nvidia-smi -q: recovery action and fabric health (what health's recovery_action and"
    echo "    fabric_health read through NVML: the same values)"
    nvidia-smi -q 2>&1 | grep -E "GPU Recovery Action|Reset Required|Drain and Reset|^ +(Summary|Bandwidth|Route Unhealthy) " | head -24
    t0=$(date +%s.%N)
    "$bin" health --no-probe --fail-on never >"$out/health.txt" 2>&1
    rc=$?
    echo "--- linkscope health --no-probe: rc=$rc wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b - a}') s"
    cat "$out/health.txt"
    "$bin" health --no-probe --format json --fail-on never >"$out/health.json" 2>&1
    echo "json rc=$?"
    python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; print("fabric findings:", [(x["rule"], x["action"], x["message"][:120]) for x in f if x["rule"] in ("fabric_manager", "sxid", "fabric", "fabric_health", "recovery_action")])' "$out/health.json" 2>&1
} 2>&1 | tee "$out/log.txt"
