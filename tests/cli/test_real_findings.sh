#!/usr/bin/env bash
# The corpus of real outputs (tests/fixtures/real/, sidecar format in its README.md):
# `linkscope import` every case, then `plan --json`, and check that every expected finding
# fires, that no `no-finding:` rule fires, and that no healthy case gets a warning or an
# error. Each case is in the train split (the rules were written on it) or the heldout
# one (`split: heldout`, measured only): prints "train: N of M expected, K false alarms;
# heldout: ...". A train case fails on any unmet expectation; a heldout case fails only on
# a healthy-case false alarm or an import crash (its misses are the honest score).
# A case with `node-action:` also expects `plan --json`'s verdict.node_action (the strongest
# node action of its findings, "null" when none carries one) to equal it.
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
real="$src/tests/fixtures/real"

declare -A expected=([train]=0 [heldout]=0) found=([train]=0 [heldout]=0) alarms=([train]=0 [heldout]=0)
declare -A cases=([train]=0 [heldout]=0) refused=([train]=0 [heldout]=0)
# expected answers (issue 22's count): each expected finding, each no-finding, a healthy
# case staying quiet, and the text imported (or, for `import: refused`, refused in one line)
declare -A answers=([train]=0 [heldout]=0) right=([train]=0 [heldout]=0)

# answer OK: one expected answer, met (OK=1) or not
answer() {
    answers[$split]=$((answers[$split] + 1))
    right[$split]=$((right[$split] + $1))
}

# field NAME FILE: the values of one sidecar key, one a line (comments and blanks dropped)
field() {
    sed -e 's/[[:space:]]#.*$//' -e '/^[[:space:]]*#/d' "$2" |
        sed -n "s/^$1:[[:space:]]*//p" | sed -e 's/[[:space:]]*$//'
}

# miss MESSAGE: an unmet expectation: a failure on the train split, a note on heldout
miss() {
    if [ "$split" = heldout ]; then
        echo "heldout miss: $1"
    else
        bad "$1"
    fi
}

# check_node_action CASE NAME: the `node-action:` key against plan --json's verdict.node_action
# (one more expected answer; a value outside the set is a malformed sidecar)
check_node_action() {
    local want got
    want=$(field node-action "$1" | head -n 1)
    [ -z "$want" ] && return
    case "$want" in
    none | watch | reset | reboot | isolate | null) ;;
    *)
        bad "$2: node-action: $want is not none|watch|reset|reboot|isolate|null"
        return
        ;;
    esac
    got=$(jq -r '.verdict.node_action // "null"' "$tmp/$2.plan")
    if [ "$got" = "$want" ]; then
        answer 1
        ok
    else
        answer 0
        miss "$2: expected node action $want, got $got"
    fi
}

check_case() {
    local c=$1 name split
    name=$(basename "$c" .case)
    split=$(field split "$c" | head -n 1)
    [ "$split" = heldout ] || split=train
    local -a files=() args=()
    local f a
    while IFS= read -r f; do [ -n "$f" ] && files+=("$f"); done < <(field file "$c")
    a=$(field args "$c" | head -n 1)
    [ -n "$a" ] && read -r -a args <<<"$a"
    if [ ${#files[@]} -eq 0 ]; then
        bad "$name: no file: line"
        return
    fi
    local rc=0 want_import
    want_import=$(field import "$c" | head -n 1)
    (cd "$real" && "$bin" import "${files[@]}" "${args[@]}" -o "$tmp/$name.json") 2>"$tmp/$name.err" || rc=$?
    if [ "$want_import" = refused ]; then # the right answer is one line saying what it is
        if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/$name.err")" -eq 1 ]; then
            refused[$split]=$((refused[$split] + 1))
            answer 1
            ok
        else
            answer 0
            miss "$name: expected a one-line refusal, got exit $rc: $(head -c 300 "$tmp/$name.err")"
        fi
        return
    fi
    if [ "$rc" -ne 0 ]; then
        if [ "$rc" -gt 2 ] || [ "$(wc -l <"$tmp/$name.err")" -ne 1 ]; then
            bad "$name: import crashed or did not refuse in one line (exit $rc): $(head -c 300 "$tmp/$name.err")"
            return
        fi
        refused[$split]=$((refused[$split] + 1))
        expected[$split]=$((expected[$split] + $(field finding "$c" | grep -c .)))
        local k
        for ((k = 0; k < 1 + $(field finding "$c" | grep -c .) + $(field no-finding "$c" | grep -c .); k++)); do
            answer 0 # not imported: the import and every finding expectation unmet
        done
        [ "$(field healthy "$c" | head -n 1)" = yes ] && answer 0
        [ -n "$(field node-action "$c" | head -n 1)" ] && answer 0
        miss "$name: import refused: $(head -c 300 "$tmp/$name.err")"
        return
    fi
    if ! "$bin" plan --json --fail-on never "$tmp/$name.json" >"$tmp/$name.plan" 2>"$tmp/$name.perr"; then
        bad "$name: plan failed: $(head -c 300 "$tmp/$name.perr")"
        return
    fi
    cases[$split]=$((cases[$split] + 1))
    answer 1 # imported
    local rule
    while IFS= read -r rule; do
        [ -z "$rule" ] && continue
        expected[$split]=$((expected[$split] + 1))
        if jq -e --arg r "$rule" 'any(.findings[]; .rule == $r)' "$tmp/$name.plan" >/dev/null; then
            found[$split]=$((found[$split] + 1))
            answer 1
            ok
        else
            answer 0
            miss "$name: expected finding $rule did not fire; got: $(jq -r '[.findings[].rule] | join(",")' "$tmp/$name.plan")"
        fi
    done < <(field finding "$c")
    while IFS= read -r rule; do
        [ -z "$rule" ] && continue
        if jq -e --arg r "$rule" 'any(.findings[]; .rule == $r)' "$tmp/$name.plan" >/dev/null; then
            alarms[$split]=$((alarms[$split] + 1))
            answer 0
            miss "$name: $rule fired but must not: $(jq -r --arg r "$rule" '[.findings[] | select(.rule == $r) | .message][0]' "$tmp/$name.plan")"
        else
            answer 1
            ok
        fi
    done < <(field no-finding "$c")
    if [ "$(field healthy "$c" | head -n 1)" = yes ]; then
        local loud
        loud=$(jq -r '[.findings[] | select(.severity != "info") | "\(.severity) \(.rule)"] | join(", ")' "$tmp/$name.plan")
        if [ -n "$loud" ]; then
            alarms[$split]=$((alarms[$split] + 1))
            answer 0
            bad "$name ($split): healthy case got $loud"
        else
            answer 1
            ok
        fi
    fi
    check_node_action "$c" "$name"
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

# LS_REAL_ONLY=FILE: only the cases FILE names (one a line), to measure one batch alone
# (tests/fixtures/real/batch-*.list)
shopt -s nullglob
for c in "$real"/*.case; do
    if [ -n "$LS_REAL_ONLY" ] && ! grep -qxF "$(basename "$c" .case)" "$LS_REAL_ONLY"; then
        continue
    fi
    check_case "$c"
done
for s in train heldout; do
    echo "$s: ${found[$s]} of ${expected[$s]} expected, ${alarms[$s]} false alarms (${cases[$s]} cases imported, ${refused[$s]} refused); answers ${right[$s]} of ${answers[$s]}"
done
echo "test_real_findings: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
