/* The XID catalog (data/xid.tsv, built into the binary) and the kernel log's NVRM Xid
   lines. */
#include "health.h"

#include "xid_text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_XIDS 256

typedef struct {
    int xid;
    char meaning[128];
    enum ls_action action;
} xid_row_t;

static xid_row_t rows[MAX_XIDS];
static int nrows = -1;

static const char *const action_names[] = {
    [LS_ACT_NONE] = "none",     [LS_ACT_WATCH] = "watch",     [LS_ACT_RESET] = "reset",
    [LS_ACT_REBOOT] = "reboot", [LS_ACT_ISOLATE] = "isolate",
};

const char *ls_action_name(enum ls_action a)
{
    return a <= LS_ACT_ISOLATE ? action_names[a] : "unknown";
}

void ls_health_add(json_t *out, const char *rule, int gpu, enum ls_action a, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *f = json_pack("{s:s, s:s, s:s}", "rule", rule, "message", msg, "action",
                          ls_action_name(a));
    if (gpu >= 0)
        json_object_set_new(f, "gpu", json_integer(gpu));
    json_array_append_new(out, f);
}

int ls_action_parse(const char *name)
{
    for (int a = LS_ACT_NONE; a <= LS_ACT_ISOLATE; a++)
        if (strcmp(name, action_names[a]) == 0)
            return a;
    return -1;
}

/* One "xid<TAB>meaning<TAB>action" line; 0, or -1 when it is not one. */
static int parse_row(char *line, xid_row_t *r)
{
    char *tab1 = strchr(line, '\t');
    char *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
    if (!tab2)
        return -1;
    *tab1 = *tab2 = '\0';
    char *end;
    long x = strtol(line, &end, 10);
    int a = ls_action_parse(tab2 + 1);
    if (*end || x <= 0 || a < 0)
        return -1;
    r->xid = (int)x;
    snprintf(r->meaning, sizeof r->meaning, "%s", tab1 + 1);
    r->action = (enum ls_action)a;
    return 0;
}

static void load_catalog(void)
{
    char *text = strdup(ls_xid_tsv), *save = NULL;
    nrows = 0;
    for (char *line = strtok_r(text, "\n", &save); line && nrows < MAX_XIDS;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !line[0])
            continue;
        if (parse_row(line, &rows[nrows]) == 0)
            nrows++;
    }
    free(text);
}

int ls_xid_lookup(int xid, const char **meaning, enum ls_action *action)
{
    if (nrows < 0)
        load_catalog();
    for (int i = 0; i < nrows; i++)
        if (rows[i].xid == xid) {
            *meaning = rows[i].meaning;
            *action = rows[i].action;
            return 0;
        }
    *meaning = NULL;
    *action = LS_ACT_WATCH;
    return -1;
}

/* "NVRM: Xid (PCI:0000:19:00): 79, pid=..., GPU has fallen off the bus." (the driver's
   form; older drivers print "Xid (0000:01:00): 3, ..."). */
static void scan_line(const char *line, size_t len, json_t *events)
{
    const char *x = strstr(line, "NVRM: Xid (");
    if (!x || (size_t)(x - line) >= len)
        return;
    const char *open = x + strlen("NVRM: Xid (");
    const char *close = memchr(open, ')', len - (size_t)(open - line));
    if (!close || close[1] != ':')
        return;
    const char *bus = strncmp(open, "PCI:", 4) == 0 ? open + 4 : open;
    char *end;
    long xid = strtol(close + 2, &end, 10);
    if (end == close + 2 || xid <= 0)
        return;
    char busid[32], text[256];
    snprintf(busid, sizeof busid, "%.*s", (int)(close - bus), bus);
    const char *rest = end;
    while (*rest == ',' || *rest == ' ')
        rest++;
    size_t restlen = len - (size_t)(rest - line);
    snprintf(text, sizeof text, "%.*s", (int)(restlen < 255 ? restlen : 255), rest);
    json_array_append_new(events, json_pack("{s:i, s:s, s:s}", "xid", (int)xid, "bus_id", busid,
                                            "text", text));
}

void ls_xid_scan(const char *log, json_t *events)
{
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), p);
        scan_line(line, strlen(line), events);
        p = nl ? nl + 1 : NULL;
    }
}
