/* Last-resort watchdog for calls that block inside NCCL or CUDA, out of reach of the
   per-collective watchdog (which only sees waits it polls). A thread watches a
   heartbeat; after `limit_s` without one it prints one line and exits the process with
   LS_EXIT_CHECK. Output files are written atomically at the end, so a document given
   with --into stays as it was, valid. Host-only. */
#ifndef LS_NCCL_HANGGUARD_H
#define LS_NCCL_HANGGUARD_H

/* Arms the guard (starts its thread once per process) and beats once. */
void ls_hang_guard_arm(double limit_s, const char *what);
/* "Still moving": call before every step that may block. */
void ls_hang_guard_beat(const char *what);
/* Disarms it (between sweeps, while the user's own code runs). */
void ls_hang_guard_disarm(void);

#endif
