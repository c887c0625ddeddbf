#!/usr/bin/env bash
# Runs linkscope p2p, latency, hbm and host into one run document and prints each
# headline figure beside its theoretical limit and the target of ANCHORS.md
# (2 x H200, NV18). Usage: scripts/bench-measure.sh [OUTDIR]   (LINKSCOPE=path/to/linkscope)
# Extra options for every command go in LS_BENCH_ARGS (e.g. "--samples 30").
set -euo pipefail
ls_bin=${LINKSCOPE:-build/linkscope}
out=${1:-bench-out}
mkdir -p "$out"
doc="$out/run.json"
rm -f "$doc"
export NCCL_NVLS_ENABLE=0
run() {
    local t0=$(date +%s%N)
    echo "\$ linkscope $*"
    "$ls_bin" "$@" ${LS_BENCH_ARGS:-}
    echo "($(( ($(date +%s%N) - t0) / 1000000 )) ms wall)"
    echo
}
run p2p -o "$doc" --csv "$out/csv"
run latency --into "$doc" --csv "$out/csv"
run hbm --into "$doc" --csv "$out/csv"
run host --into "$doc" --csv "$out/csv"

# Limits of the 2 x H200 machine (ANCHORS.md) unless the document knows better.
NVLINK_ONE_DIR=${NVLINK_ONE_DIR:-478}   # 18 links x 26.562 GB/s
PCIE_ONE_DIR=${PCIE_ONE_DIR:-63}        # Gen5 x16 after 128b/130b
python3 - "$doc" "$NVLINK_ONE_DIR" "$PCIE_ONE_DIR" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
nvl, pcie = float(sys.argv[2]), float(sys.argv[3])
ms = [m for m in doc["measurements"] if m.get("status") == "ok"]
def pick(fam, pred, lower=False):
    c = [m for m in ms if m["family"] == fam and pred(m)]
    if not c:
        return None
    return (min if lower else max)(c, key=lambda m: m["value"])
rows = []
def row(name, m, theo, target, lower=False, unit="GB/s"):
    if m is None:
        rows.append((name, "-", "", "", f"{theo}", f"{target}", "not measured")); return
    v = m["value"]; cv = m["stats"]["cv"] * 100
    ok = (v <= target) if lower else (v >= target)
    rows.append((name, f"{v:.2f} {unit}", m["method"], f"{cv:.2f}%", theo, f"{'<=' if lower else '>='} {target}",
                 "yes" if ok else "NO"))
gpus = sorted({m["src"] for m in ms if m["family"] == "p2p"})
for a in gpus:
    for b in gpus:
        if a == b: continue
        for meth in ("ce", "sm_write", "sm_read"):
            m = pick("p2p", lambda m: m["direction"] == "uni" and m["src"] == a and m["dst"] == b and m["method"] == meth)
            row(f"P2P {a}->{b} one direction ({meth})", m, f"{nvl:g}", 396)
        m = pick("p2p", lambda m: m["direction"] == "bidir" and {m["src"], m["dst"]} == {a, b} and m["method"] != "staged")
        if a < b:
            row(f"P2P {a}<->{b} both directions (best)", m, f"{2*nvl:g}", 783)
            m = pick("p2p", lambda m: m["method"] == "staged" and m["direction"] == "uni" and m["src"] == a)
            row(f"P2P {a}->{b} staged through host", m, f"{pcie:g}", 37.8)
def lat(meth, a, b, th=False):
    return pick("latency", lambda m: m["method"] == meth and m["src"] == a and m["dst"] == b and
                ("through_host" in m["flags"]) == th, lower=True)
lgpus = sorted({m["src"] for m in ms if m["family"] == "latency"})
for a in lgpus:
    for b in lgpus:
        if a == b: continue
        row(f"latency {a}->{b} pointer chase (read)", lat("pointer_chase", a, b), "-", 0.83, True, "us")
        row(f"latency {a}->{b} ping-pong one-way (write)", lat("gpu_pingpong", a, b), "-", 2.3, True, "us")
        row(f"latency {a}->{b} gpu_copy 4 B (p2pBwLatTest GPU)", lat("gpu_copy", a, b), "-", 2.3, True, "us")
        row(f"latency {a}->{b} ping-pong through host", lat("gpu_pingpong", a, b, True), "-", 15.6, True, "us")
for a in lgpus:
    row(f"latency {a}->host pointer chase", lat("pointer_chase", a, -1, True), "-", 1.19, True, "us")
for g in sorted({m["gpu"] for m in ms if m["family"] == "hbm"}):
    for meth in ("read", "write", "copy", "copy_ce"):
        m = pick("hbm", lambda m: m["gpu"] == g and m["method"] == meth)
        th = m.get("theoretical", 0) if m else 0
        row(f"HBM GPU{g} {meth} (traffic)", m, f"{th:.0f}", 4400)
for g in sorted({m["gpu"] for m in ms if m["family"] == "host"}):
    for d in ("h2d", "d2h", "bidir"):
        m = pick("host", lambda m: m["gpu"] == g and m["direction"] == d and m["memory"] == "pinned")
        row(f"host GPU{g} {d} pinned", m, f"{pcie*(2 if d == 'bidir' else 1):g}", 55.5 if d != "bidir" else 0)
w = [max(len(str(r[i])) for r in rows + [("figure", "linkscope", "method", "spread", "theoretical", "target", "reached")]) for i in range(7)]
hdr = ("figure", "linkscope", "method", "spread", "theoretical", "target", "reached")
print("  ".join(h.ljust(w[i]) for i, h in enumerate(hdr)))
for r in rows:
    print("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)))
PY
