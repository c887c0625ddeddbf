#!/usr/bin/env bash
# gpu: the network path on one host (issue 18). Two MPI ranks with NCCL's P2P and SHM
# transports disabled and its socket network forced onto the loopback device, so every
# connection goes through NCCL's NET code: the document's transports must say NET/Socket,
# its "nodes" must list this host with both ranks, and every result must be right.
# Skipped (77) without 2 GPUs, mpirun or python3. Args: linkscope binary, fixtures dir.
ls_bin=$1
[ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ] || { echo "skipped: needs 2 GPUs"; exit 77; }
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=detect_leaks=0 # Open MPI's own allocations are not ours to chase
net=(-x NCCL_P2P_DISABLE=1 -x NCCL_SHM_DISABLE=1 -x NCCL_NET=Socket -x NCCL_SOCKET_IFNAME=lo
     -x NCCL_NVLS_ENABLE=0)
timeout 300 mpirun -np 2 "${net[@]}" "$ls_bin" nccl all_reduce -b 1M -e 8M -f 2 -o "$tmp/net.json" \
    >"$tmp/out" 2>&1 || { echo "FAIL: mpirun exit $?"; tail -5 "$tmp/out"; exit 1; }
python3 - "$tmp/net.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = [m for m in d["measurements"] if m["family"] == "nccl"][0]
fails = []
if e["status"] != "ok" or e["mode"] != "mpi":
    fails.append("entry status %s mode %s" % (e["status"], e.get("mode")))
kinds = {t["transport"] for t in e.get("transports", [])}
if not kinds or kinds != {"NET/Socket"}:
    fails.append("transports %s, expected only NET/Socket" % sorted(kinds))
if any(r[s]["wrong"] != 0 for r in e["rows"] for s in ("oop", "ip")):
    fails.append("wrong results")
nodes = d.get("nodes", [])
if len(nodes) != 1 or sorted(nodes[0].get("ranks", [])) != [0, 1]:
    fails.append("nodes %s, expected this host with ranks 0 and 1" % [(n.get("hostname"), n.get("ranks")) for n in nodes])
ranks = e.get("rank_hosts", [])
if len(ranks) != 2:
    fails.append("rank_hosts %s" % ranks)
for f in fails:
    print("FAIL:", f)
print("%d passed, %d failed" % (5 - len(fails), len(fails)))
sys.exit(1 if fails else 0)
PY
