#!/usr/bin/env bash
# linkscope import of the NVSwitch fabric's texts, as a user runs it: Fabric Manager's
# journal, log and systemctl lines, the NVSwitch driver's SXid lines in a kernel log,
# nvidia-smi -q's Fabric section. The line said per file, each finding's node_action in
# `plan --json`'s verdict, the exit code at --fail-on error (a Fabric Manager of another
# version than the driver fails, a fatal SXid fails, a non-fatal one passes at error and
# fails at warning) and the healthy twins passing --fail-on warning.
bin=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
real="$(cd "$(dirname "$0")/../fixtures/real" && pwd)"

# Fabric Manager at another version than the driver: out of service until it runs
run 0 import "$real/fm-gpuop544-version-mismatch-line.txt" -o "$tmp/m.json" &&
    grep -q 'Fabric Manager, version 530.30.02, service not in the text, 1 failure record(s), 0 NVSwitch error(s)' "$tmp/err" &&
    ok || bad "the import line of a Fabric Manager text: $(cat "$tmp/err")"
run 1 plan --json "$tmp/m.json"
jq -e '.verdict.node_action == "isolate" and .verdict.errors == 1 and
       any(.findings[]; .rule == "fabric_manager" and .node_action == "isolate")' "$tmp/out" >/dev/null &&
    ok || bad "fabric_manager: verdict not isolate: $(jq -c .verdict "$tmp/out")"
jq -e '.software.driver == "530.41.03"' "$tmp/m.json" >/dev/null && ok || bad "software.driver not the driver's version"

# the healthy twin: Fabric Manager's log of a start that configured the switches
cat >"$tmp/up.log" <<'LOG'
[Mar 04 2024 10:01:02] [INFO] [tid 1834] Fabric Manager version 535.161.08 is running with the following configuration options
[Mar 04 2024 10:01:09] [INFO] [tid 1834] Connected to 1 node.
[Mar 04 2024 10:01:11] [INFO] [tid 1834] Successfully configured all the available NVSwitches to route GPU NVLink traffic.
LOG
run 0 import "$tmp/up.log" -o "$tmp/up.json"
run 0 plan --fail-on warning "$tmp/up.json"
run 0 plan --json "$tmp/up.json"
jq -e '.verdict.node_action == null and .verdict.errors == 0 and .verdict.warnings == 0' "$tmp/out" >/dev/null &&
    ok || bad "a healthy Fabric Manager start: $(jq -c .verdict "$tmp/out")"

# a failed start on a machine whose only GPU is a GeForce card: not needed there, none
run 0 import "$real/fm-gpuop356-start-failed-geforce-smi.txt" -o "$tmp/g.json"
run 0 plan --fail-on warning "$tmp/g.json"
run 0 plan --quiet "$tmp/g.json"
grep -q 'node action: none' "$tmp/out" && ok || bad "FM on a GeForce box: node action not none: $(head -n 1 "$tmp/out")"

# SXid lines: non-fatal passes at error, fails at warning; fatal fails, node action reboot
printf '[   25.948274] nvidia-nvswitch1: SXid (PCI:0000:02:00.0): 22013, Non-fatal, Link 00 Minion Link DLREQ interrupt\n' >"$tmp/nf.txt"
run 0 import "$tmp/nf.txt" -o "$tmp/nf.json" && grep -q '1 NVSwitch SXid record(s)' "$tmp/err" && ok ||
    bad "the kernel-log import line without its SXid count: $(cat "$tmp/err")"
run 0 plan "$tmp/nf.json"
run 1 plan --fail-on warning "$tmp/nf.json"
printf 'Jan 25 10:34:54 node7 kernel: nvidia-nvswitch3: SXid (PCI:0000:c5:00.0): 20034, Fatal, Link 24 LTSSM Fault Up\n' >"$tmp/f.txt"
run 0 import "$tmp/f.txt" -o "$tmp/f.json"
run 1 plan --json "$tmp/f.json"
jq -e '.verdict.node_action == "reboot" and any(.findings[]; .rule == "sxid" and .severity == "error")' "$tmp/out" >/dev/null &&
    ok || bad "a fatal SXid: $(jq -c .verdict "$tmp/out")"

# nvidia-smi -q's Fabric section: In Progress isolates the node
run 0 import "$real/smi-q-gpuop2511-fabric-in-progress.txt" -o "$tmp/q.json"
run 1 plan --json "$tmp/q.json"
jq -e '.verdict.node_action == "isolate" and any(.findings[]; .rule == "fabric_not_ready" and .gpus == [0])' "$tmp/out" >/dev/null &&
    ok || bad "fabric In Progress: $(jq -c .verdict "$tmp/out")"

echo "test_import_fabric: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
