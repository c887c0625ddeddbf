/* Untrusted text (names and words read from other tools' logs and from run documents)
   made harmless, once at the boundary where it enters and once per output format at
   the point where it leaves (docs/safety.md). */
#ifndef LS_UTIL_SANITIZE_H
#define LS_UTIL_SANITIZE_H

#include <stddef.h>

/* In place: removes terminal escape sequences (CSI "ESC [", OSC "ESC ]" up to BEL or
   ST, DCS/SOS/PM/APC strings, two-byte escapes), C0 controls and DEL (a tab, newline
   or carriage return becomes a space), C1 controls (U+0080..U+009F) and bytes that are
   not valid UTF-8. Returns the new length. */
size_t ls_sanitize_text(char *s);

/* The same for a line of a table whose columns are tab-separated: tabs kept. */
size_t ls_sanitize_line(char *s);

/* 1 when ls_sanitize_text would change s. */
int ls_text_needs_sanitize(const char *s);

/* Terminal: s with every control character (C0, DEL, C1) shown as \xNN, into out
   (always NUL-terminated, truncated to outlen). Returns out. */
char *ls_term_escape(const char *s, char *out, size_t outlen);

/* The same, colour sequences (SGR: ESC [ digits m) kept: for table cells, where the
   heatmap puts its own colours; text from a log or document never carries one, the
   boundary sanitizer having removed every escape. */
char *ls_term_escape_keep_colour(const char *s, char *out, size_t outlen);

/* CSV: 1 when a spreadsheet would read the cell as a formula (OWASP's rule: it starts
   with =, +, -, @, a tab or a carriage return); the writer then prefixes a single
   quote. A plain number ("-3.5") is data, not a formula, and is left alone. */
int ls_csv_is_formula(const char *s);

/* Markdown table cell: &, <, > as HTML entities, | as \|, "](" as "]\(" (a name never
   makes a live link or image), newlines as spaces, control characters dropped, into out
   (NUL-terminated, truncated). Returns out. */
char *ls_md_escape(const char *s, char *out, size_t outlen);

#endif
