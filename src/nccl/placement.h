/* Where this process's threads run: for each thread of /proc/self/task, its name, the
   CPU it last ran on and the CPUs it may run on. Recorded with every NCCL sweep, because
   a small collective's time is the launching thread's time (docs/nccl.md, "The
   small-message floor"). */
#ifndef LS_NCCL_PLACEMENT_H
#define LS_NCCL_PLACEMENT_H

#include <jansson.h>

/* [{tid, name, cpu, allowed}] read under root ("" or NULL: the live /proc); an empty
   array where /proc cannot be read. */
json_t *ls_thread_placement(const char *root);

/* The CPU list the caller may run on, as "0-15,32" (sched_getaffinity); "" on failure. */
void ls_affinity_text(char *buf, size_t len);

/* The CPU the caller runs on now (sched_getcpu); -1 where unknown. */
int ls_current_cpu(void);

/* Pins the calling thread to one CPU; *saved receives its previous affinity (free it
   with ls_unpin_self, which restores it). -1 when the CPU cannot be used. */
int ls_pin_self(int cpu, void **saved);
void ls_unpin_self(void *saved);

#endif
