#!/usr/bin/env bash
# The corpus of real outputs (tests/fixtures/real/, sidecar format in its README.md):
# `linkscope import` every case, then `plan --json`, and check that every expected finding
# fires, that no `no-finding:` rule fires, and that no healthy case gets a warning or an
# error. Prints "N of M expected findings, K false alarms".
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
real="$src/tests/fixtures/real"

expected=0
found=0
alarms=0
cases=0

# field NAME FILE: the values of one sidecar key, one a line (comments and blanks dropped)
field() {
    sed -e 's/[[:space:]]#.*$//' -e '/^[[:space:]]*#/d' "$2" |
        sed -n "s/^$1:[[:space:]]*//p" | sed -e 's/[[:space:]]*$//'
}

check_case() {
    local c=$1 name
    name=$(basename "$c" .case)
    local -a files=() args=()
    local f a
    while IFS= read -r f; do [ -n "$f" ] && files+=("$f"); done < <(field file "$c")
    a=$(field args "$c" | head -n 1)
    [ -n "$a" ] && read -r -a args <<<"$a"
    if [ ${#files[@]} -eq 0 ]; then
        bad "$name: no file: line"
        return
    fi
    if ! (cd "$real" && "$bin" import "${files[@]}" "${args[@]}" -o "$tmp/$name.json") 2>"$tmp/$name.err"; then
        # nvidia-smi -q cases (issue 16) wait for its importer (branch import-tools)
        if grep -q "NVSMI LOG" "$real/${files[0]}" && grep -q "unknown format" "$tmp/$name.err"; then
            echo "note: $name: this build cannot import nvidia-smi -q yet"
            return
        fi
        bad "$name: import failed: $(head -c 300 "$tmp/$name.err")"
        return
    fi
    if ! "$bin" plan --json --fail-on never "$tmp/$name.json" >"$tmp/$name.plan" 2>"$tmp/$name.perr"; then
        bad "$name: plan failed: $(head -c 300 "$tmp/$name.perr")"
        return
    fi
    cases=$((cases + 1))
    local rule
    while IFS= read -r rule; do
        [ -z "$rule" ] && continue
        expected=$((expected + 1))
        if jq -e --arg r "$rule" 'any(.findings[]; .rule == $r)' "$tmp/$name.plan" >/dev/null; then
            found=$((found + 1))
            ok
        else
            bad "$name: expected finding $rule did not fire; got: $(jq -r '[.findings[].rule] | join(",")' "$tmp/$name.plan")"
        fi
    done < <(field finding "$c")
    while IFS= read -r rule; do
        [ -z "$rule" ] && continue
        if jq -e --arg r "$rule" 'any(.findings[]; .rule == $r)' "$tmp/$name.plan" >/dev/null; then
            alarms=$((alarms + 1))
            bad "$name: $rule fired but must not: $(jq -r --arg r "$rule" '[.findings[] | select(.rule == $r) | .message][0]' "$tmp/$name.plan")"
        else
            ok
        fi
    done < <(field no-finding "$c")
    if [ "$(field healthy "$c" | head -n 1)" = yes ]; then
        local loud
        loud=$(jq -r '[.findings[] | select(.severity != "info") | "\(.severity) \(.rule)"] | join(", ")' "$tmp/$name.plan")
        if [ -n "$loud" ]; then
            alarms=$((alarms + 1))
            bad "$name: healthy case got $loud"
        else
            ok
        fi
    fi
    # unknown is unknown: no "?" standing for a value, no "nan", in the plan or any report
    local fmt bad_words='\(\?|: \?| \? |\| \? \||[^a-z]nan[^a-z]| \?$'
    "$bin" plan "$tmp/$name.json" >"$tmp/$name.txt" 2>/dev/null
    for fmt in term md; do
        "$bin" report --format "$fmt" "$tmp/$name.json" >>"$tmp/$name.txt" 2>/dev/null
    done
    if grep -qE "$bad_words" "$tmp/$name.txt"; then
        bad "$name: prints ? or nan: $(grep -E "$bad_words" "$tmp/$name.txt" | head -n 1)"
    else
        ok
    fi
}

shopt -s nullglob
for c in "$real"/*.case; do
    check_case "$c"
done
echo "real corpus: $cases cases, $found of $expected expected findings, $alarms false alarms"
echo "test_real_findings: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
