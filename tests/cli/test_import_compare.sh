#!/usr/bin/env bash
# import, compare, baseline and check from the command line: exit codes, one-line
# errors, nothing written on failure. Arguments: linkscope binary, fixtures dir.
set -u
ls_bin=$1
fx=$2/h200x2
tmp=$(mktemp -d /tmp/linkscope-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect CODE LINES NEEDLE -- command...: exit code, number of stderr lines, text in stderr
expect() {
    local code=$1 lines=$2 needle=$3
    shift 4
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    local n
    n=$(wc -l <"$tmp/err")
    [ "$rc" -eq "$code" ] || fail "'$*': exit $rc, expected $code ($(head -c 300 "$tmp/err"))"
    [ "$lines" = "-" ] || [ "$n" -eq "$lines" ] || fail "'$*': $n stderr lines, expected $lines: $(cat "$tmp/err")"
    [ -z "$needle" ] || grep -qF -- "$needle" "$tmp/err" || fail "'$*': stderr lacks '$needle': $(cat "$tmp/err")"
}

# --- import ---------------------------------------------------------------
expect 0 - "" -- "$ls_bin" import "$fx/nccl-tests-all_reduce.txt" "$fx/p2pBandwidthLatencyTest.txt" -o "$tmp/run.json"
grep -q '"schema": "linkscope.run/1"' "$tmp/run.json" || fail "import wrote no run document"
grep -q '"source": "import"' "$tmp/run.json" || fail "import: no source import"
grep -q '"id": "p2p-ce-uni-0-1"' "$tmp/run.json" || fail "import: no p2p entry"

expect 2 1 "$tmp/nope.txt" -- "$ls_bin" import "$fx/nccl-tests-all_reduce.txt" "$tmp/nope.txt" -o "$tmp/x.json"
[ ! -e "$tmp/x.json" ] || fail "import wrote a document although a file was missing"

printf 'a shopping list\nmilk\n' > "$tmp/notes.txt"
expect 2 1 "unknown format" -- "$ls_bin" import "$fx/nccl-tests-all_reduce.txt" "$tmp/notes.txt" -o "$tmp/x.json"
[ ! -e "$tmp/x.json" ] || fail "import wrote a document although a file was unknown"
grep -qF "notes.txt" "$tmp/err" || fail "unknown-format error does not name the file"

# topo -p2p output alone imports (issue 22): the GPUs of its header, links unknown ("?");
# with topo -m, the words land in its links
expect 0 1 "nvidia-smi topo -p2p" -- "$ls_bin" import "$fx/nvidia-smi-topo-p2p-r.txt" -o "$tmp/x.json"
grep -q '"p2p_status": "OK"' "$tmp/x.json" || fail "topo -p2p alone: no links[].p2p_status"
grep -q '"type": "?"' "$tmp/x.json" || fail "topo -p2p alone: a link type where the text has none"
expect 0 - "" -- "$ls_bin" import "$fx/nvidia-smi-topo-p2p-r.txt" "$fx/nvidia-smi-topo.txt" -o "$tmp/x.json"
grep -q '"p2p_status": "OK"' "$tmp/x.json" || fail "topo -p2p FILE: no links[].p2p_status"

# a partial paste: one warning line naming what was cut, "incomplete" in the document
real=$2/real
expect 0 - "" -- "$ls_bin" import "$real/topo-sglang13973-8xh100-nv18-cut.txt" -o "$tmp/x.json"
grep -q "warning: .*topo-sglang13973-8xh100-nv18-cut.txt: incomplete paste: row GPU6 cut after 6 of 17 cells" "$tmp/err" || fail "partial topo: no warning"
[ "$(grep -c warning "$tmp/err")" = 1 ] || fail "partial topo: not one warning line"
grep -q '"incomplete": true' "$tmp/x.json" || fail "partial topo: document not marked incomplete"
# cut inside the last cell of its last row ("NO" of NODE, no affinity after it): that cell
# dropped, the rest kept, not refused
printf '\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV18\tNODE\t0-27\t0\nGPU1\tNV18\t X \tNO' >"$tmp/cutcell.txt"
expect 0 - "" -- "$ls_bin" import "$tmp/cutcell.txt" -o "$tmp/x.json"
grep -q "incomplete paste: row GPU1 cut after 2 of 3 cells" "$tmp/err" || fail "topo cut in its last cell: no warning"
grep -q '"type": "NV18"' "$tmp/x.json" || fail "topo cut in its last cell: the whole cells not kept"
# the same word in a row that goes on (affinity after it) is still refused
printf '\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNO\t0-27\nGPU1\tNV18\t X \t0-27\n' >"$tmp/badcell.txt"
expect 2 1 "is not a link type" -- "$ls_bin" import "$tmp/badcell.txt" -o "$tmp/y.json"

# compare: two imports of the same files in opposite orders give the same result
set -- "$fx/nccl-tests-all_reduce.txt" "$fx/p2pBandwidthLatencyTest.txt" "$fx/nvbandwidth.json" "$fx/nvbandwidth.txt"
expect 0 - "" -- "$ls_bin" import "$@" -o "$tmp/order1.json"
expect 0 - "" -- "$ls_bin" import "$4" "$3" "$2" "$1" -o "$tmp/order2.json"
"$ls_bin" compare "$tmp/order1.json" "$tmp/order2.json" > "$tmp/cmp12" 2>&1 || fail "compare of two orders failed"
"$ls_bin" compare "$tmp/order2.json" "$tmp/order1.json" > "$tmp/cmp21" 2>&1 || fail "compare of two orders failed"
grep -q " 0 regressions, 0 gains" "$tmp/cmp12" || fail "compare depends on import order: $(tail -1 "$tmp/cmp12")"
grep -q " 0 regressions, 0 gains" "$tmp/cmp21" || fail "compare depends on import order: $(tail -1 "$tmp/cmp21")"
grep -q "p2p ce uni GPU0->GPU1 \[nvbandwidth\]" "$tmp/cmp12" || fail "compare rows do not name the tool"
expect 2 1 "unknown option" -- "$ls_bin" import --bogus "$fx/nccl-tests-all_reduce.txt"
expect 2 1 "no FILE" -- "$ls_bin" import

# --into adds to an existing document; --variant labels nccl-tests results
cp "$tmp/run.json" "$tmp/into.json"
expect 0 - "" -- "$ls_bin" import --into "$tmp/into.json" --variant NCCL_ALGO=Tree "$fx/nccl-debug-info-all_reduce.txt"
grep -q '"variant": "NCCL_ALGO=Tree"' "$tmp/into.json" || fail "--into/--variant: variant not recorded"
grep -q '"id": "p2p-ce-uni-0-1"' "$tmp/into.json" || fail "--into lost the entries already there"
expect 2 1 "schema" -- "$ls_bin" import --into "$fx/nvbandwidth.json" "$fx/nccl-tests-all_reduce.txt"

# default output is the document on stdout
"$ls_bin" import "$fx/nccl-tests-alltoall.txt" 2>/dev/null | grep -q '"collective": "alltoall"' ||
    fail "import without -o did not write the document to stdout"

# --- compare --------------------------------------------------------------
expect 0 0 "" -- "$ls_bin" compare "$tmp/run.json" "$tmp/into.json"
grep -q "figures in common" "$tmp/out" || fail "compare printed no summary"
expect 0 0 "" -- "$ls_bin" compare --markdown "$tmp/run.json" "$tmp/run.json"
grep -q "^| figure | unit |" "$tmp/out" || fail "compare --markdown printed no table"
expect 0 0 "" -- "$ls_bin" compare --variants "$tmp/into.json"
grep -q "NCCL_ALGO=Tree" "$tmp/out" || fail "compare --variants did not show the variant"

"$ls_bin" import "$fx/nvbandwidth.json" -o "$tmp/nvb.json" 2>/dev/null
"$ls_bin" import "$fx/p2pBandwidthLatencyTest.txt" -o "$tmp/p2p.json" 2>/dev/null
expect 0 0 "" -- "$ls_bin" compare "$tmp/p2p.json" "$tmp/nvb.json" --changes-only
grep -q "p2p ce uni GPU0->GPU1 .*gain" "$tmp/out" || fail "compare: 359.78 -> 396.2 not flagged as a gain"
expect 1 0 "" -- "$ls_bin" compare "$tmp/nvb.json" "$tmp/p2p.json" --fail-on-regression
# a change that rounds to the limit is printed with two decimals (+0.99% same, not +1.0% same
# beside a +1.0% regression)
expect 0 0 "" -- "$ls_bin" compare "$tmp/p2p.json" "$tmp/nvb.json" --threshold 1
grep -qE "^p2p ce uni GPU1->GPU0 .* \+0\.99%  same$" "$tmp/out" || fail "compare: a change at the limit not shown with two decimals"
# Markdown: a flagged verdict is bold and closed, with its limit
expect 0 0 "" -- "$ls_bin" compare --markdown "$tmp/p2p.json" "$tmp/nvb.json" --changes-only
grep -q "| \*\*gain\*\* (beyond 5.0%) |$" "$tmp/out" || fail "compare --markdown: flagged verdict not bold or bold left open"

# an imported document knows no memory size, clocks or NUMA node: "-", never 0
expect 0 - "" -- "$ls_bin" plan "$tmp/nvb.json"
! grep -q "0 GiB together" "$tmp/out" || fail "plan of an import prints 0 GiB for an unknown memory size"
expect 0 - "" -- "$ls_bin" report "$tmp/nvb.json"
! grep -qE "^ +0 NVIDIA H200 .* 0\.000 0/0 " "$tmp/out" || fail "report of an import prints 0 for unknown memory and clocks"

# a --variant with markup is escaped everywhere in the HTML report, chart titles included
"$ls_bin" import --variant 'A<b>&' "$fx/nccl-tests-all_reduce.txt" -o "$tmp/markup.json" 2>/dev/null
expect 0 0 "" -- "$ls_bin" report --format html "$tmp/markup.json"
! grep -qF 'A<b>&' "$tmp/out" || fail "report html: a variant's markup is not escaped"
grep -qF 'A&lt;b&gt;&amp;' "$tmp/out" || fail "report html: the escaped variant is missing"

echo '{"hello": 1}' >"$tmp/foreign.json"
expect 2 1 "schema" -- "$ls_bin" compare "$tmp/run.json" "$tmp/foreign.json"
expect 2 1 "no figure in common" -- "$ls_bin" compare "$tmp/p2p.json" \
    <("$ls_bin" import "$fx/nccl-tests-all_gather.txt" 2>/dev/null)
expect 2 1 "missing.json" -- "$ls_bin" compare "$tmp/run.json" "$tmp/missing.json"
head -c 200 "$tmp/run.json" >"$tmp/truncated.json"
expect 2 1 "truncated.json" -- "$ls_bin" compare "$tmp/truncated.json" "$tmp/run.json"
expect 2 1 "needs two" -- "$ls_bin" compare "$tmp/run.json"
expect 2 1 "variant" -- "$ls_bin" compare --variants "$tmp/run.json"

# --- baseline and check ---------------------------------------------------
expect 0 1 "expectations" -- "$ls_bin" baseline "$tmp/nvb.json" -o "$tmp/base.json"
grep -q '"schema": "linkscope.baseline/1"' "$tmp/base.json" || fail "baseline: wrong schema"
expect 0 0 "" -- "$ls_bin" check "$tmp/nvb.json" --baseline "$tmp/base.json"
grep -q "all .* expectations met" "$tmp/out" || fail "check: no pass summary"

# a degraded copy: GPU0->GPU1 CE write at 300 instead of 396.2
sed -E 's/"value": 396\.21[0-9]*/"value": 300.0/' "$tmp/nvb.json" >"$tmp/degraded.json"
expect 1 0 "" -- "$ls_bin" check "$tmp/degraded.json" --baseline "$tmp/base.json"
[ "$(grep -c '^FAIL' "$tmp/out")" -eq 1 ] || fail "check: expected exactly one violation line: $(cat "$tmp/out")"
grep -q "^FAIL p2p ce uni GPU0->GPU1: 300.00 GB/s" "$tmp/out" || fail "check: violation line: $(cat "$tmp/out")"

expect 2 1 "schema" -- "$ls_bin" check "$tmp/nvb.json" --baseline "$tmp/run.json"
expect 2 1 "schema" -- "$ls_bin" check "$tmp/foreign.json" --baseline "$tmp/base.json"
expect 2 1 "needs RUN.json" -- "$ls_bin" check "$tmp/nvb.json"
expect 2 1 "schema" -- "$ls_bin" baseline "$tmp/foreign.json"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "import/compare/check CLI: all passed"
