/* What NVLink error counters mean for the node: one decision for linkscope plan's
   nvlink_errors (counters that rose while linkscope measured, analyze/rules_gpus.c; the
   counters since the driver loaded that a pasted `nvidia-smi nvlink -e` shows,
   analyze/rules_nvlink_counts.c) and linkscope health's rule of the same id (counters that
   rose over its window, health/rules.c).

   A replay is the link layer resending flits the far end received corrupted; a recovery
   is the link retraining after errors replays could not absorb. Both stay 0 on a sound
   link: DCGM's NVLink health watch fails a GPU when either rises by 1 or more within its
   watch window (DCGM_LIMIT_MAX_NVLINK_ERROR 1, DCGM_FR_NVLINK_ERROR_CRITICAL, "should be
   0", severity ISOLATE). A GPU reset or a driver reload clears the counters, not the
   connector, board trace or module that corrupts the flits, so a rise isolates the node
   for service. A count since the driver loaded (a pasted nvidia-smi nvlink -e) is not a
   rise: it may be all history (DCGM's lifetime-counter check fails on it too, and
   operators such as AWS's EKS node monitoring agent downgrade exactly that check to a
   warning, the count never resetting without a GPU reset), so it is watched until a
   second reading shows it climb. CRC counts alone were corrected in the link layer (the
   2 x H200 machine's data-CRC counter rises by 20 to 50 a second under full NVLink load
   with no replay): DCGM fails them only above 100 a second
   (DCGM_LIMIT_MAX_NVLINK_CRC_ERROR) and otherwise says monitor. */
#ifndef LS_MODEL_NVLINK_ERRORS_H
#define LS_MODEL_NVLINK_ERRORS_H

#include "xid.h"

/* The node action of replays and recoveries that rose over a window (a measurement's, a
   health window's): LS_ACT_ISOLATE when either is above 0, else LS_ACT_NONE (CRC alone is
   judged by each rule: health watches its growth, plan reports it as information). */
enum ls_action ls_nvlink_errors_action(double replay, double recovery);

/* The node action of replays and recoveries counted since the driver loaded, no window:
   LS_ACT_WATCH when either is above 0 (read again under load: a rise is
   ls_nvlink_errors_action's), else LS_ACT_NONE. */
enum ls_action ls_nvlink_count_action(long long replay, long long recovery);

/* 1 when a count stands at the ceiling of a 16- or 32-bit counter (65535, 4294967295): a
   hardware counter that saturates stops there, so the true count is at least that (a
   count that happens to equal it is also at least that: the words stay true). */
int ls_nvlink_counter_saturated(long long count);

#endif
