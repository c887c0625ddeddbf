#!/usr/bin/env bash
# Pasted nvidia-smi texts of issue 22 (tests/fixtures/real/, sources in their sidecars):
# -q excerpts without their GPU line import; -q -x XML is refused in one line naming it; a
# topo -m matrix inside a Markdown fence ends at the fence; a cut topology leaves the
# links it does not show unknown (one island, "not judged") and no GPU name printed empty;
# the plan never prints a heading over nothing.
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }
real="$src/tests/fixtures/real"

# check NAME JQ-EXPR: the imported document satisfies the jq expression
check() { jq -e "$2" "$tmp/doc.json" >/dev/null && ok || bad "$1: $(jq -c "$2" "$tmp/doc.json" 2>&1 | head -c 200)"; }

run 0 import "$real/smi-q-kubeflow68-throttle-grep.txt" -o "$tmp/doc.json"
check "-q excerpt: the one active reason" '.gpus[0].throttle_reasons == ["gpu_idle"]'
check "-q excerpt: marked incomplete" '.imports[0].incomplete == true and (.imports[0].missing | test("without their .GPU 00000000"))'
run 0 import "$real/smi-q-gpustat135-clocks.txt" -o "$tmp/doc.json"
check "-q excerpt: clocks" '.gpus[0].clocks == {"sm_mhz":2025,"mem_mhz":10251,"sm_max_mhz":2100,"mem_max_mhz":10501}'
run 0 import "$real/smi-q-dcgm152-a100-mig-cut.txt" -o "$tmp/doc.json"
check "-q excerpt: uuid at top level of the block" '.gpus[0].uuid == "GPU-072b19bd-4ccf-63cf-6435-cf462aff833d"'
# a text of another tool with " : " lines is not taken for -q
printf 'Device 0 : foo\n  speed : 3\n  width : 4\n  other : 5\n' >"$tmp/other.txt"
run 2 import "$tmp/other.txt" -o "$tmp/x.json"
grep -q "unknown format" "$tmp/err" && ok || bad "non -q key/value text: $(cat "$tmp/err")"

run 2 import "$real/smi-q-1panel10990-xml-cut.txt" -o "$tmp/x.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "nvidia-smi -q -x output (XML): not read" "$tmp/err" && ok ||
    bad "XML: $(cat "$tmp/err")"
[ -e "$tmp/x.json" ] && bad "XML refused but a document was written" || ok

run 0 import "$real/topo-nvbandwidth23-gh200-1gpu-indented.txt" -o "$tmp/doc.json"
check "fenced matrix: GPU0 and its NUMA ids" '.gpus[0].numa_affinity == "0" and .gpus[0].gpu_numa_id == "1"'
check "fenced matrix: both NIC rows" '(.nics | length) == 2'
run 0 plan "$tmp/doc.json"
grep -q "1 GPU in the text: no group or pair to plan" "$tmp/out" && ok || bad "one GPU: empty plan heading: $(cat "$tmp/out")"

run 0 import "$real/topo-ucxpy1088-8xh100-nv18-header-cut.txt" -o "$tmp/doc.json"
run 0 plan --json "$tmp/doc.json"
jq -e '[.plan.islands // .islands | .[] | select(.link_class == "NV")] | length == 1' "$tmp/out" >/dev/null && ok ||
    bad "cut topology: NV islands split by unknown links: $(jq -c '.plan.islands // .islands' "$tmp/out")"
jq -e '(.plan.islands // .islands)[0].unknown_pairs | length == 21' "$tmp/out" >/dev/null && ok || bad "unknown_pairs"
run 0 plan "$tmp/doc.json"
grep -q "Cleanest island: GPUs 0-7 (NV, 8 GPUs; 21 pairs not shown in the text, not judged)" "$tmp/out" && ok ||
    bad "summary: $(grep Cleanest "$tmp/out")"
grep -qE " x \)|\(\)" "$tmp/out" && bad "empty name printed: $(grep -E ' x \)|\(\)' "$tmp/out")" || ok
# a whole matrix has no unknown pair
run 0 import "$real/topo-nccl1617-4xh100-nv6.txt" -o "$tmp/doc.json"
run 0 plan --json "$tmp/doc.json"
jq -e '[(.plan.islands // .islands)[] | select(has("unknown_pairs"))] | length == 0' "$tmp/out" >/dev/null && ok ||
    bad "whole matrix: unknown_pairs where every link is shown"

# a box where every pair is SYS: no island, the GPUs grouped by NUMA node instead
run 0 import "$real/topo-deepep128-8xh20-allsys-cut.txt" -o "$tmp/doc.json"
run 0 plan --json "$tmp/doc.json"
jq -e '(.plan // .) | .fallback_groups == [{"gpus":[0,1,2,3],"by":"numa_node","numa_node":0},{"gpus":[4,5],"by":"numa_node","numa_node":1}]' \
    "$tmp/out" >/dev/null && ok || bad "all-SYS fallback: $(jq -c '(.plan // .).fallback_groups' "$tmp/out")"
run 0 plan "$tmp/doc.json"
grep -q "group by NUMA node instead" "$tmp/out" && ok || bad "all-SYS: no fallback line: $(grep -A2 ^Plan "$tmp/out")"
# a box with islands gets none; a topo -p2p paste alone says it has no link
run 0 import "$real/topo-nccl1617-4xh100-nv6.txt" -o "$tmp/doc.json"
run 0 plan --json "$tmp/doc.json"
jq -e '(.plan // .) | has("fallback_groups") | not' "$tmp/out" >/dev/null && ok || bad "fallback where islands exist"
run 0 import "$src/tests/fixtures/twins/p2p-alone-healthy.txt" -o "$tmp/doc.json"
run 0 plan "$tmp/doc.json"
grep -q "3 GPUs and no link or figure between them in the text" "$tmp/out" && ok || bad "p2p alone plan: $(grep -A1 ^Plan "$tmp/out")"

# near misses are refused in one line saying what they look like and what is missing
# rows without their header: named from their diagonal where it is certain (a row for
# the GPU of the last column: every column is a GPU; a NIC row: its X gives the GPU count)
printf 'GPU1\tNV4\t X \tNV4\t0-15\t0\nGPU2\tNV4\tNV4\t X \t0-15\t0\n' >"$tmp/rows.txt"
run 0 import "$tmp/rows.txt" -o "$tmp/doc.json"
grep -q "no header row: 3 GPU and 0 NIC columns named from the rows' diagonal" "$tmp/err" && ok ||
    bad "rows without header, last GPU's row: $(cat "$tmp/err")"
check "rows without header: GPU0 keeps what the rows give it" '(.gpus | length) == 3 and .imports[0].incomplete == true'
printf 'GPU2\tSYS\tSYS\t X \tPIX\t0-15\t0\nNIC0\tSYS\tSYS\tPIX\t X\n' >"$tmp/rows.txt"
run 0 import "$tmp/rows.txt" -o "$tmp/doc.json"
grep -q "no header row: 3 GPU and 1 NIC columns" "$tmp/err" && ok || bad "rows without header, NIC row: $(cat "$tmp/err")"
# the twin: no NIC row and no row for the last column's GPU: the GPU rows name the columns
# up to the highest of them; the columns after are kept unread (GPUs or NICs), not guessed
printf 'GPU0\t X \tNV4\tSYS\tSYS\t0-15\t0\nGPU1\tNV4\t X \tSYS\tSYS\t0-15\t0\n' >"$tmp/rows.txt"
run 0 import "$tmp/rows.txt" -o "$tmp/doc.json"
grep -q "no header row: 2 GPU columns named from the rows' diagonal (rows up to GPU1); the 2 columns after them not read (GPUs or NICs" "$tmp/err" &&
    ok || bad "rows without header, uncertain: $(cat "$tmp/err")"
check "rows without header, uncertain: two GPUs, no NIC" '(.gpus | length) == 2 and ((.nics // []) | length) == 0 and .imports[0].incomplete == true'
run 0 topo --from "$tmp/rows.txt"
grep -q "the 2 columns after them not read" "$tmp/err" && ok || bad "topo --from, uncertain rows: $(cat "$tmp/err")"
# a row without its X names no column: refused in one line
printf 'GPU0\tNV4\tSYS\t0-15\t0\n' >"$tmp/rows.txt"
run 2 import "$tmp/rows.txt" -o "$tmp/x.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "rows without header or diagonal: $(cat "$tmp/err")"
# nvlink -s link lines without their GPU line: one GPU, noted in one warning line
printf '         Link 0: 25 GB/s\n         Link 1: <inactive>\n' >"$tmp/links.txt"
run 0 import "$tmp/links.txt" -o "$tmp/doc.json"
grep -q "nvlink 'Link N:' lines without their 'GPU N: NAME' line: read as one GPU (GPU0)" "$tmp/err" && ok ||
    bad "nvlink lines: $(cat "$tmp/err")"
check "nvlink lines: one GPU, two links, no name" '(.gpus | length) == 1 and (.gpus[0].nvlinks | length) == 2 and (.gpus[0].name == null) and .imports[0].incomplete == true'
# Azure's health check quoting them in its own words ("GPU 0 has nvlinks inactive: Link 4:
# Inactive"): read as that GPU's inactive links (gaps15), nothing judged of them alone
printf 'GPU 0 has nvlinks inactive:     Link 4: Inactive\n         Link 5: Inactive\n' >"$tmp/nhc.txt"
run 0 import "$tmp/nhc.txt" -o "$tmp/doc.json"
check "nhc message: GPU 0, links 4 and 5 inactive" '(.gpus | length) == 1 and .gpus[0].index == 0 and ([.gpus[0].nvlinks[] | select(.active == false) | .link] == [4, 5])'
run 0 plan --json "$tmp/doc.json"
jq -e '[.findings[] | select(.severity != "info")] | length == 0' "$tmp/out" >/dev/null && ok ||
    bad "nhc message: a loud finding: $(head -c 300 "$tmp/out")"
# its link lines alone (no "GPU N has" line) are not nvidia-smi's text: refused
printf '         Link 4: Inactive\n         Link 5: Inactive\n' >"$tmp/nhc-links.txt"
run 2 import "$tmp/nhc-links.txt" -o "$tmp/x.json"
grep -q "nvlink 'Link N:' lines without their 'GPU N: NAME" "$tmp/err" && ok || bad "nhc lines: $(cat "$tmp/err")"
printf 'hello\nworld\n' >"$tmp/prose.txt"
run 2 import "$tmp/prose.txt" -o "$tmp/x.json"
grep -q "unknown format" "$tmp/err" && ok || bad "prose: $(cat "$tmp/err")"

# topo -p2p pasted alone: the report's topology grid marks the link (unknown) with '*',
# the P2P status table under it shows the word (reads NS, writes not pasted: U)
run 0 import "$src/tests/fixtures/twins/p2p-alone-broken.txt" -o "$tmp/doc.json"
run 0 report --fail-on never "$tmp/doc.json"
grep -qE "^  GPU0 +X +unknown\* +unknown\*" "$tmp/out" && ok || bad "report grid: $(grep -A4 'Link types' "$tmp/out")"
grep -qE "^ +0 +1 +unknown +NS +U *$" "$tmp/out" && ok || bad "P2P status table: $(grep -A8 'P2P status' "$tmp/out")"
grep -q "no figure in the document" "$tmp/out" && ok || bad "headline over nothing"

# NVLink-bridged pairs with no rate in the text: the plan still names them
run 0 import "$real/topo-aikitoria18-4x3090-nv4-pairs.txt" -o "$tmp/doc.json"
run 0 plan "$tmp/doc.json"
grep -q "NVLink pairs: GPUs 0+2, 1+3" "$tmp/out" && ok || bad "NV pairs: $(grep -A3 ^Plan "$tmp/out")"

# figures without a device list are planned by their GPU indices
run 0 import "$real/p2p-tinygrad6-3x4090-bidir.txt" -o "$tmp/doc.json"
run 0 plan --json --fail-on never "$tmp/doc.json"
jq -e '(.plan // .) | (.best_pairs | length) == 3 and (.needs | length) == 1' "$tmp/out" >/dev/null && ok ||
    bad "no device list: pairs not planned: $(jq -c '(.plan // .) | .best_pairs, .needs' "$tmp/out")"

echo "test_paste_smi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
