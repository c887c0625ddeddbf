/* Walking a text one line at a time. */
#ifndef LS_UTIL_LINES_H
#define LS_UTIL_LINES_H

#include <stddef.h>

/* Copies the line at *cursor (without its '\n') into buf, cut at buflen - 1 bytes, and
   moves *cursor past the line's end. 0 when *cursor is at the end of the text, else 1:
   for (const char *p = text; ls_text_line(&p, buf, sizeof buf);) ... */
int ls_text_line(const char **cursor, char *buf, size_t buflen);

/* Past a line's quote marks as posts add them (e-mail or Markdown: "> ", ">> ", "> > ")
   and the blanks around them: the tools read here print no line that starts with '>'. */
const char *ls_skip_quote(const char *s);

#endif
