/* The words of the acceptance check against the datasheet, shared by the report's
   section (outline.c) and `linkscope check --spec` (cli/check_spec.c). */
#include "spec_render.h"
#include "model/doc.h"

#include <stdio.h>
#include <string.h>

/* A stored figure as check --spec has always printed it (4 significant digits), or
   "unknown" where it is null or absent. */
static void figure(const json_t *c, const char *key, const char *unit, char *buf, size_t len)
{
    const json_t *v = json_object_get(c, key);
    if (json_is_number(v))
        snprintf(buf, len, "%.4g%s", json_number_value(v), unit);
    else
        snprintf(buf, len, "unknown");
}

static void pcie(const json_t *c, const char *gen, const char *width, char *buf, size_t len)
{
    long long g = ls_json_int(c, gen, 0), w = ls_json_int(c, width, 0);
    if (g > 0 && w > 0)
        snprintf(buf, len, "Gen%lld x%lld", g, w);
    else
        snprintf(buf, len, "unknown");
}

void ls_spec_check_words(const json_t *c, ls_spec_words_t *w)
{
    const char *what = ls_json_str(c, "check", "?");
    w->which = "";
    snprintf(w->what, sizeof w->what, "%s", what);
    if (strcmp(what, "pcie") == 0) {
        pcie(c, "seen_gen", "seen_width", w->seen, sizeof w->seen);
        pcie(c, "spec_gen", "spec_width", w->part, sizeof w->part);
        return;
    }
    if (strcmp(what, "base_mhz") == 0) { /* the clock a burn held against the base clock */
        snprintf(w->what, sizeof w->what, "SM clock under load");
        w->which = "base clock";
        const json_t *seen = json_object_get(c, "seen");
        if (json_is_number(seen))
            snprintf(w->seen, sizeof w->seen, "%.0f MHz", json_number_value(seen));
        else
            snprintf(w->seen, sizeof w->seen, "unknown");
        figure(c, "spec", " MHz", w->part, sizeof w->part);
        return;
    }
    /* sizes in GiB, rates in GB/s */
    int gib = strcmp(what, "memory_gib") == 0, gbps = strcmp(what, "memory_gbps") == 0;
    const char *unit = gib ? " GiB" : gbps ? " GB/s" : "";
    if (gib || gbps)
        snprintf(w->what, sizeof w->what, "%s", gib ? "memory" : "HBM bandwidth");
    figure(c, "seen", unit, w->seen, sizeof w->seen);
    figure(c, "spec", unit, w->part, sizeof w->part);
}

void ls_spec_check_line(const json_t *c, char *buf, size_t len)
{
    ls_spec_words_t w;
    ls_spec_check_words(c, &w);
    snprintf(buf, len, "%s %s (part%s%s %s)", w.what, w.seen, w.which[0] ? "'s " : "", w.which,
             w.part);
}

static void line(ls_buf_t *b, const char *s, int indent, int width)
{
    ls_buf_printf(b, "%*s", indent, "");
    if (width > 0)
        ls_buf_wrap(b, s, indent, indent + 2, width);
    else
        ls_buf_printf(b, "%s\n", s);
}

void ls_spec_tp_text(ls_buf_t *b, const json_t *tp, int ngpus, int width)
{
    const json_t *degrees = json_object_get(tp, "degrees");
    if (json_is_string(json_object_get(tp, "none"))) {
        char why[512];
        snprintf(why, sizeof why, "tensor parallelism: no TP size here (%s)",
                 ls_json_str(tp, "none", ""));
        line(b, why, 0, width);
        return;
    }
    if (!json_is_array(degrees)) {
        char why[512];
        snprintf(why, sizeof why, "tensor parallelism: unknown (%s)",
                 ls_json_str(tp, "error", "the document records no verdict"));
        line(b, why, 0, width);
        return;
    }
    char head[128];
    snprintf(head, sizeof head,
             "tensor parallelism (ring all-reduce, bandwidth term only; %d GPU%s here):", ngpus,
             ngpus == 1 ? "" : "s");
    line(b, head, 0, width);
    size_t i;
    const json_t *d;
    json_array_foreach(degrees, i, d)
        line(b, ls_json_str(d, "line", ""), 2, width);
}

int ls_spec_present(const json_t *doc)
{
    return json_is_object(json_object_get(doc, "spec"));
}

static const json_t *spec_gpus(const json_t *doc)
{
    return json_object_get(json_object_get(doc, "spec"), "gpus");
}

ls_table_t *ls_table_spec_parts(const json_t *doc)
{
    if (!ls_spec_present(doc))
        return NULL;
    static const char *const head[] = {"GPU", "reports as", "part (datasheet row)", "source"};
    ls_table_t *t = ls_table_new("Parts: each GPU identified by its name, else its PCI device id, "
                                 "in "
                                 "linkscope's datasheet (data/gpu-datasheet.tsv)",
                                 4, head);
    size_t i;
    const json_t *g;
    json_array_foreach(spec_gpus(doc), i, g) {
        const char *part = ls_json_str(g, "part", NULL);
        const char *row[] = {ls_json_str(g, "gpu", "?"), ls_json_str(g, "name", ""),
                             part ? part : LS_SPEC_UNKNOWN_PART,
                             part ? ls_json_str(g, "source", "unknown") : "-"};
        ls_table_row(t, row);
    }
    return t;
}

ls_table_t *ls_table_spec_checks(const json_t *doc)
{
    if (!ls_spec_present(doc))
        return NULL;
    static const char *const head[] = {"GPU", "check", "seen", "part is sold as"};
    ls_table_t *t = ls_table_new("Checks against the part (seen: what the document records; "
                                 "unknown: not recorded, or not in the datasheet)",
                                 4, head);
    size_t i, j;
    const json_t *g, *c;
    json_array_foreach(spec_gpus(doc), i, g) {
        json_array_foreach(json_object_get(g, "checks"), j, c) {
            ls_spec_words_t w;
            char part[64];
            ls_spec_check_words(c, &w);
            snprintf(part, sizeof part, "%s%s%s", w.which, w.which[0] ? " " : "", w.part);
            const char *row[] = {ls_json_str(g, "gpu", "?"), w.what, w.seen, part};
            ls_table_row(t, row);
        }
    }
    return t;
}
