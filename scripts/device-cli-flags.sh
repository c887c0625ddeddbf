#!/usr/bin/env bash
# The GPU check of the command table's flags (issue 24, docs/design.md "The command
# layer"), from out/dev (scripts/stage-device.sh stages it; the device call carries
# out/dev):
#     cd out/dev && bash device-cli-flags.sh "$OUT"
# With the GPUs hidden (CUDA_VISIBLE_DEVICES empty) every command that measures is
# refused by the dispatcher in one line, exit 3, nothing written; with them, the same
# commands measure and write through the shared document path: p2p -o, hbm and burn
# --into keeping the entries already there, tp --measure -o, run --quiet, run --dry-run;
# -o beside --into refused (exit 2) before any work.
# Writes OUT/log.txt (one line per check, "ok" or "FAIL") and OUT/logs/.
set -u
out=${1:?usage: device-cli-flags.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
logs=$out/logs
mkdir -p "$logs"
bin=./linkscope
check() { # check NAME CONDITION_RC: one line
    if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fi
}
count() { { grep -c "$1" <"$2"; } 2>/dev/null || true; } # count WORD FILE (0 or nothing: none)
entries() { count '"family"' "$1"; }
{
    nvidia-smi -L
    echo "=== no GPU visible: one line, exit 3, nothing written"
    for cmd in "run" "p2p" "latency" "hbm" "host" "burn --seconds 2" \
        "tp --model llama3-8b --tp 2 --prompt 1000 --measure --gpus 0,1"; do
        rm -f "$logs/none.json"
        # shellcheck disable=SC2086 # the command line is words
        CUDA_VISIBLE_DEVICES='' $bin $cmd -o "$logs/none.json" >/dev/null 2>"$logs/nogpu.err"
        rc=$?
        lines=$(wc -l <"$logs/nogpu.err")
        [ "$rc" -eq 3 ] && [ "$lines" -eq 1 ] && grep -q "no usable GPU" "$logs/nogpu.err" &&
            [ ! -e "$logs/none.json" ]
        check "no GPU: $cmd -> rc $rc, $lines line(s): $(head -1 "$logs/nogpu.err")" $?
    done
    echo "=== with the GPUs"
    $bin p2p --samples 3 -o "$logs/p2p.json" >"$logs/p2p.txt" 2>&1
    rc=$?
    check "p2p -o: rc $rc, $(entries "$logs/p2p.json") entries" \
        "$([ "$rc" -eq 0 ] && [ -s "$logs/p2p.json" ]; echo $?)"
    n0=$(entries "$logs/p2p.json")
    $bin hbm --samples 3 --into "$logs/p2p.json" >"$logs/hbm.txt" 2>&1
    rc=$?
    n1=$(entries "$logs/p2p.json")
    check "hbm --into: rc $rc, entries $n0 -> $n1" "$([ "$rc" -eq 0 ] && [ "$n1" -gt "$n0" ]; echo $?)"
    $bin burn --seconds 3 --into "$logs/p2p.json" >"$logs/burn.txt" 2>&1
    rc=$?
    n2=$(entries "$logs/p2p.json")
    check "burn --into: rc $rc, entries $n1 -> $n2, burn $(count '"burn"' "$logs/p2p.json")" \
        "$([ "$rc" -le 1 ] && [ "$n2" -gt "$n1" ]; echo $?)"
    $bin burn --seconds 2 -o "$logs/a.json" --into "$logs/p2p.json" >/dev/null 2>"$logs/both.err"
    rc=$?
    check "burn -o with --into: rc $rc: $(cat "$logs/both.err")" \
        "$([ "$rc" -eq 2 ] && grep -q 'exclude each other' "$logs/both.err"; echo $?)"
    $bin tp --model llama3-8b --tp 2 --prompt 1000 --measure --gpus 0,1 -o "$logs/tp.json" \
        >"$logs/tp.txt" 2>&1
    rc=$?
    check "tp --measure -o: rc $rc, $(entries "$logs/tp.json") entries" \
        "$([ "$rc" -eq 0 ] && grep -q measured "$logs/tp.txt"; echo $?)"
    $bin run --dry-run >"$logs/dry.txt" 2>&1
    rc=$?
    check "run --dry-run: rc $rc: $(tail -1 "$logs/dry.txt")" "$rc"
    timeout 200 $bin run --quiet --no-nccl -o "$logs/run.json" >"$logs/run.txt" 2>&1
    rc=$?
    check "run --quiet --no-nccl: rc $rc: $(head -1 "$logs/run.txt")" \
        "$([ "$rc" -le 1 ] && [ -s "$logs/run.json" ]; echo $?)"
} 2>&1 | tee "$out/log.txt"
