#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang, ASan and UBSan, and runs each for
# a bounded time from its committed seed corpus (docs/safety.md, "Fuzzing").
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default 5 s, every target
# Env: LS_FUZZ_BUILD (build folder, default build-fuzz), LS_FUZZ_RUNS (also stop each target
# after that many executions), LS_FUZZ_WORK (where new corpus entries and
# crash files go; default a temporary folder). Exit 0 (or LS_FUZZ_SKIP_RC) with
# "skipped" when clang or libFuzzer is missing; 1 when a target crashed or a sanitizer
# reported.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
shift || true
cc=$(command -v clang || true)
if [ -z "$cc" ] || ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n){(void)d;(void)n;return 0;}' |
    "$cc" -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
    echo "fuzz: skipped (no clang with libFuzzer; apt-get install clang)"
    exit "${LS_FUZZ_SKIP_RC:-0}"
fi
build=${LS_FUZZ_BUILD:-build-fuzz}
cmake -S . -B "$build" -DCMAKE_C_COMPILER="$cc" -DLINKSCOPE_CUDA=OFF -DLINKSCOPE_TESTS=OFF \
    -DLINKSCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do
        t=$(basename "$f" .c)
        targets+=("${t#fuzz_}")
    done
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null || exit 1
work=${LS_FUZZ_WORK:-$(mktemp -d)}
failed=0
for t in "${targets[@]}"; do
    mkdir -p "$work/$t"
    limit=(-max_total_time="$secs")
    [ -n "${LS_FUZZ_RUNS:-}" ] && limit+=(-runs="$LS_FUZZ_RUNS")
    ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz/fuzz_$t" "${limit[@]}" -max_len=65536 \
        -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/$t/" -print_final_stats=1 \
        "$work/$t" "tests/fuzz/corpus/$t" >"$work/$t.log" 2>&1
    rc=$?
    execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$work/$t.log")
    secs_run=$(awk '/Done [0-9]+ runs in/ {print $5}' "$work/$t.log")
    if [ $rc -ne 0 ]; then
        failed=1
        echo "fuzz $t: FAILED (exit $rc) after ${execs:-?} executions; log $work/$t.log"
        grep -m3 "ERROR\|runtime error\|SUMMARY" "$work/$t.log"
    else
        echo "fuzz $t: ${execs:-?} executions in ${secs_run:-?} s, 0 crashes"
    fi
done
exit $failed
