#!/usr/bin/env bash
# Scale benchmark of the rules and the plan (docs/benchmarks.md, "Rules at scale").
# Builds run documents of N measurement entries from two fixtures, their entries
# repeated with new ids: "even" (tests/fixtures/analyze/hgx-h200x8-even.json, 8 GPUs,
# every repeat's figures moved by at most 2%: a healthy machine) and "faulty"
# (examples/h200x2-run.json, with telemetry, bidirectional and staged P2P, host and
# latency figures, a repeatable quarter of the figures cut to 30% and 60%: many rules
# fire, many findings). Times `plan` and `report` of each: wall seconds, CPU seconds
# (user + system, to the millisecond) and the CPU ratio per 4x entries. Not a test: the
# seconds depend on the machine. More kinds, shapes a rule scanned every entry per entry
# for (docs/safety.md, "Cost"): "oneway" (the even fixture's P2P figures of one
# direction only: no entry has a reverse), "variants" (the even fixture, each all_reduce
# entry a variant of its own) and "noisy" (the even fixture, every figure's spread above
# its limit: the report's status column looked each id up in the plan's noisy list).
# Usage: scripts/bench-scale.sh [LINKSCOPE [SIZES [KINDS]]] (defaults:
# build-rel/linkscope, "2500 10000 40000", "even faulty").
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build-rel/linkscope}")
sizes=${2:-2500 10000 40000}
kinds=${3:-even faulty}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { # KIND N OUT
    python3 - "$@" <<'PY'
import json, sys
kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
src = "examples/h200x2-run.json" if kind == "faulty" else "tests/fixtures/analyze/hgx-h200x8-even.json"
d = json.load(open(src))
base, ms = d["measurements"], []
if kind == "oneway":
    base = [e for e in base if e.get("family") != "p2p" or e["src"] < e["dst"]]
for k in range(n):
    e = json.loads(json.dumps(base[k % len(base)]))
    e["id"] = "%s-r%d" % (e.get("id", "e"), k // len(base))
    if kind == "noisy" and isinstance(e.get("stats"), dict):
        e["stats"]["cv"] = 0.2
        # the rule judges the samples' robust spread (1.4826 x MAD / median): about 30%
        if isinstance(e.get("samples"), list):
            e["samples"] = [s * (0.6, 0.8, 1.0, 1.2, 1.4)[i % 5] for i, s in enumerate(e["samples"])]
    if kind == "variants" and e.get("collective") == "all_reduce":
        e["variant"] = "NCCL_BENCH=%d" % k
    v = e.get("value")
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
        f = (1, 1, 0.3, 0.6)[(k * 7919) % 4] if kind == "faulty" else 1 + ((k * 7919) % 41 - 20) / 1000.0
        e["value"] = round(v * f, 3)
    ms.append(e)
d["measurements"] = ms
json.dump(d, open(out, "w"))
PY
}

# BIN CMD DOC: "WALL CPU" in seconds, CPU = user + system of the child from getrusage
# (microseconds; /usr/bin/time prints user and system each cut to 10 ms, which took up
# to 20 ms, a fifth, off the 90 ms of 2,500 entries and so inflated the first ratio).
run() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys, time
before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
rc = subprocess.run(sys.argv[1:] + ["--fail-on", "never"], stdout=subprocess.DEVNULL).returncode
wall, after = time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
print("%.3f %.3f" % (wall, cpu))
sys.exit(rc if rc >= 0 else 128 - rc)  # a signal: 128 + its number
PY
}

printf '%-7s %-7s %8s %8s %8s %s\n' kind command entries wall_s cpu_s cpu_ratio
for kind in $kinds; do
    for n in $sizes; do gen "$kind" "$n" "$tmp/$kind-$n.json"; done
    for cmd in plan report; do
        prev=
        for n in $sizes; do
            rc=0
            run "$bin" "$cmd" "$tmp/$kind-$n.json" >"$tmp/time" 2>"$tmp/err" || rc=$?
            [ "$rc" = 0 ] || { echo "$cmd $kind $n: exit $rc: $(head -1 "$tmp/err")" >&2; exit 1; }
            read -r wall cpu <"$tmp/time"
            ratio=
            [ -z "$prev" ] || ratio=$(awk -v a="$prev" -v b="$cpu" 'BEGIN { printf "x%.2f", (a > 0 ? b / a : 0) }')
            printf '%-7s %-7s %8d %8s %8s %s\n' "$kind" "$cmd" "$n" "$wall" "$cpu" "$ratio"
            prev=$cpu
        done
    done
done
