#define _GNU_SOURCE /* strcasestr */
/* The GPU recovery actions (model/recovery.h). Codes and meanings from NVML's reference
   (nvmlDeviceGpuRecoveryAction_t): 0 none; 1 a GPU reset is required; 2 a node reboot is
   required (a GPU reset is not enough); 3 peer-to-peer traffic must be drained before the
   driver can say more (query again after); 4 the GPU runs at reduced capacity (memory
   offlined, MIG instances lost): running work is safe, drain it and reset to regain full
   capacity. */
#include "recovery.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const ls_recovery_t rows[] = {
    {.code = 0, .words = "None", .action = LS_ACT_NONE, .meaning = "no recovery needed"},
    {.code = 1,
     .words = "GPU Reset Required",
     .action = LS_ACT_RESET,
     .meaning = "a fault only a GPU reset clears: drain the GPU's work, reset it "
                "(nvidia-smi -r -i N), check again"},
    {.code = 2,
     .words = "Node Reboot Required",
     .action = LS_ACT_REBOOT,
     .meaning = "a fault a GPU reset does not clear: drain the node and reboot it"},
    {.code = 3,
     .words = "Drain P2P",
     .action = LS_ACT_ISOLATE,
     .meaning = "peer-to-peer (NVLink) traffic must stop before the driver can say what the "
                "GPU needs: keep jobs off the node, stop those using its peers, check again"},
    {.code = 4,
     .words = "Drain and Reset",
     .action = LS_ACT_RESET,
     .meaning = "the GPU runs at reduced capacity (memory offlined or MIG instances lost): "
                "running work is safe, start no new work; drain it and reset the GPU"},
};

#define NROWS (sizeof rows / sizeof rows[0])

const ls_recovery_t *ls_recovery_of_code(unsigned code)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].code == code)
            return &rows[i];
    return NULL;
}

/* Checked in this order: "Drain and Reset" holds "Reset", "Node Reboot Required" holds
   neither of the others. */
const ls_recovery_t *ls_recovery_of_words(const char *words)
{
    if (!words)
        return NULL;
    int drain = strcasestr(words, "drain") != NULL;
    if (strcasestr(words, "reboot"))
        return &rows[2];
    if (drain && strcasestr(words, "p2p"))
        return &rows[3];
    if (drain && strcasestr(words, "reset"))
        return &rows[4];
    if (strcasestr(words, "reset"))
        return &rows[1];
    const char *w = words + strspn(words, " \t");
    if (strncasecmp(w, "none", 4) == 0 && (w[4] == '\0' || w[4] == ' ' || w[4] == ')'))
        return &rows[0];
    return NULL;
}

int ls_recovery_words_silent(const char *v)
{
    return !v || !*v || !strcmp(v, "None") || !strcmp(v, "No") || !strcmp(v, "N/A") ||
           !strcmp(v, "Not Supported") || strstr(v, "deprecated") || !strcmp(v, "Unknown Error");
}

const ls_recovery_t *ls_recovery_of_xid154(const char *text)
{
    if (!text)
        return NULL;
    const char *to = strstr(text, " to ");
    if (strncmp(text, "to ", 3) == 0) /* the text from "to" on */
        to = text + 3;
    else if (to)
        to += 4;
    else
        return NULL;
    char *end;
    unsigned long code = strtoul(to, &end, 16); /* "0x1" */
    if (end != to && strncmp(to, "0x", 2) == 0 && ls_recovery_of_code((unsigned)code))
        return ls_recovery_of_code((unsigned)code);
    return ls_recovery_of_words(to);
}
