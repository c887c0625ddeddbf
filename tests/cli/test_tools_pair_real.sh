#!/usr/bin/env bash
# The text and the -J JSON one nccl-tests run wrote at once (real, session 5 on the lent
# 1 x H200, tests/fixtures/tools/README.md): each imports as nccl-tests, the JSON as
# nccl-tests JSON, and compare calls every figure in common "same" (issue 28).
# args: linkscope binary, fixtures dir
set -u
bin=$1
t=$2/tools
. "$(dirname "$0")/lib.sh"
for c in allreduce-I1 allgather; do
    run 0 import "$t/nccl-tests-$c-h200x1-s5.txt" -o "$tmp/$c-text.json" &&
        { grep -q "nccl-tests, 1 entry" "$tmp/err" && ok || bad "$c text: $(cat "$tmp/err")"; }
    run 0 import "$t/nccl-tests-$c-h200x1-s5.json" -o "$tmp/$c-json.json" &&
        { grep -q "nccl-tests JSON, 1 entry" "$tmp/err" && ok || bad "$c JSON: $(cat "$tmp/err")"; }
    run 0 compare "$tmp/$c-text.json" "$tmp/$c-json.json" && {
        grep -q "^3 figures in common: 0 regressions, 0 gains" "$tmp/out" && ok || bad "$c compare: $(tail -1 "$tmp/out")"
        [ "$(grep -cE ' same$' "$tmp/out")" -eq 3 ] && ok || bad "$c: not 3 'same' rows: $(cat "$tmp/out")"
    }
done
echo "test_tools_pair_real: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
