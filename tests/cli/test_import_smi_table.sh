#!/usr/bin/env bash
# linkscope import of plain nvidia-smi output and its failure texts, as a user runs it: a
# failure line alone imports (a document with no GPU and its finding, plan failing at
# --fail-on error), the table's GPUs and driver in the line said, a cut table warned in one
# line, the healthy twin passing --fail-on warning, a lost GPU kept out of the plan's
# choices, and a header with nothing under it refused in one line with nothing written.
bin=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
real="$(cd "$(dirname "$0")/../fixtures/real" && pwd)"
twins="$(cd "$(dirname "$0")/../fixtures/twins" && pwd)"

# the driver cannot be reached: imported all the same, the node's finding fails the plan
run 0 import "$real/smi-table-mattshma108-smi-failed.txt" -o "$tmp/nodrv.json" &&
    grep -q 'nvidia-smi, 0 GPU(s), driver not in the text, 1 failure line(s)' "$tmp/err" && ok ||
    bad "the import line of a failure text: $(cat "$tmp/err")"
jq -e '.gpus == [] and .smi[0].failures[0].kind == "no_driver"' "$tmp/nodrv.json" >/dev/null &&
    ok || bad "the failure text's document: $(head -c 300 "$tmp/nodrv.json")"
run 1 plan --json "$tmp/nodrv.json"
jq -e '[.findings[] | select(.rule == "driver_unreachable" and .severity == "error")] | length == 1' \
    "$tmp/out" >/dev/null && ok || bad "driver_unreachable missing: $(head -c 300 "$tmp/out")"

# a version mismatch and its NVML version, said in the message
run 0 import "$real/smi-table-opengpu47-version-mismatch.txt" -o "$tmp/mm.json"
run 1 plan "$tmp/mm.json"
grep -q 'NVML 570.124 does not match the loaded kernel module' "$tmp/out" && ok ||
    bad "the mismatch message: $(head -c 300 "$tmp/out")"

# a table: its GPUs and driver said; a cut one warned in one line
run 0 import "$real/smi-table-nccl1264-8xh100-550-cut.txt" -o "$tmp/cut.json" &&
    grep -q 'nvidia-smi, 2 GPU(s), driver 550.54.15$' "$tmp/err" &&
    [ "$(grep -c 'warning: .*incomplete paste: the table stops inside GPU 1' "$tmp/err")" -eq 1 ] &&
    ok || bad "the lines of a cut table: $(cat "$tmp/err")"

# the healthy twin passes at --fail-on warning; the lost GPU's table fails and names it
run 0 import "$twins/smi-lost-healthy.txt" -o "$tmp/ok.json"
run 0 plan --fail-on warning "$tmp/ok.json"
run 0 import "$twins/smi-lost-broken.txt" -o "$tmp/lost.json"
run 1 plan --json "$tmp/lost.json"
jq -e 'any(.findings[]; .rule == "gpu_lost" and .gpus == [0] and .action == "avoid")' \
    "$tmp/out" >/dev/null && ok || bad "gpu_lost on GPU 0 with action avoid missing"

# a header and nothing under it: one line, exit 2, no file
printf '| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n' \
    >"$tmp/hdr.txt"
run 2 import "$tmp/hdr.txt" -o "$tmp/hdr.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/hdr.json" ] && ok ||
    bad "refusal not one line or a file written: $(cat "$tmp/err")"

echo "test_import_smi_table: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
