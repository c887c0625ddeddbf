#!/usr/bin/env python3
"""Synthetic fleet: N run documents made from one run document (docs/fleet.md).

usage: make-fleet.py RUN.json OUTDIR N [--seed S] [--faults] [--compact]

Node k is node-KKKK (file run-node-KKKK.json): every figure scaled by 1 + N(0, 1.5%),
a per-port sweep added (the all_reduce entry again under NCCL_IB_HCA=mlx5_0 and mlx5_1).
With --faults three nodes are bad, as tests/host/test_fleet.c makes them: node 1 with
GPUs 0-1 at 60% of their P2P figures, node 2 with port mlx5_1 at half its busbw, node 3
with GPU 1 at half its HBM bandwidth. --compact writes JSON without indentation."""
import argparse
import copy
import json
import os
import random


def scale(obj, key, f):
    if isinstance(obj.get(key), (int, float)) and not isinstance(obj.get(key), bool):
        obj[key] = obj[key] * f


def scale_rows(entry, factor, rnd):
    for row in entry.get("rows", []):
        for k in ("oop", "ip"):
            res = row.get(k)
            if not isinstance(res, dict):
                continue
            f = factor * rnd.gauss(1, 0.015)
            scale(res, "busbw", f)
            scale(res, "algbw", f)
            scale(res, "time_us", 1 / f)


def make_node(base, k, faults, rnd):
    doc = copy.deepcopy(base)
    doc["host"]["hostname"] = "node-%04d" % k
    allreduce = None
    for e in doc["measurements"]:
        if e.get("family") == "nccl":
            scale_rows(e, 1, rnd)
            if e.get("collective") == "all_reduce" and e.get("variant", "default") == "default":
                allreduce = e
            continue
        f = rnd.gauss(1, 0.015)
        if faults and k == 1 and e.get("family") == "p2p" and e.get("dst", -1) >= 0:
            f *= 0.6
        if faults and k == 3 and e.get("family") == "hbm" and e.get("gpu") == 1:
            f *= 0.5
        scale(e, "value", 1 / f if e.get("unit") == "us" else f)
    for port in (0, 1):
        if allreduce is None:
            break
        e = copy.deepcopy(allreduce)
        e["variant"] = "NCCL_IB_HCA=mlx5_%d" % port
        e["id"] = "nccl-port-%d" % port
        scale_rows(e, 0.5 if faults and k == 2 and port == 1 else 1, rnd)
        doc["measurements"].append(e)
    return doc


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("run")
    ap.add_argument("outdir")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--faults", action="store_true")
    ap.add_argument("--compact", action="store_true")
    a = ap.parse_args()
    base = json.load(open(a.run))
    os.makedirs(a.outdir, exist_ok=True)
    rnd = random.Random(a.seed)
    for k in range(a.n):
        doc = make_node(base, k, a.faults, rnd)
        with open(os.path.join(a.outdir, "run-node-%04d.json" % k), "w") as f:
            json.dump(doc, f, indent=None if a.compact else 1)
            f.write("\n")


if __name__ == "__main__":
    main()
