# Shared by the CLI test scripts: a private temporary folder, pass/fail counters, and
# `run EXPECTED_RC ARGS...`, which runs $bin and keeps its output in $tmp/out, $tmp/err.
# Source it after setting bin.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

# run EXPECTED_RC ARGS...: runs linkscope, keeps stdout/stderr in $tmp/out, $tmp/err
run() {
    local want=$1
    shift
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "linkscope $* exited $rc, expected $want; stderr: $(head -c 300 "$tmp/err")"
        return 1
    fi
    ok
}
