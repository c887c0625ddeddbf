#!/usr/bin/env bash
# linkscope topo from the command line: every fixture, --json/--csv/-o, errors and exit codes.
# usage: test_topo.sh LINKSCOPE FIXTURES_DIR
set -u
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"

expect_out() { grep -qE -- "$1" "$tmp/out" && ok || bad "$2: stdout lacks /$1/"; }
expect_one_error_line() { # $1 = text the line must contain
    local lines
    lines=$(wc -l <"$tmp/err")
    [ "$lines" -eq 1 ] && ok || bad "expected one stderr line, got $lines: $(cat "$tmp/err")"
    grep -qF -- "$1" "$tmp/err" && ok || bad "stderr does not name '$1': $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && bad "stdout not empty on error" || ok
}
# the cell of row $1, column index $2 (1 = first device column) of the printed matrix
cell() { awk -v r="$1" -v c="$2" '$0 ~ "^" r "[ \t]" { print $(c + 1); exit }' "$tmp/out"; }
expect_cell() {
    local got
    got=$(cell "$1" "$2")
    [ "$got" = "$3" ] && ok || bad "$4: row $1 column $2 is '$got', expected '$3'"
}

# --- every fixture reads and prints the right words ---------------------------------------
run 0 topo --from "$fx/h200x2/nvidia-smi-topo.txt" --p2p-read "$fx/h200x2/nvidia-smi-topo-p2p-r.txt" \
    --p2p-write "$fx/h200x2/nvidia-smi-topo-p2p-w.txt" && {
    expect_cell GPU0 2 NV18 h200x2
    expect_cell GPU1 1 NV18 h200x2
    expect_out "P2P read status: GPU\(row\) -> GPU\(column\)" h200x2
    expect_out "P2P write status" h200x2
    expect_out "CPU Affinity +NUMA Affinity +GPU NUMA ID" h200x2
}
run 0 topo --from "$fx/topo/seed000-gv100x11.txt" --p2p-read "$fx/topo/seed000-gv100x11-p2p-r.txt" && {
    expect_cell GPU7 10 NV4 seed000
    expect_cell GPU0 5 PIX seed000
    expect_cell GPU0 6 PHB seed000
    expect_cell GPU10 1 SYS seed000
    expect_out "^GPU10 .* 14-27,42-55 +1 " seed000
    expect_out "^GPU10 +TNS +TNS" seed000
}
run 0 topo --from "$fx/topo/seed001-v100x2-nvlink.txt" && expect_cell GPU0 2 NV6 seed001
run 0 topo --from "$fx/topo/seed001-v100x2-pcie.txt" && expect_cell GPU1 1 PHB seed001-pcie
for f in hgx-h100x8-nic8.txt hgx-h100x8-nic8-spaces.txt; do
    run 0 topo --from "$fx/topo/$f" && {
        expect_cell GPU3 7 NV18 "$f"
        expect_cell GPU3 12 PIX "$f"
        expect_cell GPU3 13 SYS "$f"
        expect_cell NIC5 6 PIX "$f"
        expect_out "NIC5: mlx5_5" "$f"
        cp "$tmp/out" "$tmp/$f.out"
    }
done
cmp -s "$tmp/hgx-h100x8-nic8.txt.out" "$tmp/hgx-h100x8-nic8-spaces.txt.out" && ok ||
    bad "tabs and spaces variants print differently"
"$bin" topo --from - <"$fx/topo/seed001-v100x2-nvlink.txt" >"$tmp/out" 2>&1 && expect_cell GPU1 1 NV6 stdin ||
    bad "--from - (stdin) failed"

# --- colour only when asked (stdout is not a terminal here) -------------------------------
run 0 topo --from "$fx/h200x2/nvidia-smi-topo.txt" && { grep -q $'\033' "$tmp/out" && bad "colour on a pipe" || ok; }
run 0 topo --from "$fx/h200x2/nvidia-smi-topo.txt" --color always && expect_out $'\033\\[32mNV18' colour

# --- --json: a valid run document that linkscope reads back -------------------------------
run 0 topo --from "$fx/topo/seed000-gv100x11.txt" --p2p-read "$fx/topo/seed000-gv100x11-p2p-r.txt" --json && {
    cp "$tmp/out" "$tmp/seed000.json"
    expect_out '"schema": "linkscope.run/1"' json
    expect_out '"type": "NV4"' json
    if command -v python3 >/dev/null; then
        python3 -m json.tool "$tmp/seed000.json" >/dev/null && ok || bad "--json output is not valid JSON"
    fi
}
run 0 topo --from "$fx/topo/seed000-gv100x11.txt" --p2p-read "$fx/topo/seed000-gv100x11-p2p-r.txt" &&
    cp "$tmp/out" "$tmp/seed000.txt"
run 0 topo --from "$tmp/seed000.json" && {
    cmp -s "$tmp/out" "$tmp/seed000.txt" && ok || bad "the run document prints differently from the text it came from"
}
run 0 topo --from "$fx/topo/hgx-h100x8-nic8.txt" --json -o "$tmp/hgx.json" && {
    [ -s "$tmp/out" ] && bad "-o FILE: stdout not empty" || ok
    "$bin" topo --from "$tmp/hgx.json" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/hgx-h100x8-nic8.txt.out" &&
        ok || bad "-o run document does not read back to the same matrix"
}

# --- --csv ----------------------------------------------------------------------------------
run 0 topo --from "$fx/topo/seed000-gv100x11.txt" --csv && {
    expect_out '^device,name,GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7,GPU8,GPU9,GPU10,cpu_affinity,numa_affinity,gpu_numa_id$' csv
    expect_out '^GPU9,,PHB,PHB,PHB,PHB,PHB,PIX,PIX,NV4,PIX,X,SYS,"0-13,28-41",0,N/A$' csv
}

# --- discovery on the fake 2-socket tree: its six GPUs only (NVML and CUDA, which describe
# the machine running the test, stay out of it), classes as nvidia-smi gives them -------------
run 0 topo --sysfs-root "$fx/sysfs/two-socket" --color never && {
    rows=$(grep -c '^GPU[0-9]' "$tmp/out")
    [ "$rows" -eq 6 ] && ok || bad "sysfs-root: $rows GPU rows, expected the tree's 6"
    expect_cell GPU0 2 PIX sysfs-root
    expect_cell GPU0 3 PXB sysfs-root
    expect_cell GPU0 4 NODE sysfs-root
    expect_cell GPU0 5 SYS sysfs-root
    expect_cell GPU4 6 PHB sysfs-root
    expect_out "NIC0: mlx5_0" sysfs-root
}

# --- bad input: one line naming the file, exit 2 -------------------------------------------
run 2 topo --from "$tmp/does-not-exist.txt" && expect_one_error_line "$tmp/does-not-exist.txt"
run 2 topo --from "$tmp" && expect_one_error_line "$tmp: cannot read: Is a directory"
for f in malformed-unknown-word empty; do
    run 2 topo --from "$fx/topo/$f.txt" && expect_one_error_line "$fx/topo/$f.txt: line "
done
# rows without their header read as import reads them: named from the diagonal where it is
# certain (here a row for GPU1, the GPU of the last column), with one warning line
run 0 topo --from "$fx/topo/malformed-no-header.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "no header row: 2 GPU and 0 NIC columns named from the rows' diagonal" "$tmp/err" &&
    ok || bad "rows without header: $(cat "$tmp/err")"
grep -q "^GPU1    NV18     X" "$tmp/out" && ok || bad "rows without header: $(grep ^GPU1 "$tmp/out")"
# a cut matrix reads as `linkscope import` reads it (issue 22): the whole rows, one warning
# line naming what was cut, "?" (in the legend: not in the given text) for the links it
# does not show
for f in malformed-columns malformed-truncated; do
    run 0 topo --from "$fx/topo/$f.txt"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$fx/topo/$f.txt: incomplete paste: " "$tmp/err" && ok ||
        bad "$f: expected one warning line naming the cut: $(cat "$tmp/err")"
done
run 0 topo --from "$fx/topo/malformed-truncated.txt"
grep -q "^GPU1    NV18     X *N/A" "$tmp/out" && ok || bad "cut matrix: GPU1 keeps its link to GPU0 from GPU0's row: $(grep ^GPU1 "$tmp/out")"
grep -q "= Not in the given text: unknown, not absent" "$tmp/out" && bad "no unknown link, yet the legend names one" || ok
run 0 topo --from "$fx/real/topo-ucxpy1088-8xh100-nv18-header-cut.txt"
grep -q "^GPU2    NV18    ?        X" "$tmp/out" && ok || bad "cut matrix: GPU1-GPU2 unknown: $(grep ^GPU2 "$tmp/out")"
grep -q "?    = Not in the given text: unknown, not absent" "$tmp/out" && ok || bad "the legend does not name ?"
grep -q "NIC Legend" "$tmp/out" && bad "NIC legend printed with no NIC name known" || ok
# topo -p2p pasted alone reads as import reads it: its GPUs, links unknown, the read matrix
run 0 topo --from "$fx/twins/p2p-alone-broken.txt"
grep -qE "^GPU0 +X +NS +OK" "$tmp/out" && ok || bad "topo -p2p alone: $(grep -A4 'P2P read status' "$tmp/out")"
run 2 topo --from "$fx/topo/seed000-gv100x11.txt" --p2p-read "$fx/h200x2/nvidia-smi-topo-p2p-r.txt" &&
    expect_one_error_line "nvidia-smi-topo-p2p-r.txt: line 1: the P2P header names 2 GPUs, the topology has 11"
echo '{"schema": "linkscope.run/1"' >"$tmp/truncated.json"
run 2 topo --from "$tmp/truncated.json" && expect_one_error_line "$tmp/truncated.json"
run 2 topo --from "$fx/h200x2/nvidia-smi-topo.txt" -o "$tmp/no/such/dir/out.txt" && expect_one_error_line "$tmp/no/such/dir/out.txt"

# --- usage errors ---------------------------------------------------------------------------
run 2 topo --bogus && expect_one_error_line "unknown option '--bogus'"
run 2 topo --from && expect_one_error_line "--from needs a value"
run 2 topo --from "$fx/h200x2/nvidia-smi-topo.txt" --json --csv && expect_one_error_line "exclude"
run 2 topo --p2p-read "$fx/h200x2/nvidia-smi-topo-p2p-r.txt" && expect_one_error_line "need --from"
run 2 topo --sysfs-root "$tmp/no-such-root" && expect_one_error_line "--sysfs-root $tmp/no-such-root: not a directory"
run 2 topo --from "$fx/h200x2/nvidia-smi-topo.txt" --color sometimes && expect_one_error_line "--color"
run 0 topo --help && expect_out "^usage: linkscope topo" help

# --- no GPU or driver: one line, exit 3 (skipped where a GPU answers) ----------------------
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    echo "skip: a GPU is present, not testing the no-GPU exit"
else
    run 3 topo && expect_one_error_line "no NVIDIA GPU or driver found"
    run 3 topo --json -o "$tmp/nogpu.json" && { [ -e "$tmp/nogpu.json" ] && bad "no-GPU run wrote a file" || ok; }
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
