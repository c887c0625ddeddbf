#!/usr/bin/env bash
# linkscope nccl under mpirun -np 2 gathers every node's inventory to rank 0 (issue 18):
# the document's "nodes" lists this host once, with both ranks and its inventory and
# topology. Runs without a GPU (the collective is then skipped, exit 3: the document is
# still written). Skipped (77) where mpirun is absent or broken, or without python3.
set -u
bin=$1
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
export ASAN_OPTIONS=detect_leaks=0 # Open MPI's own allocations are not ours to chase
if ! timeout 60 mpirun --oversubscribe -np 1 true >/dev/null 2>&1; then
    echo "skipped: mpirun cannot start processes here"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timeout 300 mpirun --oversubscribe -np 2 "$bin" nccl all_reduce -b 1M -e 1M -o "$tmp/doc.json" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "FAIL: exit $rc"; tail -5 "$tmp/out"; exit 1; }
python3 - "$tmp/doc.json" "$(hostname)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
nodes = d.get("nodes")
fails = []
if not nodes or len(nodes) != 1:
    fails.append("nodes: %s" % nodes)
else:
    n = nodes[0]
    if n.get("hostname") != sys.argv[2] or n.get("ranks") != [0, 1]:
        fails.append("node %s ranks %s" % (n.get("hostname"), n.get("ranks")))
    for key in ("host", "software", "gpus", "links", "nics", "gpu_nic_links"):
        if key not in n:
            fails.append("node lacks " + key)
for f in fails:
    print("FAIL:", f)
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
PY
