#!/usr/bin/env bash
# The projection against the run (issue 26): every bundled run document that records a
# measured wall time per step (examples/*.json, tests/fixtures/runs/*) is projected again,
# `run --dry-run --from DOC` at its level and budget, and the total held within 15% of the
# run's elapsed_s; where the document stored the projection it ran under
# (run.projected_s), that is held within 15% too. docs/schedule.md, "Projection against
# the run".
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the documents"; exit 77; }

within() { # A B: |A - B| <= 15% of B
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.15 * b) }'
}

docs=0
check() {
    local f=$1 name=$2
    # a run document whose steps carry their measured seconds
    jq -e '.run.elapsed_s and ((.run.steps // []) | length > 0) and
           all(.run.steps[]; .seconds != null)' "$f" >/dev/null 2>&1 || return
    docs=$((docs + 1))
    local level budget elapsed stored total
    level=$(jq -r '.run.level' "$f")
    budget=$(jq -r '.run.budget_s' "$f")
    elapsed=$(jq -r '.run.elapsed_s' "$f")
    run 0 run --dry-run --from "$f" --level "$level" --budget "$budget" || return
    total=$(awk '$1 == "total" { print $2 }' "$tmp/out")
    within "$total" "$elapsed" && ok ||
        bad "$name: projected $total s, the run took $elapsed s ($level): more than 15% apart"
    echo "$name ($level): projected $total s, took $(printf '%.2f' "$elapsed") s"
    stored=$(jq -r '.run.projected_s // empty' "$f")
    if [ -n "$stored" ]; then
        within "$stored" "$elapsed" && ok || bad "$name: stored projection $stored s, the run took $elapsed s"
    fi
}

for f in "$src"/examples/*.json; do
    check "$f" "examples/$(basename "$f")"
done
for t in "$src"/tests/fixtures/runs/*.tgz; do
    d="$tmp/$(basename "$t" .tgz)"
    mkdir -p "$d" && tar xzf "$t" -C "$d"
    for f in "$d"/*.json; do
        check "$f" "$(basename "$t")/$(basename "$f")"
    done
done
# the 2 x H200 example, 22 quick and 1 thorough run of 1 x H200
[ "$docs" -ge 24 ] && ok || bad "only $docs run documents with timed steps found"
echo "$docs timed run documents; passed $pass, failed $fail"
[ "$fail" -eq 0 ]
