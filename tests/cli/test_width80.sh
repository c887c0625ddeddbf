#!/usr/bin/env bash
# 80 columns (issue 27): every bundled (examples/) and golden document renders at
# COLUMNS=80 with no line over 80 and no table split into blocks; every command's
# --help and the man page at MANWIDTH=80 have no line over 80.
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$src/tests/golden/cases.sh"

over80() { awk 'length($0) > 80 { n++ } END { print n + 0 }' "$1"; }

# A table split into blocks repeats its first column under no title of its own: a run
# of lines (between blank lines) that holds a rule of dashes, starts with a header line
# (indented) rather than a title, and lists the same first cells as the table before.
split_tables() {
    python3 - "$1" <<'EOF'
import sys
runs, cur = [], []
for l in open(sys.argv[1]).read().split("\n") + [""]:
    if l.strip():
        cur.append(l)
    elif cur:
        runs.append(cur)
        cur = []
def is_rule(l):
    return l.strip().startswith("-") and set(l.strip()) <= set("- ")
tables = []
for r in runs:
    k = next((i for i, l in enumerate(r) if is_rule(l)), None)
    if k is None:
        continue
    firsts = [l.split()[0] for l in r[k + 1:] if not l.startswith("  (")]
    tables.append((r[0].startswith("  "), firsts))
print(sum(1 for a, b in zip(tables, tables[1:]) if b[0] and a[1] == b[1]))
EOF
}

ex=$(cd "$src/examples" && ls ./*.json)
golden=$(for d in $docs; do case $d in E:*) echo "$src/examples/${d#E:}" ;; F:*) echo "$fx/${d#F:}" ;; esac; done)
for d in $(for e in $ex; do echo "$src/examples/${e#./}"; done) $golden; do
    COLUMNS=80 "$bin" report "$d" --fail-on never >"$tmp/out" 2>"$tmp/err" || { bad "$d: report failed"; continue; }
    n=$(over80 "$tmp/out")
    [ "$n" -eq 0 ] && ok || bad "$(basename "$d"): $n lines over 80: $(awk 'length($0) > 80' "$tmp/out" | head -2)"
    s=$(split_tables "$tmp/out")
    [ "$s" -eq 0 ] && ok || bad "$(basename "$d"): $s tables split into blocks"
    grep -q "^Verdict: " "$tmp/out" && ok || bad "$(basename "$d"): no verdict at 80 columns"
    COLUMNS=80 "$bin" plan "$d" >"$tmp/plan" 2>/dev/null
    [ "$(over80 "$tmp/plan")" -eq 0 ] && ok || bad "$(basename "$d"): plan over 80"
done

# the same check sees a split table and a long line (a test that can fail)
printf 'T\n  a b\n  - -\n  x 1\n  y 2\n\n  a c\n  - -\n  x 3\n  y 4\n' >"$tmp/split"
[ "$(split_tables "$tmp/split")" -eq 1 ] && ok || bad "split_tables misses a split table"

# a wide table says what it left out; the collectives keep their entry and status
COLUMNS=80 "$bin" report "$src/examples/h200x2-run.json" >"$tmp/out"
grep -q "^  (left out at 80 columns: bytes, nranks" "$tmp/out" && ok || bad "no left-out note under the collectives"
grep -q "^  entry .* status$" "$tmp/out" && ok || bad "collectives lost entry or status at 80"

# help of every command, and the man page
cmds=$("$bin" help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
"$bin" --help >"$tmp/help" 2>&1
[ "$(over80 "$tmp/help")" -eq 0 ] && ok || bad "linkscope --help over 80"
for c in $cmds; do
    "$bin" "$c" --help >"$tmp/help" 2>&1
    n=$(over80 "$tmp/help")
    [ "$n" -eq 0 ] && ok || bad "$c --help: $n lines over 80: $(awk 'length($0) > 80' "$tmp/help" | head -1)"
done
bash "$src/packaging/gen-docs.sh" "$bin" "$tmp/man" >/dev/null
MANWIDTH=80 MAN_KEEP_FORMATTING=0 man -l "$tmp/man/linkscope.1" 2>/dev/null | col -b >"$tmp/man.txt"
[ "$(wc -l <"$tmp/man.txt")" -gt 100 ] && ok || bad "man page did not render"
n=$(over80 "$tmp/man.txt")
[ "$n" -eq 0 ] && ok || bad "man page at MANWIDTH=80: $n lines over 80: $(awk 'length($0) > 80' "$tmp/man.txt" | head -1)"

echo "test_width80: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
