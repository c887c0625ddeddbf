#!/usr/bin/env bash
# Other tools' figures reach the report: perftest and nvloom imports get an "Other tools
# (imported)" section (one row per port and test, per nvloom testcase with its worst
# cell) in every format; a document without them has no such section.
# args: linkscope binary, fixtures dir
set -u
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
t=$fx/tools
run 0 import "$t/perftest-rocm-docs-write-bw-bidir-sweep.txt" "$t/perftest-read-lat-roce-spiderpool.txt" \
    "$t/nvloom-8proc-2rack.constructed.txt" -o "$tmp/tools.json" || exit 1
run 0 report "$tmp/tools.json" --fail-on never && {
    grep -q "^== Other tools (imported) " "$tmp/out" && ok || bad "no Other tools section"
    grep -qE "^  ib_write_bw +<RDMA-NIC-2> +bidir +Ethernet +23 +2 B to 8 MiB +25\.57 +25\.57 +GB/s" "$tmp/out" && ok ||
        bad "perftest sweep row: $(grep ib_write_bw "$tmp/out")"
    grep -qE "^  ib_read_lat +mlx5_0 +uni +Ethernet +1 +2 B +7\.04 +7\.04 +us" "$tmp/out" && ok || bad "perftest latency row"
    grep -qE "^  gpu_to_rack_device_to_device_unidir_write_ce +process 5$" "$tmp/out" && ok || bad "nvloom worst cell not process 5"
}
for f in md html json; do # csv is its three fixed tables
    run 0 report "$tmp/tools.json" --format "$f" --fail-on never && {
        grep -q "ib_write_bw" "$tmp/out" && ok || bad "--format $f has no perftest row"
    }
done
run 0 import "$t/nccl-tests-json-v3-allreduce-8gpu.constructed.json" -o "$tmp/plain.json"
run 0 report "$tmp/plain.json" && {
    grep -q "Other tools" "$tmp/out" && bad "a document without other tools' figures has the section" || ok
}
# DCGM's diagnostic throughput is higher-is-better (TFLOP/s, as burn): half of it on GPU 0
# is a regression, GPU 1 unchanged is the same
sed 's/GPU 0 calculated at approximately 859.08/GPU 0 calculated at approximately 429.54/' \
    "$t/dcgm-diag-4x-one-test-dcgm215.txt" >"$tmp/slow.txt"
run 0 import "$t/dcgm-diag-4x-one-test-dcgm215.txt" -o "$tmp/dcgm-a.json"
run 0 import "$tmp/slow.txt" -o "$tmp/dcgm-b.json"
run 1 compare "$tmp/dcgm-a.json" "$tmp/dcgm-b.json" && {
    grep -qE "^dcgm diagnostic_tflops dcgm-diagnostic_tflops-0 .*-50\.0% +regression" "$tmp/out" && ok ||
        bad "GPU 0 at half its TFLOP/s not a regression: $(grep tflops "$tmp/out")"
    grep -qE "^dcgm diagnostic_tflops dcgm-diagnostic_tflops-1 .* same$" "$tmp/out" && ok || bad "GPU 1 not the same"
}

# what each new reader refuses: one line naming the file, exit 2, nothing written
printf ' #bytes #iterations  BW peak[Gb/sec] BW average[Gb/sec]\n' >"$tmp/e1.txt"
printf 'nvloom_cli 1.3\nRunning device_to_device_unidir_write_ce\n\t0\t1\n' >"$tmp/e2.txt"
printf '{"header":["Health Monitor Report"], "body": {"Overall Health": ' >"$tmp/e3.json"
printf '{"communicators": [], "ras": {}}' >"$tmp/e4.json"
for e in e1.txt e2.txt e3.json e4.json; do
    run 2 import "$tmp/$e" -o "$tmp/bad.json" && {
        [ ! -e "$tmp/bad.json" ] && ok || bad "$e: a document was written"
        [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "$e" "$tmp/err" && ok || bad "$e: not one line naming the file: $(cat "$tmp/err")"
    }
done
echo "test_tools_report: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
