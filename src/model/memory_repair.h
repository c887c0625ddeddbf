/* NVML's pending memory repairs: when each takes effect and what the node needs, one
   reading for linkscope plan (analyze/rules_gpus.c, an imported -q's Retired Pages and
   Remapped Rows) and linkscope health (health/rules.c, live NVML), so both agree.
   NVIDIA's Dynamic Page Retirement: the driver keeps retired pages in the InfoROM and sets
   them aside when it attaches and initializes each GPU; NVML documents a pending one as
   needing "a reboot to fully retire" (nvmlDeviceGetRetiredPagesPendingStatus) and the
   driver's Xid 63 of those parts says "reboot to activate" (model/xid.c reads it so): a
   reboot, or a driver reload, applies it. NVIDIA's A100 memory error management: a
   pending row remap is applied at the next GPU reset. */
#ifndef LS_MODEL_MEMORY_REPAIR_H
#define LS_MODEL_MEMORY_REPAIR_H

#include "xid.h"

typedef struct {
    const char *id;        /* linkscope health's finding id */
    enum ls_action action; /* the least that applies it */
    const char *applied;   /* when it takes effect, in a message's words */
} ls_memory_repair_t;

/* Pages pending retirement (Retired Pages > Pending Page Blacklist: Yes; V100 and earlier). */
extern const ls_memory_repair_t ls_retire_pending;

/* A row remap pending (Remapped Rows > Pending: Yes; A100 and later). */
extern const ls_memory_repair_t ls_remap_pending;

#endif
