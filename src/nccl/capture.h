/* NCCL's debug output, captured privately: NCCL_DEBUG=INFO goes to a file of our own
   (never into the user's output) and is parsed for rings, trees and transports. */
#ifndef LS_NCCL_CAPTURE_H
#define LS_NCCL_CAPTURE_H

#include <stddef.h>

/* Before NCCL's first log line: when the user has set neither NCCL_DEBUG nor
   NCCL_DEBUG_FILE, sets NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV,NET (unless
   set) and NCCL_DEBUG_FILE to a file in a private temporary directory removed at exit.
   Otherwise leaves the user's settings alone (then nothing is captured). Idempotent. */
void ls_nccl_capture_setup(void);

/* The capture file, or NULL when the user's own NCCL_DEBUG settings are in force. */
const char *ls_nccl_capture_path(void);

/* Current size of the capture file (0 when none): where a later parse may start. */
long ls_nccl_capture_offset(void);

/* Reads the capture from offset to its end (caller frees), NULL when none. */
char *ls_nccl_capture_read(long offset);

#endif
