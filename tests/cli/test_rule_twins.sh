#!/usr/bin/env bash
# Every rule with a healthy twin (tests/fixtures/twins/, README.md there): `import` + `plan`
# on each case; a broken case must fire its rule, its healthy twin must fire neither that
# rule nor any warning or error, each twin must name the other, and `verdict-has:` must be
# in the report's verdict line and `message-has:` in the rule's message.
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }
twins="$src/tests/fixtures/twins"

field() {
    sed -e 's/[[:space:]]#.*$//' -e '/^[[:space:]]*#/d' "$2" |
        sed -n "s/^$1:[[:space:]]*//p" | sed -e 's/[[:space:]]*$//'
}

fires() { jq -e --arg r "$2" 'any(.findings[]; .rule == $r)' "$1" >/dev/null; }

check_case() {
    local c=$1 name rule twin file healthy
    name=$(basename "$c" .case)
    rule=$(field rule "$c" | head -n 1)
    twin=$(field twin "$c" | head -n 1)
    file=$(field file "$c" | head -n 1)
    healthy=$(field healthy "$c" | head -n 1)
    if [ -z "$rule" ] || [ -z "$twin" ] || [ -z "$file" ]; then
        bad "$name: needs file:, rule: and twin:"
        return
    fi
    if [ ! -f "$twins/$twin.case" ] || [ "$(field twin "$twins/$twin.case" | head -n 1)" != "$name" ]; then
        bad "$name: its twin $twin does not exist or does not name it back"
        return
    fi
    if [ "$(field rule "$twins/$twin.case" | head -n 1)" != "$rule" ] ||
        [ "$(field healthy "$twins/$twin.case" | head -n 1)" = "$healthy" ]; then
        bad "$name: its twin $twin must be about $rule with the other healthy: value"
        return
    fi
    if ! (cd "$twins" && "$bin" import "$file" -o "$tmp/$name.json") 2>"$tmp/$name.err" ||
        ! "$bin" plan --json --fail-on never "$tmp/$name.json" >"$tmp/$name.plan" 2>"$tmp/$name.perr"; then
        bad "$name: import or plan failed: $(head -c 300 "$tmp/$name.err" "$tmp/$name.perr")"
        return
    fi
    if [ "$healthy" = yes ]; then
        local loud
        loud=$(jq -r '[.findings[] | select(.severity != "info") | "\(.severity) \(.rule)"] | join(", ")' "$tmp/$name.plan")
        if fires "$tmp/$name.plan" "$rule"; then
            bad "$name: healthy twin fired $rule: $(jq -r --arg r "$rule" '[.findings[] | select(.rule == $r) | .message][0]' "$tmp/$name.plan")"
        elif [ -n "$loud" ]; then
            bad "$name: healthy twin got $loud"
        else
            ok
        fi
    elif fires "$tmp/$name.plan" "$rule"; then
        ok
    else
        bad "$name: $rule missed its broken case; got: $(jq -r '[.findings[].rule] | join(",")' "$tmp/$name.plan")"
    fi
    local want line
    want=$(field message-has "$c" | head -n 1)
    if [ -n "$want" ]; then
        if jq -e --arg r "$rule" --arg w "$want" 'any(.findings[]; .rule == $r and (.message | contains($w)))' \
            "$tmp/$name.plan" >/dev/null; then
            ok
        else
            bad "$name: no $rule message holds '$want'"
        fi
    fi
    want=$(field verdict-has "$c" | head -n 1)
    if [ -n "$want" ]; then
        line=$("$bin" report "$tmp/$name.json" 2>/dev/null | grep -m1 '^Verdict:')
        case $line in
        *"$want"*) ok ;;
        *) bad "$name: verdict line lacks '$want': $line" ;;
        esac
    fi
}

shopt -s nullglob
n=0
for c in "$twins"/*.case; do
    check_case "$c"
    n=$((n + 1))
done
[ "$n" -ge 2 ] || bad "no twin cases in $twins"
echo "test_rule_twins: $pass passed, $fail failed ($n cases)"
[ "$fail" -eq 0 ]
