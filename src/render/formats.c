/* The registry of report formats (format.h): every format, in the order the usage
   lists them, and their names for a command's usage, its refusals and the completion
   of --format. A new format is its file and one line here (docs/design.md). */
#include "format.h"

#include <stdio.h>

const ls_format_t *const ls_formats[] = {
    &ls_format_term, &ls_format_md, &ls_format_html, &ls_format_csv, &ls_format_json,
    &ls_format_prom, NULL,
};

const char *const *ls_format_names(void)
{
    static const char *names[16];
    static int n;
    for (; !names[n] && ls_formats[n] && n < 15; n++)
        names[n] = ls_formats[n]->name;
    return names;
}

const char *ls_format_names_joined(const char *sep, const char *last)
{
    static char text[256];
    const char *const *names = ls_format_names();
    size_t used = 0;
    for (int i = 0; names[i] && used < sizeof text; i++) {
        const char *before = i == 0 ? "" : names[i + 1] ? sep : last;
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", before, names[i]);
    }
    return text;
}
