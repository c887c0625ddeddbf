/* The SXid catalog (data/sxid.tsv, built into the binary) and the NVSwitch driver's SXid
   lines of a kernel log, read by import (import/kernel_log.c, import/fabric_manager.c) and
   its plan rule sxid (analyze/rules_fabric.c). */
#ifndef LS_MODEL_SXID_H
#define LS_MODEL_SXID_H

#include "xid.h"

#include <stddef.h>

/* Severity of an SXid: what its line says, else the catalog's. */
enum ls_sxid_severity { LS_SXID_UNKNOWN, LS_SXID_NON_FATAL, LS_SXID_FATAL };

/* meaning/severity/action of one SXid from the catalog: 0, or -1 (NULL, unknown, watch)
   when the catalog does not have it. */
int ls_sxid_lookup(int sxid, const char **meaning, enum ls_sxid_severity *sev,
                   enum ls_action *action);

/* The action of an event whose line says sev (LS_SXID_UNKNOWN: it says neither): fatal ->
   reboot, non-fatal -> watch, unknown -> the catalog's. */
enum ls_action ls_sxid_action(int sxid, enum ls_sxid_severity sev);

/* One "nvidia-nvswitch3: SXid (PCI:0000:c5:00.0): 20034, Fatal, Link 24 LTSSM Fault Up"
   line, as the NVSwitch driver prints it; the same SXid's follow-up lines ("..., 20034,
   Severity 5 Engine instance 00 ...", "..., 20034, Data {0x...}") are detail lines. */
typedef struct {
    char device[24]; /* "nvidia-nvswitch3" */
    char bus[32];    /* as printed ("0000:c5:00.0") */
    int sxid;
    enum ls_sxid_severity severity; /* the line's word; UNKNOWN on detail lines */
    int link;                       /* "Link 24", else -1 */
    int detail;                     /* a "Severity N ..." or "Data {...}" line */
    char text[256];                 /* after "N, " */
    size_t prefix_len;              /* where "nvidia-nvswitch" starts in the line */
} ls_sxid_event_t;

/* Parses the SXid line: 0, or -1 when the line has none or its number is cut. */
int ls_sxid_parse(const char *line, ls_sxid_event_t *e);

#endif
