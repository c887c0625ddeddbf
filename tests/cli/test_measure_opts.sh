#!/usr/bin/env bash
# Option errors of the measuring commands: one line on stderr, exit 2, nothing written.
# Args: linkscope binary, fixtures dir.
set -u
ls_bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

expect() { # expect CODE ARGS...: exit code and a one-line message naming the problem
    local want=$1
    shift
    "$ls_bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    local lines=$(wc -l <"$tmp/err")
    if [ "$got" != "$want" ]; then
        echo "FAIL: linkscope $* -> exit $got, expected $want: $(cat "$tmp/err")"
        fail=1
    elif [ "$want" = 2 ] && [ "$lines" != 1 ]; then
        echo "FAIL: linkscope $* -> $lines lines on stderr, expected 1"
        cat "$tmp/err"
        fail=1
    fi
}

for cmd in p2p latency hbm host; do
    expect 2 $cmd --samples abc
    expect 2 $cmd --samples 0
    expect 2 $cmd --samples 5x
    expect 2 $cmd --gpus x
    expect 2 $cmd --gpus 0,-1
    expect 2 $cmd --bogus
    expect 2 $cmd --samples
    expect 2 $cmd -o "$tmp/a.json" --into "$tmp/b.json"
    expect 2 $cmd --into "$tmp/missing.json"
    # where the results go is checked before any work (no GPU needed to see it)
    expect 2 $cmd -o "$tmp/no/such/folder/run.json"
    grep -q "no/such/folder" "$tmp/err" || { echo "FAIL: $cmd -o: error does not name the path"; fail=1; }
    expect 2 $cmd -o "$tmp"
    : >"$tmp/plain"
    expect 2 $cmd --csv "$tmp/plain"
    expect 2 $cmd --csv "$tmp/no/such/folder"
    echo '{"schema": "other.thing/1"}' >"$tmp/foreign.json"
    expect 2 $cmd --into "$tmp/foreign.json"
    grep -q "$tmp/foreign.json" "$tmp/err" || { echo "FAIL: $cmd: error does not name the file"; fail=1; }
    "$ls_bin" $cmd --help | grep -q "^usage: linkscope $cmd" || { echo "FAIL: $cmd --help"; fail=1; }
done
# The usage texts state the defaults the code uses (src/measure/measure.h, docs/methods.md).
"$ls_bin" p2p --help | grep -q "default 2G;" || { echo "FAIL: p2p --help default size"; fail=1; }
"$ls_bin" hbm --help | grep -q "default 1G;" || { echo "FAIL: hbm --help default size"; fail=1; }
"$ls_bin" host --help | grep -q "default 512M;" || { echo "FAIL: host --help default size"; fail=1; }
for cmd in p2p hbm host; do
    expect 2 $cmd --size 0
    expect 2 $cmd --size 12Q
    expect 2 $cmd --size -5M
done
expect 2 host --size 64T
grep -q "memory" "$tmp/err" || { echo "FAIL: host --size beyond host memory: message"; fail=1; }
expect 2 latency --size 1M
grep -q "does not apply" "$tmp/err" || { echo "FAIL: latency --size message"; fail=1; }

# Where no GPU can be used (no driver, or built without CUDA): exit 3, one line, and
# -o writes nothing. Where GPUs are: an unknown GPU and a size beyond memory are exit 2.
if "$ls_bin" hbm --gpus 0 --samples 1 --size 64M >"$tmp/out" 2>"$tmp/err"; then
    have_gpu=1
else
    have_gpu=0
fi
if [ "$have_gpu" = 0 ]; then
    expect 3 hbm -o "$tmp/new.json"
    [ -e "$tmp/new.json" ] && { echo "FAIL: hbm -o wrote a file without a GPU"; fail=1; }
    expect 3 p2p
    grep -q -i "GPU\|CUDA" "$tmp/err" || { echo "FAIL: no-GPU message"; fail=1; }
else
    expect 2 hbm --gpus 63
    grep -q "GPU 63 does not exist" "$tmp/err" || { echo "FAIL: unknown GPU message"; fail=1; }
    expect 2 hbm --size 1T
    expect 2 p2p --gpus 0
    # -o -: stdout is the run document alone (the tables would break the JSON)
    "$ls_bin" hbm --gpus 0 --samples 1 --size 64M -o - >"$tmp/doc.json" 2>"$tmp/err"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(m["family"]=="hbm" for m in d["measurements"])' \
        "$tmp/doc.json" || { echo "FAIL: hbm -o - is not a run document alone"; fail=1; }
fi
exit $fail
