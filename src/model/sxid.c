/* The SXid catalog (data/sxid.tsv) and the NVSwitch driver's SXid lines (sxid.h). */
#include "sxid.h"

#include "busid.h"
#include "sxid_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SXIDS 256

typedef struct {
    int sxid;
    char meaning[96];
    enum ls_sxid_severity severity;
    enum ls_action action;
} sxid_row_t;

static sxid_row_t rows[MAX_SXIDS];
static int nrows = -1;

/* One "sxid<TAB>meaning<TAB>severity<TAB>action" line; 0, or -1 when it is not one. */
static int parse_row(char *line, sxid_row_t *r)
{
    char *f[4] = {line, NULL, NULL, NULL};
    for (int i = 1; i < 4; i++) {
        f[i] = strchr(f[i - 1], '\t');
        if (!f[i])
            return -1;
        *f[i]++ = '\0';
    }
    char *end;
    long x = strtol(f[0], &end, 10);
    int a = ls_action_parse(f[3]);
    if (*end || x <= 0 || a < 0)
        return -1;
    r->sxid = (int)x;
    snprintf(r->meaning, sizeof r->meaning, "%s", f[1]);
    r->severity = !strcmp(f[2], "fatal")       ? LS_SXID_FATAL
                  : !strcmp(f[2], "non-fatal") ? LS_SXID_NON_FATAL
                                               : LS_SXID_UNKNOWN;
    r->action = (enum ls_action)a;
    return 0;
}

static void load_catalog(void)
{
    char *text = strdup(ls_sxid_tsv), *save = NULL;
    nrows = 0;
    for (char *line = strtok_r(text, "\n", &save); line && nrows < MAX_SXIDS;
         line = strtok_r(NULL, "\n", &save))
        if (line[0] != '#' && parse_row(line, &rows[nrows]) == 0)
            nrows++;
    free(text);
}

int ls_sxid_lookup(int sxid, const char **meaning, enum ls_sxid_severity *sev,
                   enum ls_action *action)
{
    if (nrows < 0)
        load_catalog();
    for (int i = 0; i < nrows; i++)
        if (rows[i].sxid == sxid) {
            *meaning = rows[i].meaning;
            *sev = rows[i].severity;
            *action = rows[i].action;
            return 0;
        }
    *meaning = NULL;
    *sev = LS_SXID_UNKNOWN;
    *action = LS_ACT_WATCH;
    return -1;
}

enum ls_action ls_sxid_action(int sxid, enum ls_sxid_severity sev)
{
    const char *meaning;
    enum ls_sxid_severity cat;
    enum ls_action a;
    ls_sxid_lookup(sxid, &meaning, &cat, &a);
    if (sev == LS_SXID_UNKNOWN)
        sev = cat;
    /* the Fabric Manager guide: a fatal NVSwitch error stops the fabric until the GPUs and
       NVSwitches are reset together (a node-wide step); a non-fatal one is corrected */
    return sev == LS_SXID_FATAL ? LS_ACT_REBOOT : sev == LS_SXID_NON_FATAL ? LS_ACT_WATCH : a;
}

/* ", Fatal, Link 24 ..." / ", Non-fatal, Link 33 ..." / "Severity 5 ..." / "Data {" */
static void read_rest(const char *rest, ls_sxid_event_t *e)
{
    e->link = -1;
    if (!strncmp(rest, "Fatal", 5))
        e->severity = LS_SXID_FATAL;
    else if (!strncasecmp(rest, "Non-fatal", 9) || !strncasecmp(rest, "Nonfatal", 8))
        e->severity = LS_SXID_NON_FATAL;
    e->detail = !strncmp(rest, "Severity ", 9) || !strncmp(rest, "Data {", 6);
    const char *l = strstr(rest, "Link ");
    if (l && isdigit((unsigned char)l[5]))
        e->link = atoi(l + 5);
    snprintf(e->text, sizeof e->text, "%s", rest);
}

int ls_sxid_parse(const char *line, ls_sxid_event_t *e)
{
    memset(e, 0, sizeof *e);
    const char *dev = strstr(line, "nvidia-nvswitch");
    const char *s = dev ? strstr(dev, ": SXid (") : NULL;
    if (!s)
        return -1;
    e->prefix_len = (size_t)(dev - line);
    snprintf(e->device, sizeof e->device, "%.*s", (int)(s - dev < 23 ? s - dev : 23), dev);
    const char *open = s + 8, *close = strchr(open, ')');
    if (!close || close[1] != ':')
        return -1;
    const char *bus = strncmp(open, "PCI:", 4) == 0 ? open + 4 : open;
    snprintf(e->bus, sizeof e->bus, "%.*s", (int)(close - bus < 31 ? close - bus : 31), bus);
    char *end;
    long n = strtol(close + 2, &end, 10);
    if (end == close + 2 || n <= 0 || n > 100000)
        return -1;
    e->sxid = (int)n;
    while (*end == ',' || *end == ' ')
        end++;
    read_rest(end, e);
    return 0;
}

/* e's bus in the document's form, else as printed. */
static void record_bus(const ls_sxid_event_t *e, char *bus, size_t len)
{
    if (ls_busid_normalize(e->bus, bus, len) != 0)
        snprintf(bus, len, "%s", e->bus);
}

json_t *ls_sxid_record(const ls_sxid_event_t *e)
{
    char bus[32];
    record_bus(e, bus, sizeof bus);
    json_t *o = json_pack("{s:s, s:s, s:i}", "switch", e->device, "bus_id", bus, "sxid", e->sxid);
    if (!o)
        return NULL;
    if (e->severity != LS_SXID_UNKNOWN)
        json_object_set_new(o, "fatal", json_boolean(e->severity == LS_SXID_FATAL));
    if (e->link >= 0)
        json_object_set_new(o, "link", json_integer(e->link));
    json_object_set_new(o, "text", json_string(e->text));
    return o;
}

int ls_sxid_folds(const ls_sxid_event_t *e, const json_t *last)
{
    char bus[32];
    record_bus(e, bus, sizeof bus);
    const char *last_bus = json_string_value(json_object_get(last, "bus_id"));
    return e->detail && last && json_integer_value(json_object_get(last, "sxid")) == e->sxid &&
           last_bus && strcmp(last_bus, bus) == 0;
}

enum ls_action ls_sxid_event_action(const json_t *e)
{
    const json_t *fatal = json_object_get(e, "fatal");
    enum ls_sxid_severity sev = !fatal                ? LS_SXID_UNKNOWN
                                : json_is_true(fatal) ? LS_SXID_FATAL
                                                      : LS_SXID_NON_FATAL;
    return ls_sxid_action((int)json_integer_value(json_object_get(e, "sxid")), sev);
}

void ls_sxid_scan(const char *log, json_t *events)
{
    json_t *last = NULL;
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), p);
        ls_sxid_event_t e;
        json_t *r = ls_sxid_parse(line, &e) == 0 && !ls_sxid_folds(&e, last) ? ls_sxid_record(&e)
                                                                             : NULL;
        if (r) { /* NULL also for a switch name that is not UTF-8 (a live kernel log's bytes) */
            json_array_append_new(events, r);
            last = r;
        }
        p = nl ? nl + 1 : NULL;
    }
}
