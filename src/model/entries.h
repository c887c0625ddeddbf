/* Builders of the measurement entries of the families p2p, latency, hbm and host
   (docs/schema.md), in the words of model/vocab.h. Pure jansson, no CUDA: the measuring
   code fills samples in. */
#ifndef LS_MODEL_ENTRIES_H
#define LS_MODEL_ENTRIES_H

#include <jansson.h>
#include <stdint.h>

/* "host" in src/dst of a latency entry. */
#define LS_HOST_SIDE (-1)

/* p2p: direction "uni" | "bidir"; method "ce" | "sm_read" | "sm_write" | "staged".
   id "p2p-METHOD-DIRECTION-SRC-DST". bytes = bytes per copy (size). pair_p2p: the two
   GPUs have peer access; the entry's "p2p" is pair_p2p, false for staged (which does
   not use it). A pair without peer access gets "no_p2p" and "through_host" on every
   method; staged gets "through_host" always. */
json_t *ls_p2p_entry(int src, int dst, const char *direction, const char *method, int pair_p2p,
                     uint64_t size);

/* latency: method "gpu_pingpong" | "pointer_chase" | "gpu_copy" | "cpu_copy"; dst may be
   LS_HOST_SIDE. pair_p2p: the two GPUs have peer access (0 for the host side).
   through_host: this figure went through host memory (flag "through_host"); the
   entry's "p2p" is pair_p2p && !through_host (peer access used). The flag "no_p2p" marks
   a GPU pair without peer access, not a P2P pair measured through host memory. */
json_t *ls_latency_entry(int src, int dst, const char *method, int pair_p2p, int through_host,
                         uint64_t bytes);

/* Gives copy the telemetry object of from and every flag of from (telemetry sets
   "throttled", "below_app_clocks"): two figures taken from one run. */
void ls_entry_share_telemetry(json_t *copy, const json_t *from);

/* hbm: method "read" | "write" | "copy" | "copy_ce"; theoretical <= 0 leaves it out. */
json_t *ls_hbm_entry(int gpu, const char *method, uint64_t size, double theoretical);

/* host: direction "h2d" | "d2h" | "bidir"; memory "pinned" | "pageable";
   local 1 / 0, or -1 when unknown (left out). */
json_t *ls_host_entry(int gpu, int numa_node, const char *direction, const char *memory, int local,
                      uint64_t size);

/* hbm: adds copied_gbps (copy and copy_ce) and efficiency = value / theoretical. */
void ls_hbm_finish(json_t *entry);

#endif
