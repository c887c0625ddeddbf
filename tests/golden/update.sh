#!/usr/bin/env bash
# Rewrites tests/golden/out/ from BIN (a linkscope binary): only when a change of output
# is intended, and say why in the commit.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "$1")
unset COLUMNS # the golden texts are at the 100 columns of a pipe
. "$here/cases.sh"
mkdir -p "$here/out"
cd "$here/.."
golden_cases | while IFS='|' read -r name args; do
    golden_run "$bin" fixtures ../examples "$args" >"$here/out/$name" 2>/dev/null
    echo "$? $name"
done >"$here/out/RC"
