#!/usr/bin/env bash
# Other tools' results in a fleet: four nodes import a DCGM diagnostic and nccl-tests -J
# (tests/fixtures/tools); node4's DCGM memory test failed on GPU 3: fleet names node4 with
# dcgm_failed, exits 1; the three passing nodes alone exit 0 with no finding row. An
# ncclras MISMATCH report imported gives a verdict that is not healthy.
# args: linkscope binary, fixtures dir
set -u
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
t=$fx/tools
mkdir -p "$tmp/fleet" "$tmp/good"
for n in 1 2 3 4; do
    diag=$t/dcgm-diag-3x-pass.constructed.json
    [ $n -eq 4 ] && diag=$t/dcgm-diag-4x-memory-fail.constructed.json
    run 0 import "$diag" "$t/nccl-tests-json-v3-allreduce-8gpu.constructed.json" -o "$tmp/fleet/node$n.json"
    # each node's own name (the fixtures share one)
    sed -i "s/\"hostname\": \"h200\"/\"hostname\": \"node$n\"/" "$tmp/fleet/node$n.json"
    grep -q "\"hostname\": \"node$n\"" "$tmp/fleet/node$n.json" && ok || bad "node$n: hostname not set"
    [ $n -lt 4 ] && cp "$tmp/fleet/node$n.json" "$tmp/good/"
done
run 1 fleet "$tmp/fleet" && {
    grep -qE "^  error +node4 +dcgm_failed +GPU3" "$tmp/out" && ok || bad "node4's dcgm_failed not listed: $(cat "$tmp/out")"
    [ "$(grep -cE 'dcgm_failed' "$tmp/out")" -eq 1 ] && ok || bad "dcgm_failed listed more than once"
}
run 0 fleet "$tmp/good" && {
    grep -q "dcgm_failed" "$tmp/out" && bad "a passing node listed with dcgm_failed" || ok
}
run 0 import "$t/ras-mismatch-nccl1911.txt" -o "$tmp/ras.json" && {
    grep -q "ncclras" "$tmp/err" && ok || bad "RAS text not recognized as ncclras: $(cat "$tmp/err")"
}
run 1 report "$tmp/ras.json" && {
    grep -q "Verdict: healthy" "$tmp/out" && bad "MISMATCH job called healthy" || ok
    grep -q "^Verdict: 1 error" "$tmp/out" && ok || bad "verdict: $(grep Verdict "$tmp/out")"
}

# perftest, nvloom and dcgmi health per node in the same per-figure medians and outlier
# rules: six nodes import one ib_write_bw sweep, one nvloom run and DCGM passes with its
# PCIe test's figures; node5's 8 MiB row is 150 Gb/s where the others have 204.59,
# node3's process 2 reaches rack 0 at 401 GB/s where the others have about 740, node2's
# DCGM GPU-to-host bandwidth is 12.01 GB/s where the others have 24.02; node6's DCGM
# health watch failed.
mkdir -p "$tmp/tf" "$tmp/tin"
for n in 1 2 3 4 5 6; do
    pt=$t/perftest-rocm-docs-write-bw-bidir-sweep.txt
    nv=$t/nvloom-8proc-2rack.constructed.txt
    health=$t/dcgm-health-healthy.constructed.json
    if [ $n -eq 5 ]; then
        sed 's/^   8388608    5000             204.59             204.59/   8388608    5000             150.10             150.02/' "$pt" >"$tmp/tin/pt5.txt"
        pt=$tmp/tin/pt5.txt
    fi
    if [ $n -eq 3 ]; then
        awk '/^Running gpu_to_rack/{g=1} g && /^2\t/{sub(/\t[0-9.]+\t/, "\t401.00\t"); g=0} {print}' "$nv" >"$tmp/tin/nv3.txt"
        nv=$tmp/tin/nv3.txt
    fi
    [ $n -eq 6 ] && health=$t/dcgm-health-memory-fail.constructed.json
    pcie=$t/dcgm-diag-3x-pcie-info-dcgm215.constructed.json
    if [ $n -eq 2 ]; then # DCGM's PCIe test measured half the others' GPU-to-host bandwidth
        sed 's/GPU to Host bandwidth:\\t\\t24.02/GPU to Host bandwidth:\\t\\t12.01/' "$pcie" >"$tmp/tin/pcie2.json"
        pcie=$tmp/tin/pcie2.json
    fi
    run 0 import "$t/dcgm-diag-3.1-pass-dcgm-tests.json" "$pcie" "$health" "$pt" "$nv" -o "$tmp/tf/node$n.json"
done
run 1 fleet "$tmp/tf" && {
    grep -qE "^  outlier +[^ ]*node5.json .*port <RDMA-NIC-2>" "$tmp/out" && ok || bad "node5's slow port not an outlier: $(cat "$tmp/out")"
    grep -qE "^  outlier +[^ ]*node3.json .*process 2" "$tmp/out" && ok || bad "node3's process 2 not an outlier"
    grep -qE "^  error +[^ ]*node6.json +dcgm_health +GPU1" "$tmp/out" && ok || bad "node6's DCGM health failure not listed"
    grep -qE "^  outlier +[^ ]*node2.json .*GPU 0" "$tmp/out" && ok || bad "node2's DCGM PCIe figure not an outlier"
    [ "$(grep -cE '^  outlier .*node[0-9].json +unknown hardware' "$tmp/out")" -eq 3 ] && ok || bad "other nodes called outliers"
}

echo "test_tools_fleet: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
