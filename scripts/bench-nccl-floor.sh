#!/usr/bin/env bash
# Where a small collective's time goes, nccl-tests and linkscope nccl side by side
# (all_reduce 8 B - 64 KiB, -n 400 -w 20), one process after another:
#   1. both tools, several processes in turn: each process lands on one of two floors
#   2. CUDA graph replay (-G 10): the device time, without the host's launch
#   3. linkscope under settings that could move the floor (telemetry off, NCCL's log
#      capture off, ASLR off, CUDA_DEVICE_MAX_CONNECTIONS, NCCL_GRAPH_MIXING_SUPPORT=0)
#   4. with two or more GPUs: one launching thread for all GPUs against one per GPU,
#      in both tools (nccl-tests -g N against -t N -g 1)
#   5. PER_CPU=1: the whole process on each CPU in turn (taskset)
# One line per process: mean time over the sizes, out-of-place and in-place, and for
# linkscope the host time per launch (launch_us) and the launching thread's CPU.
# Usage: bench-nccl-floor.sh OUT_DIR [NGPUS]   (ANCHORS, LINKSCOPE as bench-side-by-side.sh)
set -u
out=${1:?usage: bench-nccl-floor.sh OUT_DIR [NGPUS]}
g=${2:-$(nvidia-smi -L | grep -c '^GPU')}
ls_bin=${LINKSCOPE:-./linkscope}
anchors=${ANCHORS:-/tmp/anchors}
raw=$out/floor
mkdir -p "$raw"
export NCCL_NVLS_ENABLE=0
base="-b 8 -e 64K -f 4 -n 400 -w 20"
k=0
nt() { # label, extra tool flags (one word), env/taskset prefix...
    local label=$1 flags=$2; shift 2; k=$((k + 1))
    env "$@" "$anchors/all_reduce_perf" $base $flags > "$raw/$k-nt.txt" 2>&1
    python3 - "$raw/$k-nt.txt" "nt $label" <<'PY'
import sys
rows = [f for f in (l.split() for l in open(sys.argv[1])) if len(f) >= 13 and f[0].isdigit()]
if rows:
    m = lambda c: sum(float(f[c]) for f in rows) / len(rows)
    print(f"{sys.argv[2]:<46} oop {m(-8):6.2f} us  ip {m(-4):6.2f} us")
else:
    print(f"{sys.argv[2]:<46} no rows")
PY
}
lsc() { # label, extra linkscope flags (one word), env/taskset prefix...
    local label=$1 flags=$2; shift 2; k=$((k + 1))
    env "$@" "$ls_bin" nccl all_reduce $base $flags -o "$raw/$k-ls.json" > "$raw/$k-ls.txt" 2>&1
    python3 - "$raw/$k-ls.json" "ls $label" <<'PY'
import json, sys
try:
    e = [m for m in json.load(open(sys.argv[1]))["measurements"] if m.get("family") == "nccl"][0]
except Exception as x:
    print(f"{sys.argv[2]:<46} failed: {x}"); sys.exit()
r = e["rows"]
m = lambda p, k: sum(x[p].get(k, 0) for x in r) / len(r)
h = e.get("host_threads", {})
print(f"{sys.argv[2]:<46} oop {m('oop', 'time_us'):6.2f} us  ip {m('ip', 'time_us'):6.2f} us"
      f"  launch oop {m('oop', 'launch_us'):6.2f} us  cpu {h.get('launch_cpu')}  {e.get('launch')} {e['status']}")
PY
}
echo "== 1. processes in turn ($g GPUs)"
for i in 1 2 3 4 5 6; do nt "#$i" "-g $g"; lsc "#$i" "-g $g"; done
echo "== 2. CUDA graph replay, 10 launches of 40 captured iterations"
for i in 1 2 3; do
    nt "graph #$i" "-g $g -n 40 -w 5 -G 10"; lsc "graph #$i" "-g $g -n 40 -w 5 -G 10"
done
echo "== 3. linkscope under settings that could move the floor"
for i in 1 2; do
    lsc "telemetry off #$i" "-g $g" LINKSCOPE_TELEMETRY_MS=0
    lsc "NCCL log capture off #$i" "-g $g" NCCL_DEBUG=WARN
    lsc "ASLR off #$i" "-g $g" setarch "$(uname -m)" -R
    lsc "CUDA_DEVICE_MAX_CONNECTIONS=1 #$i" "-g $g" CUDA_DEVICE_MAX_CONNECTIONS=1
    lsc "CUDA_DEVICE_MAX_CONNECTIONS=32 #$i" "-g $g" CUDA_DEVICE_MAX_CONNECTIONS=32
    lsc "NCCL_GRAPH_MIXING_SUPPORT=0 #$i" "-g $g" NCCL_GRAPH_MIXING_SUPPORT=0
done
if [ "$g" -ge 2 ]; then
    echo "== 4. one launching thread for all GPUs, or one per GPU"
    for i in 1 2 3; do
        nt "-g $g (one thread) #$i" "-g $g"; nt "-t $g -g 1 (thread per GPU) #$i" "-t $g -g 1"
        lsc "--launch group #$i" "-g $g"; lsc "--launch threads #$i" "-g $g --launch threads"
    done
fi
if [ "${PER_CPU:-0}" = 1 ]; then
    echo "== 5. the whole process on one CPU (taskset)"
    for c in $(seq 0 $(( $(nproc) - 1 ))); do
        nt "taskset -c $c" "-g $g" taskset -c "$c"; lsc "taskset -c $c" "-g $g" taskset -c "$c"
    done
fi
