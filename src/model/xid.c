#define _GNU_SOURCE /* strcasestr */
/* The XID catalog (data/xid.tsv, built into the binary) and the driver's Xid lines
   (xid.h). Moved from health/xid.c so that import and analyze read them too. */
#include "xid.h"
#include "recovery.h"

#include "xid_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_XIDS 256

typedef struct {
    int xid;
    char meaning[128];
    enum ls_action action;
    int app; /* the fourth column says "app" */
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

int ls_action_parse(const char *name)
{
    for (int a = LS_ACT_NONE; a <= LS_ACT_ISOLATE; a++)
        if (strcmp(name, action_names[a]) == 0)
            return a;
    return -1;
}

/* One "xid<TAB>meaning<TAB>action[<TAB>bucket]" line; 0, or -1 when it is not one. */
static int parse_row(char *line, xid_row_t *r)
{
    char *tab1 = strchr(line, '\t');
    char *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
    if (!tab2)
        return -1;
    char *tab3 = strchr(tab2 + 1, '\t');
    *tab1 = *tab2 = '\0';
    if (tab3)
        *tab3 = '\0';
    char *end;
    long x = strtol(line, &end, 10);
    int a = ls_action_parse(tab2 + 1);
    if (*end || x <= 0 || a < 0)
        return -1;
    r->xid = (int)x;
    snprintf(r->meaning, sizeof r->meaning, "%s", tab1 + 1);
    r->action = (enum ls_action)a;
    r->app = tab3 && strcmp(tab3 + 1, "app") == 0;
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

static const xid_row_t *row_of(int xid)
{
    if (nrows < 0)
        load_catalog();
    for (int i = 0; i < nrows; i++)
        if (rows[i].xid == xid)
            return &rows[i];
    return NULL;
}

int ls_xid_lookup(int xid, const char **meaning, enum ls_action *action)
{
    const xid_row_t *r = row_of(xid);
    *meaning = r ? r->meaning : NULL;
    *action = r ? r->action : LS_ACT_WATCH;
    return r ? 0 : -1;
}

int ls_xid_is_app(int xid)
{
    const xid_row_t *r = row_of(xid);
    return r && r->app;
}

enum ls_action ls_xid_action(int xid, const char *text)
{
    if (xid == 154) { /* "GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset
                         Required)": the action it changed to (model/recovery.c) */
        const ls_recovery_t *r = ls_recovery_of_xid154(text);
        return r ? r->action : LS_ACT_WATCH;
    }
    /* 63's line names what activates the retirement: "Row Remapper: ... reset gpu to
       activate" (A100 and later), "Dynamic Page Retirement: New page retired, reboot to
       activate" (earlier GPUs: the retired page list is applied when the driver loads). */
    if (xid == 63 && strcasestr(text, "reboot to activate"))
        return LS_ACT_REBOOT;
    const char *meaning;
    enum ls_action a;
    ls_xid_lookup(xid, &meaning, &a);
    return a;
}

/* "pid=1234" / "pid='<unknown>'" and "name=python" at *p, each followed by ", ". */
static void process_fields(const char **p, const char *end, ls_xid_event_t *e)
{
    if (end - *p > 4 && strncmp(*p, "pid=", 4) == 0) {
        const char *v = *p + 4, *comma = memchr(v, ',', (size_t)(end - v));
        if (isdigit((unsigned char)*v))
            e->pid = strtoll(v, NULL, 10);
        *p = comma ? comma + 1 : end;
        while (*p < end && **p == ' ')
            (*p)++;
    }
    if (end - *p > 5 && strncmp(*p, "name=", 5) == 0) {
        const char *v = *p + 5, *comma = memchr(v, ',', (size_t)(end - v));
        size_t n = (size_t)((comma ? comma : end) - v);
        if (n && strncmp(v, "<unknown>", n) != 0)
            snprintf(e->name, sizeof e->name, "%.*s", (int)n, v);
        *p = comma ? comma + 1 : end;
        while (*p < end && **p == ' ')
            (*p)++;
    }
}

/* "PCI:0000:3b:00 GPU-I:05" (the parentheses' content) into bus and instance. */
static void bus_of(const char *open, const char *close, ls_xid_event_t *e)
{
    const char *bus = strncmp(open, "PCI:", 4) == 0 ? open + 4 : open;
    const char *sp = memchr(bus, ' ', (size_t)(close - bus));
    const char *bend = sp ? sp : close;
    if (bend > bus && isxdigit((unsigned char)*bus)) /* "PCI:..." where a post masked it */
        snprintf(e->bus, sizeof e->bus, "%.*s", (int)(bend - bus), bus);
    if (sp)
        snprintf(e->instance, sizeof e->instance, "%.*s", (int)(close - sp - 1), sp + 1);
}

int ls_xid_parse(const char *line, size_t len, ls_xid_event_t *e)
{
    memset(e, 0, sizeof *e);
    e->pid = -1;
    const char *end = line + len;
    const char *x = strstr(line, "NVRM: Xid (");
    if (!x || x >= end)
        return -1;
    const char *open = x + strlen("NVRM: Xid (");
    const char *close = open < end ? memchr(open, ')', (size_t)(end - open)) : NULL;
    if (!close || close + 2 > end || close[1] != ':')
        return -1;
    char *num_end;
    long xid = strtol(close + 2, &num_end, 10);
    if (num_end == close + 2 || num_end > end || xid <= 0 || xid > 100000)
        return -1;
    e->xid = (int)xid;
    bus_of(open, close, e);
    const char *rest = num_end;
    while (rest < end && (*rest == ',' || *rest == ' '))
        rest++;
    snprintf(e->after, sizeof e->after, "%.*s", (int)(end - rest), rest);
    process_fields(&rest, end, e);
    snprintf(e->text, sizeof e->text, "%.*s", (int)(end - rest), rest);
    const char *cause = strstr(e->text, "caused by previous Xid ");
    long cx = cause ? strtol(cause + strlen("caused by previous Xid "), NULL, 10) : 0;
    e->cause_xid = cx > 0 && cx <= 100000 ? (int)cx : 0;
    return 0;
}

void ls_xid_scan(const char *log, json_t *events)
{
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), p);
        ls_xid_event_t e;
        if (ls_xid_parse(line, strlen(line), &e) == 0)
            json_array_append_new(events, json_pack("{s:i, s:s, s:s}", "xid", e.xid, "bus_id",
                                                    e.bus, "text", e.after));
        p = nl ? nl + 1 : NULL;
    }
}
