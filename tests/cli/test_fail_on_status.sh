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
run 1 report "$tmp/wrong.json"
run 0 report "$tmp/wrong.json" --fail-on never
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

# the same --fail-on in every command that judges: default error, never, a bad level
for cmd in plan report; do
    run 1 $cmd "$tmp/failed.json"
    run 0 $cmd "$tmp/failed.json" --fail-on never
    run 0 $cmd "$tmp/timeout.json"
    run 1 $cmd "$tmp/timeout.json" --fail-on warning
    run 2 $cmd "$tmp/failed.json" --fail-on sometimes
    run 1 $cmd "$tmp/failed.json" --quiet
    grep -q "^Verdict: " "$tmp/out" && grep -q "^error entry_failed" "$tmp/out" && ok || bad "$cmd --quiet: verdict and entry_failed"
done
run 1 fleet "$tmp/failed.json"
run 0 fleet "$tmp/failed.json" --fail-on never
run 2 fleet "$tmp/failed.json" --fail-on sometimes
run 2 compare "$ex" "$ex" --fail-on sometimes
jq '(.measurements[] | select(.id == "hbm-read-1") | .samples) |= map(. / 2) |
    (.measurements[] | select(.id == "hbm-read-1") | .value) |= (. / 2)' "$ex" >"$tmp/slow.json"
run 0 compare "$ex" "$ex"
if "$bin" compare "$ex" "$tmp/slow.json" --json | jq -e '.regressions > 0' >/dev/null; then
    run 1 compare "$ex" "$tmp/slow.json"
    run 0 compare "$ex" "$tmp/slow.json" --fail-on never
    run 1 compare "$ex" "$tmp/slow.json" --quiet
    grep -q "^regression " "$tmp/out" && grep -q "^compare: [1-9][0-9]* regression" "$tmp/out" && ok || bad "compare --quiet"
else
    bad "compare: halving hbm-read-1 is no regression"
fi
run 2 check "$ex" --baseline /dev/null --fail-on sometimes

echo "test_fail_on_status: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
