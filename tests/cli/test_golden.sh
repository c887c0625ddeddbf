#!/usr/bin/env bash
# Golden outputs (issue 10): every report, plan, compare, topo, import and tp output in
# tests/golden/cases.sh must equal the committed bytes in tests/golden/out/.
bin=$(realpath "$1")
unset COLUMNS # the golden texts are at the 100 columns of a pipe
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/cli/lib.sh"
. "$here/golden/cases.sh"
cd "$here"
# The building commit (software.linkscope.commit of import's documents) moves with every
# commit: it is the one field compared as a placeholder.
mask() { sed -E 's/("commit": )"[^"]*"/\1"COMMIT"/' "$1"; }
while IFS='|' read -r name args; do
    golden_run "$bin" fixtures ../examples "$args" >"$tmp/got" 2>/dev/null
    rc=$?
    want_rc=$(awk -v n="$name" '$2 == n { print $1 }' golden/out/RC)
    if [ "$rc" != "$want_rc" ]; then
        bad "$name: exit $rc, golden $want_rc"
    elif ! cmp -s <(mask "$tmp/got") <(mask "golden/out/$name"); then
        bad "$name differs: $(diff "golden/out/$name" "$tmp/got" | head -5)"
    else
        ok
    fi
done < <(golden_cases)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
