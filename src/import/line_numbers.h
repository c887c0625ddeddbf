/* Pastes copied from an editor or `cat -n` carry a line number before every line
   ("  1 P2P=Disabled Latency Matrix (us)", "     2\tGPU 0 1"). */
#ifndef LS_IMPORT_LINE_NUMBERS_H
#define LS_IMPORT_LINE_NUMBERS_H

/* A copy of text without the numbers (malloc'd) when every non-empty line starts with
   a number one above the previous line's; NULL otherwise (or out of memory). */
char *ls_strip_line_numbers(const char *text);

/* What every reader reads: text without an editor's line numbers, then without the
   tags a launcher put before each line (ls_strip_worker_prefixes), then without the
   systemd journal's prefix where every line carries one of one process
   (ls_strip_journal_prefixes; not where Fabric Manager's reader reads the journal's lines
   itself); a malloc'd copy, or NULL when text has none of them. */
char *ls_import_plain_text(const char *text);

#endif
