#!/usr/bin/env bash
# linkscope import of a pasted kernel log's NVRM lines, as a user runs it: the line said
# per file, the findings and their node_action in `plan`, the verdict's exit code at
# --fail-on error (a GPU fallen off the bus fails, the driver's load lines alone pass
# --fail-on warning, application Xids alone pass too), the same GPU named by its index
# when nvidia-smi -q is imported beside the log, and a kernel log without an NVRM line
# refused in one line with nothing written.
bin=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
real="$(cd "$(dirname "$0")/../fixtures/real" && pwd)"

# the brief's own example: dmesg -T with an Xid 79
printf '[Mon Jun  5 10:12:01 2023] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n' >"$tmp/x.txt"
run 0 import "$tmp/x.txt" -o "$tmp/x.json" &&
    grep -q 'kernel log (NVRM), 1 NVRM message(s), 1 Xid event(s), 0 driver failure record(s), 1 GPU(s) by bus id' "$tmp/err" && ok ||
    bad "the import line of a kernel log: $(cat "$tmp/err")"
run 1 plan --json "$tmp/x.json"
jq -e '[.findings[] | select(.rule == "xid" and .severity == "error" and .node_action == "reboot")] | length == 1' \
    "$tmp/out" >/dev/null && ok || bad "xid 79: one error, node action reboot: $(head -c 400 "$tmp/out")"

jq -e '.verdict.node_action == "reboot" and .verdict.errors == 1 and (.verdict.text | startswith("Verdict: 1 error"))' \
    "$tmp/out" >/dev/null && ok || bad "plan --json's verdict without the node action: $(jq -c .verdict "$tmp/out")"

run 1 plan --quiet "$tmp/x.json"
grep -q '^Verdict: 1 error; worst: xid (PCI 00000000:3b:00.0); node action: reboot$' "$tmp/out" && ok ||
    bad "the verdict line without the node action: $(head -n 1 "$tmp/out")"

# a syslog paste: the host named, a driver that failed to set a GPU up, said once, cut
run 0 import "$real/kernel-gpuop1146-syslog-rminitadapter-cut.txt" -o "$tmp/s.json" &&
    grep -q 'incomplete paste: the last line is cut' "$tmp/err" && ok ||
    bad "a cut syslog paste not said: $(cat "$tmp/err")"
run 1 plan --json "$tmp/s.json"
jq -e '[.findings[] | select(.rule == "driver_init_failed")] | length == 1' "$tmp/out" >/dev/null &&
    grep -q 'worker4 PCI 00000000:0a:00.0' "$tmp/out" && ok || bad "driver_init_failed on worker4's GPU missing"

# the healthy twins: the driver's load lines alone; application Xids alone
printf '[    6.252567] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n' >"$tmp/load.txt"
run 0 import "$tmp/load.txt" -o "$tmp/load.json"
jq -e '.software.driver == "535.104.05"' "$tmp/load.json" >/dev/null && ok || bad "software.driver not from the load line"
run 0 plan --fail-on warning "$tmp/load.json"
run 0 plan --json "$tmp/load.json"
jq -e '.verdict.node_action == null and .verdict.errors == 0 and .verdict.warnings == 0' "$tmp/out" >/dev/null &&
    ok || bad "the load lines alone: a node action or a count in plan --json's verdict: $(jq -c .verdict "$tmp/out")"
run 0 import "$real/kernel-pytorch51382-ctime-xid43-31-cut.txt" -o "$tmp/app.json"
run 0 plan --fail-on warning "$tmp/app.json"
run 0 plan --quiet "$tmp/app.json"
grep -q 'node action: none' "$tmp/out" && ok || bad "application Xids: node action not none: $(head -n 1 "$tmp/out")"

# a driver's API mismatch: the two versions
run 0 import "$real/kernel-stackhpc287-syslog-mismatch-012.txt" -o "$tmp/m.json"
run 1 plan "$tmp/m.json"
grep -q '535.54.03' "$tmp/out" && grep -q '530.30.02' "$tmp/out" && ok || bad "driver_mismatch without the versions"

# nvidia-smi -q beside the log: the bus names a GPU index, in either printed form
smi=$(grep -l '00000000:01:00.0' "$real"/smi-q-gls-*.txt | head -n 1)
if [ -n "$smi" ]; then
    printf 'NVRM: Xid (PCI:0000:01:00): 48, pid=7, DBE (double bit error) ECC error\n' >"$tmp/dbe.txt"
    run 0 import "$smi" "$tmp/dbe.txt" -o "$tmp/both.json"
    run 1 plan --json "$tmp/both.json"
    jq -e 'any(.findings[]; .rule == "xid" and .gpus == [0] and .node_action == "reset")' "$tmp/out" >/dev/null &&
        ok || bad "the Xid of bus 01:00 not on GPU 0: $(head -c 400 "$tmp/out")"
fi

# no NVRM line: not this format; one line, exit 2, no file
run 2 import "$real/kernel-voidlinux1231-no-nvrm.txt" -o "$tmp/none.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/none.json" ] &&
    grep -q 'a kernel log without an NVIDIA driver line' "$tmp/err" && ok ||
    bad "refusal not one line or a file written: $(cat "$tmp/err")"

echo "test_import_kernel_log: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
