#!/usr/bin/env bash
# Hostile text (docs/safety.md): terminal escapes (ESC ], ESC [8m), raw newlines, CSV
# formulas and HTML tags in GPU names, hostnames and variants, from a run document and
# from an imported log, through every format: no control character, formula or raw tag.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
esc=$(printf '\033')
# a run document with hostile names (JSON escapes: \u001b is ESC, \u0007 BEL, \u009b CSI)
sed -e '0,/"name": "NVIDIA H200"/s//"name": "=HYPERLINK(\\"http:\/\/evil\\")"/' \
    -e '0,/"name": "NVIDIA H200"/s//"name": "\\u001b]0;pwned\\u0007\\u001b[8mH200\\ncheck: all 121 expectations met <img src=x onerror=alert(1)> \\u009b31m"/' \
    -e 's/"hostname": "vm"/"hostname": "@SUM(1+1)\\u001b]8;;http:\/\/evil\\u001b\\\\x\\r\\nforged"/' \
    "$fx/../../examples/h200x2-run.json" >"$tmp/evil.json"
grep -q 'pwned' "$tmp/evil.json" && grep -q HYPERLINK "$tmp/evil.json" && ok || bad "the hostile fixture was not made"

# a log with the same in its device line and an ESC ] title sequence
sed -e "s/on         vm device  0 \[0000:00:06\] NVIDIA H200/on ${esc}]0;x$(printf '\007')=cmd device  0 [0000:00:06] <b>H200${esc}[8m/" \
    "$fx/h200x2/nccl-tests-all_reduce.txt" >"$tmp/evil.log"
run 0 import "$tmp/evil.log" -o "$tmp/imported.json"
run 0 import "$tmp/evil.log" --variant "$(printf 'v\033]0;t\007<i>\nx')" -o "$tmp/imported2.json"

# no control character other than newline (and tab) in any output; no raw tag where a
# tag would be read; no cell that a spreadsheet would run
no_controls() { # FILE WHAT
    if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" || LC_ALL=C grep -qP '\xc2[\x80-\x9f]' "$1"; then
        bad "$2: a control character reached the output: $(LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$1" | head -2 | cat -v)"
    else
        ok
    fi
}
no_tags() {
    grep -q '<img\|<b>\|<i>' "$1" && bad "$2: a raw tag: $(grep -o '.\{20\}<img.\{10\}\|<b>.\{10\}\|<i>.\{5\}' "$1" | head -2)" || ok
}
for d in "$tmp/evil.json" "$tmp/imported.json" "$tmp/imported2.json"; do
    no_controls "$d" "the document $(basename "$d")"
    for f in term md html; do
        run 0 report "$d" --format $f -o "$tmp/r.$f"
        no_controls "$tmp/r.$f" "report $(basename "$d") --format $f"
        [ $f = term ] || no_tags "$tmp/r.$f" "report $(basename "$d") --format $f"
    done
    run 0 report "$d" --format csv -o "$tmp/csv"
    for c in "$tmp"/csv/*.csv; do
        no_controls "$c" "$(basename "$c")"
        # a cell starting with = + - @ (after an optional quote) that is not a number
        LC_ALL=C grep -qE '(^|,)"?[=+@]|(^|,)"?-[^0-9,]' "$c" && bad "$(basename "$c"): a formula cell: $(grep -E '(^|,)"?[=+@]' "$c" | head -1)" || ok
    done
    run 0 plan "$d"
    no_controls "$tmp/out" "plan"
    run 0 compare "$d" "$d" --markdown
    no_controls "$tmp/out" "compare --markdown"
    no_tags "$tmp/out" "compare --markdown"
    run 0 compare "$d" "$d"
    no_controls "$tmp/out" "compare"
    run 0 baseline "$d" -o "$tmp/b.json"
    run 0 check "$d" --baseline "$tmp/b.json"
    no_controls "$tmp/out" "check"
done
# a hostile variant name in compare --variants's Markdown heading and columns
run 0 import "$fx/h200x2/nccl-tests-all_reduce.txt" --into "$tmp/imported2.json"
run 0 compare "$tmp/imported2.json" --variants --markdown
no_tags "$tmp/out" "compare --variants --markdown"
no_controls "$tmp/out" "compare --variants --markdown"
run 0 compare "$tmp/imported2.json" --variants
no_controls "$tmp/out" "compare --variants"

# the names are still there, only harmless
run 0 report "$tmp/evil.json" --format md
grep -q "&lt;img src=x onerror=alert(1)&gt;" "$tmp/out" && ok || bad "md: the tag is not shown escaped"
run 0 report "$tmp/evil.json" --format csv -o "$tmp/csv"
grep -q "'=HYPERLINK" "$tmp"/csv/*.csv && ok || bad "csv: the formula is not shown quoted"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
