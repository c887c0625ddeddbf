#!/usr/bin/env bash
# One tensor-parallel verdict (issue 27): report, check --spec and tp --verdict print the
# same TP lines for every bundled and golden document (run prints the stored verdict
# through the same words, render/spec_render.c); only the TP sizes the machine has; the
# part's NVLink in them is the ceiling the headline judges the P2P line against.
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$src/tests/golden/cases.sh"
unset COLUMNS

tp_lines() { awk '/^tensor parallelism/ { on = 1; print; next } on && /^  / { print; next } { on = 0 }' "$1"; }

docs=$(ls "$src"/examples/*.json; for d in $docs; do case $d in F:*) echo "$fx/${d#F:}" ;; esac; done
       echo "$fx/analyze/h200x1-thorough-run.json"; echo "$fx/analyze/seed003-h100-special.json")
checked=0
for d in $docs; do
    name=$(basename "$d" .json)
    # the report shows the verdict of a document that went through run's spec step: the
    # same document with an (empty) spec, which report judges again
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["spec"]={}; json.dump(d,open(sys.argv[2],"w"))' \
        "$d" "$tmp/doc.json"
    "$bin" report "$tmp/doc.json" --fail-on never >"$tmp/report" 2>/dev/null
    "$bin" check --spec "$d" --fail-on never >"$tmp/check" 2>/dev/null
    "$bin" tp --verdict "$d" >"$tmp/tp" 2>"$tmp/err" || { bad "$name: tp --verdict failed: $(cat "$tmp/err")"; continue; }
    tp_lines "$tmp/tp" >"$tmp/want"
    [ -s "$tmp/want" ] && ok || { bad "$name: tp --verdict printed no TP line"; continue; }
    for c in report check; do
        tp_lines "$tmp/$c" >"$tmp/got"
        cmp -s "$tmp/want" "$tmp/got" && ok || bad "$name: $c's TP lines differ from tp --verdict: $(diff "$tmp/want" "$tmp/got" | head -4)"
    done
    # only the TP sizes the machine has
    ngpus=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("gpus", [])))' "$d")
    big=$(grep -oE "TP=[0-9]+" "$tmp/want" | tr -d 'TP=' | awk -v n="$ngpus" '$1 > n' | wc -l)
    [ "$big" -eq 0 ] && ok || bad "$name: a TP size above its $ngpus GPUs"
    [ "$ngpus" -ge 2 ] || { grep -q "^tensor parallelism: no TP size here" "$tmp/want" && ok || bad "$name: one GPU, not 'no TP size'"; }
    checked=$((checked + 1))
done
[ "$checked" -ge 8 ] && ok || bad "only $checked documents checked"

# one NVLink figure: the part's NVLink in the TP line is the headline's P2P ceiling
"$bin" tp --verdict "$src/examples/h200x2-run.json" >"$tmp/tp"
"$bin" report "$src/examples/h200x2-run.json" >"$tmp/report"
peak=$(awk '/^  P2P one direction \(copy engine\)/ { for (i = 1; i <= NF; i++) if ($i == "of") print $(i + 1) }' "$tmp/report")
[ -n "$peak" ] && grep -q "h200-sxm's NVLink ($peak GB/s)" "$tmp/tp" && ok ||
    bad "the TP line's NVLink is not the headline's $peak: $(cat "$tmp/tp")"
# memory sizes in GiB
"$bin" check --spec "$src/examples/h200x2-run.json" >"$tmp/check"
grep -q "memory 140.4 GiB (part 141 GiB)" "$tmp/check" && ok || bad "check --spec memory not in GiB"
run 2 tp --verdict "$src/examples/h200x2-run.json" --model no-such-model
run 2 tp --verdict /nonexistent.json

echo "test_tp_verdict: $pass passed, $fail failed ($checked documents)"
[ "$fail" -eq 0 ]
