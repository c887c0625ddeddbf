/* Reads a pasted kernel log's NVIDIA driver (NVRM) lines, in the layouts of dmesg,
   dmesg -T, syslog / /var/log/messages and journalctl -k, into the document's top-level
   "kernel_logs" (docs/import.md, docs/schema.md): Xid events, the driver's failure lines
   (a GPU fallen off the bus, RmInitAdapter failed, the probe failed, an API mismatch, a
   GSP timeout), the GPUs the lines name by bus id, the driver version it loaded, the
   NVSwitch driver's SXid lines (sxids[]) and k8s-device-plugin's Xid lines (events[] by
   UUID). */
#ifndef LS_IMPORT_KERNEL_LOG_H
#define LS_IMPORT_KERNEL_LOG_H

#include <jansson.h>
#include <stddef.h>

/* 1 when a line carries an NVRM message ("NVRM: " at a line's start, after a blank, a
   ']', a ':' or /dev/kmsg's ';') or an NVSwitch SXid line. A kernel log without one is not
   read. */
int ls_kernel_log_detect(const char *text);

/* Appends one kernel_logs[] object for the file: the number of Xid events, failure
   records and SXid records kept, or -1 with err. */
int ls_import_kernel_log(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

#endif
