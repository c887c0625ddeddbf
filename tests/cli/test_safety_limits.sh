#!/usr/bin/env bash
# Hostile sizes and shapes (docs/safety.md): the former undefined-behaviour sites (a long
# device name, a #wrong of 1e300, bytes of 1e300 in a tp curve, a 97th topology column),
# limits named in one line (1000 columns, input size, a document written past it, 257
# files), import never writing a document the reader rejects. Under the sanitizer build, undefined behaviour aborts the process.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
no_ub() { ! grep -q "runtime error\|AddressSanitizer" "$tmp/err" && ok || bad "$1: $(head -3 "$tmp/err")"; }
one_line() { [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "$2" "$tmp/err" && ok || bad "$1: $(cat "$tmp/err")"; }

# a device name far past the 96-byte name buffer; #wrong of 1e300
long=$(printf 'N%.0s' $(seq 1 300))
sed -e "0,/NVIDIA H200/s//NVIDIA H200 $long $long/" \
    -e '12s/       0    15.52/   1e300    15.52/' "$fx/h200x2/nccl-tests-all_reduce.txt" >"$tmp/long.log"
"$bin" import "$tmp/long.log" -o "$tmp/long.json" 2>"$tmp/err"
no_ub "nccl-tests with a long name and #wrong 1e300"
run 0 report "$tmp/long.json" && ok

# bytes of 1e300 in the largest row of a tp curve: no integer conversion of it
last=$(grep -n '"bytes"' "$fx/tp/h200x2-allreduce.json" | tail -1 | cut -d: -f1)
sed "${last}s/\"bytes\": [0-9]*/\"bytes\": 1e300/" "$fx/tp/h200x2-allreduce.json" >"$tmp/huge.json"
"$bin" tp --model llama3-70b --tp 2 --prompt 1024 --run "$tmp/huge.json" --json >"$tmp/out" 2>"$tmp/err"
no_ub "tp with bytes of 1e300"
grep -q -- "-9223372036854775808" "$tmp/out" && bad "tp printed a wrapped byte count" || ok

# topology: 97 and 1000 GPU columns refused naming the limit
for n in 65 97 1000; do
    {
        printf '\t'; for ((i = 0; i < n; i++)); do printf 'GPU%d\t' $i; done; printf 'CPU Affinity\n'
        for r in 0 1; do
            printf 'GPU%d' $r; for ((i = 0; i < n; i++)); do [ $i = $r ] && printf '\t X ' || printf '\tNV1'; done; printf '\t0-7\n'
        done
    } >"$tmp/wide.txt"
    "$bin" import "$tmp/wide.txt" -o "$tmp/wide.json" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && ok || bad "$n columns: exit $rc"
    no_ub "$n columns"
    one_line "$n columns" "at most 64 GPU\|more than 64 GPU columns"
    [ ! -e "$tmp/wide.json" ] && ok || bad "$n columns: a document was written"
done

# nvbandwidth GPU index -1: refused at import, not written for report to reject later
sed 's/"0: NVIDIA H200/"-1: NVIDIA H200/' "$fx/h200x2/nvbandwidth.json" >"$tmp/neg.json"
run 2 import "$tmp/neg.json" -o "$tmp/neg-doc.json"
one_line "nvbandwidth index -1" "negative"
[ ! -e "$tmp/neg-doc.json" ] && ok || bad "nvbandwidth index -1: a document was written"

# input size: past the limit one line and exit 2, at once (not grown until killed)
LINKSCOPE_MAX_INPUT_MB=4 timeout 20 "$bin" import /dev/zero -o "$tmp/z.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && ok || bad "import /dev/zero: exit $rc"
one_line "import /dev/zero" "larger than the 4 MiB input limit"
head -c 5000000 /dev/zero | tr '\0' ' ' >"$tmp/big.txt"
LINKSCOPE_MAX_INPUT_MB=4 "$bin" report "$tmp/big.txt" 2>"$tmp/err"
one_line "report of a 5 MB file" "input limit"

# a document written is held to the same limit (100 imports of a 4.6 kB log make 1.3 MB
# of document: each input is under 1 MiB, the document is not): one line, no file
log=$fx/h200x2/nccl-tests-all_reduce.txt
LINKSCOPE_MAX_INPUT_MB=1 "$bin" import $(for i in $(seq 100); do echo "$log"; done) -o "$tmp/many.json" \
    >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && ok || bad "a document past the limit: not exit 2"
grep "error" "$tmp/err" | grep -q "not written: the document is larger than the 1 MiB input limit" && ok ||
    bad "a document past the limit: $(grep error "$tmp/err")"
[ ! -e "$tmp/many.json" ] && ok || bad "a document past the limit was written"
# at most 256 files per import: the 257th is a usage error, nothing written
"$bin" import $(for i in $(seq 257); do echo "$log"; done) -o "$tmp/many.json" 2>"$tmp/err"
[ $? -eq 2 ] && ok || bad "257 files: not exit 2"
one_line "257 files" "at most 256 files"
[ ! -e "$tmp/many.json" ] && ok || bad "257 files: a document was written"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
