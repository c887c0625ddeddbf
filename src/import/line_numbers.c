#include "line_numbers.h"
#include "import_util.h"
#include "fabric_manager.h"
#include "journal_prefix.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The number at the start of line p and where the text after it begins (one blank or
   tab after the number is part of the prefix); 0 when the line has none. */
static int leading_number(const char *p, long *num, const char **after)
{
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p))
        return 0;
    char *end;
    *num = strtol(p, &end, 10);
    if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\r' && *end != '\0')
        return 0;
    *after = (*end == ' ' || *end == '\t') ? end + 1 : end;
    return 1;
}

/* Every line numbered, each number one above the last, at least three lines. */
static int numbered(const char *text)
{
    long prev = 0, num;
    int lines = 0;
    const char *after;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        if (!leading_number(p, &num, &after) ||
            (lines > 0 && (prev == LONG_MAX || num != prev + 1))) /* 9223372036854775807 */
            return 0;
        prev = num;
        lines++;
        if (!nl)
            break;
        p = nl + 1;
    }
    return lines >= 3;
}

char *ls_strip_line_numbers(const char *text)
{
    if (!numbered(text))
        return NULL;
    char *out = malloc(strlen(text) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = text; *p;) {
        long num;
        const char *after = p;
        leading_number(p, &num, &after);
        const char *nl = strchr(after, '\n');
        size_t len = nl ? (size_t)(nl - after) + 1 : strlen(after);
        memcpy(o, after, len);
        o += len;
        if (!nl)
            break;
        p = nl + 1;
    }
    *o = '\0';
    return out;
}

/* text without a consistent journal prefix (ls_strip_journal_prefixes), where no reader
   reads journal lines itself: Fabric Manager's takes its service's host from them. A
   malloc'd copy, or NULL when nothing was taken off. */
static char *without_journal(const char *text)
{
    if (ls_fabric_manager_detect(text))
        return NULL;
    return ls_strip_journal_prefixes(text);
}

char *ls_import_plain_text(const char *text)
{
    char *plain = ls_strip_line_numbers(text);
    char *bare = ls_strip_worker_prefixes(plain ? plain : text);
    if (bare) {
        free(plain);
        plain = bare;
    }
    char *unjournaled = without_journal(plain ? plain : text);
    if (!unjournaled)
        return plain;
    free(plain);
    return unjournaled;
}
