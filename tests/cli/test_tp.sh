#!/usr/bin/env bash
# linkscope tp: the seed-001 table, run-document sources, JSON and document output, and
# one-line errors with exit 2 for bad options.
# args: linkscope binary, fixtures dir
set -u
bin=$1
fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_usage DESCRIPTION NEEDLE ARGS...: exit 2, one stderr line containing NEEDLE, no stdout
expect_usage() {
    local what=$1 needle=$2
    shift 2
    "$bin" tp "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, expected 2"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: expected one stderr line, got: $(cat "$tmp/err")"
    grep -qF -- "$needle" "$tmp/err" || fail "$what: stderr lacks '$needle': $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "$what: wrote to stdout"
}

seed=(--model llama3.3-70b --tp 2 --prompt 3200,12900,51400 --output 256
      --link name=PCIe,bw=5.2,lat=22.1 --link name=NVLink,bw=122.7,lat=17.5)

# The seed-001 table: sizes, counts and the PCIe - NVLink prefill difference.
"$bin" tp "${seed[@]}" >"$tmp/seed.txt" 2>"$tmp/err" || fail "seed command: exit $?"
grep -q "prefill 160 all-reduces of 52428800 B (50 MiB); decode step 160 of 16384 B" "$tmp/seed.txt" \
    || fail "seed: sizes of the 3200-token prompt"
grep -q "all-reduces of 842137600 B" "$tmp/seed.txt" || fail "seed: size of the 51400-token prompt"
# 160 x (44.2 us + 52428800 B / 5.2 GB/s) = 1620 ms on PCIe
grep -qE "^  PCIe +\| +1620 " "$tmp/seed.txt" || fail "seed: PCIe prefill comm of 1620 ms"
grep -qE "^  PCIe / NVLink +\| +21\.9" "$tmp/seed.txt" || fail "seed: prefill ratio 21.9x"
[ ! -s "$tmp/err" ] || fail "seed: stderr not empty: $(cat "$tmp/err")"

# rtt= is a round trip: lat = rtt/2 gives the same answer as lat=
"$bin" tp --hidden 8192 --layers 80 --tp 2 --prompt 3200 --link name=A,bw=5.2,rtt=44.2 >"$tmp/rtt.txt" \
    || fail "rtt: exit $?"
grep -qE "^  A +\| +1620 " "$tmp/rtt.txt" || fail "rtt: rtt=44.2 should equal lat=22.1"

# Compute given: totals and shares.
"$bin" tp "${seed[@]}" --compute-ms 34.2 --prefill-compute-ms 3936,22690,200100 >"$tmp/c.txt" \
    || fail "compute: exit $?"
grep -q "comm %" "$tmp/c.txt" || fail "compute: no share column"

# A run document: the measured curve, a variant, and a link in one table.
run=$fx/tp/h200x2-allreduce.json
syn=$fx/tp/synthetic-variants.json
"$bin" tp --model llama3-8b --tp 2 --prompt 1000 --batch 1,8 --run "$run" --gpus 1,0 --name H200 \
    --run "$syn" --variant NCCL_P2P_DISABLE=1 --name p2p-off --link bw=26,lat=10 >"$tmp/run.txt" \
    2>"$tmp/err" || fail "run: exit $? $(cat "$tmp/err")"
grep -q "nccl all_reduce 'nccl-all_reduce-0-1'" "$tmp/run.txt" || fail "run: curve origin"
grep -q "nccl-all_reduce-0-1-p2p-off" "$tmp/run.txt" || fail "run: variant entry"
grep -q "H200 / p2p-off" "$tmp/run.txt" || fail "run: ratio row"
grep -q "the fit over all of them t = " "$tmp/run.txt" || fail "run: the fit is shown"
grep -q "above them, the fit of the sizes within x32 of the largest" "$tmp/run.txt" || fail "run: the end fit is shown"
# llama3-8b decode at batch 1: 4096 x 2 B = 8192 B, measured in the curve (14.19 us)
grep -qE "^  8192 \(8 KiB\) +14\.19 m" "$tmp/run.txt" || fail "run: 8192 B read from the curve"

# JSON output
"$bin" tp "${seed[@]}" --json >"$tmp/est.json" || fail "json: exit $?"
grep -q '"allreduces_per_pass": 160' "$tmp/est.json" || fail "json: allreduces_per_pass"
grep -q '"bytes_each": 52428800' "$tmp/est.json" || fail "json: bytes_each"
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/est.json" || fail "json: not valid JSON"
fi

# -o writes a new run document with a tp entry; --into appends to a copy of a run
"$bin" tp "${seed[@]}" -o "$tmp/new.json" >/dev/null 2>&1 || fail "-o: exit $?"
grep -q '"family": "tp"' "$tmp/new.json" || fail "-o: no tp entry"
cp "$run" "$tmp/run.json"
"$bin" tp --model llama3.3-70b --tp 2 --prompt 3200 --run "$tmp/run.json" --into "$tmp/run.json" \
    >/dev/null 2>&1 || fail "--into: exit $?"
grep -q '"family": "tp"' "$tmp/run.json" || fail "--into: no tp entry"
"$bin" tp --model llama3.3-70b --tp 2 --prompt 3200 --run "$tmp/run.json" >/dev/null \
    || fail "--into: the document no longer reads"

# --measure: runs on a GPU machine with NCCL; elsewhere one line and exit 3
"$bin" tp --model llama3-8b --tp 2 --prompt 1000 --measure --gpus 0,1 >"$tmp/m.txt" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 3 ]; then
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "--measure: expected one line, got: $(cat "$tmp/err")"
elif [ "$rc" -eq 0 ]; then
    grep -q "measured" "$tmp/m.txt" || fail "--measure: no measured column"
else
    fail "--measure: exit $rc, expected 0 or 3"
fi

# Bad options: one line, exit 2.
expect_usage "unknown model" "unknown model 'gpt5'" --model gpt5 --tp 2 --prompt 1 --link bw=1,lat=1
expect_usage "no model" "--hidden H and --layers L" --tp 2 --prompt 1 --link bw=1,lat=1
expect_usage "tp 1" "--tp" --model llama3-8b --tp 1 --prompt 1 --link bw=1,lat=1
expect_usage "tp missing" "--tp N" --model llama3-8b --prompt 1 --link bw=1,lat=1
expect_usage "prompt missing" "--prompt" --model llama3-8b --tp 2 --link bw=1,lat=1
expect_usage "bad prompt" "--prompt" --model llama3-8b --tp 2 --prompt 3.2K --link bw=1,lat=1
expect_usage "empty list item" "--batch" --model llama3-8b --tp 2 --prompt 1 --batch 1,,8 --link bw=1,lat=1
expect_usage "bad bytes" "--bytes" --model llama3-8b --bytes 3 --tp 2 --prompt 1 --link bw=1,lat=1
expect_usage "no source" "at least one source" --model llama3-8b --tp 2 --prompt 1
expect_usage "link without bw" "needs bw" --model llama3-8b --tp 2 --prompt 1 --link lat=1
expect_usage "link lat and rtt" "one of lat" --model llama3-8b --tp 2 --prompt 1 --link bw=1,lat=1,rtt=2
expect_usage "link bad key" "'speed=3'" --model llama3-8b --tp 2 --prompt 1 --link bw=1,speed=3
expect_usage "gpus first" "--gpus" --model llama3-8b --tp 2 --prompt 1 --gpus 0,1 --link bw=1,lat=1
expect_usage "unknown option" "unknown option '--frobnicate'" --frobnicate
expect_usage "value missing" "--run needs a value" --model llama3-8b --tp 2 --prompt 1 --run
expect_usage "prefill compute count" "expected 2 values" --model llama3-8b --tp 2 --prompt 1,2 \
    --prefill-compute-ms 5 --link bw=1,lat=1
expect_usage "measure gpus" "--measure needs --gpus" --model llama3-8b --tp 2 --prompt 1 --measure --gpus 0
expect_usage "measure variant" "--variant after --measure" --model llama3-8b --tp 2 --prompt 1 --measure --gpus 0,1 --variant NCCL_P2P_DISABLE=1
expect_usage "missing run file" "nope.json" --model llama3-8b --tp 2 --prompt 1 --run "$tmp/nope.json"
expect_usage "ranks differ" "ran on 2 ranks but --tp is 4" --model llama3-8b --tp 4 --prompt 1 --run "$run"
expect_usage "no such variant" "variant NCCL_ALGO=Tree" --model llama3-8b --tp 2 --prompt 1 --run "$run" \
    --variant NCCL_ALGO=Tree
expect_usage "no such gpus" "the GPUs asked" --model llama3-8b --tp 2 --prompt 1 --run "$run" --gpus 2,3
echo '{"schema": "linkscope.run/1"' >"$tmp/trunc.json"
expect_usage "truncated run" "trunc.json" --model llama3-8b --tp 2 --prompt 1 --run "$tmp/trunc.json"
expect_usage "too large" "more than 1 PiB" --hidden 1048576 --layers 1 --bytes 4 --tp 2 \
    --prompt 100000000 --batch 100000000 --link bw=1,lat=1
"$bin" tp --help | grep -q "^usage: linkscope tp" || fail "--help"
expect_usage "-o and --into" "exclude each other" --model llama3-8b --tp 2 --prompt 1 --link bw=1,lat=1 -o a --into b

[ "$fails" -eq 0 ] && echo "test_tp.sh: all passed"
exit $((fails > 0))
