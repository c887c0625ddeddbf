/* NCCL_DEBUG=INFO logs on their own (`linkscope import nccl.log`): NCCL version, ranks,
   nodes, hosts, rings, trees, GPUDirect RDMA, and the transport of every connection,
   for every line format from NCCL 2.4 to 2.28 (docs/import.md).

   The connection lines of NCCL >= 2.7 ("Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM")
   are read by the shared parser (src/model/translog.c); this file adds what that one
   does not read: the `Ring NN :` lines of NCCL 2.4-2.6, NET lines whose ranks carry no
   bracket ("15 -> 0 [send] via NET/Socket/0"), bus ids in brackets, "comm .. nRanks N
   nNodes M", the GPUDirect RDMA lines, the network chosen and the host of each rank
   from the line prefix (host:pid:tid [dev]). Kept apart so that it can move into the
   shared parser as one piece. */
#ifndef LS_IMPORT_NCCL_LOG_H
#define LS_IMPORT_NCCL_LOG_H

#include <jansson.h>
#include <stddef.h>

/* 1 when text is an NCCL INFO log (lines "... NCCL INFO ..." or "NCCL version 2.x"). */
int ls_nccl_log_detect(const char *text);

/* The log's facts: what ls_nccl_parse_log returns, plus "nranks", "nnodes", "hosts",
   "network", "gdr" [{enabled, hca, hca_name, gpu_bus, distance, limit, read, text}],
   "from_host"/"to_host" on transports where the printing line tells, and "edges" (one
   line per ordered pair: "GPU0 -> GPU1: P2P/CUMEM x8 channels"). Never NULL. */
json_t *ls_nccl_log_facts(const char *text);

/* Adds the log's facts to doc's "nccl_logs" (and software.nccl, env). Returns 0 (no
   entry: a log holds no measurement), or -1 with err naming name when the log holds
   nothing NCCL printed. */
int ls_import_nccl_log(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
