#!/usr/bin/env bash
# check --spec (docs/acceptance.md): seed 003's SXM-named cards without NVLink, the bundled
# H200 run, usage errors; then every real case with a `part:` key
# (tests/fixtures/real/README.md): `linkscope import` its files, `check --spec`, and the
# part, the findings and the exit code its sidecar names.
bin=$(realpath "$1")
fixtures=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
real="$fixtures/real"

has() { grep -qF -- "$1" "$tmp/out" || bad "$2: '$1' not in: $(head -c 400 "$tmp/out")"; }

# Seed 003: four "NVIDIA H100 80GB HBM3" cards on PCIe with no NVLink: an error each, the
# TP verdict priced on their PCIe against the part's NVLink; exit 1 at the default level.
seed3="$fixtures/analyze/seed003-h100-special.json"
if run 1 check --spec "$seed3" --model qwen3-coder-30b-a3b; then
    has 'GPU 0: "NVIDIA H100 80GB HBM3" -> h100-sxm5' seed003
    [ "$(grep -c '^error spec_nvlink: GPU [0-3] reports' "$tmp/out")" -eq 4 ] || bad "seed003: not 4 spec_nvlink errors"
    has "goes over PCIe Gen5 x16 at about 63 GB/s instead of 450 GB/s each way" seed003
    has "TP=2 prefill of 32k tokens (qwen3-30b-a3b)" seed003
    has "here (theoretical PCIe Gen5 x16, 63 GB/s) vs" seed003
    has "on the h100-sxm5's NVLink (450 GB/s)" seed003
fi
run 1 check --spec "$seed3" --fail-on warning --quiet
# The bundled 2 x H200 run: identified, every check made, nothing found, exit 0 even at info.
if run 0 check --spec "$src/examples/h200x2-run.json" --fail-on info; then
    has '-> h200-sxm' h200x2
    has "nvlinks 18 (part 18)" h200x2
    has "memory_gbps 4492 (part 4800)" h200x2
    has "measured P2P copy, 397 GB/s" h200x2
    has "0 findings at or above info" h200x2
fi
# report judges the acceptance check again with this binary, as it does the findings: the
# stored check of this one-GPU thorough run priced TP on PCIe; now it is unknown.
if run 0 report "$fixtures/analyze/h200x1-thorough-run.json"; then
    has "Acceptance (against the datasheet)" thorough
    has "tensor parallelism: unknown (one GPU here, of a part with NVLink" thorough
    has "SM clock under load 1470 MHz base clock unknown" thorough
fi
# The real V100 with 4 of 6 NVLinks active (Azure/azhpc-diagnostics#73): a partial set on
# an SXM module is an error, and --junit gives a CI report with its failure under GPU 3.
(cd "$real" && "$bin" import smi-azhpc73-v100-nvlink-inactive.txt -o "$tmp/v100.json") 2>/dev/null ||
    bad "v100: import failed"
if run 1 check --spec "$tmp/v100.json" --junit "$tmp/v100.xml"; then
    has "error spec_nvlink: GPU 3: 4 of the part's 6 NVLinks active" v100
    grep -q 'testsuite name="linkscope check --spec [^"]*" tests="1" failures="1"' "$tmp/v100.xml" &&
        grep -q '<testcase classname="linkscope.check.spec" name="GPU 3 against v100-sxm2-32gb">' "$tmp/v100.xml" &&
        grep -q '<failure type="spec_nvlink" message="error spec_nvlink: GPU 3: 4 of' "$tmp/v100.xml" &&
        python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/v100.xml" && ok ||
        bad "v100 junit: $(cat "$tmp/v100.xml")"
fi
run 1 check --spec "$tmp/v100.json" --quiet --junit "$tmp/v100q.xml" && cmp -s "$tmp/v100.xml" "$tmp/v100q.xml" && ok ||
    bad "--quiet changed the JUnit file"
# the bundled 2 x H200 passes: one testcase per GPU, no failure
run 0 check --spec "$src/examples/h200x2-run.json" --junit "$tmp/h200.xml" &&
    { grep -q 'tests="2" failures="0"' "$tmp/h200.xml" && ! grep -q "<failure" "$tmp/h200.xml" && ok || bad "h200 junit: $(cat "$tmp/h200.xml")"; }
run 2 check --spec "$tmp/v100.json" "$tmp/v100.json"
run 2 check --spec "$tmp/v100.json" --require-all
run 2 check --spec "$seed3" --model no-such-model && grep -q "unknown model preset 'no-such-model'" "$tmp/err" || bad "unknown model"
run 2 check --spec "$seed3" --fail-on sometimes
run 2 check --spec "$seed3" --baseline x.json
run 2 check --spec "$seed3" --junit "$tmp/no/such/folder.xml"
run 2 check --spec "$tmp/missing.json"
run 2 check --spec

# field NAME FILE: the values of one sidecar key, one a line (comments and blanks dropped)
field() {
    sed -e 's/[[:space:]]#.*$//' -e '/^[[:space:]]*#/d' "$2" | sed -n "s/^$1:[[:space:]]*//p" |
        sed -e 's/[[:space:]]*$//'
}

spec_case() {
    local c=$1 name rule sev want files=() f
    name=$(basename "$c" .case)
    while IFS= read -r f; do [ -n "$f" ] && files+=("$f"); done < <(field file "$c")
    if ! (cd "$real" && "$bin" import "${files[@]}" -o "$tmp/$name.json") >/dev/null 2>"$tmp/$name.err"; then
        if grep -q "NVSMI LOG" "$real/${files[0]}" && grep -qi "not recogni\|unknown format\|cannot tell" "$tmp/$name.err"; then
            echo "note: $name: this build cannot import nvidia-smi -q yet ($(head -c 120 "$tmp/$name.err"))"
            return
        fi
        bad "$name: import failed: $(head -c 300 "$tmp/$name.err")"
        return
    fi
    cases=$((cases + 1))
    want=$(field spec-exit "$c")
    run "${want:-0}" check --spec "$tmp/$name.json" || return
    local part
    part=$(field part "$c")
    if [ "$part" = unknown ]; then
        has "-> unknown part" "$name"
    else
        has "-> $part" "$name"
        grep -q -- "-> unknown part" "$tmp/out" && bad "$name: a GPU not identified"
    fi
    while read -r rule sev; do
        [ -z "$rule" ] && continue
        grep -q "^$sev $rule: " "$tmp/out" || bad "$name: no $sev $rule"
    done < <(field spec-finding "$c")
    while read -r rule; do
        [ -z "$rule" ] && continue
        grep -q " $rule: " "$tmp/out" && bad "$name: $rule fired: $(grep " $rule: " "$tmp/out" | head -1)"
    done < <(field spec-no-finding "$c")
}

cases=0
for c in "$real"/*.case; do
    grep -q '^part:' "$c" && spec_case "$c"
done
echo "test_spec_real.sh: $pass passed, $fail failed, $cases real cases checked"
exit $((fail > 0))
