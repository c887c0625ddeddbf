/* NCCL INFO messages that say what NCCL did without naming a connection, read from
   their printed formats (NCCL 2.4 .. 2.28 source, docs/import.md "NCCL INFO log"):
   the return-code trail of a failed call, the graph search, buffer allocations, NVLS
   support, the socket network of NCCL < 2.7 and an empty IB device list. Each adds to
   the log's facts; a log made only of such lines imports. */
#ifndef LS_IMPORT_NCCL_LOG_EXTRAS_H
#define LS_IMPORT_NCCL_LOG_EXTRAS_H

#include <jansson.h>

/* One message (the text after "NCCL INFO "), printed on host (may be "") by the rank on
   CUDA device dev (-1 unknown), into facts:
   "error_trails" [{code, at, host, gpu, lines}]  "file:line -> N" with N != 0 (NCCLCHECK's
                                                   INFO line), one per code, host and GPU
   "graphs" [{pattern, cross_nic, channels, bw_intra, bw_inter, type_intra, type_inter}]
   "graph_lines" N                                 the channel and path lines of the search
   "allocations" {count, device_bytes, host_bytes} "Cuda [Host] Alloc Size N pointer P"
   "nvls" {"available": [dev], "unavailable": [dev]}
   "network" "Socket"                              "NET/Socket : Using" before 2.7, which
                                                   printed no "Using network" line
   "ib_devices" 0                                  "NET/IB : No device found."
   "p2p_disabled" [{host, gpus: [a, b], by?}]      "P2P is disabled between connected GPUs
                                                   a and b" (also its NVLINK WARN form);
                                                   "Could not enable P2P between dev a(=..)
                                                   and dev b(=..)" (by "cuda")
   "p2p_check" {all_direct, direct_mode, host, text}  "Check P2P Type intraNodeP2pSupport
                                                   S directMode D" / "isAllDirectP2p S ..."
   "fabric" {state, cluster_uuid_zero, host}        "MNNVL busId B fabric UUID U0.U1 cliqueId C
                                                   state S healthMask M" */
/* 1 when msg names the network NCCL chose for traffic between nodes, into net: "Using
   network X" (2.4 and later), "Using internal Network X" (2.3, init.cc). */
int ls_nccl_network_said(const char *msg, char net[32]);
void ls_nccl_log_extras(const char *msg, const char *host, int dev, json_t *facts);

/* ls_json_append_once on facts' list `list` (created when absent), in constant expected
   time: each entry's compact JSON text (keys sorted; the lists hold strings, integers,
   booleans and objects of them, which print alike exactly when equal) in a hash set
   kept under facts' "reading_index" while reading, built from the list's entries at
   first use. A log of many distinct lines compared each with every earlier one was
   quadratic (docs/safety.md, "Cost"). ls_nccl_facts_index_end removes the sets. The
   entry's position in the list (value appended there, or released where an equal entry
   was already), -1 out of memory. */
long ls_nccl_facts_append_once(json_t *facts, const char *list, json_t *value);
/* The index of facts' list under key: positions by a caller's key (NULL: created empty
   as the caller fills it). */
json_t *ls_nccl_facts_index(json_t *facts, const char *key);
void ls_nccl_facts_index_end(json_t *facts);

/* A thread's "host:pid:tid" as NCCL prints it before " [dev]": at most this long. */
#define LS_NCCL_THREAD_LEN 160

/* Whether NCCL went on after a return-code trail: called for each INFO message (after
   ls_nccl_log_extras) with the thread that printed it ("" unknown). A trail line opens
   its thread's trail; a later INFO line of that thread that is no trail line closes it as
   handled (the caller took the code and went on); one that passes another code up, or
   the paste's end, leaves it unknown. ls_nccl_trail_threads_end sets each error_trails
   record's "went_on": true where every trail of it was handled, and removes the notes. */
void ls_nccl_trail_thread(const char *msg, const char *host, int dev, const char *thread,
                          json_t *facts);

/* The same for WARN lines: ls_nccl_warn_line with the thread that printed warnings[at]
   ("" unknown: never told gone on), ls_nccl_warn_info with each INFO message and its
   thread. A later INFO line of that thread that is no return-code trail line shows the
   thread went on with its work after the WARN (nccl-fastsocket's "Maximum retry reached
   for connect 3." then "Connected after 1000 retries."); another WARN of the thread first,
   or the paste's end, leaves it unknown. ls_nccl_warn_threads_end sets each warnings[]
   entry's "went_on": true where every line of it went on, and removes the notes. */
void ls_nccl_warn_line(json_t *facts, const char *thread, long at);
void ls_nccl_warn_info(json_t *facts, const char *msg, const char *thread);
void ls_nccl_warn_threads_end(json_t *facts);
void ls_nccl_trail_threads_end(json_t *facts);

/* The "P2P is disabled between [NVLINK] connected GPUs A and B" message (INFO or WARN)
   and "Could not enable P2P between dev A(=..) and dev B(=..)" into facts' p2p_disabled;
   1 when msg is one. */
int ls_nccl_log_p2p_disabled(const char *msg, const char *host, json_t *facts);

/* 1 when facts hold anything the extras (or the bare lines, nccl_log_bare.h) read. */
int ls_nccl_log_extras_any(const json_t *facts);

#endif
