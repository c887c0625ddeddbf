#!/usr/bin/env bash
# linkscope nccl beside nccl-tests on the same machine: the sweeps of the reference
# runs (tests/fixtures/h200x2/nccl-tests-*.txt), busbw side by side with the ratio,
# and the 8 B time. Usage: scripts/bench-nccl.sh [LINKSCOPE] [FIXTURES_DIR] [OUT_DIR]
set -u
ls_bin=${1:-./linkscope}
fixtures=${2:-tests/fixtures/h200x2}
out=${3:-.}
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off on shared machines

run() { # collective, flags...
    local coll=$1; shift
    echo "\$ $ls_bin nccl $coll $* -o $out/bench-$coll.json"
    "$ls_bin" nccl "$coll" "$@" -o "$out/bench-$coll.json" || echo "(exit $?)"
}
run all_reduce -b 8 -e 8G -f 2 -g 2
run all_gather -b 1M -e 4G -f 4 -g 2
run alltoall -b 1M -e 4G -f 4 -g 2

python3 - "$fixtures" "$out" <<'PY'
import json, sys
fixtures, out = sys.argv[1], sys.argv[2]
def nccl_tests(path):
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 13 and f[0].isdigit():
            rows[int(f[0])] = (float(f[5]), float(f[7]), float(f[9]), float(f[11]))
    return rows
worst = 1.0
for coll in ("all_reduce", "all_gather", "alltoall"):
    ref = nccl_tests(f"{fixtures}/nccl-tests-{coll}.txt")
    doc = json.load(open(f"{out}/bench-{coll}.json"))
    e = [m for m in doc["measurements"] if m.get("collective") == coll][0]
    print(f"\n{coll}: busbw GB/s, linkscope / nccl-tests 2.19.6 (same NCCL); status {e['status']}")
    print(f"{'size (B)':>12} {'ls oop':>8} {'nt oop':>8} {'ratio':>6} {'ls ip':>8} {'nt ip':>8} {'ratio':>6}  {'ls us':>8} {'nt us':>8}")
    for r in e["rows"]:
        b = r["bytes"]
        if b not in ref:
            continue
        t_nt, oop_nt, _, ip_nt = ref[b]
        oop, ip = r["oop"]["busbw"], r["ip"]["busbw"]
        ro = oop / oop_nt if oop_nt else float("nan")
        ri = ip / ip_nt if ip_nt else float("nan")
        if b >= (1 << 20):
            worst = min(worst, ro, ri)
        print(f"{b:>12} {oop:8.2f} {oop_nt:8.2f} {ro:6.3f} {ip:8.2f} {ip_nt:8.2f} {ri:6.3f}  {r['oop']['time_us']:8.2f} {t_nt:8.2f}")
print(f"\nlowest ratio from 1 MiB up: {worst:.3f}")
PY
