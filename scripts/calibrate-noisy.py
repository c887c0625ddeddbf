#!/usr/bin/env python3
"""How the `noisy` rule's statistic and limits were chosen (docs/analysis.md, "Statuses,
spread, busy GPUs").

Reads every kept run document: the tarballs of tests/fixtures/runs/ (idle H200 runs on
two cards), and under docs/bench/*/ each *.json, *.json.gz and the *.json inside each
*.tgz (H200 and H100 sessions). For each figure the rule judges (status ok, at least 3
samples) it computes two spreads of the samples:

  cv      sample standard deviation / |mean| (what stats.cv holds)
  robust  1.4826 x MAD / |median| (MAD: the median of |sample - median|); for normally
          distributed samples it estimates the same ratio as the CV, so the CV's limits
          keep their meaning, but one slow sample among ten does not move it

split by the rule's classes: `device` (device-timed figures: HBM, one-way pinned host
copies, P2P, GPU-timed latency, NCCL, burn; limit 10%), `host_shared` (host copies from
pageable memory or both ways at once; limit 25%) and `cpu_latency` (cpu_copy latency,
timed on the CPU; judged with the 10% limit). A document whose entries' telemetry lists
another process on a GPU (`telemetry.processes`, the busy_gpu rule's evidence) is
counted apart as busy. The same entry kept twice (a document copied into another with
--into, a tarball and its gzip copy) counts once.

Prints, per class, the worst idle value of each statistic (document and figure), how
many idle figures each statistic puts above the class's limit, and the busy figures.

usage: scripts/calibrate-noisy.py [--kinds] [--all]
  --kinds: the worst idle spread of each kind of figure (family, method, memory)
  --all:   every idle figure above half its limit by either statistic
"""
import glob
import gzip
import json
import os
import statistics
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMITS = {"device": 0.10, "host_shared": 0.25, "cpu_latency": 0.10}  # src/analyze/rules.h
MIN_SAMPLES = 3  # LS_NOISY_MIN_SAMPLES
MAD_NORMAL = 1.4826  # 1 / Phi^-1(3/4): MAD x this estimates sigma of a normal sample


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        try:
            doc = json.load(f)
        except ValueError:
            return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("measurements"), list) else None


def unpack(tarball, folder):
    """The documents of one tarball, unpacked under folder; names relative to the repo."""
    out = os.path.join(folder, str(len(os.listdir(folder))))
    os.makedirs(out)
    with tarfile.open(tarball) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and m.name.endswith(".json")]
        tar.extractall(out, members=members)
    rel = os.path.relpath(tarball, ROOT)
    return [(os.path.join(out, m.name), rel + ":" + os.path.normpath(m.name)) for m in members]


def documents(folder):
    paths = []
    for t in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/runs/*.tgz"))):
        paths += unpack(t, folder)
    for d in sorted(glob.glob(os.path.join(ROOT, "docs/bench/*/"))):
        for p in sorted(glob.glob(d + "*.json") + glob.glob(d + "*.json.gz")):
            paths.append((p, os.path.relpath(p, ROOT)))
        for t in sorted(glob.glob(d + "*.tgz")):
            paths += unpack(t, folder)
    return paths


def kind(e):
    """The figure's family and method (and memory, for host copies): one row of --kinds."""
    words = [e.get("family"), e.get("method"), e.get("memory")]
    return " ".join(str(w) for w in words if w)


def klass(e):
    if e.get("family") == "host" and (e.get("memory") == "pageable" or e.get("method") == "bidir"):
        return "host_shared"
    if e.get("family") == "latency" and e.get("method") == "cpu_copy":
        return "cpu_latency"
    return "device"


def spreads(samples):
    mean = statistics.fmean(samples)
    med = statistics.median(samples)
    mad = statistics.median(abs(s - med) for s in samples)
    cv = statistics.stdev(samples) / abs(mean) if mean else 0.0
    robust = MAD_NORMAL * mad / abs(med) if med else 0.0
    return cv, robust


def busy(doc):
    for e in doc["measurements"]:
        t = e.get("telemetry") if isinstance(e, dict) else None
        if isinstance(t, dict) and t.get("processes"):
            return True
    return False


def figures(paths):
    """(class, busy, cv, robust, n, name, figure id, kind) of every judged figure, once."""
    seen, out = set(), []
    for path, name in paths:
        doc = load(path)
        if doc is None:
            continue
        is_busy = busy(doc)
        for e in doc["measurements"]:
            s = e.get("samples") if isinstance(e, dict) else None
            if e.get("status") != "ok" or not isinstance(s, list) or len(s) < MIN_SAMPLES:
                continue
            key = (e.get("id"), tuple(s))
            if key in seen:
                continue
            seen.add(key)
            cv, robust = spreads([float(x) for x in s])
            out.append((klass(e), is_busy, cv, robust, len(s), name, e.get("id", "?"), kind(e)))
    return out


def report(figs, flags):
    docs = len({f[5] for f in figs})
    print(f"{len(figs)} figures with at least {MIN_SAMPLES} samples in {docs} documents")
    print(f"{'class':<12} {'limit':>6} {'idle':>5} {'stat':<6} {'worst':>7} {'over':>5}  where")
    for c, limit in LIMITS.items():
        idle = [f for f in figs if f[0] == c and not f[1]]
        if not idle:
            continue
        for i, stat in ((2, "cv"), (3, "robust")):
            w = max(idle, key=lambda f: f[i])
            over = sum(1 for f in idle if f[i] > limit)
            print(f"{c:<12} {100 * limit:>5.0f}% {len(idle):>5} {stat:<6} {100 * w[i]:>6.1f}% "
                  f"{over:>5}  {w[5]} {w[6]} (cv {100 * w[2]:.1f}%, robust {100 * w[3]:.1f}%)")
    busy_figs = [f for f in figs if f[1]]
    print(f"busy documents (telemetry.processes): {len({f[5] for f in busy_figs})}")
    for f in sorted(busy_figs, key=lambda f: -f[2]):
        print(f"  busy {f[0]:<12} cv {100 * f[2]:5.1f}% robust {100 * f[3]:5.1f}% "
              f"limit {100 * LIMITS[f[0]]:.0f}%  {f[5]} {f[6]}")
    if "--kinds" in flags:
        print("worst idle spread of each kind of figure (cv / robust):")
        for k in sorted({f[7] for f in figs}):
            idle = [f for f in figs if f[7] == k and not f[1]]
            if idle:
                print(f"  {k:<24} {idle[0][0]:<12} n {len(idle):>3}  "
                      f"cv {100 * max(f[2] for f in idle):5.1f}%  "
                      f"robust {100 * max(f[3] for f in idle):5.1f}%")
    if "--all" in flags:
        print("idle figures above half their limit by either statistic:")
        for f in sorted(figs, key=lambda f: -max(f[2], f[3]) / LIMITS[f[0]]):
            if not f[1] and max(f[2], f[3]) > LIMITS[f[0]] / 2:
                print(f"  {f[0]:<12} n {f[4]:>3} cv {100 * f[2]:5.1f}% "
                      f"robust {100 * f[3]:5.1f}%  {f[5]} {f[6]}")


def main():
    with tempfile.TemporaryDirectory() as folder:
        report(figures(documents(folder)), sys.argv[1:])


if __name__ == "__main__":
    main()
