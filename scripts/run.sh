#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds linkscope and runs its main job:
# `linkscope run`, the full characterization of this machine. Where there is no GPU or
# driver, linkscope says so (exit 3) and this script then shows a short first screen of
# what linkscope makes of a bundled real run document from a 2 x H200 machine, labelled
# as such (the banner, its verdict and headline, the command for the rest), and keeps the
# full report of it in a file.
# LS_BIN=PATH skips the install and the build and runs that binary (tests/cli/test_run_sh.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${LS_BUILD_DIR:-build}
bin=${LS_BIN:-$build/linkscope}
example=examples/h200x2-run.json

# the build's progress on one line: "building linkscope: 12% 25% ... 100%"
build_with_progress() {
    echo "installing what is missing (scripts/install-deps.sh) ..."
    bash scripts/install-deps.sh >"$build/deps.log" 2>&1 || { cat "$build/deps.log"; return 2; }
    printf 'building linkscope in %s (the first build takes a minute or two):' "$build"
    cmake -S . -B "$build" -DLINKSCOPE_TESTS=OFF ${LS_CMAKE_ARGS:-} >"$build/cmake.log" 2>&1 ||
        { echo; cat "$build/cmake.log"; return 2; }
    cmake --build "$build" -j"$(nproc)" 2>&1 | tee -a "$build/cmake.log" |
        awk 'match($0, /^\[ *[0-9]+%\]/) { p = substr($0, RSTART + 1, RLENGTH - 2) + 0
             if (p >= last + 10 || p == 100) { printf " %d%%", p; fflush(); last = p } }'
    local rc=${PIPESTATUS[0]}
    echo
    [ "$rc" = 0 ] || { tail -30 "$build/cmake.log"; return 2; }
}

if [ -z "${LS_BIN:-}" ]; then
    mkdir -p "$build"
    build_with_progress || exit 2
fi
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
"$bin" run "$@"
rc=$?
if [ "$rc" = 3 ]; then
    full=${LS_EXAMPLE_REPORT:-$build/h200x2-example-report.txt}
    mkdir -p "$(dirname "$full")"
    "$bin" report "$example" --fail-on never >"$full"
    echo
    echo "=== no GPU here: linkscope measured nothing on this machine."
    echo "=== What follows is NOT this machine: linkscope's reading of a bundled real run"
    echo "=== document, $example, measured on 2 x NVIDIA H200."
    echo
    # the verdict and the headline of that report, at this terminal's width
    cols=100
    [ -t 1 ] && cols=$(tput cols 2>/dev/null || echo 100)
    COLUMNS=$cols "$bin" report "$example" --fail-on never |
        awk '/^Verdict: / { on = 1 } on && /^== / { exit } on' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
    echo
    echo "=== The full report of that document: $full"
    echo "=== (or: $bin report $example)"
fi
exit "$rc"
