#!/usr/bin/env python3
"""Writes the run documents in tests/fixtures/analyze/ that the analysis and report tests
read: the machines of seeds 000 and 004, an even 8 x H200 HGX box, and the 2 x H200
machine of ANCHORS.md. Deterministic (no clock, no random): run it again and the files
come out byte for byte the same. tests/fixtures/analyze/README.md says which figures
come from the seeds and which were filled in.

usage: python3 scripts/make_analyze_fixtures.py [OUTDIR]
"""
import json
import os
import statistics
import sys

GIB = 1 << 30


def stats(samples):
    s = sorted(samples)
    n = len(s)
    mean = sum(s) / n
    sd = statistics.pstdev(s) if n > 1 else 0.0
    return {"n": n, "median": statistics.median(s), "min": s[0], "max": s[-1],
            "mean": mean, "stddev": sd, "cv": sd / mean if mean else 0.0}


def wobble(i, j, k=0):
    """A deterministic value in [-1, 1] for a pair (stands in for run-to-run noise)."""
    h = (i * 7919 + j * 104729 + k * 1299709 + 12345) % 1000
    return (h / 999.0) * 2.0 - 1.0


def entry(family, metric, unit, eid, samples, **extra):
    e = {"id": eid, "family": family, "metric": metric, "unit": unit, "status": "ok"}
    e.update(extra)
    st = stats(samples)
    e["samples"] = [round(x, 4) for x in samples]
    e["stats"] = {k: (round(v, 6) if isinstance(v, float) else v) for k, v in st.items()}
    e["value"] = e["stats"]["median"]
    return e


def doc(created, hostname, numa_nodes, cpus, software, source=None):
    d = {"schema": "linkscope.run/1", "created": created,
         "tool": {"version": "0.1.0", "commit": "fixture"},
         "host": {"hostname": hostname, "kernel": "", "cpu_model": "",
                  "numa_nodes": numa_nodes, "numa": [], "cpus": cpus},
         "software": software, "gpus": [], "links": [], "nics": [], "gpu_nic_links": [],
         "env": {"CUDA_DEVICE_ORDER": "PCI_BUS_ID"}, "measurements": []}
    if source:
        d["source"] = source
    return d


def gpu(index, name, mem_gib, mem_mhz, sm_app, sm_max, power, numa, pcie=(3, 16),
        nvlink_gbps=None, nvlinks=0, cc="7.0", sms=80, width=4096, busid=None):
    hbm = mem_mhz * 2 * width / 8 / 1000.0  # MHz x 2 (DDR) x bus bytes = GB/s
    gen, lanes = pcie
    per_lane = {3: 0.985, 4: 1.969, 5: 3.938}[gen]  # GB/s per lane after 128b/130b
    g = {"index": index, "label": "GPU%d" % index, "name": name,
         "pci_bus_id": busid or "00000000:%02x:00.0" % (0x1a + index * 0x10),
         "memory_total_bytes": mem_gib * GIB, "memory_bus_width_bits": width,
         "clocks": {"sm_mhz": sm_app, "mem_mhz": mem_mhz, "sm_app_mhz": sm_app,
                    "mem_app_mhz": mem_mhz, "sm_max_mhz": sm_max, "mem_max_mhz": mem_mhz},
         "hbm_theoretical_gbps": round(hbm, 3),
         "pcie": {"gen_current": gen, "gen_max": gen, "width_current": lanes,
                  "width_max": lanes, "theoretical_gbps": round(per_lane * lanes, 2)},
         "power": {"draw_w": round(power * 0.2, 1), "limit_w": power, "default_limit_w": power},
         "temperature_c": 35,
         "ecc": {"enabled": True, "volatile_uncorrected": 0, "volatile_corrected": 0},
         "persistence_mode": True, "throttle_reasons": [],
         "cuda": {"index": index, "cc": cc, "sms": sms},
         "numa_node": numa, "numa_affinity": str(numa)}
    if nvlinks:
        g["nvlinks"] = [{"link": i, "active": True, "version": 4, "remote": "nvswitch",
                         "gbps": nvlink_gbps} for i in range(nvlinks)]
        g["nvlink_theoretical_gbps"] = round(nvlinks * nvlink_gbps, 3)
    return g


def link(a, b, word, p2p="OK"):
    cls = "NV" if word.startswith("NV") else word
    l = {"a": a, "b": b, "type": word, "class": cls}
    if cls == "NV":
        l["nvlinks"] = int(word[2:])
    l["p2p_read"] = p2p
    l["p2p_write"] = p2p
    l["cuda_peer_access"] = p2p == "OK"
    return l


def p2p_entry(eid, src, dst, samples, direction="uni", method="ce", p2p=True,
              source="linkscope", theoretical=None, flags=None):
    e = entry("p2p", "bandwidth", "GB/s", eid, samples, method=method, gpus=[src, dst],
              bytes=256 << 20, src=src, dst=dst, direction=direction, p2p=p2p,
              verified=source == "linkscope", source=source)
    if theoretical:
        e["theoretical"] = theoretical
    if flags:
        e["flags"] = flags
    return e


def nccl_entry(eid, collective, gpus, rows, variant="default", transports=None,
               source="linkscope", factor=None, nccl_version="2.28.3"):
    n = len(gpus)
    out = []
    for r in rows:
        size, oop_busbw = r[0], r[1]
        ip_busbw = r[2] if len(r) > 2 else None
        f = factor if factor is not None else {"all_reduce": 2.0 * (n - 1) / n}.get(
            collective, (n - 1) / n)
        row = {"bytes": size, "count": size // 4}
        for key, bb in (("oop", oop_busbw), ("ip", ip_busbw)):
            if bb is None:
                continue
            alg = bb / f if f else bb
            row[key] = {"time_us": round(size / (alg * 1e9) * 1e6, 2) if alg > 0 else 0.0,
                        "algbw": round(alg, 2), "busbw": round(bb, 2), "wrong": 0}
        out.append(row)
    e = {"id": eid, "family": "nccl", "metric": "busbw", "unit": "GB/s", "status": "ok",
         "method": "ring", "gpus": list(gpus), "collective": collective, "nranks": n,
         "mode": "threads", "variant": variant, "dtype": "float",
         "redop": "sum" if collective in ("all_reduce", "reduce_scatter") else "none",
         "root": -1, "graph": False, "rows": out, "value": out[-1]["oop"]["busbw"],
         "small_time_us": out[0]["oop"]["time_us"], "verified": True, "source": source,
         "nccl_version": nccl_version}
    if transports is not None:
        e["transports"] = transports
    return e


def ring_transports(order, shm_edges):
    t = []
    for i, a in enumerate(order):
        b = order[(i + 1) % len(order)]
        t.append({"channel": 0, "from": a, "to": b,
                  "transport": "SHM/direct" if (a, b) in shm_edges else "P2P/direct pointer"})
    return t


# ---------------------------------------------------------------------------------------
# Seed 000: server "4028", 11 GV100-generation boards on two NUMA nodes.
def seed000():
    d = doc("2026-08-23T10:00:00Z", "lab217", 2, 64,
            {"driver": "580.173.02", "cuda_driver": "13.0", "cuda_runtime": "12.0",
             "nccl": "2.23.4", "nvml": True, "warnings": []}, source="import")
    boards = [("Tesla V100-PCIE-32GB", 32, 877, 1230, 1380, 250)] * 6 + [
        ("Tesla V100S-PCIE-32GB", 32, 1107, 1245, 1597, 250),
        ("Quadro GV100", 32, 850, 1132, 1912, 250),
        ("Tesla PG500-216", 32, 1107, 1260, 1380, 250),
        ("Quadro GV100", 32, 850, 1132, 1912, 250),
        ("Tesla V100-FHHL-16GB", 16, 810, 937, 1290, 150)]
    for i, b in enumerate(boards):
        d["gpus"].append(gpu(i, b[0], b[1], b[2], b[3], b[4], b[5], 0 if i < 10 else 1))

    def island(g):
        return 0 if g < 5 else (1 if g < 10 else 2)

    def word(a, b):
        if {a, b} == {7, 9}:
            return "NV4"
        if 10 in (a, b):
            return "SYS"
        return "PIX" if island(a) == island(b) else "PHB"

    for a in range(11):
        for b in range(11):
            if a != b:
                d["links"].append(link(a, b, word(a, b), "TNS" if 10 in (a, b) else "OK"))

    m = d["measurements"]
    # Device-local copy, p2pBandwidthLatencyTest diagonal (read + write counted).
    hbm = {0: 804.0, 1: 804.6, 2: 803.8, 3: 804.4, 4: 804.1, 5: 804.36, 6: 1017.25,
           7: 590.6, 8: 1010.67, 9: 590.88, 10: 748.68}
    for g, v in hbm.items():
        th = d["gpus"][g]["hbm_theoretical_gbps"]
        m.append(entry("hbm", "bandwidth", "GB/s", "hbm-copy-%d" % g, [v], method="copy",
                       gpus=[g], gpu=g, bytes=2 * 40000000 * 4, theoretical=th,
                       efficiency=round(v / th, 4), copied_gbps=v / 2,
                       source="p2pBandwidthLatencyTest", flags=["imported"]))

    def uni(a, b):
        w = word(a, b)
        if w == "NV4":
            return 96.84 if a < b else 96.85
        if w == "PIX":
            return 13.20 if {a, b} == {0, 1} else round(13.14 + 0.06 * wobble(min(a, b), max(a, b)), 2)
        if w == "PHB":
            if {a, b} == {0, 5}:
                return 10.28
            if {a, b} == {4, 9}:
                return 7.08
            base = 7.3 + 2.9 * (wobble(min(a, b), max(a, b), 3) + 1) / 2
            return round(base + (0.01 if a < b else -0.01), 2)
        return round(6.2 + 0.15 * wobble(a, b, 5), 2)  # staged through host (filled in)

    for a in range(11):
        for b in range(11):
            if a == b:
                continue
            if 10 in (a, b):
                m.append(p2p_entry("p2p-staged-uni-%d-%d" % (a, b), a, b, [uni(a, b)],
                                   method="staged", p2p=False, source="p2pBandwidthLatencyTest",
                                   flags=["imported", "through_host", "no_p2p"]))
            else:
                m.append(p2p_entry("p2p-ce-uni-%d-%d" % (a, b), a, b, [uni(a, b)],
                                   source="p2pBandwidthLatencyTest", flags=["imported"]))
    bidir_named = {(0, 1): 25.13, (0, 5): 19.71, (7, 9): 193.51}
    for a in range(10):
        for b in range(a + 1, 10):
            v = bidir_named.get((a, b), round((uni(a, b) + uni(b, a)) * 0.955, 2))
            m.append(p2p_entry("p2p-ce-bidir-%d-%d" % (a, b), a, b, [v], direction="bidir",
                               source="p2pBandwidthLatencyTest", flags=["imported"]))
    lat = {"PIX": 1.595, "PHB": 2.06, "NV4": 2.0}
    for a in range(11):
        for b in range(11):
            if a == b:
                continue
            w = word(a, b)
            v = round(17.1 + 1.0 * wobble(a, b, 7), 2) if w == "SYS" else round(
                lat[w] + 0.005 * wobble(a, b, 9), 3)
            m.append(entry("latency", "latency", "us", "latency-write-%d-%d" % (a, b), [v],
                           method="gpu_copy", gpus=[a, b], src=a, dst=b, p2p=w != "SYS",
                           bytes=16, source="p2pBandwidthLatencyTest", flags=["imported"]))
    # NCCL all_reduce, 1 GiB, float sum, out-of-place (nccl-tests 2.13.11).
    ar = [([0, 1], 11.40, None, []), ([0, 5], 6.99, None, [(0, 5), (5, 0)]),
          ([7, 9], 73.31, None, []), ([0, 10], 6.90, None, [(0, 10), (10, 0)]),
          ([0, 1, 2, 3, 4], 11.17, None, []),
          ([0, 1, 2, 3, 4, 5], 7.91, [0, 1, 2, 3, 4, 5], [(4, 5), (5, 0)]),
          ([0, 1, 2, 3, 4, 5], 6.82, [0, 1, 2, 3, 4, 5], [(4, 5), (5, 0)]),
          (list(range(10)), 6.88, [0, 1, 2, 3, 4, 5, 6, 7, 9, 8], [(4, 5), (8, 0)]),
          (list(range(10)), 6.75, [0, 1, 2, 3, 4, 5, 6, 7, 9, 8], [(4, 5), (8, 0)]),
          (list(range(11)), 7.60, [0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 10], [(4, 5), (8, 10), (10, 0)])]
    for i, (gs, busbw, order, shm) in enumerate(ar):
        m.append(nccl_entry("nccl-all_reduce-%d" % i, "all_reduce", gs, [(GIB, busbw)],
                            transports=ring_transports(order or gs, set(shm)),
                            source="nccl-tests", nccl_version="2.23.4"))
    phb = [([0, 5], 7.78, None, []), ([0, 1, 2, 3, 4, 5], 7.94, None, []),
           (list(range(10)), 7.87, [0, 1, 2, 3, 4, 5, 6, 7, 9, 8], []),
           (list(range(11)), 7.54, [0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 10], [(8, 10), (10, 0)])]
    for i, (gs, busbw, order, shm) in enumerate(phb):
        m.append(nccl_entry("nccl-all_reduce-phb-%d" % i, "all_reduce", gs, [(GIB, busbw)],
                            variant="NCCL_P2P_LEVEL=PHB",
                            transports=ring_transports(order or gs, set(shm)),
                            source="nccl-tests", nccl_version="2.23.4"))
    for e in m:
        if e["family"] == "nccl":
            e["flags"] = ["imported"]
    return d


# ---------------------------------------------------------------------------------------
# Seed 004: an 8-GPU NVLink box (Ant8), GPU0 <-> GPU4 far below the others' ~370 GB/s.
def seed004():
    d = doc("2024-05-10T02:00:00Z", "ant8", 2, 128,
            {"driver": "535.104.05", "cuda_driver": "12.2", "cuda_runtime": "12.1",
             "nvml": True, "warnings": []}, source="import")
    for i in range(8):
        d["gpus"].append(gpu(i, "NVIDIA A100-SXM4-80GB", 80, 1593, 1410, 1410, 400,
                             0 if i < 4 else 1, pcie=(4, 16), nvlink_gbps=25.0, nvlinks=12,
                             cc="8.0", sms=108, width=5120))
    for a in range(8):
        for b in range(8):
            if a != b:
                d["links"].append(link(a, b, "NV12"))
    for a in range(8):
        for b in range(8):
            if a == b:
                continue
            if {a, b} == {0, 4}:
                v = 112.0 + 3.0 * wobble(a, b)
            else:
                v = 370.0 + 4.0 * wobble(a, b)
            d["measurements"].append(
                p2p_entry("p2p-copy-uni-%d-%d" % (a, b), a, b, [round(v, 2)],
                          source="pytorch-copy", theoretical=400.0, flags=["imported"]))
    return d


# ---------------------------------------------------------------------------------------
# An even HGX H200 8-GPU box: NV18 through NVSwitch everywhere, one NIC per GPU.
def hgx_h200_even():
    d = doc("2026-11-30T09:00:00Z", "hgx-h200", 2, 224,
            {"driver": "580.159.04", "cuda_driver": "13.0", "cuda_runtime": "13.0",
             "nccl": "2.28.3", "nvml": True, "warnings": [],
             "gpudirect_rdma": {"module": "nvidia_peermem", "possible": True}})
    for i in range(8):
        d["gpus"].append(gpu(i, "NVIDIA H200", 141, 3201, 1980, 1980, 700, 0 if i < 4 else 1,
                             pcie=(5, 16), nvlink_gbps=26.562, nvlinks=18, cc="9.0", sms=132,
                             width=6144))
        d["gpus"][-1]["memory_total_bytes"] = 143771 << 20
    for a in range(8):
        for b in range(8):
            if a != b:
                d["links"].append(link(a, b, "NV18"))
    for n in range(8):
        d["nics"].append({"index": n, "label": "NIC%d" % n, "name": "mlx5_%d" % n,
                          "pci_bus_id": "00000000:%02x:00.0" % (0x1c + n * 0x10),
                          "numa_node": 0 if n < 4 else 1, "firmware": "28.39.1002",
                          "ports": [{"port": 1, "state": "active", "rate_gbps": 400,
                                     "link_layer": "InfiniBand"}]})
    for g in range(8):
        for n in range(8):
            w = "PIX" if g == n else ("NODE" if (g < 4) == (n < 4) else "SYS")
            d["gpu_nic_links"].append({"gpu": g, "nic": n, "type": w, "class": w})
    m = d["measurements"]
    tele = {"samples": 10, "throttle_reasons": [],
            "nvlink_errors_before": {str(g): {"crc_flit": 0, "crc_data": 0, "replay": 0,
                                              "recovery": 0} for g in range(8)},
            "nvlink_errors_after": {str(g): {"crc_flit": 0, "crc_data": 0, "replay": 0,
                                             "recovery": 0} for g in range(8)}}
    for g in range(8):
        th = d["gpus"][g]["hbm_theoretical_gbps"]
        s = [4150.0 + 8 * wobble(g, k, 11) for k in range(5)]
        e = entry("hbm", "bandwidth", "GB/s", "hbm-copy-%d" % g, s, method="copy", gpus=[g],
                  gpu=g, bytes=2 << 30, theoretical=th, verified=True, source="linkscope")
        e["efficiency"] = round(e["value"] / th, 4)
        e["copied_gbps"] = e["value"] / 2
        m.append(e)
    for a in range(8):
        for b in range(8):
            if a == b:
                continue
            s = [390.0 + 3.0 * wobble(a, b, k) for k in range(5)]
            e = p2p_entry("p2p-ce-uni-%d-%d" % (a, b), a, b, [round(x, 2) for x in s],
                          theoretical=478.1)
            e["telemetry"] = tele
            m.append(e)
    for a in range(8):
        for b in range(8):
            if a != b:
                s = [2.25 + 0.03 * wobble(a, b, k) for k in range(5)]
                m.append(entry("latency", "latency", "us", "latency-pingpong-%d-%d" % (a, b),
                               [round(x, 3) for x in s], method="gpu_pingpong", gpus=[a, b],
                               src=a, dst=b, p2p=True, bytes=8, source="linkscope"))
    sizes = [1 << p for p in range(20, 34, 2)]
    curve = [45.0, 130.0, 240.0, 320.0, 352.0, 362.0, 366.0]
    for gs in ([0, 1], [0, 1, 2, 3], list(range(8))):
        scale = {2: 0.94, 4: 0.97, 8: 1.0}[len(gs)]
        rows = [(s, round(c * scale, 2), round(c * scale * 1.003, 2)) for s, c in zip(sizes, curve)]
        e = nccl_entry("nccl-all_reduce-%s" % "".join(map(str, gs)), "all_reduce", gs, rows,
                       transports=ring_transports(gs, set()))
        e["telemetry"] = tele
        m.append(e)
    return d


# ---------------------------------------------------------------------------------------
# The 2 x H200 machine of ANCHORS.md (fixtures/h200x2): figures of the established tools.
def h200x2():
    d = doc("2026-11-30T07:00:00Z", "h200x2", 1, 32,
            {"driver": "580.159.04", "cuda_driver": "13.0", "cuda_runtime": "13.0",
             "nccl": "2.28.3", "nvml": True, "warnings": [],
             "gpudirect_rdma": {"module": None, "possible": False}}, source="import")
    for i in range(2):
        g = gpu(i, "NVIDIA H200", 141, 3201, 1980, 1980, 700, 0, pcie=(5, 16),
                nvlink_gbps=26.562, nvlinks=18, cc="9.0", sms=132, width=6144,
                busid="00000000:00:%02x.0" % (6 + i))
        g["memory_total_bytes"] = 143771 << 20
        g["cpu_affinity"] = "0-31"
        d["gpus"].append(g)
    d["links"] = [link(0, 1, "NV18"), link(1, 0, "NV18")]
    m = d["measurements"]
    # nvbandwidth v0.8: CE write one direction, CE write both directions.
    m.append(p2p_entry("p2p-nvbw-ce-uni-0-1", 0, 1, [396.2], source="nvbandwidth",
                       theoretical=478.1, flags=["imported"]))
    m.append(p2p_entry("p2p-nvbw-ce-uni-1-0", 1, 0, [396.1], source="nvbandwidth",
                       theoretical=478.1, flags=["imported"]))
    m.append(p2p_entry("p2p-nvbw-ce-bidir-0-1", 0, 1, [783.5], direction="bidir",
                       source="nvbandwidth", theoretical=956.2, flags=["imported"]))
    # p2pBandwidthLatencyTest, three runs: 0->1 slower than 1->0 with this method only.
    m.append(p2p_entry("p2p-p2pblt-uni-0-1", 0, 1, [359.8, 362.4, 366.5],
                       source="p2pBandwidthLatencyTest", theoretical=478.1, flags=["imported"]))
    m.append(p2p_entry("p2p-p2pblt-uni-1-0", 1, 0, [391.8, 392.1, 392.5],
                       source="p2pBandwidthLatencyTest", theoretical=478.1, flags=["imported"]))
    m.append(p2p_entry("p2p-p2pblt-bidir-0-1", 0, 1, [737.6, 752.3, 770.1], direction="bidir",
                       source="p2pBandwidthLatencyTest", theoretical=956.2, flags=["imported"]))
    for a, b in ((0, 1), (1, 0)):
        m.append(p2p_entry("p2p-staged-uni-%d-%d" % (a, b), a, b, [37.5, 37.6, 37.8],
                           method="staged", p2p=False, source="p2pBandwidthLatencyTest",
                           flags=["imported", "through_host"]))
        m.append(entry("latency", "latency", "us", "latency-chase-%d-%d" % (a, b), [0.83],
                       method="pointer_chase", gpus=[a, b], src=a, dst=b, p2p=True, bytes=8,
                       source="nvbandwidth", flags=["imported"]))
        m.append(entry("latency", "latency", "us", "latency-write-%d-%d" % (a, b),
                       [2.22, 2.26, 2.30], method="gpu_copy", gpus=[a, b], src=a, dst=b,
                       p2p=True, bytes=16, source="p2pBandwidthLatencyTest", flags=["imported"]))
    for g in range(2):
        th = d["gpus"][g]["hbm_theoretical_gbps"]
        m.append(entry("hbm", "bandwidth", "GB/s", "hbm-nvbw-copy-%d" % g, [4160.0],
                       method="copy", gpus=[g], gpu=g, bytes=1 << 29, theoretical=th,
                       efficiency=round(4160.0 / th, 4), copied_gbps=2080.0,
                       source="nvbandwidth", flags=["imported"]))
        for direction, v in (("h2d", 55.5), ("d2h", 55.3)):
            m.append(entry("host", "bandwidth", "GB/s", "host-%s-%d" % (direction, g), [v],
                           method="ce", gpus=[g], gpu=g, numa_node=0, direction=direction,
                           memory="pinned", local=True, bytes=1 << 29, theoretical=63.0,
                           source="nvbandwidth", flags=["imported"]))
    ar_rows = [(8, 0.0, 0.0), (1 << 20, 41.11, 50.35), (1 << 22, 118.49, 120.33),
               (1 << 24, 212.79, 217.79), (1 << 26, 259.59, 259.86), (1 << 28, 299.35, 298.27),
               (1 << 30, 325.46, 325.08), (1 << 31, 339.34, 332.52), (1 << 32, 341.97, 341.89),
               (1 << 33, 344.29, 345.17)]
    e = nccl_entry("nccl-all_reduce-01", "all_reduce", [0, 1], ar_rows, source="nccl-tests",
                   transports=ring_transports([0, 1], set()))
    e["rows"][0]["oop"]["time_us"] = 15.64
    e["rows"][0]["ip"]["time_us"] = 15.52
    e["small_time_us"] = 15.64
    m.append(e)
    ag_rows = [(1 << 20, 25.74, 26.42), (1 << 22, 75.58, 80.87), (1 << 24, 151.97, 160.93),
               (1 << 26, 211.85, 221.44), (1 << 28, 243.68, 256.61), (1 << 30, 270.79, 293.69),
               (1 << 32, 292.04, 310.10)]
    m.append(nccl_entry("nccl-all_gather-01", "all_gather", [0, 1], ag_rows, source="nccl-tests"))
    aa_rows = [(1 << 20, 18.97, 16.94), (1 << 22, 64.41, 95.83), (1 << 24, 166.12, 164.11),
               (1 << 26, 242.01, 233.37), (1 << 28, 282.13, 288.27), (1 << 30, 331.02, 353.71),
               (1 << 32, 337.01, 363.21)]
    m.append(nccl_entry("nccl-alltoall-01", "alltoall", [0, 1], aa_rows, source="nccl-tests"))
    m.append(nccl_entry("nccl-all_reduce-01-p2pdisable", "all_reduce", [0, 1], [(GIB, 26.0)],
                        variant="NCCL_P2P_DISABLE=1", source="nccl-tests"))
    m.append(nccl_entry("nccl-all_reduce-01-tree", "all_reduce", [0, 1], [(GIB, 340.7)],
                        variant="NCCL_ALGO=Tree", source="nccl-tests"))
    for e in m:
        if e["family"] == "nccl":
            e["flags"] = ["imported"]
    return d


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "analyze")
    os.makedirs(out, exist_ok=True)
    for name, make in (("seed000-gv100x11.json", seed000), ("seed004-nvlink8-degraded.json", seed004),
                       ("hgx-h200x8-even.json", hgx_h200_even), ("h200x2-anchors.json", h200x2)):
        with open(os.path.join(out, name), "w") as f:
            json.dump(make(), f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
