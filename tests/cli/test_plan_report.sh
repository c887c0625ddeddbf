#!/usr/bin/env bash
# linkscope plan and linkscope report on the analysis fixtures: exit codes, --fail-on,
# every format, the same bytes on every run, one-line errors with exit 2 on bad input.
# args: LINKSCOPE_BINARY FIXTURES_DIR
set -uo pipefail
bin=$1
fx=$2/analyze
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect RC CMD...: runs CMD, checks its exit code, keeps stdout/stderr in $tmp/out, $tmp/err
expect() {
    local want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; stderr: $(head -3 "$tmp/err")"
}
one_line_error() {
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "expected one line on stderr, got: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "expected nothing on stdout"
}

# plan: seed 000 says what its author concluded
expect 0 "$bin" plan "$fx/seed000-gv100x11.json"
grep -q "Cleanest island: GPUs 0-4 (PIX" "$tmp/out" || fail "seed 000: island 0-4 not named"
grep -q "Fastest pair: GPUs 7 and 9 (NV4" "$tmp/out" || fail "seed 000: pair 7-9 not named"
grep -q "Keep GPU 10 out of synchronous groups" "$tmp/out" || fail "seed 000: GPU 10 not kept out"
grep -q "Memory-bound single-GPU work: GPUs 6,8" "$tmp/out" || fail "seed 000: GPUs 6 and 8 not named"
grep -q "From 6 GPUs the best ring drops a step" "$tmp/out" || fail "seed 000: the 6-GPU step not named"

# --fail-on: seed 000 has warnings but no error; seed 004 has an error; the even box none
expect 0 "$bin" plan "$fx/seed000-gv100x11.json" --fail-on error
expect 1 "$bin" plan "$fx/seed000-gv100x11.json" --fail-on warning
expect 1 "$bin" plan "$fx/seed004-nvlink8-degraded.json" --fail-on error
grep -q "degraded_link" "$tmp/out" || fail "seed 004: degraded link not printed"
expect 0 "$bin" plan "$fx/hgx-h200x8-even.json" --fail-on info
grep -q "none: every rule passed" "$tmp/out" || fail "even box: findings printed"
expect 0 "$bin" plan "$fx/h200x2-anchors.json" --fail-on warning
grep -q "The pair: GPUs 0 and 1 (NV18" "$tmp/out" || fail "2 GPUs: the one pair not named as such"
! grep -q "only one of its speed" "$tmp/out" || fail "2 GPUs: 'the only one of its speed' said of the only pair"
grep -q "(both directions, GB/s; 1 pair within" "$tmp/out" || fail "2 GPUs: '1 pairs'"

# --json is the analysis as JSON
expect 1 "$bin" plan --json "$fx/seed004-nvlink8-degraded.json"
grep -q '"rule": "degraded_link"' "$tmp/out" || fail "plan --json lacks the finding"
grep -q '"best_hbm_gpus"' "$tmp/out" || fail "plan --json lacks the plan"

# bad input: one line, exit 2
expect 2 "$bin" plan "$tmp/missing.json"; one_line_error
printf '{"schema": "linkscope.run/1", "created": ' >"$tmp/trunc.json"
expect 2 "$bin" plan "$tmp/trunc.json"; one_line_error
grep -q "trunc.json" "$tmp/err" || fail "the error does not name the file"
echo '{"hello": 1}' >"$tmp/foreign.json"
expect 2 "$bin" report "$tmp/foreign.json"; one_line_error
expect 2 "$bin" plan "$fx/seed000-gv100x11.json" --fail-on fatal; one_line_error
expect 2 "$bin" report "$fx/seed000-gv100x11.json" --format pdf; one_line_error
expect 2 "$bin" report "$fx/seed000-gv100x11.json" -o "$tmp/x.csv"; one_line_error
[ ! -e "$tmp/x.csv" ] || fail "report -o x.csv wrote a terminal report into a .csv file"
expect 2 "$bin" report "$fx/seed000-gv100x11.json" --colour; one_line_error
expect 2 "$bin" report; one_line_error
expect 2 "$bin" report "$fx/seed000-gv100x11.json" -o "$tmp/no/such/dir/r.html"; one_line_error
[ ! -e "$tmp/no" ] || fail "a failed write left something behind"

# every format, twice: the same bytes
for f in seed000-gv100x11 seed004-nvlink8-degraded hgx-h200x8-even h200x2-anchors; do
    for fmt in term md html; do
        expect 0 "$bin" report "$fx/$f.json" --fail-on never --format $fmt -o "$tmp/$f.$fmt.1"
        expect 0 "$bin" report "$fx/$f.json" --fail-on never --format $fmt -o "$tmp/$f.$fmt.2"
        cmp -s "$tmp/$f.$fmt.1" "$tmp/$f.$fmt.2" || fail "$f: $fmt differs between runs"
        [ -s "$tmp/$f.$fmt.1" ] || fail "$f: empty $fmt report"
    done
    expect 0 "$bin" report "$fx/$f.json" --fail-on never --format csv -o "$tmp/$f-csv"
    for c in boards_clocks p2p_paths collectives hbm host_copies latency; do
        [ -s "$tmp/$f-csv/$c.csv" ] || fail "$f: $c.csv missing"
    done
done
# the format follows -o's extension; stdout carries the same bytes as -o
expect 0 "$bin" report "$fx/seed000-gv100x11.json" -o "$tmp/r.html"
head -1 "$tmp/r.html" | grep -q '<!DOCTYPE html>' || fail "-o r.html did not give HTML"
expect 0 "$bin" report "$fx/seed000-gv100x11.json" --format html
cmp -s "$tmp/out" "$tmp/r.html" || fail "stdout and -o differ"
expect 0 "$bin" report "$fx/seed000-gv100x11.json" -o "$tmp/r.md"
grep -q '^## Findings' "$tmp/r.md" || fail "-o r.md did not give Markdown"
grep -q '^| GPU0 | X | PIX | PIX | PIX | PIX | PHB' "$tmp/r.md" || fail "Markdown topology row wrong"

# CSV content: seed 000's boards and the 7 <-> 9 NV4 path
grep -q '^7,Quadro GV100,' "$tmp/seed000-gv100x11-csv/boards_clocks.csv" || fail "boards_clocks.csv lacks GPU 7"
grep -q '^7,9,NV4,NV,OK,OK,96.84,' "$tmp/seed000-gv100x11-csv/p2p_paths.csv" || fail "p2p_paths.csv lacks 7->9"
[ "$(wc -l <"$tmp/seed000-gv100x11-csv/p2p_paths.csv")" -eq 111 ] || fail "p2p_paths.csv: not 110 pairs + header"
grep -q '^nccl-all_reduce-4,all_reduce,default,"0,1,2,3,4",5,1073741824,153803.66,6.98,11.17,0,' \
    "$tmp/seed000-gv100x11-csv/collectives.csv" || fail "collectives.csv lacks the 5-GPU run"
# the HBM, host-copy and latency tables, at the shortest decimal that reads back
expect 0 "$bin" report "$src/examples/h200x2-run.json" --format csv -o "$tmp/ex-csv"
grep -q '^0,read,4491.89988543862,' "$tmp/ex-csv/hbm.csv" || fail "hbm.csv lacks GPU 0's read at full precision"
[ "$(wc -l <"$tmp/ex-csv/hbm.csv")" -eq 9 ] || fail "hbm.csv: not 8 entries + header"
grep -q '^0,0,h2d,pinned,55.50928831445208,.*,host-h2d-pinned-0-node0,ok$' "$tmp/ex-csv/host_copies.csv" ||
    fail "host_copies.csv lacks GPU 0's pinned h2d"
grep -q '^pointer_chase,0,,yes,1.200776,' "$tmp/ex-csv/latency.csv" || fail "latency.csv: the host is not an empty dst"
python3 - "$tmp/ex-csv/"*.csv <<'PY' || fail "a CSV figure with more digits than a double needs"
import csv, re, sys
for path in sys.argv[1:]:
    for row in csv.reader(open(path)):
        for cell in row:
            if re.fullmatch(r"-?[0-9.]+(e[-+][0-9]+)?", cell) and "." in cell:
                mantissa = re.sub(r"e.*", "", cell).replace("-", "").replace(".", "").lstrip("0")
                assert len(mantissa) <= 17 and float(cell) == float(repr(float(cell))), (path, cell)
PY
expect 0 "$bin" report "$fx/h200x2-anchors.json" --format csv
grep -q '^# collectives.csv' "$tmp/out" || fail "csv to stdout lacks the file markers"
# -o NAME.csv is one file (what stdout holds), never a folder of that name
cp "$tmp/out" "$tmp/csv-stdout"
expect 0 "$bin" report "$fx/h200x2-anchors.json" --format csv -o "$tmp/one.csv"
[ -f "$tmp/one.csv" ] && cmp -s "$tmp/one.csv" "$tmp/csv-stdout" || fail "-o one.csv is not the stdout CSV in one file"
# one value per column at full precision: no "1980/1980", no "Gen5 x16 (Gen5 x16)"
expect 0 "$bin" report "$src/examples/h200x2-run.json" --format csv
grep -qE '[0-9]/[0-9]|\(Gen' "$tmp/out" && fail "a CSV cell holds two values"
grep -q '^0,1,NV18,NV,OK,OK,396.8431971784546,83.00075235891713,p2p-ce-uni-0-1,783.8458461387422,0.706024,ok$' "$tmp/out" ||
    fail "p2p_paths.csv not at full precision"

# the terminal report carries findings, plan and the matrices
expect 1 "$bin" report "$fx/seed004-nvlink8-degraded.json"
grep -q "GPU0->GPU4 .* GB/s is .* of the median" "$tmp/out" || fail "term report lacks the degraded pair"
grep -q "P2P bandwidth, GB/s, one direction, GPU(row) -> GPU(column)" "$tmp/out" || fail "term report lacks the P2P matrix"
echo "plan and report: all checks passed"
