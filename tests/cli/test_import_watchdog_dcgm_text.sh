#!/usr/bin/env bash
# linkscope import of PyTorch's NCCL watchdog text and of dcgmi diag's text table, as a
# user runs it: the line said per file, the finding in `plan`, the verdict's exit code at
# --fail-on error (a timeout fails, its healthy twin passes), two pieces of one paste
# judged together, and a text with the signature but nothing to read refused in one line
# with nothing written.
bin=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
real="$(cd "$(dirname "$0")/../fixtures/real" && pwd)"

run 0 import "$real/watchdog-vllm23448-rank3-one-behind.txt" -o "$tmp/wd.json" &&
    grep -q 'PyTorch NCCL watchdog, 2 timeout line(s), 2 progress line(s)' "$tmp/err" && ok ||
    bad "the import line of a watchdog text: $(cat "$tmp/err")"
run 1 plan --json "$tmp/wd.json"
jq -e '[.findings[] | select(.rule == "collective_timeout" and .severity == "error"
        and (has("gpus") | not))] | length == 1' "$tmp/out" >/dev/null && ok ||
    bad "collective_timeout, an error naming no GPU: $(head -c 300 "$tmp/out")"
grep -q 'Rank 3 is behind' "$tmp/out" && ok || bad "rank 3 not named as behind"

# the healthy twin: the watchdog's options, no timeout
run 0 import "$real/watchdog-pytorch88000-options-no-timeout.txt" -o "$tmp/ok.json"
run 0 plan --fail-on warning "$tmp/ok.json"

# two pieces of one paste: one finding naming the ranks of both
run 0 import "$real/watchdog-llamafactory6269-reduce-scatter-pg1-a.txt" \
    "$real/watchdog-llamafactory6269-reduce-scatter-pg1-b.txt" -o "$tmp/two.json"
run 1 plan --json "$tmp/two.json"
jq -e '[.findings[] | select(.rule == "collective_timeout")] | length == 1' "$tmp/out" >/dev/null &&
    grep -q 'on ranks 0, 2, 3, 4, 6' "$tmp/out" && ok || bad "two pieces not judged together"

# dcgmi diag's table: GPU 0 failed its memory test, a cut paste said once
run 0 import "$real/dcgm-godcgm52-memory-fail-gpu0.txt" -o "$tmp/dcgm.json" &&
    grep -q 'dcgmi diag, 2 entries' "$tmp/err" && grep -q 'closing border' "$tmp/err" && ok ||
    bad "the import lines of a dcgmi diag table: $(cat "$tmp/err")"
run 1 plan --json "$tmp/dcgm.json"
jq -e 'any(.findings[]; .rule == "dcgm_failed" and .gpus == [0])' "$tmp/out" >/dev/null && ok ||
    bad "dcgm_failed on GPU 0 missing"

# the signature and nothing to read: one line, exit 2, no file
printf 'Successfully ran diagnostic for group.\n' >"$tmp/empty.txt"
run 2 import "$tmp/empty.txt" -o "$tmp/empty.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/empty.json" ] && ok ||
    bad "refusal not one line or a file written: $(cat "$tmp/err")"

echo "test_import_watchdog_dcgm_text: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
