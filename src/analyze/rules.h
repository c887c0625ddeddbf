/* Findings rules, one group per file. Each group appends finding objects to a list. */
#ifndef LS_ANALYZE_RULES_H
#define LS_ANALYZE_RULES_H

#include "about.h"
#include "analyze.h"
#include "machine.h"
#include "model/view.h"
#include "model/xid.h"

#include <stdarg.h>

/* Thresholds (docs/analysis.md explains each). */
#define LS_DEGRADED_RATIO 0.75      /* pair below this fraction of its class median */
#define LS_DEGRADED_ERROR_RATIO 0.5 /* ... below this: an error */
#define LS_DEGRADED_MIN_PEERS 3     /* other pairs of the class needed to compare */
#define LS_ASYM_MIN_FRACTION 0.05   /* asymmetry smaller than this is never reported */
#define LS_ASYM_SPREAD_FACTOR 3.0   /* ... and it must exceed 3 x the summed stddev */
#define LS_HBM_OUTLIER_RATIO 0.85   /* efficiency below this fraction of the median */
#define LS_HBM_MIN_GPUS 3
#define LS_POWER_TOLERANCE 0.98   /* limit below 98% of the default */
#define LS_NUMA_MINORITY 0.5      /* node with fewer than half the GPUs of the largest */
#define LS_NCCL_VARIANT_GAIN 0.05 /* a P2P-level variant 5% faster makes it a warning */

/* Hardware ceilings (ceiling.h): a figure below this fraction of its own ceiling is
   flagged, per path type (calibration in docs/analysis.md). */
#define LS_CEILING_NVLINK 0.60 /* H200 NV18: CE 396.8/478 = 83%, p2pBandwidthLatencyTest 75% */
#define LS_CEILING_PCIE 0.40   /* seed 000 PHB P2P 7.08 of 14.4 GB/s = 49% is healthy */
/* A copy staged through host memory crosses PCIe twice (down one GPU's link into host
   memory, up the other's); the driver pipelines the two, but at worst they run one after
   the other: half the one-way ceiling. Below the PCIe fraction of that half it is not the
   links' pace (a link at a fraction of its width or generation, or a throttled host). */
#define LS_CEILING_STAGED (LS_CEILING_PCIE / 2)
#define LS_CEILING_HOST 0.60 /* H200 pinned 55.5 of 57.6 GB/s = 96% */
#define LS_CEILING_HBM 0.60  /* H200 SM copy 3966/4814 = 82%; Quadro GV100 68% */
#define LS_CEILING_NCCL 0.35 /* H200 all_gather 258/478 = 54%; seed 000 SHM rings 48% */
#define LS_CEILING_NCCL_MIN_BYTES (64.0 * 1024 * 1024) /* smaller sweeps are latency-bound */
#define LS_IMPLAUSIBLE_COPY 1.15 /* a copy above 115% of its ceiling cannot be */
#define LS_IMPLAUSIBLE_NCCL 2.0  /* NVLS reduces in the switch: busbw up to ~1.75 x links */

#define LS_P2P_NO_GAIN 1.10 /* direct P2P under 1.1 x the staged copy: no gain */
/* ... and under 1 / 1.1 of it (the same band below parity): slower than staged, worded so */
#define LS_P2P_SLOWER (1.0 / LS_P2P_NO_GAIN)
/* A peer write shows the direct path when it lands in under half the time of the same
   copy staged through host memory (p2pBandwidthLatencyTest: about 1 us against 10-20 us;
   the staged copy is a device-to-host and a host-to-device copy with a synchronization). */
#define LS_DIRECT_LATENCY_FRACTION 0.5
/* One direction of a pair below half its mirror: PCIe and NVLink are full duplex with the
   same lanes (links) each way, so a healthy pair's two directions differ only by noise
   (at most 25% even for host copies, LS_NOISY_CV_HOST_SHARED); half is what losing half
   the lanes or links one way gives. */
#define LS_ONE_WAY_RATIO 0.5
/* A GPU's host path, host->GPU against GPU->host, one tool and method, pinned memory: the
   PCIe link is full duplex with the same lanes each way, so only the protocol differs.
   Host->GPU is the GPU reading host memory: its data come back in completions the root
   complex may split at the Read Completion Boundary (64 B), ~24 B of TLP overhead each
   (64/88 = 73%), where GPU->host is posted writes at the Max Payload Size (256 B:
   256/280 = 91%); so a healthy read direction runs at ~80% of the write one at worst.
   Below 75% is more than the protocol explains. */
#define LS_HOST_ONE_WAY_RATIO 0.75
#define LS_BIDIR_SUM_FRACTION 0.60  /* bidir below 60% of the two one-way figures' sum */
#define LS_BIDIR_PEER_FRACTION 0.60 /* ... or below 60% of its class's median bidir */
/* host bidir within a fifth of what one copy engine taking turns gives (2hd/(h+d)) */
#define LS_BIDIR_TURNS_FRACTION 0.80
#define LS_COLLAPSE_DROP 0.50 /* busbw falls by more than half from one size to the next */
#define LS_COLLAPSE_MIN_BYTES (1024.0 * 1024) /* ... from a size of at least 1 MiB */
/* Out-of-place against in-place busbw of one row: 1.5 x apart, where every nccl-tests table
   of the real corpus and every linkscope run kept them within 1.3 x, at 64 MiB or more
   (rows of milliseconds, not of launch latency). */
#define LS_ERRATIC_RATIO 1.5
/* No copy or collective of any GPU reaches 100 TB/s (HBM3e about 8 TB/s, NVLink 5 1.8 TB/s
   a GPU): a bandwidth figure above it is no measurement (impossible_value). */
#define LS_BANDWIDTH_BOUND_GBPS 1e5
#define LS_ERRATIC_MIN_BYTES (64.0 * 1024 * 1024)
#define LS_CROSS_SOCKET_RATIO 0.75 /* cross-socket median below 75% of same-socket */
/* The noisy rule judges a figure's robust spread (1.4826 x MAD / median of its samples,
   ls_view_spread; the CV of a figure without samples). Every kept idle run document
   (scripts/calibrate-noisy.py, 1 x H200 and 1 x H100; the counts in docs/analysis.md) stays
   under it: device-timed at most 7.3% (a pinned host copy on an H100 VM whose host path
   drifted; HBM 0.2%), CPU-timed latency 4.7%; by the CV four idle figures of the H100 VMs
   were over, one slow sample among ten each time. */
#define LS_NOISY_CV 0.10
/* Host copies from pageable memory (a CPU memcpy through a staging buffer, timed on the
   CPU) and host copies both ways at once (the two directions' arbitration) spread by
   themselves: the idle runs' robust spread reached 17.2% (pageable host to GPU), their
   CV 21.2% (pageable GPU to host, 1 x H100); docs/analysis.md "noisy". About 1.5 x the
   worst healthy robust spread. */
#define LS_NOISY_CV_HOST_SHARED 0.25
/* The same copies also move from one run to the next more than their own samples show
   (a run may sit in one mode of a bimodal figure: pinned both ways at 81 or at 101.6
   GB/s, each with a CV under 1%). Their run-to-run CV over the 53 idle H200 runs of
   tests/fixtures/runs/ (two cards): 13.7% (pageable host to GPU), 13.0% (pageable both
   ways), 10.4% (pageable GPU to host), 6.5% (pinned both ways); one-way pinned 1.5%, HBM
   1.0%. A baseline records at least this as such a figure's spread (docs/compare-check.md). */
#define LS_SPREAD_HOST_SHARED 0.14
#define LS_NOISY_MIN_SAMPLES 3

/* Appends {rule, severity, subject, gpus?, pairs?, port?, message, evidence}: the subject
   and its data from about (about.h); evidence reference stolen (NULL = empty array). */
void ls_finding_add(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                    json_t *evidence, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void ls_finding_vadd(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                     json_t *evidence, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));
/* The shape of most findings about one entry or log: resting on one piece of evidence
   (an entry id or a document path), the message "SUBJECT: " and fmt's text. */
void ls_finding_about(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                      const char *subject, const char *evidence, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
void ls_finding_vabout(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                       const char *subject, const char *evidence, const char *fmt, va_list ap)
    __attribute__((format(printf, 7, 0)));

/* Causes of a slow or missing path between GPUs a and b, the ones the document shows
   first (rules_causes.c); writes at most len bytes. */
void ls_pair_causes(const ls_machine_t *m, int a, int b, char *buf, size_t len);
/* What nvidia-smi's topo -p2p word for pair a, b means (its legend, as rules_causes.c
   holds it), NULL where the document has no such word. */
const char *ls_pair_smi_word_meaning(const ls_machine_t *m, int a, int b);

/* The rule groups in the order they run (rule_table.c; docs/analysis.md, docs/design.md
   "Adding a rule"). A group appends its findings to out. Those of stage LS_STAGE_JUDGED
   run first; the driver then lowers what rests only on noisy figures and folds (into
   busy_gpu, one finding for every GPU); those of LS_STAGE_AS_IS run after, as they say. */
enum ls_rule_stage { LS_STAGE_JUDGED, LS_STAGE_AS_IS };
typedef struct {
    const char *id;
    enum ls_rule_stage stage;
    void (*run)(const ls_machine_t *m, json_t *out);
} ls_rule_group_t;
extern const ls_rule_group_t ls_rule_groups[];
extern const size_t ls_rule_group_count;

/* 1 when entry e's spread (ls_view_spread) is above its limit, its status ok and
   stats.n at least LS_NOISY_MIN_SAMPLES; the same of an entry's view. */
int ls_entry_noisy(const json_t *e);
int ls_view_noisy(const ls_view_t *v);
/* The spread the noisy rule judges: the robust spread of the entry's samples
   (1.4826 x MAD / |median|, ls_robust_spread) where "samples" holds at least
   LS_NOISY_MIN_SAMPLES numbers, else stats.cv (an imported figure with only its stats). */
double ls_view_spread(const ls_view_t *v);
/* The spread above which entry e is noisy: LS_NOISY_CV, or LS_NOISY_CV_HOST_SHARED for
   a pageable or both-ways host copy. */
double ls_noisy_limit(const json_t *e);
/* 1 for a host copy from pageable memory or both ways at once (the noisy class of
   LS_NOISY_CV_HOST_SHARED and LS_SPREAD_HOST_SHARED); e an entry or a figure's identity. */
int ls_entry_host_shared(const json_t *e);

/* Shared by rules and the planner: the NUMA node holding the most GPUs (-1 if none)
   and whether GPU g sits on a node with a minority of the GPUs. */
int ls_numa_majority(const ls_machine_t *m, int *count);
int ls_numa_minority(const ls_machine_t *m, int g);
/* The same over any grouping of n GPUs (group[g] -1 unknown): the largest group, and
   whether g's group holds fewer than LS_NUMA_MINORITY of its GPUs (3 GPUs or more). */
int ls_group_majority(const int *group, int n, int *count);
int ls_group_minority(const int *group, int n, int g);

/* One GPU object's judgment: its action (LS_ACT_NONE: nothing to say), why in words. */
typedef enum ls_action (*ls_gpu_judge_t)(const json_t *gpu, char *why, size_t len);
/* The document's GPUs judge finds something for, grouped by why: an array (to free) of
   {why, mask, action} in first-seen order; GPUs outside the 64-bit mask are left out. */
json_t *ls_gpu_groups(const json_t *doc, ls_gpu_judge_t judge);

/* The measurement entries (array) and entry i. */
const json_t *ls_measurement(const ls_machine_t *m, size_t i);

/* A finding's message built in pieces (the node-action rules: kernel logs, CUDA errors,
   the fabric); what does not fit is cut. */
typedef struct {
    char buf[2048];
    size_t used;
} ls_text_t;

void ls_text_put(ls_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* nvlink_errors on the counters since the driver loaded that a pasted nvidia-smi nvlink -e
   shows (gpus[].nvlinks[].errors; rules_nvlink_counts.c, run by the gpus group). */
void ls_rule_nvlink_counts(const ls_machine_t *m, json_t *out);

/* The node action's severity (none info, watch warning, reset / reboot / isolate error)
   and what a scheduler does, in words. */
enum ls_severity ls_action_severity(enum ls_action a);
const char *ls_action_words(enum ls_action a);

#endif
