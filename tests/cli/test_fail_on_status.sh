#!/usr/bin/env bash
# Statuses trip --fail-on and show in the report: 137 wrong elements (error), a timed-out
# collective (warning), a failed HBM check (error), made from the bundled 2 x H200 run.
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to edit the document"; exit 77; }
ex="$src/examples/h200x2-run.json"

run 0 plan "$ex" --fail-on warning

jq '(.measurements[] | select(.id == "nccl-all_reduce-default") | .rows[10].oop.wrong) = 137' "$ex" >"$tmp/wrong.json"
run 1 plan "$tmp/wrong.json" --fail-on error
run 0 report "$tmp/wrong.json"
grep -q "wrong_elements" "$tmp/out" && ok || bad "report does not show wrong_elements"
grep -q "137 wrong elements" "$tmp/out" && ok || bad "report does not say 137 wrong elements"

jq '(.measurements[] | select(.id == "nccl-all_gather-default")) |= (.status = "timeout" | .error = "aborted after 60 s")' \
    "$ex" >"$tmp/timeout.json"
run 0 plan "$tmp/timeout.json" --fail-on error
run 1 plan "$tmp/timeout.json" --fail-on warning
grep -q "entry_timeout" "$tmp/out" && ok || bad "plan does not show entry_timeout"

jq '(.measurements[] | select(.id == "hbm-read-1")) |= (.status = "failed" | .error = "data check failed")' \
    "$ex" >"$tmp/failed.json"
run 1 plan "$tmp/failed.json" --fail-on error
grep -q "entry_failed" "$tmp/out" && ok || bad "plan does not show entry_failed"

echo "test_fail_on_status: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
