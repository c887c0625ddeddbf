#!/usr/bin/env bash
# linkscope health on recorded node states (tests/fixtures/health, made by its
# make-fixtures.py): the healthy HGX H200 node passes quietly, with its NVSwitches and
# Fabric Manager running too; each bad state gives its finding with the right action and
# exit code (Fabric Manager down, SXid events: the action plan gives the same log); --slurm prints the one-line reason;
# --drain drains and resumes through a fake scontrol (only a drain linkscope made);
# --format labels and json; bad input exits 2 with one line.
# args: linkscope binary, fixtures dir
set -u
bin=$1
fx=$2/health
. "$(dirname "$0")/lib.sh"

# healthy: OK, no finding line at all, exit 0
run 0 health --from "$fx/healthy-h200" && {
    grep -q "^linkscope health: OK$" "$tmp/out" && ok || bad "healthy verdict: $(head -1 "$tmp/out")"
    [ "$(grep -cE '^  (none|watch|reset|reboot|isolate) ' "$tmp/out")" -eq 0 ] && ok || bad "healthy node has findings"
}
run 0 health --from "$fx/healthy-h200" --fail-on warning

# case rc action message
check() {
    local c=$1 rc=$2 action=$3 msg=$4
    run "$rc" health --from "$fx/$c" || return
    grep -qE "^  $action +$msg" "$tmp/out" && ok || bad "$c: no '$action $msg' in: $(cat "$tmp/out")"
}
check xid79 1 reboot "PCI 0000:73:00 XID 79 GPU has fallen off the bus"
check xid79 1 reboot "8 GPUs on PCIe, the driver answers for 7"
check remap-pending 1 reset "GPU5 row remap pending"
check remap-pending 1 reset "GPU5 XID 63 "
check nvlink-down 1 isolate "GPU3 NVLink 2 of 18 down$"
check pcie-x8 1 isolate "GPU2 PCIe x8 of x16$"
check ib-half-rate 1 isolate "mlx5_4 port 1 at 200 Gb/s, others at 400 \(serves GPU4\)"
check driver-gone 1 reboot "NVIDIA driver does not answer: .*Driver Not Loaded"
check other-process 0 watch "GPU0 in use by 1 other process \(pid 4242 python3\)"
run 1 health --from "$fx/other-process" --fail-on warning
# each bad state names only its fault: one failing finding per fault, no others
for c in nvlink-down pcie-x8 ib-half-rate driver-gone; do
    run 1 health --from "$fx/$c" -q && { [ "$(grep -c '^  ' "$tmp/out")" -eq 1 ] && ok || bad "$c: not one line: $(cat "$tmp/out")"; }
done

# the NVSwitch fabric (the HGX node with its four NVSwitches on PCIe, tests/fixtures/health):
# Fabric Manager running and no SXid stays quiet, also at --fail-on warning
run 0 health --from "$fx/hgx-fm-running" --fail-on warning && {
    grep -q "^linkscope health: OK$" "$tmp/out" && [ "$(grep -cE '^  (none|watch|reset|reboot|isolate) ' "$tmp/out")" -eq 0 ] &&
        ok || bad "hgx-fm-running not quiet: $(cat "$tmp/out")"
}
check fm-down 1 isolate "Fabric Manager \(nv-fabricmanager\) not running beside 4 NVSwitches: CUDA fails on every GPU with 802 cudaErrorSystemNotReady \(\"system not yet initialized\"\)"
# the cause is what fails and what Slurm reads, not the GPUs' registration it holds up (watch)
run 1 health --from "$fx/fm-down" -q && { [ "$(grep -c '^  ' "$tmp/out")" -eq 1 ] && ok || bad "fm-down -q: $(cat "$tmp/out")"; }
run 1 health --from "$fx/fm-down" --slurm && { grep -q "^linkscope: Fabric Manager (nv-fabricmanager) not running" "$tmp/out" && ok || bad "fm-down reason: $(cat "$tmp/out")"; }
run 1 health --from "$fx/fm-down" --format labels && { grep -qx "linkscope.dev/health-failed=fabric-manager" "$tmp/out" && ok || bad "fm-down labels: $(cat "$tmp/out")"; }
# not recorded: unknown, said (none), not judged; a malformed services.json is bad input
cp -a "$fx/hgx-fm-running" "$tmp/fm-unknown" && rm "$tmp/fm-unknown/services.json"
run 0 health --from "$tmp/fm-unknown" --fail-on warning && {
    grep -qE "^  none +Fabric Manager: whether it runs beside 4 NVSwitches is unknown \(not in the recorded state's services.json\)$" "$tmp/out" && ok || bad "fm unknown: $(cat "$tmp/out")"
}
run 1 health --from "$tmp/fm-unknown" --fail-on info
echo '{"fabric_manager": {"running": null}}' >"$tmp/fm-unknown/services.json"
run 0 health --from "$tmp/fm-unknown" && { grep -q "is unknown (not in the recorded state's services.json)" "$tmp/out" && ok || bad "running null: $(cat "$tmp/out")"; }
run 0 health --from "$fx/fm-down" --fail-on never && { grep -q "^linkscope health: not judged (--fail-on never), worst action isolate$" "$tmp/out" && ok || bad "fm-down never: $(head -1 "$tmp/out")"; }
echo '{"fabric_manager": "yes"}' >"$tmp/fm-unknown/services.json"
run 2 health --from "$tmp/fm-unknown" && { grep -q "services.json" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "malformed services.json: $(cat "$tmp/err")"; }
# the GPUs' fabric health (NVML's health mask, in -q's words): GPU5's degraded bandwidth is
# watch, alone (the seven healthy blocks quiet), passing at the default --fail-on
check fabric-degraded 0 watch "GPU5 NVLink fabric health: summary Limited Capacity, bandwidth Degraded "
run 1 health --from "$fx/fabric-degraded" --fail-on warning -q && { [ "$(grep -c '^  ' "$tmp/out")" -eq 1 ] && ok || bad "fabric-degraded: not one line: $(cat "$tmp/out")"; }
# the driver's recovery action (NVML's field) and its XID 154 line: reset from both, GPU2 only
check recovery-reset 1 reset "GPU2 driver's recovery action: GPU Reset Required "
check recovery-reset 1 reset "GPU2 XID 154 "
run 1 health --from "$fx/recovery-reset" -q && { [ "$(grep -c '^  ' "$tmp/out")" -eq 2 ] && ok || bad "recovery-reset: not two lines: $(cat "$tmp/out")"; }
# SXid events: one finding per switch and SXid, folded follow-up lines not counted; fatal
# fails (reboot), non-fatal alone passes at the default --fail-on and fails at warning
check sxid-fatal 1 reboot "NVSwitch 0000:07:00.0 \(nvidia-nvswitch2\) SXid 20034 NVLink LTSSM fault \(link up\): fatal, 2 times on links 24, 25$"
check sxid-fatal 1 watch "NVSwitch 0000:05:00.0 \(nvidia-nvswitch0\) SXid 22013 .*: non-fatal, 1 time on link 0$"
check sxid-nonfatal 0 watch "NVSwitch 0000:05:00.0 \(nvidia-nvswitch0\) SXid 22013 .*: non-fatal, 1 time on link 0$"
run 1 health --from "$fx/sxid-nonfatal" --fail-on warning
run 1 health --from "$fx/sxid-fatal" --format json && {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=[x for x in d["findings"] if x["rule"]=="sxid"]; assert d["verdict"]=="fail" and d["action"]=="reboot", d; assert [(x["action"],x["severity"]) for x in f]==[("reboot","error"),("watch","warning")], f; assert all("gpu" not in x for x in f)' "$tmp/out" && ok || bad "sxid json: $(head -c 400 "$tmp/out")"
    cp "$tmp/out" "$tmp/health-sxid.json"
}
# health and plan (the same kernel log imported) give each switch's SXid the same action
run 0 import "$fx/sxid-fatal/kernel.log" -o "$tmp/sxid-doc.json" && run 1 plan --json "$tmp/sxid-doc.json" && {
    python3 -c 'import json,sys; h=[x["action"] for x in json.load(open(sys.argv[1]))["findings"] if x["rule"]=="sxid"]; p=[x["node_action"] for x in json.load(open(sys.argv[2]))["findings"] if x["rule"]=="sxid"]; assert h==p and len(h)==2, (h,p)' "$tmp/health-sxid.json" "$tmp/out" && ok || bad "health and plan differ on the SXids"
}

# Slurm's reason line
run 1 health --from "$fx/nvlink-down" --slurm && {
    [ "$(cat "$tmp/out")" = "linkscope: GPU3 NVLink 2 of 18 down (isolate)" ] && ok || bad "reason: $(cat "$tmp/out")"
}
run 1 health --from "$fx/xid79" --slurm && { grep -q "(reboot) +1 more$" "$tmp/out" && ok || bad "xid79 reason: $(cat "$tmp/out")"; }
run 0 health --from "$fx/healthy-h200" --slurm

# --drain through a fake scontrol that records its calls and answers "show node" from a file
cat >"$tmp/scontrol" <<SH
#!/usr/bin/env bash
echo "\$*" >>"$tmp/calls"
[ "\$1" = show ] && cat "$tmp/node"
exit 0
SH
chmod +x "$tmp/scontrol"
export LINKSCOPE_SCONTROL=$tmp/scontrol
: >"$tmp/calls"
run 1 health --from "$fx/pcie-x8" --slurm --drain --node n1 && {
    grep -qx "update nodename=n1 state=drain reason=linkscope: GPU2 PCIe x8 of x16 (isolate)" "$tmp/calls" && ok || bad "drain call: $(cat "$tmp/calls")"
}
: >"$tmp/calls"
echo "NodeName=n1 Arch=x86_64 State=IDLE+DRAIN ThreadsPerCore=1 Reason=linkscope: GPU2 PCIe x8 of x16 (isolate) [root@2026-12-02T21:00:00]" >"$tmp/node"
run 0 health --from "$fx/healthy-h200" --slurm --drain --node n1 && {
    grep -qx "update nodename=n1 state=resume" "$tmp/calls" && ok || bad "resume call: $(cat "$tmp/calls")"
}
: >"$tmp/calls"
echo "NodeName=n1 Arch=x86_64 State=IDLE+DRAIN ThreadsPerCore=1 Reason=disk replaced [admin@2026-12-02T21:00:00]" >"$tmp/node"
run 0 health --from "$fx/healthy-h200" --slurm --drain --node n1 && {
    ! grep -q "update" "$tmp/calls" && ok || bad "resumed a drain that was not linkscope's: $(cat "$tmp/calls")"
}
unset LINKSCOPE_SCONTROL

# labels and JSON
run 1 health --from "$fx/nvlink-down" --format labels && {
    grep -qx "linkscope.dev/health=fail" "$tmp/out" && grep -qx "linkscope.dev/health-action=isolate" "$tmp/out" &&
        grep -qx "linkscope.dev/health-failed=nvlink-down" "$tmp/out" && ok || bad "labels: $(cat "$tmp/out")"
    ! grep -vqE '^[a-z./-]+=[A-Za-z0-9._-]{0,63}$' "$tmp/out" && ok || bad "a label line Kubernetes refuses"
}
run 0 health --from "$fx/healthy-h200" --format labels && { grep -qx "linkscope.dev/health=ok" "$tmp/out" && ok || bad "ok label"; }
run 1 health --from "$fx/remap-pending" --format json && {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["findings"]; assert d["verdict"]=="fail" and d["action"]=="reset"; assert any(x["rule"]=="remap_pending" and x["gpu"]==5 and x["severity"]=="error" for x in f)' "$tmp/out" && ok || bad "json: $(head -c 300 "$tmp/out")"
}
LINKSCOPE_HEALTH_FROM=$fx/nvlink-down run 1 health --slurm

# the short probe: a recorded state never probes (no GPU there), in text and JSON, with
# or without --no-probe; live, --no-probe measures nothing and says so; a node whose
# driver does not answer (this machine, without a GPU) is not probed, with the reason
run 0 health --from "$fx/healthy-h200" && {
    grep -qx "  probe not run: a recorded state (--from): no GPU here to measure" "$tmp/out" && ok || bad "--from probe line: $(cat "$tmp/out")"
}
for extra in "" --no-probe; do
    run 1 health --from "$fx/nvlink-down" --format json $extra && {
        python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["probe"]; assert p["status"]=="not run" and "recorded state" in p["why"] and "figures" not in p, p' "$tmp/out" && ok || bad "--from $extra probed: $(cat "$tmp/out")"
    }
done
if ! nvidia-smi -L >/dev/null 2>&1; then
    "$bin" health --no-probe --format json --fail-on never >"$tmp/out" 2>"$tmp/err"
    python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["probe"]; assert p=={"status":"off","why":"--no-probe"}, p' "$tmp/out" && ok || bad "--no-probe: $(cat "$tmp/out")"
    "$bin" health --format json --fail-on never >"$tmp/out" 2>"$tmp/err"
    python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["probe"]; assert p["status"]=="not run" and "figures" not in p, p' "$tmp/out" && ok || bad "no driver, probed: $(cat "$tmp/out")"
    "$bin" health --fail-on never >"$tmp/out" 2>"$tmp/err"
    grep -qE "^  probe not run: (no GPU to measure|the node needs a reboot first) \(" "$tmp/out" && ok || bad "no driver, probe line: $(cat "$tmp/out")"
fi

# --dry-run: the projection by run --dry-run's cost table; the 8-GPU HGX H200 state and
# an 8-GPU HGX topology within the 30 s a scheduler's health check gets, in the rounds
# run --dry-run schedules for the same topology
projected() { sed -n 's/^projected: \([0-9.]*\) s for \([0-9]*\) GPUs.*/\1 \2/p' "$tmp/out"; }
run 0 health --dry-run --from "$fx/healthy-h200" && {
    read -r secs n < <(projected)
    [ "$n" = 8 ] && awk -v s="$secs" 'BEGIN { exit !(s > 0 && s < 30) }' && grep -q "within the 30 s" "$tmp/out" &&
        grep -q "^probe: p2p ce each way, one size  *56  *14 " "$tmp/out" && grep -q "^probe: all_reduce, one size" "$tmp/out" &&
        grep -q "^probe: hbm copy, one size  *8 " "$tmp/out" && ! grep -q "not built" "$tmp/out" && ok || bad "dry run of the HGX state: $(cat "$tmp/out")"
}
topo=$2/topo/hgx-h100x8-nic8.txt
run 0 health --dry-run --from "$topo" && {
    read -r secs n < <(projected)
    rounds=$(sed -n 's/^health dry run: 8 GPUs, \([0-9]*\) pair rounds$/\1/p' "$tmp/out")
    "$bin" run --dry-run --from "$topo" >"$tmp/run-dry" 2>/dev/null
    grep -q "^pair rounds ($rounds;" "$tmp/run-dry" && awk -v s="$secs" 'BEGIN { exit !(s < 30) }' && ok ||
        bad "health and run dry runs differ: $rounds rounds, $secs s; $(grep 'pair rounds' "$tmp/run-dry")"
}
run 0 health --dry-run --from "$topo" --window 5 && { read -r wider n < <(projected); }
awk -v a="$secs" -v b="${wider:-0}" 'BEGIN { exit !(b - a > 2.9 && b - a < 3.1) }' && ok || bad "--window 5 is not 3 s more: $secs -> ${wider:-?}"
# --dry-run --no-probe prices what health --no-probe takes: the state steps alone
run 0 health --dry-run --no-probe --from "$fx/healthy-h200" && {
    read -r alone n < <(projected)
    ! grep -q "^probe: " "$tmp/out" && grep -q "^NVLink error counters over the window" "$tmp/out" &&
        awk -v a="$alone" 'BEGIN { exit !(a > 0 && a < 3) }' && ok || bad "--dry-run --no-probe: $(cat "$tmp/out")"
}
run 2 health --dry-run --from "$fx/driver-gone" && { grep -q "holds no GPU" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "no-GPU state: $(cat "$tmp/err")"; }
run 2 health --dry-run --from "$2/topo/malformed-unknown-word.txt" && { [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "malformed topology: $(cat "$tmp/err")"; }
# a cut matrix reads as import reads it (issue 22): projected, with one line naming the cut
run 0 health --dry-run --from "$2/topo/malformed-columns.txt" && { grep -q "incomplete paste" "$tmp/err" && ok || bad "cut topology: $(cat "$tmp/err")"; }
run 2 health --dry-run --from "$tmp/none.txt"
run 2 health --dry-run --slurm

# bad input: one line, exit 2
run 2 health --from "$tmp/none" && { [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "missing folder: $(cat "$tmp/err")"; }
mkdir "$tmp/badstate" && echo '{"gpus": [' >"$tmp/badstate/nvml.json"
run 2 health --from "$tmp/badstate" && { grep -q "nvml.json" "$tmp/err" && ok || bad "malformed nvml.json: $(cat "$tmp/err")"; }
run 2 health --format xml
run 2 health --drain
run 2 health --window 99
run 2 health --budget 0
run 2 health --budget 1 --window 2

echo "health: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
