#!/usr/bin/env bash
# gpu: `linkscope nccl -G` under mpirun, one process per GPU (the setup NCCL recommends
# for CUDA graphs): every row checked and right. Skipped (77) without 2 GPUs or mpirun.
# Args: linkscope binary, fixtures dir.
ls_bin=$1
[ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ] || { echo "skipped: needs 2 GPUs"; exit 77; }
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 120 mpirun -np 2 "$ls_bin" nccl all_reduce -b 8 -e 16M -f 8 -G 2 -o "$tmp/g.json" >"$tmp/out" 2>&1 ||
    { echo "FAIL: mpirun exit $?"; tail -5 "$tmp/out"; exit 1; }
python3 - "$tmp/g.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = [m for m in d["measurements"] if m["family"] == "nccl"][0]
ok = e["status"] == "ok" and e["graph"] and e["mode"] == "mpi" and len(e["rows"]) >= 4
ok = ok and all(r[s]["wrong"] == 0 for r in e["rows"] for s in ("oop", "ip"))
ok = ok and all(r["oop"]["busbw"] >= 0 and r["oop"]["time_us"] > 0 for r in e["rows"])
print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
sys.exit(0 if ok else 1)
PY
