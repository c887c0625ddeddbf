#include "lines.h"

#include <string.h>

int ls_text_line(const char **cursor, char *buf, size_t buflen)
{
    const char *line = *cursor;
    if (!*line)
        return 0;
    size_t n = strcspn(line, "\n");
    size_t keep = n < buflen - 1 ? n : buflen - 1;
    memcpy(buf, line, keep);
    buf[keep] = '\0';
    *cursor = line + n + (line[n] == '\n');
    return 1;
}

const char *ls_skip_quote(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '>')
        s++;
    return s;
}
