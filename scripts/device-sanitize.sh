#!/usr/bin/env bash
# compute-sanitizer's four tools (memcheck, racecheck, synccheck, initcheck) over every
# GPU command of linkscope and every gpu test binary, on the device machine (issue 26).
# Run from out/dev (scripts/stage-device.sh builds and stages it; the device call carries
# out/dev):
#
#     cd out/dev && bash device-sanitize.sh "$OUT"
#
# Sizes are small so that the whole call ends within 9 minutes on one H200: the four
# tools of one command run at once, one command after another (test binaries two at a
# time), each under a timeout cut to the time left (a run that no longer fits is
# reported "not run (time)"). Before the tools, without one: the budget on the GPU
# (run --budget 1 refused with exit 4, nothing written; run quick, and thorough when
# time is left, against the projection it stored).
# Prints one line per tool x command ("memcheck hbm: 0 errors"). An error is counted
# as ours unless NCCL raised it; these are excepted, by name, and listed on the line:
#   - an error whose host backtrace passes through libnccl (a CUDA call NCCL makes and
#     handles itself: e.g. cuMulticastGetGranularity / cuMemCreate "operation not
#     supported" probing NVLS, cudaErrorPeerAccessAlreadyEnabled in its P2P transport
#     setup, cudaErrorNotReady from its proxy's stream and event polling);
#   - an error or hazard in NCCL's own device kernels (ncclDevKernel_*, ncclKernel_*):
#     they synchronize through volatile flags racecheck and synccheck cannot see, and
#     read FIFO and scratch slots before their first write (initcheck).
# cuBLAS's are excepted the same way and counted apart: a hazard inside its own GEMM
# kernels (nvjet_*, cutlass*; session 6: racecheck reported 8 in nvjet_sm90_tst_* of
# the 8192^3 GEMM; its stages are likely ordered by hardware barriers racecheck does
# not follow, as NCCL's flags are).
# Errors compute-sanitizer did not print (past --print-limit) cannot be classified and
# count as ours. A figure that timed out under a tool (the gated timer's kernels did not
# all run) is said on the line. Output: $OUT/log.txt (the summary lines, then the time
# taken) and $OUT/sanitize.tgz (every tool's full log).
# usage: device-sanitize.sh OUT_DIR
#        device-sanitize.sh --line TOOL LABEL RC LOG   (one log's line: tests/cli)
set -u
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-} LS_FIXTURES=$PWD/fixtures
# under a sanitizer the launch behind the gate waits the gate's whole bound (harness.h,
# ls_gate_timeout_ms): 200 ms instead of 20 s a figure; the figures say "timeout", their
# kernels still run once
export LS_GATE_TIMEOUT_MS=200
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer \
    /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
start=$(date +%s)
deadline=$((start + 520)) # 8 min 40 s: the tarball and the summary after it
tools="memcheck racecheck synccheck initcheck"
doc=/tmp/ls-sanitize-$$.json

# classify LOG: "OURS EXCEPTED SUMMARY TIMEOUTS NAMES" from one tool's log. The tool's
# own count (ERROR SUMMARY: N errors; racecheck: (E errors, ...)) is the total; the
# printed blocks NCCL raised (not warnings) are excepted; ours = total - excepted, so an
# error past the print limit or in a block of a shape not read here counts as ours.
# SUMMARY is 1 when the tool printed its count (it ran to the end).
classify() {
    awk '
    function flush() {
        if (block == "") return
        if (block ~ /libnccl|ncclDevKernel|ncclKernel/ && block !~ /^Warning/) {
            name = "?"
            if (match(block, /CUDA API call to [A-Za-z_0-9]+/))
                name = substr(block, RSTART + 17, RLENGTH - 17)
            else if (match(block, /(ncclDevKernel|ncclKernel)[A-Za-z_0-9]*/))
                name = substr(block, RSTART, RLENGTH)
            excepted++; names[name]++
        } else if (block ~ /libcublas|nvjet_|cutlass/ && block !~ /^Warning/) {
            name = "?"
            if (match(block, /(nvjet_|cutlass)[A-Za-z_0-9:]*/))
                name = substr(block, RSTART, RLENGTH)
            blas++; blas_names[name]++
        }
        block = ""
    }
    /^========= (ERROR SUMMARY|RACECHECK SUMMARY|COMPUTE-SANITIZER|LEAK SUMMARY)/ {
        flush()
        if (match($0, /ERROR SUMMARY: [0-9]+ error/) && !seen) {
            total = substr($0, RSTART + 15, RLENGTH - 21) + 0; seen = 1
        }
        if (match($0, /RACECHECK SUMMARY: .*\([0-9]+ error/)) {
            m = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", m)
            total = m + 0; seen = 1
        }
        next
    }
    /^=========[ \t]*$/ { flush(); next }
    /^=========  / { if (block != "") block = block "\n" substr($0, 11); next }
    /^========= / { flush(); block = substr($0, 11); next }
    /timeout/ { timeouts++ }
    END {
        flush()
        list = ""
        for (n in names) list = list (list == "" ? "" : ", ") n " x" names[n]
        blist = ""
        for (n in blas_names) blist = blist (blist == "" ? "" : ", ") n " x" blas_names[n]
        ours = total - excepted - blas
        if (ours < 0) ours = 0
        printf "%d %d %d %d %d %s|%s\n", ours, excepted + 0, blas + 0, seen + 0, timeouts + 0, list, blist
    }' "$1"
}

# summary TOOL LABEL RC LOG: the one line of a tool x command
summary() {
    local tool=$1 label=$2 rc=$3 log=$4 ours excepted blas seen timeouts names line
    read -r ours excepted blas seen timeouts names < <(classify "$log")
    line="$tool $label: $ours error$([ "$ours" = 1 ] || echo s)"
    [ "$excepted" -gt 0 ] && line="$line ($excepted NCCL-internal excepted: ${names%%|*})"
    [ "$blas" -gt 0 ] && line="$line ($blas cuBLAS-internal excepted: ${names#*|})"
    [ "$timeouts" -gt 0 ] && line="$line ($timeouts output line(s) say timeout: those figures' kernels ran once)"
    [ "$seen" = 1 ] || line="$tool $label: no count from the tool (see its log)"
    # a command that made no CUDA call (NVML and sysfs only) gives the tool nothing to check
    grep -q "terminated before first instrumented API call" "$log" &&
        line="$tool $label: no CUDA call to check (NVML and sysfs only)" && rc=0
    case $rc in
    0) ;;
    77) line="$line [skipped: needs more GPUs]" ;;
    124 | 137) line="$line [timed out: partial]" ;;
    *) line="$line [exit $rc]" ;;
    esac
    echo "$line"
}

# filter_for TOOL LABEL: the tool's kernel filter for one item. synccheck does not get
# through test_measure_burn's cuBLAS 8192^3 GEMMs in its share (sessions 5-13: "not
# finished"): there cuBLAS's own kernels are left uninstrumented (they run at full speed;
# their hazards are excepted by name anyway), ours (fill_bf16_kernel, compare_kernel) and
# every CUDA call are checked. The `burn` item runs the same GEMM path at 256^3 with
# cuBLAS's kernels instrumented by every tool. The other three tools finish the test with
# cuBLAS instrumented, and keep it so: racecheck with the filter stopped on "Internal
# Sanitizer Error: failed to handle a hardware exception" on an H100 (session 14), where
# it ran through without one (and memcheck and synccheck with the filter ran through).
filter_for() {
    case $1:$2 in
    synccheck:test_measure_burn)
        echo "--kernel-name-exclude kns=nvjet --kernel-name-exclude kns=cutlass" \
            "--kernel-name-exclude kns=gemm --kernel-name-exclude kns=splitKreduce"
        ;;
    esac
}

if [ "${1:-}" = --line ]; then
    summary "$2" "$3" "$4" "$5"
    exit 0
fi
out=${1:?usage: device-sanitize.sh OUT_DIR}
logs=$out/sanitize; mkdir -p "$logs"

# item LABEL CAP_S CMD...: the four tools over CMD at once
item() {
    local label=$1 cap=$2
    shift 2
    local now left t pids=() tool
    now=$(date +%s); left=$((deadline - now))
    if [ "$left" -lt 20 ]; then
        for tool in $tools; do echo "$tool $label: not run (time)"; done
        return
    fi
    t=$((cap < left - 5 ? cap : left - 5))
    for tool in $tools; do
        local cmd=("$@") filter
        filter=$(filter_for "$tool" "$label")
        (
            # shellcheck disable=SC2086 # the filter's words, split on purpose
            timeout -k 5 "$t" "$cs" --tool "$tool" --print-limit 200 $filter "${cmd[@]}" \
                >"$logs/$tool-$label.log" 2>&1
            echo $? >"$logs/$tool-$label.rc"
        ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    for tool in $tools; do
        echo "$(summary "$tool" "$label" "$(cat "$logs/$tool-$label.rc")" "$logs/$tool-$label.log")$(
            [ -n "$(filter_for "$tool" "$label")" ] && echo " (cuBLAS kernels not instrumented)")"
    done
}

# run_timed LABEL ARGS...: a run's exit, its elapsed_s against its stored projected_s
# (the run object's: the last "projected_s" of the document, after its steps')
run_timed() {
    local label=$1
    shift
    timeout 200 ./linkscope run --no-report -o "$doc.$label" "$@" >"$logs/run-$label.txt" 2>&1
    local rc=$?
    echo "run $label: exit $rc, $(tr ',{}' '\n\n\n' <"$doc.$label" 2>/dev/null | awk -F: '
        /"elapsed_s"/ { e = $2 + 0 }
        /"projected_s"/ { p = $2 + 0 }
        END {
            if (!e) { print "no document"; exit }
            d = p - e; if (d < 0) d = -d
            printf "took %.2f s, projected %.2f s, %s\n", e, p, p && d <= 0.15 * e ? "within 15%" : "NOT within 15%"
        }')"
    # what one telemetry reading costs (telemetry.reading_ms of every entry): the
    # per-figure fixed part docs/schedule.md asks to be measured
    tr ',{}' '\n\n\n' <"$doc.$label" 2>/dev/null | awk -F: -v label="$label" '
        /"reading_ms"/ { v = $2 + 0; s += v; n++; if (!min || v < min) min = v; if (v > max) max = v }
        END { if (n) printf "run %s telemetry: %d windows, one reading of the window'"'"'s GPUs %.1f ms mean (%.1f-%.1f)\n", label, n, s / n, min, max }'
}

budget_checks() {
    local t0 rc
    t0=$(date +%s.%N)
    ./linkscope run --budget 1 --no-report -o "$doc.refused" >"$logs/run-refused.txt" 2>&1
    rc=$?
    echo "run --budget 1: exit $rc (4 expected) in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b - a}') s," \
        "$([ -e "$doc.refused" ] && echo "a document written (none expected)" || echo "nothing written");" \
        "$(grep -c . "$logs/run-refused.txt") stderr line(s): $(head -1 "$logs/run-refused.txt")"
    ./linkscope run --dry-run 2>&1 | tail -1
    run_timed quick
}

thorough_check() {
    ./linkscope run --dry-run --level thorough 2>&1 | tail -1
    run_timed thorough --level thorough
}

{
    nvidia-smi -L
    [ -n "$cs" ] || { echo "compute-sanitizer: not found"; exit 3; }
    "$cs" --version | tail -1
    echo "=== the budget (no sanitizer): a cap the run keeps, its time against its projection"
    budget_checks
    echo "=== GPU commands"
    item hbm 60 ./linkscope hbm --size 64M --samples 3 -o "$doc.hbm"
    item host 60 ./linkscope host --size 64M --samples 3 -o "$doc.host"
    item latency 60 ./linkscope latency --samples 3 -o "$doc.lat"
    item p2p 40 ./linkscope p2p --size 64M --samples 3 -o "$doc.p2p"
    # racecheck, synccheck and initcheck do not get through cuBLAS's 8192^3 GEMMs in
    # minutes (session 5): the same GEMMs at 256^3, every tool, cuBLAS included
    LINKSCOPE_BURN_MATRIX_N=256 item burn 90 ./linkscope burn --seconds 3 -o "$doc.burn"
    item burn-fma 60 ./linkscope burn --seconds 3 --no-cublas -o "$doc.burnf"
    item nccl-all_reduce 75 ./linkscope nccl all_reduce -b 8 -e 1M -f 32 -n 2 -w 1 --output "$doc.nccl"
    item health 45 ./linkscope health --budget 40 # the probe too: its copies, all_reduce and HBM copy
    item run-quick 120 ./linkscope run --level quick --no-report -o "$doc.run"
    echo "=== gpu test binaries (two at a time: eight tool processes on the GPU)"
    set -- ./test_*
    while [ $# -gt 0 ]; do
        [ -x "$1" ] && item "$(basename "$1")" 60 "$1" &
        [ $# -gt 1 ] && [ -x "$2" ] && item "$(basename "$2")" 60 "$2" &
        wait
        shift $(($# > 1 ? 2 : 1))
    done
    [ $((deadline - $(date +%s))) -gt 110 ] && thorough_check || echo "run thorough: not run (time)"
    echo "wall $(($(date +%s) - start)) s"
} 2>&1 | tee "$out/log.txt"
rm -f "$doc".*
tar czf "$out/sanitize.tgz" -C "$out" sanitize && rm -rf "$logs"
