#!/usr/bin/env bash
# linkscope run: option errors (exit 2, one line) and, where no GPU is, one line and exit
# 3 with nothing written. Args: linkscope binary, fixtures dir.
ls_bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fails=0
expect() { # code, pattern, args...
    local want=$1 pattern=$2
    shift 2
    "$ls_bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" != "$want" ] || ! grep -q -- "$pattern" "$tmp/err" "$tmp/out"; then
        echo "FAIL: linkscope $*: exit $got (want $want), stderr: $(cat "$tmp/err")"
        fails=$((fails + 1))
    elif [ "$want" = 2 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        echo "FAIL: linkscope $*: more than one line on stderr"
        fails=$((fails + 1))
    else
        pass=$((pass + 1))
    fi
}
expect 2 "expected quick or thorough" run --level fast
expect 2 "positive number of seconds" run --budget 0
expect 2 "positive number of seconds" run --budget abc
expect 2 "expected GPU indices" run --gpus x
expect 2 "unknown option" run --frobnicate
expect 2 "needs a value" run -o
expect 2 "unexpected argument" run extra
expect 2 "expected info, warning, error or never" run --fail-on bad
expect 2 "cannot write into the folder" run -o /nonexistent/run.json
expect 2 "--progress: expected auto, always or never, got 'sometimes'" run --progress sometimes
expect 2 "needs a value" run --progress
expect 2 "--progress: expected auto, always or never" burn --progress loud
expect 2 "--progress: expected auto, always or never" hbm --progress loud
expect 2 "--progress: expected auto, always or never" p2p --progress ""
expect 0 "--level" run --help
expect 0 "--progress M   auto" run --help
expect 0 "--quiet" run --help
expect 0 "--progress" hbm --help
expect 0 "--progress" burn --help
if ! nvidia-smi -L >/dev/null 2>&1; then
    cd "$tmp" || exit 1
    expect 3 "no usable GPU" run -o "$tmp/run.json"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && pass=$((pass + 1)) || { echo "FAIL: no-GPU message is not one line"; fails=$((fails + 1)); }
    [ ! -e "$tmp/run.json" ] && [ -z "$(ls "$tmp" | grep -v '^out$\|^err$')" ] && pass=$((pass + 1)) ||
        { echo "FAIL: something was written without a GPU"; fails=$((fails + 1)); }
fi
echo "$pass passed, $fails failed"
[ "$fails" = 0 ]
