#!/usr/bin/env bash
# The projection against the run (issue 26), on the bundled run documents that record a
# measured wall time per step (examples/*.json, tests/fixtures/runs/*, tests/fixtures/timing/*):
# - where a document stored the projection it ran under (run.projected_s), that is held
#   within 15% of the run's elapsed_s: the projection of the code that ran (not on the
#   CURRENT documents below, whose runs the costs were derived from again after they ran:
#   their stored figure is printed);
# - the documents of the tarballs tests/fixtures/timing/CURRENT names (measured by the
#   code whose costs analyze/projection.c holds) are projected again, `run --dry-run
#   --from DOC` at their level and budget, and held within 15% of elapsed_s too.
# Older documents measured slower code (the telemetry and host copies of session 6): a
# projection of today's code says nothing about them. docs/schedule.md, "Projection
# against the run".
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the documents"; exit 77; }

within() { # A B: |A - B| <= 15% of B
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.15 * b) }'
}

check() {
    local f=$1 name=$2
    # a run document whose steps carry their measured seconds
    jq -e '.run.elapsed_s and ((.run.steps // []) | length > 0) and
           all(.run.steps[]; .seconds != null)' "$f" >/dev/null 2>&1 || return
    local level budget elapsed stored total current=$3
    level=$(jq -r '.run.level' "$f")
    budget=$(jq -r '.run.budget_s' "$f")
    elapsed=$(jq -r '.run.elapsed_s' "$f")
    stored=$(jq -r '.run.projected_s // empty' "$f")
    if [ -n "$stored" ] && [ "$current" = 1 ]; then
        # the costs were derived again from these runs after they ran: what they stored
        # is said, and the projection of today's costs held below
        echo "$name ($level): stored projection $stored s (costs since revised), took $(printf '%.2f' "$elapsed") s"
    elif [ -n "$stored" ]; then
        stored_docs=$((stored_docs + 1))
        within "$stored" "$elapsed" && ok || bad "$name: stored projection $stored s, the run took $elapsed s"
        echo "$name ($level): stored projection $stored s, took $(printf '%.2f' "$elapsed") s"
    fi
    [ "$current" = 1 ] || return
    current_docs=$((current_docs + 1))
    run 0 run --dry-run --from "$f" --level "$level" --budget "$budget" || return
    total=$(awk '$1 == "total" { print $2 }' "$tmp/out")
    within "$total" "$elapsed" && ok ||
        bad "$name: projected $total s, the run took $elapsed s ($level): more than 15% apart"
    echo "$name ($level): projected again $total s, took $(printf '%.2f' "$elapsed") s"
}

stored_docs=0 current_docs=0
for f in "$src"/examples/*.json; do
    check "$f" "examples/$(basename "$f")" 0
done
for t in "$src"/tests/fixtures/runs/*.tgz "$src"/tests/fixtures/timing/*.tgz; do
    d="$tmp/$(basename "$t" .tgz)"
    mkdir -p "$d" && tar xzf "$t" -C "$d"
    current=0
    grep -qx "$(basename "$t")" "$src/tests/fixtures/timing/CURRENT" && current=1
    for f in "$d"/*.json; do
        check "$f" "$(basename "$t")/$(basename "$f")" "$current"
    done
done
[ "$stored_docs" -ge 7 ] && ok || bad "only $stored_docs run documents with a stored projection"
[ "$current_docs" -ge 3 ] && ok || bad "only $current_docs run documents of the current costs (tests/fixtures/timing/CURRENT)"
echo "$stored_docs documents with their projection, $current_docs projected again; passed $pass, failed $fail"
[ "$fail" -eq 0 ]
