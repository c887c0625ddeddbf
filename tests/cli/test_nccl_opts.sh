#!/usr/bin/env bash
# linkscope nccl: option errors are one line and exit 2; a missing NCCL is one line,
# exit 3, and the document asked for is still written and valid.
# Args: linkscope binary, fixtures dir.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

expect() { # expected-exit, pattern, args...
    local want=$1 pattern=$2
    shift 2
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -ne "$want" ] || ! grep -q -- "$pattern" "$tmp/err" "$tmp/out"; then
        echo "FAIL: linkscope $* -> exit $got (want $want), looking for '$pattern':"
        cat "$tmp/err"
        fails=$((fails + 1))
    elif [ "$want" -eq 2 ] && [ "$lines" -ne 1 ]; then
        echo "FAIL: linkscope $*: $lines lines on stderr, want one"
        cat "$tmp/err"
        fails=$((fails + 1))
    fi
}

expect 2 "which collective" nccl
expect 2 "unknown collective 'allreduce'" nccl allreduce
expect 2 "unknown collective 'foo'" nccl all_reduce foo
expect 2 "-b: '12Q' is not a size" nccl all_reduce -b 12Q
expect 2 "-e: '-5' is not a size" nccl all_reduce -e -5
expect 2 "-b is larger than -e" nccl all_reduce -b 1G -e 1M
expect 2 "give more than 100000 sizes" nccl all_reduce -b 1 -e 1T -i 1
expect 2 "-f 1.01 does not grow -b 8 B" nccl all_reduce -b 8 -e 1M -f 1.01
expect 2 "-f: '0.5' is not a factor" nccl all_reduce -f 0.5
expect 2 "-n: expected a whole number" nccl all_reduce -n 0
expect 2 "-c: expected a whole number 0-1" nccl all_reduce -c 2
expect 2 "unknown data type 'fp9'" nccl all_reduce -d fp9
expect 2 "unknown reduction 'mean'" nccl all_reduce --op mean
expect 2 "-o all is not supported" nccl all_reduce -o all
expect 2 "-t: expected a whole number 1-1" nccl all_reduce -t 2
expect 2 "--launch: 'serial' is not group or threads" nccl all_reduce --launch serial
expect 2 "--gpus '0,,x': expected GPU indices like 0,1 or 0-3" nccl all_reduce --gpus 0,,x
expect 2 "--variant: 'NCCL_ALGO' is not NAME=VALUE" nccl all_reduce --variant NCCL_ALGO
expect 2 "--timeout: 'never' is not a number" nccl all_reduce --timeout never
expect 2 "unknown option '--frobnicate'" nccl all_reduce --frobnicate 1
expect 2 "-b needs a value" nccl all_reduce -b
expect 2 "exclude each other" nccl all_reduce -o "$tmp/a.json" --into "$tmp/b.json"
# Outputs are checked before any work (a sweep lasts minutes): exit 2 at once.
expect 2 "-o /nonexistent/x.json: cannot write into the folder" nccl all_reduce -o /nonexistent/x.json
expect 2 "--into $tmp: expected a file" nccl all_reduce --into "$tmp"
expect 2 "not started by mpirun" nccl --mpi-selftest
expect 0 "nccl-tests flags" nccl --help
# Under an MPI launcher (seen from its variables, checked before MPI is opened) each
# rank drives one GPU and variants need one mpirun each.
OMPI_COMM_WORLD_SIZE=2 expect 2 "under MPI each rank drives one GPU: -g must be 1" nccl all_reduce -g 2
OMPI_COMM_WORLD_SIZE=2 expect 2 "under MPI each rank drives one GPU: -g must be 1" nccl all_reduce -g 2 --gpus 0,1
OMPI_COMM_WORLD_SIZE=2 expect 2 "--variant cannot run under MPI" nccl all_reduce --variant NCCL_ALGO=Tree

# No NCCL: one line saying how to install it, exit 3, a valid document with the
# collectives marked skipped.
LINKSCOPE_NCCL=/nonexistent/libnccl.so.2 expect 3 "LINKSCOPE_NCCL\\|built without nccl.h" nccl all -b 8 -e 1M -o "$tmp/doc.json"
grep -q "apt install libnccl" "$tmp/err" || { echo "FAIL: no install hint"; fails=$((fails + 1)); }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: more than one line"; cat "$tmp/err"; fails=$((fails + 1)); }
for c in all_reduce all_gather reduce_scatter alltoall; do
    grep -q "\"id\": \"nccl-$c-default\"" "$tmp/doc.json" || { echo "FAIL: no $c entry"; fails=$((fails + 1)); }
done
grep -q '"status": "skipped"' "$tmp/doc.json" || { echo "FAIL: not skipped"; fails=$((fails + 1)); }
# The document reads back (--into validates it) and a second run adds entries with new ids.
LINKSCOPE_NCCL=/nonexistent/libnccl.so.2 expect 3 "LINKSCOPE_NCCL\\|built without nccl.h" nccl sendrecv --into "$tmp/doc.json"
LINKSCOPE_NCCL=/nonexistent/libnccl.so.2 expect 3 "LINKSCOPE_NCCL\\|built without nccl.h" nccl sendrecv --into "$tmp/doc.json"
grep -q '"id": "nccl-sendrecv-default-2"' "$tmp/doc.json" || { echo "FAIL: ids not unique"; fails=$((fails + 1)); }
[ "$(grep -c '"family": "nccl"' "$tmp/doc.json")" -eq 6 ] || { echo "FAIL: want 6 entries"; fails=$((fails + 1)); }
# A collective named twice ("all" and again by name, "all" thrice) runs once: four
# entries, no overflow of the list of collectives.
LINKSCOPE_NCCL=/nonexistent/libnccl.so.2 expect 3 "LINKSCOPE_NCCL\\|built without nccl.h" nccl all all_reduce all all -o "$tmp/dup.json"
[ "$(grep -c '"family": "nccl"' "$tmp/dup.json")" -eq 4 ] || { echo "FAIL: want 4 entries for 'all all_reduce all all'"; fails=$((fails + 1)); }
grep -q '"id": "nccl-all_reduce-default-2"' "$tmp/dup.json" && { echo "FAIL: all_reduce ran twice"; fails=$((fails + 1)); }
LINKSCOPE_NCCL=/nonexistent/libnccl.so.2 expect 3 "LINKSCOPE_NCCL\\|built without nccl.h" nccl sendrecv reduce broadcast all sendrecv -o "$tmp/seven.json"
[ "$(grep -c '"family": "nccl"' "$tmp/seven.json")" -eq 7 ] || { echo "FAIL: want 7 entries"; fails=$((fails + 1)); }
# A broken document is refused, one line, exit 2, and left as it was.
echo '{"schema": "linkscope.run/1"' >"$tmp/broken.json"
expect 2 "broken.json" nccl all_reduce --into "$tmp/broken.json"
[ "$(cat "$tmp/broken.json")" = '{"schema": "linkscope.run/1"' ] || { echo "FAIL: broken file changed"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "all nccl option checks passed"
exit $((fails > 0))
