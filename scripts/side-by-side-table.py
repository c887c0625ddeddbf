#!/usr/bin/env python3
"""Tables of scripts/bench-side-by-side.sh: linkscope beside the established tools, same
machine, same call, interleaved rounds.

  side-by-side-table.py extract RAW_DIR > samples.json   every round's figure of each side
  side-by-side-table.py table samples.json > tables.md    one ratio table per figure
  side-by-side-table.py doc docs/benchmarks.md samples.json  the tables into the page

samples.json is what gets committed (a few kB); the tables and docs/benchmarks.md are
regenerated from it. Per figure and side: the median over the rounds and the spread
(min-max over the rounds, and (max-min)/median). Ratio = linkscope / tool, medians.
Bandwidth: higher is better (>= 1.00 is at least as good); time and latency: lower is
better (<= 1.00 is at least as good)."""
import glob
import json
import os
import re
import statistics
import sys

COLLS = ("all_reduce", "all_gather", "reduce_scatter", "alltoall")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def rounds(raw, pattern):
    """{round: path} for files raw/<pattern with {r}>."""
    out = {}
    for p in glob.glob(os.path.join(raw, pattern.replace("{r}", "*"))):
        m = re.search(pattern.replace("{r}", r"(\d+)").replace(".", r"\."), os.path.basename(p))
        if m:
            out[int(m.group(1))] = p
    return out


def entries(doc, family):
    return [m for m in (doc or {}).get("measurements", []) if m.get("family") == family]


def nvb_cases(doc):
    return {t["name"]: t for t in (doc or {}).get("nvbandwidth", {}).get("testcases", [])
            if t.get("status") == "Passed"}


def cell(matrix, r, c):
    try:
        return float(matrix[r][c])
    except (IndexError, ValueError, TypeError):
        return None


class Samples:
    def __init__(self):
        self.figs = {}  # key -> {"group", "label", "unit", "better", "ls": [..], "tool": [..], "tool_name"}

    def add(self, group, label, unit, better, tool_name, side, value):
        if value is None:
            return
        key = f"{group}|{label}"
        f = self.figs.setdefault(key, {"group": group, "label": label, "unit": unit,
                                       "better": better, "tool_name": tool_name,
                                       "ls": [], "tool": []})
        f[side].append(value)


def ngpus_of(doc):
    return len((doc or {}).get("gpus", []))


def extract_hbm(raw, s):
    for r, p in sorted(rounds(raw, "ls-hbm-{r}.json").items()):
        for e in entries(load(p), "hbm"):
            if e.get("method") == "copy_ce" and e.get("status") == "ok":
                s.add("hbm", f"GPU{e['gpu']} device-local copy, copy engine (bytes copied)",
                      "GB/s", "higher", "nvbandwidth device_local_copy", "ls", e.get("copied_gbps"))
    for r, p in sorted(rounds(raw, "nvb-hbm-{r}.json").items()):
        t = nvb_cases(load(p)).get("device_local_copy")
        if t:
            for g in range(len(t["bandwidth_matrix"][0])):
                s.add("hbm", f"GPU{g} device-local copy, copy engine (bytes copied)", "GB/s",
                      "higher", "nvbandwidth device_local_copy", "tool",
                      cell(t["bandwidth_matrix"], 0, g))


def extract_host(raw, s):
    names = {"h2d": "host_to_device_memcpy_ce", "d2h": "device_to_host_memcpy_ce"}
    for r, p in sorted(rounds(raw, "ls-host-{r}.json").items()):
        for e in entries(load(p), "host"):
            if e.get("memory") == "pinned" and e.get("direction") in names and e.get("local"):
                d = e["direction"]
                s.add("host", f"GPU{e['gpu']} {d} pinned, copy engine", "GB/s", "higher",
                      f"nvbandwidth {names[d]}", "ls", e.get("value"))
    for r, p in sorted(rounds(raw, "nvb-host-{r}.json").items()):
        cases = nvb_cases(load(p))
        for d, name in names.items():
            t = cases.get(name)
            if t:
                for g in range(len(t["bandwidth_matrix"][0])):
                    s.add("host", f"GPU{g} {d} pinned, copy engine", "GB/s", "higher",
                          f"nvbandwidth {name}", "tool", cell(t["bandwidth_matrix"], 0, g))


def p2pblt_matrices(path):
    """{(title, 'GPU'|'CPU'): {(a, b): us}} from p2pBandwidthLatencyTest's latency part."""
    out, title, kind = {}, None, None
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return out
    for line in lines:
        if "Latency" in line and "Matrix" in line:
            title = "enabled" if "P2P=Enabled" in line else "disabled"
            continue
        f = line.split()
        if title and f and f[0] in ("GPU", "CPU"):
            kind = f[0]
            continue
        if title and kind and len(f) >= 2 and f[0].isdigit():
            a = int(f[0])
            for b, v in enumerate(f[1:]):
                out.setdefault((title, kind), {})[(a, b)] = float(v)
    return out


def extract_latency(raw, s):
    for r, p in sorted(rounds(raw, "ls-latency-{r}.json").items()):
        for e in entries(load(p), "latency"):
            a, b, m, p2p = e.get("src"), e.get("dst"), e.get("method"), e.get("p2p")
            if e.get("status") != "ok":
                continue
            if m == "pointer_chase" and b == -1:
                s.add("latency", f"GPU{a} reads pinned host memory, pointer chase", "us", "lower",
                      "nvbandwidth host_device_latency_sm", "ls", e.get("value"))
            elif m == "pointer_chase":
                s.add("latency", f"GPU{a} reads GPU{b}, pointer chase", "us", "lower",
                      "nvbandwidth device_to_device_latency_sm", "ls", e.get("value"))
            elif m in ("gpu_copy", "cpu_copy"):
                kind = "GPU" if m == "gpu_copy" else "CPU"
                how = "P2P enabled" if p2p else "P2P disabled"
                s.add("latency", f"{a}->{b} 4 B copy, {kind}-timed ({how})", "us", "lower",
                      f"p2pBandwidthLatencyTest {kind} matrix", "ls", e.get("value"))
    for r, p in sorted(rounds(raw, "nvb-latency-{r}.json").items()):
        cases = nvb_cases(load(p))
        t = cases.get("host_device_latency_sm")
        if t:
            for g in range(len(t["bandwidth_matrix"][0])):
                v = cell(t["bandwidth_matrix"], 0, g)
                s.add("latency", f"GPU{g} reads pinned host memory, pointer chase", "us", "lower",
                      "nvbandwidth host_device_latency_sm", "tool", v / 1000 if v else None)
        t = cases.get("device_to_device_latency_sm")
        if t:
            m = t["bandwidth_matrix"]
            for a in range(len(m)):
                for b in range(len(m)):
                    v = cell(m, a, b)
                    if a != b and v:
                        s.add("latency", f"GPU{a} reads GPU{b}, pointer chase", "us", "lower",
                              "nvbandwidth device_to_device_latency_sm", "tool", v / 1000)
    for r, p in sorted(rounds(raw, "p2pblt-{r}.txt").items()):
        for (title, kind), cells in p2pblt_matrices(p).items():
            how = "P2P enabled" if title == "enabled" else "P2P disabled"
            for (a, b), v in cells.items():
                if a != b:
                    s.add("latency", f"{a}->{b} 4 B copy, {kind}-timed ({how})", "us", "lower",
                          f"p2pBandwidthLatencyTest {kind} matrix", "tool", v)


def extract_p2p(raw, s):
    for r, p in sorted(rounds(raw, "ls-p2p-{r}.json").items()):
        for e in entries(load(p), "p2p"):
            if e.get("method") == "ce" and e.get("status") == "ok":
                a, b, d = e["src"], e["dst"], e.get("direction")
                label = f"{a}->{b} one way, copy engine" if d == "uni" else \
                    f"{a}<->{b} both ways (sum), copy engine"
                s.add("p2p", label, "GB/s", "higher", "nvbandwidth, best of write_ce / read_ce",
                      "ls", e.get("value"))
    for r, p in sorted(rounds(raw, "nvb-p2p-{r}.json").items()):
        cases = nvb_cases(load(p))
        best = {}
        for name in ("device_to_device_memcpy_write_ce", "device_to_device_memcpy_read_ce"):
            m = cases.get(name, {}).get("bandwidth_matrix", [])
            for a in range(len(m)):
                for b in range(len(m)):
                    v = cell(m, a, b)
                    if a != b and v:
                        k = f"{a}->{b} one way, copy engine"
                        best[k] = max(best.get(k, 0), v)
        for name in ("device_to_device_bidirectional_memcpy_write_ce",
                     "device_to_device_bidirectional_memcpy_read_ce"):
            m = cases.get(name, {}).get("bandwidth_matrix", [])
            n = len(m) // 3  # three stacked N x N matrices: each way, then the total
            for a in range(n):
                for b in range(n):
                    v = cell(m, 2 * n + a, b)
                    if a != b and v:
                        k = f"{a}<->{b} both ways (sum), copy engine"
                        best[k] = max(best.get(k, 0), v)
        for k, v in best.items():
            s.add("p2p", k, "GB/s", "higher", "nvbandwidth, best of write_ce / read_ce", "tool", v)


def nccl_tests_rows(path):
    """{bytes: (oop_us, oop_busbw, ip_us, ip_busbw)} from nccl-tests' table."""
    rows = {}
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return rows
    for line in lines:
        f = line.split()
        if len(f) >= 13 and f[0].isdigit():
            try:
                rows[int(f[0])] = (float(f[-8]), float(f[-6]), float(f[-4]), float(f[-2]))
            except ValueError:
                pass
    return rows


def ls_nccl_rows(doc, coll):
    out = {}
    for e in entries(doc, "nccl"):
        if e.get("collective") != coll or e.get("variant", "default") != "default":
            continue
        for r in e.get("rows", []):
            o, i = r.get("oop", {}), r.get("ip", {})
            out[r["bytes"]] = (o.get("time_us"), o.get("busbw"), i.get("time_us"), i.get("busbw"),
                               o.get("launch_us"), i.get("launch_us"))
        break
    return out


def add_nccl(s, group, coll, side, tool, rows):
    for b, v in rows.items():
        for k, (t, bw) in enumerate(((v[0], v[1]), (v[2], v[3]))):
            place = ("oop", "ip")[k]
            s.add(group, f"{coll} {b} {place} time", "us", "lower", tool, side, t)
            if bw:
                s.add(group, f"{coll} {b} {place} busbw", "GB/s", "higher", tool, side, bw)


def extract_nccl(raw, s):
    for coll in COLLS:
        tool = f"nccl-tests {coll}_perf"
        for r, p in sorted(rounds(raw, f"nt-{coll}-{{r}}.txt").items()):
            rows = nccl_tests_rows(p)
            add_nccl(s, "nccl", coll, "tool", tool, rows)
            add_nccl(s, "run", coll, "tool", tool, rows)
        for r, p in sorted(rounds(raw, f"ls-nccl-{coll}-{{r}}.json").items()):
            add_nccl(s, "nccl", coll, "ls", tool, ls_nccl_rows(load(p), coll))
        for r, p in sorted(rounds(raw, "ls-run-{r}.json").items()):
            rows = ls_nccl_rows(load(p), coll)
            add_nccl(s, "run", coll, "ls", tool, rows)
            add_nccl(s, "runt", coll, "ls", tool + " -t N -g 1", rows)
        for r, p in sorted(rounds(raw, f"ntt-{coll}-{{r}}.txt").items()):
            add_nccl(s, "runt", coll, "tool", tool + " -t N -g 1", nccl_tests_rows(p))
    # groups with one side only (no run document on one GPU) are dropped
    for g in ("nccl", "run", "runt"):
        if not any(f["ls"] for f in s.figs.values() if f["group"] == g):
            for k in [k for k, f in s.figs.items() if f["group"] == g]:
                del s.figs[k]


def extract(raw):
    s = Samples()
    for fn in (extract_hbm, extract_host, extract_latency, extract_p2p, extract_nccl):
        fn(raw, s)
    meta = load(os.path.join(raw, "machine.json")) or {}
    return {"machine": meta, "figures": list(s.figs.values())}


# Tables -------------------------------------------------------------------------------

GROUPS = [
    ("p2p", "P2P bandwidth, copy engine"),
    ("latency", "Latency, each definition against the tool that defines it"),
    ("hbm", "HBM, device-local copy"),
    ("host", "Pinned host copies"),
    ("nccl", "NCCL collectives, `linkscope nccl` against nccl-tests"),
    ("run", "NCCL collectives inside `linkscope run` against nccl-tests"),
    ("runt", "NCCL collectives inside `linkscope run` against nccl-tests -t N -g 1 (a thread per GPU, as the run)"),
]


def summary(v):
    if not v:
        return None
    med = statistics.median(v)
    return med, min(v), max(v), (max(v) - min(v)) / med if med else 0.0


def fmt(x, unit):
    if x is None:
        return "-"
    if unit == "us":
        return f"{x:.2f}" if x < 1000 else f"{x:.0f}"
    return f"{x:.1f}" if x >= 100 else f"{x:.2f}"


def side_text(sm, unit):
    if not sm:
        return "-", "-"
    med, lo, hi, spread = sm
    return fmt(med, unit), f"{fmt(lo, unit)}-{fmt(hi, unit)} ({spread * 100:.1f}%)"


def verdict(ratio, better, tol=0.0):
    if ratio is None:
        return "-"
    ok = ratio >= 1 - tol if better == "higher" else ratio <= 1 + tol
    return "yes" if ok else "NO"


def figure_rows(figs):
    out = []
    for f in figs:
        ls, tool = summary(f["ls"]), summary(f["tool"])
        ratio = ls[0] / tool[0] if ls and tool and tool[0] else None
        out.append((f, ls, tool, ratio))
    return out


def plain_table(group, title, figs):
    lines = [f"### {title}", "",
             "| figure | unit | linkscope | spread (min-max) | tool | tool figure | spread (min-max) | ratio | meets |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for f, ls, tool, ratio in figure_rows(figs):
        a, sa = side_text(ls, f["unit"])
        b, sb = side_text(tool, f["unit"])
        r = f"{ratio:.3f}" if ratio else "-"
        goal = ">= 1.00" if f["better"] == "higher" else "<= 1.00"
        lines.append(f"| {f['label']} | {f['unit']} | {a} | {sa} | {f['tool_name']} | {b} | {sb} | "
                     f"{r} | {verdict(ratio, f['better'])} ({goal}) |")
    return lines


def nccl_table(group, title, figs):
    lines = [f"### {title}", ""]
    by = {}
    for f in figs:
        coll, size, place, what = f["label"].split()
        by.setdefault(coll, {}).setdefault(int(size), {})[(place, what)] = f
    for coll in COLLS:
        if coll not in by:
            continue
        lines += [f"{coll} (time: below 1 MiB within 2% or faster; busbw: from 1 MiB up within 2%)", "",
                  "| bytes | ls oop us | nt oop us | ratio | ls ip us | nt ip us | ratio | ls oop busbw | nt oop busbw | ratio | spread ls / nt (oop time) | meets |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for size in sorted(by[coll]):
            cells, ok = [], True
            for key in (("oop", "time"), ("ip", "time"), ("oop", "busbw")):
                f = by[coll][size].get(key)
                ls = summary(f["ls"]) if f else None
                nt = summary(f["tool"]) if f else None
                ratio = ls[0] / nt[0] if ls and nt and nt[0] else None
                unit = "us" if key[1] == "time" else "GB/s"
                cells += [fmt(ls[0], unit) if ls else "-", fmt(nt[0], unit) if nt else "-",
                          f"{ratio:.3f}" if ratio else "-"]
                if ratio is not None:
                    if key[1] == "time" and size < (1 << 20):
                        ok &= ratio <= 1.02
                    if key[1] == "busbw" and size >= (1 << 20):
                        ok &= ratio >= 0.98
            if all(c == "-" for c in cells[2::3]):
                continue  # a size only one tool ran (nccl-tests rounds some sizes down)
            f = by[coll][size].get(("oop", "time"))
            ls, nt = (summary(f["ls"]), summary(f["tool"])) if f else (None, None)
            spread = f"{ls[3] * 100:.1f}% / {nt[3] * 100:.1f}%" if ls and nt else "-"
            lines.append(f"| {size} | " + " | ".join(cells) + f" | {spread} | {'yes' if ok else 'NO'} |")
        lines.append("")
    return lines


def table(samples):
    m = samples.get("machine", {})
    lines = ["Machine: " + ", ".join(f"{k} {v}" for k, v in m.items()), ""]
    for group, title in GROUPS:
        figs = [f for f in samples["figures"] if f["group"] == group]
        if not figs:
            continue
        rounds_n = max(max(len(f["ls"]), len(f["tool"])) for f in figs)
        title = f"{title} ({rounds_n} rounds each side, interleaved)"
        lines += (nccl_table if group in ("nccl", "run", "runt") else plain_table)(group, title, figs)
        lines.append("")
    return "\n".join(lines)


def dumps(samples):
    """One figure per line, values to 5 significant digits: small, and diffs read well."""
    def r(v):
        return float(f"{v:.5g}")
    lines = ['{"machine": ' + json.dumps(samples["machine"]) + ',', ' "figures": [']
    figs = samples["figures"]
    for k, f in enumerate(figs):
        g = dict(f, ls=[r(v) for v in f["ls"]], tool=[r(v) for v in f["tool"]])
        lines.append("  " + json.dumps(g) + ("," if k + 1 < len(figs) else ""))
    lines.append(" ]}")
    return "\n".join(lines) + "\n"


BEGIN, END = "<!-- side-by-side tables: begin -->", "<!-- side-by-side tables: end -->"


def doc(md_path, samples_path):
    """Replaces the text between the two markers of md_path with the tables of
    samples_path: the document is regenerated from the committed samples."""
    samples = load(samples_path)
    if not samples:
        sys.stderr.write(f"side-by-side-table.py: {samples_path}: not a samples file\n")
        return 2
    text = open(md_path).read()
    if BEGIN not in text or END not in text:
        sys.stderr.write(f"side-by-side-table.py: {md_path}: no {BEGIN} ... {END} markers\n")
        return 2
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    body = f"\n<!-- generated by scripts/side-by-side-table.py doc from {samples_path} -->\n\n"
    with open(md_path, "w") as f:
        f.write(head + BEGIN + body + table(samples) + "\n" + END + tail)
    return 0


def main(argv):
    usage = ("usage: side-by-side-table.py extract RAW_DIR | table SAMPLES_JSON |"
             " doc DOC_MD SAMPLES_JSON\n")
    if len(argv) < 3 or argv[1] not in ("extract", "table", "doc") or \
            len(argv) != (4 if argv[1] == "doc" else 3):
        sys.stderr.write(usage)
        return 2
    if argv[1] == "extract":
        sys.stdout.write(dumps(extract(argv[2])))
    elif argv[1] == "doc":
        return doc(argv[2], argv[3])
    else:
        samples = load(argv[2])
        if not samples:
            sys.stderr.write(f"side-by-side-table.py: {argv[2]}: not a samples file\n")
            return 2
        sys.stdout.write(table(samples) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
