/* The SXid catalog (data/sxid.tsv, built into the binary) and the NVSwitch driver's SXid
   lines of a kernel log, read by import (import/kernel_log.c, import/fabric_manager.c), its
   plan rule sxid (analyze/rules_fabric.c) and linkscope health's rule sxid (the live or
   recorded kernel log, health/rules_fabric.c): one parser, one decision for both. */
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

/* e as an event record {switch, bus_id, sxid, fatal?, link?, text}: bus_id in the run
   document's form where it reads as one ("00000000:c5:00.0"), else as printed; fatal
   absent where the line says neither (a follow-up line). NULL when the switch's name or
   bus is not UTF-8. */
json_t *ls_sxid_record(const ls_sxid_event_t *e);

/* 1 when e is a follow-up line ("Severity N ...", "Data {...}") of the event record last
   (NULL: none): the same SXid on the same switch, folded into it, not counted again. */
int ls_sxid_folds(const ls_sxid_event_t *e, const json_t *last);

/* The action of one event record {sxid, fatal?} (import's sxids[], ls_sxid_scan's):
   ls_sxid_action with the line's own word, "fatal" absent being neither. linkscope plan's
   rule sxid and linkscope health's take each event's action here, so both agree. */
enum ls_action ls_sxid_event_action(const json_t *e);

/* SXid events of a kernel log text: appends one ls_sxid_record per NVSwitch SXid line,
   the follow-up lines folded (ls_sxid_folds), as import reads a pasted log. */
void ls_sxid_scan(const char *log, json_t *events);

#endif
