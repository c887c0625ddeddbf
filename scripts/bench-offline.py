#!/usr/bin/env python3
"""Offline cost benchmarks (docs/safety.md, "Cost"): import of concatenated nccl-tests
runs, reading a document of many GPU entries, compare and check of many figures, each at
1x, 10x and 100x a base size. Prints one line per case: size, seconds, peak memory.
Not a test: figures depend on the machine. Usage: bench-offline.py LINKSCOPE [SCALES
[CASES]] (SCALES default "1,10,100"; CASES default "import,read,compare,check"; a case
that runs past 600 s is reported as such)."""
import json, os, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "..", "tests", "fixtures")
LOG = open(os.path.join(FX, "h200x2", "nccl-tests-all_reduce.txt")).read()


def run(args, stdout=subprocess.DEVNULL):
    """Exit code, seconds and peak memory (MiB) of one command; None past 600 s."""
    t0 = time.time()
    p = subprocess.Popen(args, stdout=stdout, stderr=subprocess.DEVNULL)
    timer = threading.Timer(600, p.kill)
    timer.start()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode == -9:
        return "timeout", None, None
    return p.returncode, time.time() - t0, usage.ru_maxrss / 1024.0


def doc(ngpus, nfigs):
    d = {"schema": "linkscope.run/1", "created": "2026-01-01T00:00:00Z",
         "tool": {"version": "bench", "commit": "bench"}, "host": {"hostname": "bench"},
         "software": {}, "gpus": [{"index": i, "name": "GPU"} for i in range(ngpus)],
         "links": [], "nics": [], "gpu_nic_links": [], "env": {}, "measurements": []}
    for k in range(nfigs):
        d["measurements"].append({"id": "p2p-%d" % k, "family": "p2p", "metric": "bandwidth",
                                  "unit": "GB/s", "status": "ok", "method": "ce",
                                  "direction": "uni", "src": k % 1000, "dst": k // 1000,
                                  "gpus": [k % 1000, k // 1000], "value": 100.0 + k % 7})
    return d


def main():
    bin_ = os.path.abspath(sys.argv[1])
    scales = [int(s) for s in (sys.argv[2] if len(sys.argv) > 2 else "1,10,100").split(",")]
    cases = (sys.argv[3] if len(sys.argv) > 3 else "import,read,compare,check").split(",")
    tmp = tempfile.mkdtemp()
    print("case                     size        seconds  peak MiB")
    for s in scales:
        blocks = 20 * s
        if "import" in cases:
            bench_import(bin_, tmp, blocks)
        if "read" in cases:
            bench_read(bin_, tmp, 400 * s)
        if "compare" in cases or "check" in cases:
            bench_compare(bin_, tmp, 320 * s, cases)


def bench_import(bin_, tmp, blocks):
    path = os.path.join(tmp, "blocks.log")
    open(path, "w").write(LOG * blocks)
    rc, sec, mem = run([bin_, "import", path, "-o", os.path.join(tmp, "imp.json")])
    report("import nccl-tests", "%d runs" % blocks, rc, sec, mem)


def bench_read(bin_, tmp, ngpus):
    path = os.path.join(tmp, "gpus.json")
    json.dump(doc(ngpus, 0), open(path, "w"))
    rc, sec, mem = run([bin_, "report", path])
    report("read (report)", "%d GPUs" % ngpus, rc, sec, mem)


def bench_compare(bin_, tmp, nfigs, cases):
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    json.dump(doc(2, nfigs), open(a, "w"))
    json.dump(doc(2, nfigs), open(b, "w"))
    if "compare" in cases:
        rc, sec, mem = run([bin_, "compare", a, b])
        report("compare", "%d figures" % nfigs, rc, sec, mem)
    base = os.path.join(tmp, "base.json")
    subprocess.run([bin_, "baseline", a, "-o", base], stderr=subprocess.DEVNULL)
    if "check" in cases:
        rc, sec, mem = run([bin_, "check", b, "--baseline", base])
        report("check", "%d figures" % nfigs, rc, sec, mem)


def report(case, size, rc, sec, mem):
    if sec is None:
        print("%-24s %-12s  > 600 s" % (case, size))
    else:
        print("%-24s %-12s %8.2f  %8.0f%s" % (case, size, sec, mem,
                                             "" if rc in (0, 1) else "  (exit %s)" % rc))
    sys.stdout.flush()


main()
