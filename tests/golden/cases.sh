# The golden cases: one line each, "NAME|ARGS" (ARGS split on spaces; @F = the fixtures
# folder, @E = examples/). tests/cli/test_golden.sh runs each and compares its stdout
# with tests/golden/out/NAME; `bash tests/golden/update.sh BUILD/linkscope` rewrites them.
# Committed before the structure refactor (issue 10): the refactor must not move a byte.
docs="E:h200x2-run.json F:analyze/h200x2-anchors.json F:analyze/hgx-h200x8-even.json
F:analyze/seed000-gv100x11.json F:analyze/seed004-nvlink8-degraded.json
F:tp/h200x2-allreduce.json F:tp/synthetic-variants.json F:discover/h200x2-inventory.json"

golden_cases() {
    local d name path
    for d in $docs; do
        name=$(basename "${d#*:}" .json)
        case $d in E:*) path="@E/${d#E:}" ;; F:*) path="@F/${d#F:}" ;; esac
        for fmt in term md html csv; do
            echo "report-$name.$fmt|report $path --format $fmt"
        done
        echo "plan-$name.txt|plan $path"
        echo "plan-$name.json|plan $path --json"
    done
    echo "compare-anchors-example.txt|compare @F/analyze/h200x2-anchors.json @E/h200x2-run.json"
    echo "compare-anchors-example.md|compare @F/analyze/h200x2-anchors.json @E/h200x2-run.json --markdown"
    echo "compare-anchors-example.json|compare @F/analyze/h200x2-anchors.json @E/h200x2-run.json --json"
    echo "compare-variants.txt|compare --variants @F/tp/synthetic-variants.json"
    for t in hgx-h100x8-nic8 seed000-gv100x11 seed001-v100x2-nvlink seed001-v100x2-pcie; do
        echo "topo-$t.txt|topo --from @F/topo/$t.txt"
    done
    for f in nccl-tests-all_reduce nccl-tests-all_gather nccl-tests-alltoall p2pBandwidthLatencyTest nvidia-smi-topo; do
        echo "import-$f.json|import @F/h200x2/$f.txt"
    done
    echo "import-nvbandwidth.json|import @F/h200x2/nvbandwidth.json"
    echo "tp-example.txt|tp --model llama3-70b --tp 2 --prompt 1024,32768 --run @E/h200x2-run.json"
}

# golden_run BIN FIXTURES EXAMPLES ARGS: runs one case, stdout to stdout
golden_run() {
    local bin=$1 fx=$2 ex=$3
    shift 3
    local args=()
    for a in $*; do
        a=${a//@F/$fx}
        args+=("${a//@E/$ex}")
    done
    # an import records when, where and by which build it ran: those fields are masked
    "$bin" "${args[@]}" | sed -e 's/"created": "[^"]*"/"created": "T"/' \
        -e 's/"hostname": "[^"]*"/"hostname": "H"/' -e 's/"commit": "[^"]*"/"commit": "C"/'
    return "${PIPESTATUS[0]}"
}
