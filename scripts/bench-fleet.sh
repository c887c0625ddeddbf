#!/usr/bin/env bash
# Times `linkscope fleet` on N run documents made from the bundled run by
# scripts/make-fleet.py (1.5 % noise per figure, three bad nodes), as docs/fleet.md
# reports. Usage: scripts/bench-fleet.sh [N] [OUTDIR]   (LINKSCOPE=path/to/linkscope;
# use a build without sanitizers: they slow JSON parsing several times).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ls_bin=${LINKSCOPE:-build/linkscope}
n=${1:-1000}
out=${2:-bench-fleet}
if [ "$(ls "$out"/run-node-*.json 2>/dev/null | wc -l)" -ne "$n" ]; then
    rm -rf "$out"
    echo "making $n documents in $out ..."
    python3 "$here/make-fleet.py" "$here/../examples/h200x2-run.json" "$out" "$n" --faults --compact
fi
echo "$n documents, $(du -sh "$out" | cut -f1) in all"
for round in 1 2 3; do
    t0=$(date +%s%N)
    rc=0
    "$ls_bin" fleet "$out" --json >"$out.json" || rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo "round $round: $ms ms wall, exit $rc"
done
python3 - "$out.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bad = [(n["node"], n["subjects"]) for n in r["nodes"] if n["outliers"]]
print("figures per model:", len(r["figures"]), "; outlier nodes:", bad)
PY
