#!/usr/bin/env bash
# scripts/device-sanitize.sh's one line per tool x command, from compute-sanitizer logs:
# three real ones of session 4 (tests/fixtures/sanitizer/*-s4.log, 1 x H200) and two
# constructed in the tool's block format with NCCL's own errors beside one of ours
# (tests/fixtures/sanitizer/README.md). Args: linkscope binary (unused), fixtures dir.
fx=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
line() { bash "$src/scripts/device-sanitize.sh" --line "$@"; }
expect() { # WANT GOT
    [ "$2" = "$1" ] && ok || bad "expected '$1', got '$2'"
}

# the tool's own count: 126 errors in HBM's read kernel (5 printed, 121 past the limit,
# all counted), and the figures that timed out under it said
got=$(line initcheck hbm 0 "$fx/sanitizer/initcheck-hbm-s4.log")
expect "initcheck hbm: 126 errors (5 output line(s) say timeout: those figures' kernels ran once)" "$got"
expect "memcheck host: 0 errors" "$(line memcheck host 0 "$fx/sanitizer/memcheck-host-s4.log")"
expect "racecheck latency: 0 errors" "$(line racecheck latency 0 "$fx/sanitizer/racecheck-latency-s4.log")"
# NCCL's own API errors excepted by name; the out-of-bounds write in our kernel counted
got=$(line memcheck nccl-all_reduce 0 "$fx/sanitizer/memcheck-nccl-constructed.log")
case $got in "memcheck nccl-all_reduce: 1 error (2 NCCL-internal excepted: "*) ok ;; *) bad "nccl memcheck: '$got'" ;; esac
for name in "cudaDeviceEnablePeerAccess x1" "cudaEventQuery x1"; do
    case $got in *"$name"*) ok ;; *) bad "nccl memcheck: no '$name' in '$got'" ;; esac
done
# a race in NCCL's kernel excepted; its warning is not an error
expect "racecheck nccl-all_reduce: 0 errors (1 NCCL-internal excepted: ncclDevKernel_AllReduce_Sum_f32_RING_LL x1)" \
    "$(line racecheck nccl-all_reduce 0 "$fx/sanitizer/racecheck-nccl-constructed.log")"
# real, session 6: racecheck's hazards inside cuBLAS's own GEMM kernel (the 8192^3
# GEMM of test_measure_burn), excepted by name and counted apart from NCCL's
expect "racecheck test_measure_burn: 0 errors (8 cuBLAS-internal excepted: nvjet_sm90_tst_320x128_64x3_1x2_h_bz_coopB_NNT x8) [exit 1]" \
    "$(line racecheck test_measure_burn 1 "$fx/sanitizer/racecheck-burn-cublas-s6.log")"
# no count from the tool (killed by the timeout): said, never read as clean
printf 'linkscope: measuring ...\n' >"$tmp/cut.log"
expect "memcheck run-quick: no count from the tool (see its log) [timed out: partial]" \
    "$(line memcheck run-quick 124 "$tmp/cut.log")"
expect "synccheck test_nccl_shm: 0 errors [skipped: needs more GPUs]" \
    "$(line synccheck test_nccl_shm 77 "$fx/sanitizer/memcheck-host-s4.log")"
# a command that made no CUDA call (health reading NVML and sysfs): nothing to check,
# not a failure (real, session 5)
expect "memcheck health: no CUDA call to check (NVML and sysfs only)" \
    "$(line memcheck health 255 "$fx/sanitizer/memcheck-health-s5.log")"
bash -n "$src/scripts/device-sanitize.sh" && ok || bad "device-sanitize.sh: syntax"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
