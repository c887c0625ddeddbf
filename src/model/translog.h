/* Parser of NCCL's INFO log (NCCL_DEBUG=INFO), shared by nccl/ (its own runs) and import/
   (logs of other runs): version, ranks, rings, trees, and the
   transport of every channel connection ("Channel 00/0 : 0[0] -> 1[1] via P2P/direct
   pointer", "... [send] via NET/IB/0/GDRDMA", "... via SHM/direct/direct"). Host-only. */
#ifndef LS_MODEL_TRANSLOG_H
#define LS_MODEL_TRANSLOG_H

#include <jansson.h>

/* Returns {"nccl_version", "ranks": [{rank, gpu, bus_id}], "rings": [{channel, ranks}],
   "trees": [{channel, rank, up, down}], "transports": [{channel, conn, from_rank, to_rank,
   from, to, transport, via, gdrdma, read, side}], "nccl_env": ["NCCL_X set by environment
   to Y", ...]}. Lines that are not NCCL INFO lines are ignored; duplicates (several
   communicators in one log) are kept once. Never NULL. */
json_t *ls_nccl_parse_log(const char *text);

/* A connection's identity ("channel/conn/from_rank/to_rank/side") for the indexes that
   keep each connection once: its side absent (where json_string refused it) equals only
   another absent one. */
void ls_nccl_connection_key(const json_t *t, char *key, size_t len);

/* Under MPI each rank's log arrives as one block of `width` bytes: its text, then NULs.
   Returns the n texts joined in block order, each ended by '\n' (caller frees), or NULL
   when out of memory. */
char *ls_nccl_join_logs(const char *blocks, int n, size_t width);

/* The short transport name of a `via` string: "P2P/direct pointer", "P2P/CUMEM",
   "P2P/IPC", "P2P/indirect", "SHM", "NET/IB", "NET/Socket", "NET/<name>", "COLLNET". */
void ls_nccl_transport_class(const char *via, char *out, size_t outlen);

/* Sets link_type (nvidia-smi word) and p2p_ok on each transport from doc's links[] where
   the two GPUs are known; returns how many were annotated. */
int ls_nccl_annotate_links(json_t *transports, const json_t *doc_links);

/* One line per GPU pair whose link allows P2P (p2p_ok) but where NCCL used SHM or NET:
   "P2P is OK but NCCL used SHM on 4 -> 5". Appends strings to lines; returns count. */
int ls_nccl_transport_findings(const json_t *transports, json_t *lines);

/* "0 -> 1: P2P/direct pointer x24 (NV18)" per ordered pair, appended to lines. */
int ls_nccl_transport_summary(const json_t *transports, json_t *lines);

#endif
