/* The shapes of nccl-tests text as people paste it: launcher tags, header lines whose
   '#' a forum ate, command lines naming the binary, result rows without any header.
   Used by nccl_tests.c to recognize and read partial pastes (docs/import.md). */
#ifndef LS_IMPORT_NCCL_TEXT_H
#define LS_IMPORT_NCCL_TEXT_H

#include <stddef.h>

/* Rewrites one line in place: drops leading blanks and backticks, a launcher tag
   (`[0] `, `[1,0]<stdout>:`, `3: `) and every later copy of a `[N]` tag inside the line
   (MPI output glued into rows: "-1[0]    1626.5"). */
void ls_nccl_text_normalize(char *buf);

/* 1 when a line without its '#' is one of nccl-tests' header or footer lines
   ("nThread 1 nGpus ...", "Using devices", "Rank 0 ... device 0", "size count type ...",
   "(B) (elements)", "out-of-place in-place", "Out of bounds", "Avg bus bandwidth"). */
int ls_nccl_text_headerish(const char *line);

/* The collective named by a "*_perf" or "*_perf_mpi" word of a command line
   ("./build/all_reduce_perf -b 8" -> "all_reduce"); 0, or -1 when none. */
int ls_nccl_text_perf_name(const char *line, char *out, size_t outlen);

/* 1 when a (normalized) line has the shape of a result row: size and count as whole
   numbers, a data type name, then figures. */
int ls_nccl_text_is_row(const char *line);

/* One of nccl-tests' failure lines (its src/common.h): the check macros print
   "HOST: Test NCCL failure FILE:LINE 'MESSAGE / LAST ERROR'" (2.13+; "'MESSAGE'" before,
   and no host in the oldest builds), "HOST: Test CUDA failure FILE:LINE 'MESSAGE'", and
   each caller up the stack " .. HOST pid PID: Test failure FILE:LINE". */
typedef struct {
    char host[64];     /* "" when the line names none */
    char message[192]; /* "Test NCCL failure common.cu:1204 'unhandled cuda error ...'" */
    int primary;       /* 1 for the NCCL/CUDA line that says what failed, 0 for a trail line */
} ls_nccl_failure_t;

/* 0 and *f filled when a (normalized) line is a failure line; -1 otherwise. */
int ls_nccl_text_failure(const char *line, ls_nccl_failure_t *f);

/* 1 when text holds nccl-tests output: its banner or header, a column header, or
   result rows (with or without a command line naming the binary). */
int ls_nccl_text_detect(const char *text);

/* NCCL's "NCCL_IB_DISABLE set by environment to 0" (its INFO message, from the key on):
   the NCCL_ key and its value, the value without the blanks a terminal padded the line
   with or a final '.'. 0, or -1 when the message is not one. */
int ls_nccl_env_line(const char *msg, char *key, size_t keylen, char *value, size_t valuelen);

#endif
