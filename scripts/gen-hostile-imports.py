#!/usr/bin/env python3
"""Hostile pastes for timing `linkscope import` (docs/safety.md, "Cost"): inputs that
make a reader compare each item with every earlier one if it does. Not a test (the
seconds depend on the machine). Usage:

  scripts/gen-hostile-imports.py KIND N OUT

KIND:
  nccl-tests-text  N blocks of 4096 rank lines each (distinct 44-character host names,
                   one rank number repeated a block so the distinct-rank count runs)
  nccl-tests-json  one nccl-tests -J file whose config.devices holds N processes on N hosts
  nccl-log-hosts   N NCCL INFO lines, each from its own host
  nccl-log-warn    N distinct NCCL WARN lines from N hosts
  nccl-log-conn    N distinct "Channel C/0 : R[G] -> R+1[G'] via P2P/IPC" lines
Then: /usr/bin/time -f '%e s %U user' build-rel/linkscope import OUT -o /tmp/o.json
(LINKSCOPE_MAX_INPUT_MB=4096 where the document would pass the 256 MiB input limit)."""
import json
import sys

HEADER = ("# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 "
          "iters: 20 agg iters: 1 validation: 1 graph: 0")
COLUMNS = ("#       size         count      type   redop    root     time   algbw   busbw  "
           "#wrong     time   algbw   busbw  #wrong")
ROW = ("           8             2     float     sum      -1    35.10    0.00    0.00       0"
       "    35.00    0.00    0.00       0")


def nccl_tests_text(n, f):
    for _ in range(n):
        f.write(HEADER + "\n#\n# Using devices\n")
        for r in range(4096):
            rank = 0 if r == 4095 else r
            f.write("#  Rank %4d Group  0 Pid %6d on node-with-a-long-common-prefix-%05d "
                    "device %d [0000:%02x:00] NVIDIA H100 80GB HBM3\n"
                    % (rank, 1000 + r, r, r % 8, r % 256))
        f.write(COLUMNS + "\n" + ROW + "\n# Out of bounds values : 0 OK\n#\n")


def nccl_tests_json(n, f):
    devices = [{"rank": i, "group": 0, "pid": 1000 + i,
                "hostname": "host-with-long-prefix-%06d" % i, "device": i % 8,
                "device_hex": "0000:18:00.0", "device_info": "NVIDIA H200"} for i in range(n)]
    out = {"version": 3, "args": ["./all_reduce_perf"], "nccl_version": 22803,
           "config": {"nthreads": 1, "ngpus": 1, "devices": devices},
           "results": [{"size": 8, "count": 2, "type": "float", "redop": "sum", "root": "-1",
                        "out_of_place": {"time": 35.1, "alg_bw": 0.0, "bus_bw": 0.0,
                                         "nwrong": 0.0}}]}
    json.dump(out, f)


def nccl_log(kind):
    def write(n, f):
        f.write("srv:900:910 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n")
        for i in range(n):
            if kind == "hosts":
                f.write("node%06d:900:930 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" % i)
            elif kind == "warn":
                f.write("node%06d:900:930 [0] NCCL WARN Call to connect returned Connection "
                        "refused, retrying %d\n" % (i, i))
            else:
                f.write("srv:900:930 [0] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] via P2P/IPC\n"
                        % (i % 32, i, i % 8, i + 1, (i + 1) % 8))
    return write


KINDS = {"nccl-tests-text": nccl_tests_text, "nccl-tests-json": nccl_tests_json,
         "nccl-log-hosts": nccl_log("hosts"), "nccl-log-warn": nccl_log("warn"),
         "nccl-log-conn": nccl_log("conn")}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
        sys.exit(__doc__)
    with open(sys.argv[3], "w") as out:
        KINDS[sys.argv[1]](int(sys.argv[2]), out)
