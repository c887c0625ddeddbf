#!/usr/bin/env python3
"""How k of a baseline's tolerance = max(given percent, k x spread) was chosen
(docs/compare-check.md, "How k was chosen").

Makes a baseline of every idle run document kept in tests/fixtures/runs/ with
`linkscope baseline`, and for every ordered pair (baseline of A, run B) and every figure
whose shortfall (bandwidth) or excess (time) is beyond the given percent, the k that the
figure's recorded spread needs to hold it: shortfall / spread_pct. Prints the worst
pairs and the smallest k that holds every pair; with --no-floor, the same with each
figure's own sample CV as its spread (what the baselines recorded before the floor).

usage: scripts/calibrate-spread-k.py LINKSCOPE [--no-floor]
"""
import glob
import json
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def documents(folder):
    docs = []
    for t in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/runs/*.tgz"))):
        d = os.path.join(folder, os.path.basename(t)[:-4])
        os.makedirs(d)
        with tarfile.open(t) as tar:
            tar.extractall(d)
        docs += sorted(glob.glob(os.path.join(d, "*.json")))
    return docs


def figures(doc):
    out = {}
    for e in json.load(open(doc))["measurements"]:
        if e.get("status") == "ok" and "value" in e:
            out[e["id"]] = (e["value"], 100 * e.get("stats", {}).get("cv", 0))
    return out


def main():
    binary, no_floor = sys.argv[1], "--no-floor" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        docs = documents(tmp)
        figs = {d: figures(d) for d in docs}
        needs = []
        for a in docs:
            base = json.loads(subprocess.run([binary, "baseline", a], capture_output=True,
                                             check=True, text=True).stdout)
            for exp in base["expectations"]:
                entry = next((i for i, (v, _) in figs[a].items()
                              if abs(v - exp.get("min", exp.get("max", 0))) < 1e-9), None)
                spread = figs[a][entry][1] if no_floor else exp["spread_pct"]
                for b in docs:
                    if b == a or entry not in figs[b]:
                        continue
                    value = figs[b][entry][0]
                    if "min" in exp:
                        beyond = 100 * (exp["min"] - value) / exp["min"]
                    else:
                        beyond = 100 * (value - exp["max"]) / exp["max"]
                    if beyond > exp["tolerance_pct"]:
                        needs.append((beyond / spread if spread else float("inf"), beyond,
                                      spread, entry, os.path.relpath(a, tmp),
                                      os.path.relpath(b, tmp)))
        needs.sort(reverse=True)
        print(f"{len(docs)} documents, {len(docs) * (len(docs) - 1)} ordered pairs; "
              f"{len(needs)} figure comparisons beyond the given percent")
        for k, beyond, spread, entry, a, b in needs[:8]:
            print(f"  needs k {k:6.2f}: {entry} {beyond:.1f}% beyond, spread {spread:.2f}% "
                  f"(baseline {a}, run {b})")
        print(f"smallest k that holds every pair: {needs[0][0]:.2f}" if needs else
              "every pair holds at the given percent alone")


if __name__ == "__main__":
    main()
