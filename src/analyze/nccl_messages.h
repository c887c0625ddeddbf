/* The catalog of NCCL's WARN messages (data/nccl-messages.tsv, built into the binary):
   what a line means, how bad it is, its likely cause and the command to run next. */
#ifndef LS_ANALYZE_NCCL_MESSAGES_H
#define LS_ANALYZE_NCCL_MESSAGES_H

#include <stddef.h>

typedef struct {
    char id[40];
    char subsystem[24];
    int severity; /* 2 error, 1 warning, 0 info (enum ls_severity's values) */
    char meaning[256];
    char cause[400];
    char next[256];
} ls_nccl_message_t;

/* The first catalog row whose pattern matches text into *out: 0, or -1 when none does.
   Rows of one source file ("@nvls.cc:Cuda failure") are left out: the line's source is
   not known. */
int ls_nccl_message_match(const char *text, ls_nccl_message_t *out);

/* The same for a WARN line printed at at (its "FILE:LINE", "transport/nvls.cc:598"; NULL
   when not known): a row of that source file matches too, in the catalog's order. */
int ls_nccl_message_match_at(const char *at, const char *text, ls_nccl_message_t *out);

#endif
