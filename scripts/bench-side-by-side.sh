#!/usr/bin/env bash
# linkscope beside the established tools, on one machine, in one call, interleaved:
# each round runs linkscope (A) then the reference tool (B) for every figure, A B A B.
#   HBM copy            linkscope hbm (copy_ce)      nvbandwidth device_local_copy
#   pinned host copies  linkscope host               nvbandwidth host_to_device / device_to_host_memcpy_ce
#   latency             linkscope latency            nvbandwidth host_device_latency_sm,
#                                                    device_to_device_latency_sm (2+ GPUs),
#                                                    p2pBandwidthLatencyTest (2+ GPUs)
#   P2P (2+ GPUs)       linkscope p2p (ce)           nvbandwidth device_to_device_*_ce
#   collectives         linkscope nccl COLL          nccl-tests COLL_perf, same -b -e -f -g
#                       linkscope run (2+ GPUs)      the same round's nccl-tests, and
#                                                    nccl-tests -t N -g 1 (a thread per GPU,
#                                                    as the run launches)
# Then scripts/side-by-side-table.py turns OUT/raw into OUT/samples.json (every round's
# figure of each side) and OUT/side-by-side.md (one ratio table per figure, with spreads).
#
# Usage: bench-side-by-side.sh OUT_DIR [ROUNDS]    (ROUNDS default 3)
# Environment: LINKSCOPE (default ./linkscope), ANCHORS (folder of the reference
# binaries, default /tmp/anchors), TABLE (side-by-side-table.py, default beside this
# script), NCCL_MAX (largest collective size, default 1G), ONLY (space-separated subset
# of: hbm host latency p2p nccl run).
set -u
out=${1:?usage: bench-side-by-side.sh OUT_DIR [ROUNDS]}
nrounds=${2:-3}
ls_bin=${LINKSCOPE:-./linkscope}
anchors=${ANCHORS:-/tmp/anchors}
table=${TABLE:-$(dirname "$0")/side-by-side-table.py}
nccl_max=${NCCL_MAX:-1G}
only=${ONLY:-hbm host latency p2p nccl run}
raw=$out/raw
mkdir -p "$raw"
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off on shared machines
export CUDA_DEVICE_ORDER=PCI_BUS_ID

ngpus=$(nvidia-smi -L | grep -c '^GPU')
want() { [[ " $only " == *" $1 "* ]]; }
say() { echo "[$(date +%T)] $*"; }
# step NAME CMD...: runs one side, output to raw/NAME.log, one line with its time
step() {
    local name=$1; shift
    local t0=$(date +%s%N)
    "$@" > "$raw/$name.log" 2>&1
    local rc=$?
    say "$name rc=$rc $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}

machine_json() {
    local name driver nccl
    name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
    # nccl-tests' header: "nccl-library=22803" is NCCL 2.28.3
    nccl=$(grep -ho 'nccl-library=[0-9]*' "$raw"/nt-*.txt 2>/dev/null | head -1 |
           awk -F= '{v=$2; printf "%d.%d.%d", v/10000, (v%10000)/100, v%100}')
    cat > "$raw/machine.json" <<EOF
{"gpus": "$ngpus x $name", "driver": "$driver", "nccl": "${nccl:-unknown}",
 "cpus": $(nproc), "date": "$(date -u +%Y-%m-%d)", "rounds": $nrounds,
 "linkscope": "$("$ls_bin" --version 2>&1 | head -1)"}
EOF
}

g=$ngpus
for r in $(seq 1 "$nrounds"); do
    say "round $r of $nrounds ($ngpus GPUs)"
    if want hbm; then
        step "ls-hbm-$r" "$ls_bin" hbm -o "$raw/ls-hbm-$r.json"
        step "nvb-hbm-$r" sh -c "$anchors/nvbandwidth -j -t device_local_copy > $raw/nvb-hbm-$r.json"
    fi
    if want host; then
        step "ls-host-$r" "$ls_bin" host -o "$raw/ls-host-$r.json"
        step "nvb-host-$r" sh -c "$anchors/nvbandwidth -j -t host_to_device_memcpy_ce device_to_host_memcpy_ce > $raw/nvb-host-$r.json"
    fi
    if want latency; then
        step "ls-latency-$r" "$ls_bin" latency -o "$raw/ls-latency-$r.json"
        lat="host_device_latency_sm"
        [ "$ngpus" -ge 2 ] && lat="$lat device_to_device_latency_sm"
        step "nvb-latency-$r" sh -c "$anchors/nvbandwidth -j -t $lat > $raw/nvb-latency-$r.json"
        [ "$ngpus" -ge 2 ] && step "p2pblt-$r" sh -c "$anchors/p2pBandwidthLatencyTest > $raw/p2pblt-$r.txt"
    fi
    if want p2p && [ "$ngpus" -ge 2 ]; then
        step "ls-p2p-$r" "$ls_bin" p2p -o "$raw/ls-p2p-$r.json"
        step "nvb-p2p-$r" sh -c "$anchors/nvbandwidth -j -t device_to_device_memcpy_write_ce device_to_device_memcpy_read_ce device_to_device_bidirectional_memcpy_write_ce device_to_device_bidirectional_memcpy_read_ce > $raw/nvb-p2p-$r.json"
    fi
    if want nccl; then
        for c in all_reduce all_gather reduce_scatter alltoall; do
            step "ls-nccl-$c-$r" "$ls_bin" nccl "$c" -b 8 -e "$nccl_max" -f 2 -g "$g" -o "$raw/ls-nccl-$c-$r.json"
            step "nt-$c-$r" sh -c "$anchors/${c}_perf -b 8 -e $nccl_max -f 2 -g $g > $raw/nt-$c-$r.txt"
        done
    fi
    if want run && [ "$ngpus" -ge 2 ]; then
        step "ls-run-$r" "$ls_bin" run --no-report -o "$raw/ls-run-$r.json"
        # the run launches from one thread per GPU: nccl-tests' like-for-like is -t N -g 1
        for c in all_reduce all_gather reduce_scatter alltoall; do
            step "ntt-$c-$r" sh -c "$anchors/${c}_perf -b 8 -e $nccl_max -f 2 -t $g -g 1 > $raw/ntt-$c-$r.txt"
        done
    fi
done
machine_json
python3 "$table" extract "$raw" > "$out/samples.json" && python3 "$table" table "$out/samples.json" > "$out/side-by-side.md"
say "tables in $out/side-by-side.md"
