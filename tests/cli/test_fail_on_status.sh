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

# issue 23: every judging command takes the same --fail-on (the same words, default and
# refusal) and --quiet (the verdict line and what failed); docs/compare-check.md
# "Exit codes and --fail-on" names them all.
health=$src/tests/fixtures/health
for cmd in run report plan compare check fleet health; do
    "$bin" "$cmd" --help >"$tmp/help" 2>&1
    grep -qE -- "--fail-on LEVEL +(exit 1 |a violation ).*(info|error)" "$tmp/help" && grep -q "never" "$tmp/help" &&
        grep -q -- "--quiet           print only the verdict line and what failed (at --fail-on)" "$tmp/help" &&
        ok || bad "$cmd --help: no shared --fail-on LEVEL / --quiet lines"
    grep -q "\`$cmd\`" "$src/docs/compare-check.md" && ok || bad "docs/compare-check.md does not name $cmd"
done
refused() { # ARGS...: exit 2, the shared refusal as the one line on stderr
    run 2 "$@" --fail-on sometimes &&
        { [ "$(cat "$tmp/err")" = "linkscope $1: --fail-on: expected info, warning, error or never, got 'sometimes' (see 'linkscope $1 --help')" ] &&
            ok || bad "$1: refusal '$(cat "$tmp/err")'"; }
}
refused run
refused report "$ex"
refused plan "$ex"
refused compare "$ex" "$ex"
refused check "$ex" --baseline /dev/null
refused fleet "$ex"
refused health --from "$health/healthy-h200"
# health's actions at each level: isolate, reboot, reset are errors, watch a warning
run 1 health --from "$health/nvlink-down"
run 0 health --from "$health/nvlink-down" --fail-on never &&
    { grep -q "^linkscope health: not judged (--fail-on never), worst action isolate$" "$tmp/out" && ok || bad "health never: $(head -1 "$tmp/out")"; }
run 0 health --from "$health/other-process"
run 1 health --from "$health/other-process" --fail-on warning
run 1 health --from "$health/other-process" --fail-on info
run 0 health --from "$health/healthy-h200" --fail-on info
run 1 health --from "$health/nvlink-down" --quiet &&
    { [ "$(wc -l <"$tmp/out")" -eq 2 ] && head -1 "$tmp/out" | grep -q "^linkscope health: FAIL (isolate)" && ok || bad "health --quiet: $(cat "$tmp/out")"; }
run 0 health --from "$health/other-process" --quiet &&
    { [ "$(cat "$tmp/out")" = "linkscope health: OK" ] && ok || bad "health --quiet printed what did not fail: $(cat "$tmp/out")"; }

echo "test_fail_on_status: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
