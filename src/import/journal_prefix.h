/* A process's lines read back from the systemd journal (journalctl -u UNIT, the default
   "short" output and its -o short-precise / short-iso / short-iso-precise forms; syslog's
   /var/log/messages writes the same): "Oct 04 13:19:39 llm sd-webui-forge-start[394]: "
   (--no-hostname: no host) before each line the process printed. */
#ifndef LS_IMPORT_JOURNAL_PREFIX_H
#define LS_IMPORT_JOURNAL_PREFIX_H

#include <stddef.h>

/* The length of the journal prefix at the start of line (its time stamp, its host where
   printed, its "IDENT[PID]: " and one blank after it), 0 when the line has none; the
   host and "IDENT[PID]" into who (may be NULL). A line without a PID after its ident
   ("host kernel: ", the kernel's own lines) has none here: the kernel log's reader reads
   those with their prefix. */
size_t ls_journal_prefix_len(const char *line, char *who, size_t wholen);

/* A copy of text without the journal prefix (malloc'd) where every line with text carries
   one and all of them name one host and one IDENT[PID]: one process's stream; NULL
   otherwise (or out of memory). */
char *ls_strip_journal_prefixes(const char *text);

#endif
