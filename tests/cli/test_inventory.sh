#!/bin/bash
# linkscope inventory: options, exit codes, CSV/JSON on the fake two-socket tree, and the
# one-line "no usable GPU" exit 3 where there is no GPU. Args: linkscope binary, fixtures dir.
set -u
ls=$1
fx=$2
tree=$fx/sysfs/two-socket
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# usage errors: exit 2, one line on stderr
"$ls" inventory --bogus >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "unknown option: exit $rc"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "unknown option: not one line: $(cat "$tmp/err")"
grep -q "unknown option '--bogus'" "$tmp/err" || fail "unknown option message: $(cat "$tmp/err")"
"$ls" inventory --json --csv --sysfs-root "$tree" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--json --csv: exit $rc"
"$ls" inventory --sysfs-root "$tmp/missing" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "missing --sysfs-root: exit $rc"
grep -q "not a directory" "$tmp/err" || fail "missing --sysfs-root message"
"$ls" inventory -o >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "-o without file: exit $rc"

# CSV on the fake tree: header + 6 GPUs, NUMA 0,0,0,0,1,1
"$ls" inventory --sysfs-root "$tree" --csv >"$tmp/inv.csv" 2>/dev/null || fail "csv exit $?"
head -1 "$tmp/inv.csv" | grep -q '^gpu,board,memory_mib,sm_app_mhz,sm_max_mhz,mem_max_mhz,hbm_theoretical_gbps,pcie_gen,pcie_width,pcie_theoretical_gbps,numa_node$' \
    || fail "csv header: $(head -1 "$tmp/inv.csv")"
[ "$(tail -n +2 "$tmp/inv.csv" | wc -l)" -eq 6 ] || fail "csv rows"
[ "$(tail -n +2 "$tmp/inv.csv" | cut -d, -f11 | tr '\n' ' ')" = "0 0 0 0 1 1 " ] || fail "csv numa column"

# JSON to a file with -o; the table still on stdout
"$ls" inventory --sysfs-root "$tree" -o "$tmp/inv.json" >"$tmp/table" 2>/dev/null || fail "-o exit $?"
grep -q '"schema": "linkscope.run/1"' "$tmp/inv.json" || fail "json schema"
[ "$(grep -c '"label": "GPU' "$tmp/inv.json")" -eq 6 ] || fail "json gpu count"
grep -q '"name": "mlx5_2"' "$tmp/inv.json" || fail "json nic"
grep -q '"module": "nvidia_peermem"' "$tmp/inv.json" || fail "json gpudirect"
grep -q '^NIC2  mlx5_2' "$tmp/table" || fail "table NIC row: $(cat "$tmp/table")"
grep -q '^GPU Name' "$tmp/table" || fail "table header"
# NICs as inventory: board, PCIe link (trained below its best), GPUs by link word
grep -q 'board MT_0000000359  PCIe Gen4 x8 (of Gen4 x16)' "$tmp/table" || fail "table NIC1 board and PCIe"
grep -q '^      GPUs: PIX 0,1; PXB 2; NODE 3; SYS 4,5$' "$tmp/table" || fail "table NIC0 GPUs line"
grep -q '"ready": "nvidia_peermem"' "$tmp/inv.json" || fail "json gpudirect ready"
ls "$tmp" | grep -q tmp && fail "temporary file left behind"

# --json to stdout is the document only
"$ls" inventory --sysfs-root "$tree" --json >"$tmp/doc.json" 2>/dev/null || fail "--json exit"
head -c 1 "$tmp/doc.json" | grep -q '{' || fail "--json not a document"

# No GPU: one line, exit 3 (only checkable where there is none)
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    "$ls" inventory >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 3 ] || fail "no GPU: exit $rc"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "no GPU: not one line: $(cat "$tmp/err")"
    grep -q "no usable GPU" "$tmp/err" || fail "no GPU message: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "no GPU: stdout not empty"
fi
echo "inventory CLI: ok"
