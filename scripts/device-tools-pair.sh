#!/usr/bin/env bash
# Real samples for issue 28 that only a GPU machine can give: one nccl-tests run writing
# its text and its -J JSON at once (the pair `compare` must call equal), with -I 1
# per-iteration data, and with -K 2 (2.19.6's summary skip). Uses the reference
# nccl-tests of shared/anchors (NVIDIA/nccl-tests a0b82b2, the JSON writer's source);
# then, where a linkscope binary is beside it (scripts/stage-device.sh), imports both
# files and compares them. Everything under OUT_DIR comes back: the text and JSON files
# are the fixtures (tests/fixtures/tools/, their source "this script on the lent H200").
# usage: device-tools-pair.sh OUT_DIR
set -u
out=${1:?usage: device-tools-pair.sh OUT_DIR}
mkdir -p "$out"
tarball=${ANCHORS_TGZ:-shared/anchors/bin.tar.gz}
[ -f "$tarball" ] || tarball=../shared/anchors/bin.tar.gz
a=/tmp/anchors; mkdir -p "$a" && tar xzf "$tarball" -C "$a" || { echo "no anchors: $tarball"; exit 1; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$PWD:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
g=$(nvidia-smi -L | grep -c '^GPU')
ls_bin=${LINKSCOPE:-./linkscope}
{
nvidia-smi -L
run() { # name, tool, extra flags...
    local name=$1 tool=$2; shift 2
    timeout 300 "$a/$tool" -b 64M -e 1G -f 4 -g "$g" -n 20 -w 5 -J "$out/$name.json" "$@" > "$out/$name.txt" 2>&1
    echo "$name rc=$? $(grep -c '' "$out/$name.txt") text lines, JSON $(wc -c < "$out/$name.json" 2>/dev/null || echo 0) bytes"
}
run all_reduce-I1 all_reduce_perf -I 1
run all_reduce-I1-K2 all_reduce_perf -I 1 -K 2
run all_gather all_gather_perf
if [ -x "$ls_bin" ]; then
    for n in all_reduce-I1 all_gather; do
        "$ls_bin" import "$out/$n.txt" -o "$out/$n-text.json" && "$ls_bin" import "$out/$n.json" -o "$out/$n-json.json" &&
            "$ls_bin" compare "$out/$n-text.json" "$out/$n-json.json" > "$out/$n-compare.txt" 2>&1
        echo "$n compare rc=$? (0: equal) verdicts: $(grep -oE ' (same|better|worse|regression|improvement)$' "$out/$n-compare.txt" | sort | uniq -c | tr '\n' ' ')"
    done
    "$ls_bin" import "$out/all_reduce-I1.json" -o "$out/iter.json" && "$ls_bin" report "$out/iter.json" --fail-on never | grep -E "Verdict|straggler"
fi
} 2>&1 | tee "$out/log.txt"
