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

/* The first catalog row whose pattern matches text into *out: 0, or -1 when none does. */
int ls_nccl_message_match(const char *text, ls_nccl_message_t *out);

#endif
