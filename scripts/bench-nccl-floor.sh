#!/usr/bin/env bash
# Where the small-collective time goes: nccl-tests and linkscope nccl at 8 B - 64 KiB on
# the same GPUs, (1) with the launching thread on each CPU in turn, (2) unpinned, several
# processes in turn, (3) linkscope with its telemetry thread and its NCCL log capture off,
# and nccl-tests with NCCL's INFO log on. Prints one line per process: the 8 B time, the
# mean over the sizes, and linkscope's host time per launch (launch_us).
# Usage: bench-nccl-floor.sh OUT_DIR [NGPUS]   (ANCHORS, LINKSCOPE as bench-side-by-side.sh)
set -u
out=${1:?usage: bench-nccl-floor.sh OUT_DIR [NGPUS]}
g=${2:-$(nvidia-smi -L | grep -c '^GPU')}
ls_bin=${LINKSCOPE:-./linkscope}
anchors=${ANCHORS:-/tmp/anchors}
raw=$out/floor
mkdir -p "$raw"
export NCCL_NVLS_ENABLE=0
args="-b 8 -e 64K -f 4 -n 400 -w 20 -g $g"
k=0
nt() { # label, env/taskset prefix...
    local label=$1; shift; k=$((k + 1))
    env "$@" "$anchors/all_reduce_perf" $args > "$raw/$k-nt.txt" 2>&1
    python3 - "$raw/$k-nt.txt" "nt $label" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.split() and l.split()[0].isdigit() and len(l.split()) >= 13]
t = [float(f[-8]) for f in rows] + [float(f[-4]) for f in rows]
print(f"{sys.argv[2]:<44} 8B {float(rows[0][-8]):7.2f} us  mean {sum(t)/len(t):7.2f} us" if rows else f"{sys.argv[2]}: no rows")
PY
}
lsc() { # label, env/taskset prefix...
    local label=$1; shift; k=$((k + 1))
    env "$@" "$ls_bin" nccl all_reduce $args -o "$raw/$k-ls.json" > "$raw/$k-ls.txt" 2>&1
    python3 - "$raw/$k-ls.json" "ls $label" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[2]}: {e}"); sys.exit()
e = [m for m in d["measurements"] if m.get("family") == "nccl"][0]
rows = e["rows"]
t = [r[p]["time_us"] for r in rows for p in ("oop", "ip")]
l = [r[p].get("launch_us", 0) for r in rows for p in ("oop", "ip")]
h = e.get("host_threads", {})
nccl = sorted({(x["name"], x["cpu"]) for x in h.get("threads", []) if x["name"].startswith("NCCL")})
print(f"{sys.argv[2]:<44} 8B {rows[0]['oop']['time_us']:7.2f} us  mean {sum(t)/len(t):7.2f} us  launch {sum(l)/len(l):6.2f} us  cpu {h.get('launch_cpu')}->{h.get('launch_cpu_end')} allowed {h.get('launch_allowed')} nccl threads {nccl[:4]}")
PY
}
echo "== machine"; nproc; cat /sys/devices/system/node/online 2>/dev/null; lscpu 2>/dev/null | grep -E 'Model name|Socket|NUMA|Thread|Core'
nvidia-smi topo -m
echo "== unpinned, processes in turn"
for i in 1 2 3 4; do nt "unpinned #$i"; lsc "unpinned #$i"; done
echo "== linkscope variants"
lsc "telemetry off" LINKSCOPE_TELEMETRY_MS=0
lsc "NCCL log capture off" NCCL_DEBUG=WARN
lsc "both off" LINKSCOPE_TELEMETRY_MS=0 NCCL_DEBUG=WARN
nt "NCCL INFO log on" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV,NET NCCL_DEBUG_FILE=/tmp/nt-debug.%p
echo "== each CPU: whole process (taskset), then linkscope's launching thread only"
for c in $(seq 0 $(( $(nproc) - 1 ))); do
    nt "taskset -c $c" taskset -c "$c"
    lsc "taskset -c $c" taskset -c "$c"
    lsc "LINKSCOPE_NCCL_CPU=$c" LINKSCOPE_NCCL_CPU="$c"
done
