/* The XID catalog (data/xid.tsv, built into the binary) and the NVIDIA driver's Xid lines
   of a kernel log, shared by linkscope health (the live kernel log) and linkscope import
   (a pasted one, import/kernel_log.c) with its plan rule (analyze/rules_kernel.c). */
#ifndef LS_MODEL_XID_H
#define LS_MODEL_XID_H

#include <jansson.h>
#include <stddef.h>

/* Action classes, mildest first: what a scheduler should do with the node. */
enum ls_action { LS_ACT_NONE, LS_ACT_WATCH, LS_ACT_RESET, LS_ACT_REBOOT, LS_ACT_ISOLATE };
const char *ls_action_name(enum ls_action a);
/* LS_ACT_* of a name, or -1. */
int ls_action_parse(const char *name);

/* meaning/action of one XID from the catalog: 0, or -1 with NULL / LS_ACT_WATCH when the
   catalog does not have it. */
int ls_xid_lookup(int xid, const char **meaning, enum ls_action *action);
/* 1 when the catalog puts the XID in the application bucket (NVIDIA's investigatory
   action: check the application; 13, 31, 43): an application's fault, not the node's. */
int ls_xid_is_app(int xid);
/* The action of one event: the catalog's, except Xid 154, which names the recovery it
   wants in its text ("... to 0x1 (GPU Reset Required)", "Node Reboot Required"). */
enum ls_action ls_xid_action(int xid, const char *text);

/* One "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, TEXT" line, as the driver
   prints it (src/nvidia/src/kernel/gpu/rc/kernel_rc.c of open-gpu-kernel-modules):
   "PCI:" absent on old drivers, " GPU-I:05 GPU-CI:01" after the bus on a MIG instance,
   pid and name absent when the error has no process, "pid='<unknown>', name=<unknown>"
   when the driver could not tell, " caused by previous Xid N" after Xid 45's text. */
typedef struct {
    int xid;
    char bus[32];      /* as printed ("0000:3b:00"); "" when not a bus id ("PCI:...") */
    char instance[32]; /* "GPU-I:05 GPU-CI:01" on a MIG instance, else "" */
    long long pid;     /* -1 when not printed or unknown */
    char name[64];     /* the process name; "" when not printed or unknown */
    char after[256];   /* everything after "N, " (pid and name included): health's text */
    char text[256];    /* the message after pid and name */
    int cause_xid;     /* N of "caused by previous Xid N", else 0 */
} ls_xid_event_t;

/* Parses the Xid line in line[0..len) (anywhere after "NVRM: "): 0, or -1 when there is
   none or its number is cut. */
int ls_xid_parse(const char *line, size_t len, ls_xid_event_t *e);

/* XID events of a kernel log text: appends {xid, bus_id, text} per NVRM Xid line. */
void ls_xid_scan(const char *log, json_t *events);

#endif
