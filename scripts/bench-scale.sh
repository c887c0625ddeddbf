#!/usr/bin/env bash
# Scale benchmark of the rules (docs/benchmarks.md, "Rules at scale"): builds run
# documents of N measurement entries from an 8-GPU fixture (its p2p, latency, hbm and
# nccl entries repeated with new ids, every repeat's figures moved by a few percent) and
# times `plan` and `report` of each. Not a test: the seconds depend on the machine.
# Usage: scripts/bench-scale.sh [LINKSCOPE [SIZES]]  (defaults: build-rel/linkscope,
# "2500 10000 40000"). Prints one line per command and size, then the ratio per 4x.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build-rel/linkscope}")
sizes=${2:-2500 10000 40000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in $sizes; do
    python3 - "$n" "$tmp/doc-$n.json" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
d = json.load(open("tests/fixtures/analyze/hgx-h200x8-even.json"))
base = d["measurements"]
ms = []
for k in range(n):
    e = json.loads(json.dumps(base[k % len(base)]))
    r = k // len(base)
    e["id"] = "%s-r%d" % (e.get("id", "e"), r)
    if isinstance(e.get("value"), (int, float)) and e["value"] > 0:
        e["value"] = round(e["value"] * (1 + ((k * 7919) % 41 - 20) / 1000.0), 3)
    ms.append(e)
d["measurements"] = ms
json.dump(d, open(out, "w"))
PY
done
printf '%-8s %8s %10s\n' command entries seconds
declare -A t
for cmd in plan report; do
    prev=
    for n in $sizes; do
        s=$(date +%s.%N)
        rc=0
        "$bin" "$cmd" "$tmp/doc-$n.json" --fail-on never >/dev/null 2>"$tmp/err" || rc=$?
        e=$(date +%s.%N)
        sec=$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.2f", b - a }')
        [ "$rc" = 0 ] || { echo "$cmd $n: exit $rc: $(head -1 "$tmp/err")" >&2; exit 1; }
        ratio=
        [ -z "$prev" ] || ratio=$(awk -v a="$prev" -v b="$sec" 'BEGIN { printf "x%.1f", (a > 0 ? b / a : 0) }')
        printf '%-8s %8d %10s %s\n' "$cmd" "$n" "$sec" "$ratio"
        prev=$sec
    done
done
