#!/usr/bin/env bash
# linkscope burn's refusals (exit 2, one line, before any work), its answer where it
# cannot run (exit 3), and the burn in reports: the real H200 burn shows its section in
# every format, a document without one shows none (docs/acceptance.md).
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

refused() {
    local what=$1 want=$2
    shift 2
    if run 2 burn "$@"; then
        grep -qF -- "$want" "$tmp/err" || bad "$what: '$want' not in: $(cat "$tmp/err")"
        [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$what: more than one line on stderr"
    fi
}
refused "zero seconds" "--seconds: expected a number from 1 to 86400, got '0'" --seconds 0
refused "bad seconds" "got 'soon'" --seconds soon
refused "bad period" "--period-ms" --period-ms 1
refused "bad gpus" "--gpus 'x'" --gpus x
refused "unknown option" "unknown option '--hot'" --hot
refused "missing value" "-o needs a value" -o
refused "both outputs" "-o and --into exclude each other" -o "$tmp/a.json" --into "$tmp/b.json"
refused "fail-on" "--fail-on: expected info, warning, error or never, got 'maybe'" --fail-on maybe
refused "unwritable" "$tmp/no/such/dir/x.json" -o "$tmp/no/such/dir/x.json"
"$bin" burn --help | grep -q "^usage: linkscope burn" && ok || bad "--help"
# Where it cannot run (no CUDA in the build, no GPU): exit 3 with one line and no
# document; on a GPU machine a 2 s burn writes one.
"$bin" burn --seconds 2 -o "$tmp/b.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 3 ]; then
    grep -q "built without CUDA\|no usable GPU" "$tmp/err" && ok || bad "exit 3 without the reason: $(cat "$tmp/err")"
    [ ! -e "$tmp/b.json" ] && ok || bad "exit 3 left a document"
elif [ "$rc" -eq 0 ]; then
    grep -q '"family": *"burn"' "$tmp/b.json" && ok || bad "the 2 s burn wrote no burn entry"
else
    bad "burn --seconds 2 exited $rc: $(cat "$tmp/err")"
fi

burn="$src/examples/h200-burn.json"
if run 0 report "$burn"; then
    grep -q "^== Sustained load" "$tmp/out" || bad "term: no Sustained load section"
    grep -q "gemm_bf16      150   631.8     630.6  0.998     1485      693     57" "$tmp/out" || bad "term: the burn row"
    grep -q "info burn_power_cap\|burn_power_cap" "$tmp/out" || bad "term: the power-cap finding"
fi
if run 0 report "$burn" --format md; then
    grep -q "Sustained load" "$tmp/out" || bad "md: no Sustained load section"
fi
if run 0 report "$burn" --format html -o "$tmp/burn.html"; then
    grep -q '<section id="burn">' "$tmp/burn.html" || bad "html: no burn section"
    grep -q '<a href="#burn">' "$tmp/burn.html" || bad "html: burn not in the navigation"
    grep -q "GPU 0 under sustained load, 150 s" "$tmp/burn.html" || bad "html: no chart"
fi
if run 0 report "$src/examples/h200x2-run.json" --format html -o "$tmp/run.html"; then
    grep -q 'id="burn"\|href="#burn"' "$tmp/run.html" && bad "html without a burn shows its section"
fi
echo "test_burn_opts.sh: $pass passed, $fail failed"
exit $((fail > 0))
