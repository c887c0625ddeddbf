#!/usr/bin/env bash
# linkscope import of pasted CUDA error lines, as a user runs it: the line said per file,
# cuda_error's severity and node_action in `plan --json`, the verdict's exit code at
# --fail-on error (the fabric not up fails and says isolate; an application's out of
# memory passes), and a text with no CUDA error line refused in one line with nothing
# written.
bin=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
real="$(cd "$(dirname "$0")/../fixtures/real" && pwd)"

# the brief's own example: a PyTorch traceback ending in 802
printf 'Traceback (most recent call last):\n  File "t.py", line 3, in <module>\nRuntimeError: CUDA error: system not yet initialized\n' >"$tmp/t.txt"
run 0 import "$tmp/t.txt" -o "$tmp/t.json" &&
    grep -q 'CUDA errors, 1 distinct error(s) in 1 line(s)' "$tmp/err" && ok ||
    bad "the import line of CUDA errors: $(cat "$tmp/err")"
run 1 plan --json "$tmp/t.json"
jq -e '[.findings[] | select(.rule == "cuda_error" and .severity == "error" and .node_action == "isolate")] | length == 1' \
    "$tmp/out" >/dev/null && ok || bad "802: one error, node action isolate: $(head -c 400 "$tmp/out")"
jq -e '.verdict.node_action == "isolate"' "$tmp/out" >/dev/null && ok ||
    bad "plan --json's verdict without isolate: $(jq -c .verdict "$tmp/out")"
run 1 plan --quiet --fail-on error "$tmp/t.json"
grep -q '^Verdict: 1 error; worst: cuda_error (the job); node action: isolate$' "$tmp/out" && ok ||
    bad "the verdict line: $(head -n 1 "$tmp/out")"

# an application's error alone passes --fail-on warning
run 0 import "$real/cudaerr-pytorch16417-oom-new-format.txt" -o "$tmp/oom.json"
run 0 plan --quiet --fail-on warning "$tmp/oom.json"
grep -q 'node action: none' "$tmp/out" && ok || bad "out of memory: $(head -n 1 "$tmp/out")"

# driver older than the runtime: an error, no node action (container or node: not in the text)
run 0 import "$real/cudaerr-nvdocker180-devicequery-35.txt" -o "$tmp/d.json"
run 1 plan --json "$tmp/d.json"
jq -e '[.findings[] | select(.rule == "cuda_error" and .severity == "error" and (has("node_action") | not))] | length == 1' \
    "$tmp/out" >/dev/null && ok || bad "35: an error without a node action: $(head -c 400 "$tmp/out")"

# no CUDA error line: unknown format, one line, exit 2, nothing written
printf './deviceQuery Starting...\nDetected 1 CUDA Capable device(s)\nResult = PASS\n' >"$tmp/pass.txt"
run 2 import "$tmp/pass.txt" -o "$tmp/pass.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'unknown format' "$tmp/err" && [ ! -e "$tmp/pass.json" ] && ok ||
    bad "a deviceQuery PASS not refused in one line: $(cat "$tmp/err")"
echo "test_import_cuda_error: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
