/* nvloom's figures within one run (import/nvloom.c): a process whose bandwidth, as the
   source, as the destination, or as the GPU a gpu_to_rack row tests, sits below
   LS_DEGRADED_RATIO of the other processes' median in the same testcase is degraded, as
   linkscope's own pairs are against their class (rules_links.c). A process's figure is
   the median of its cells, so one slow peer it was sampled against does not move it. */
#include "rules.h"
#include "tools_rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROCESSES 4096

enum role { AS_SOURCE, AS_DESTINATION, AS_TESTED, NROLES };
static const char *const role_text[NROLES] = {"as the source", "as the destination",
                                              "in its own row"};

typedef struct {
    double *v;
    size_t n, cap;
} vals_t;

static void push(vals_t *a, double x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        double *g = realloc(a->v, cap * sizeof *g);
        if (!g)
            return;
        a->v = g, a->cap = cap;
    }
    a->v[a->n++] = x;
}

/* The process's host from any entry naming it (NULL when the table did not). */
static const char *host_of(const json_t *doc, const char *method, long long p)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "method", ""), method) != 0)
            continue;
        if (ls_json_int(e, "process", -1) == p && ls_json_str(e, "host", NULL))
            return ls_json_str(e, "host", NULL);
        if (ls_json_int(e, "src_process", -1) == p && ls_json_str(e, "src_host", NULL))
            return ls_json_str(e, "src_host", NULL);
        if (ls_json_int(e, "dst_process", -1) == p && ls_json_str(e, "dst_host", NULL))
            return ls_json_str(e, "dst_host", NULL);
    }
    return NULL;
}

/* Each process's cells of one testcase, by role. */
static void collect(const json_t *doc, const char *method, vals_t (*per)[NROLES], long long *maxp)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "family", ""), "mnnvl") ||
            strcmp(ls_json_str(e, "metric", ""), "bandwidth") ||
            strcmp(ls_json_str(e, "method", ""), method) ||
            !json_is_number(json_object_get(e, "value")))
            continue;
        double v = ls_json_num(e, "value", 0);
        long long s = ls_json_int(e, "src_process", -1), d = ls_json_int(e, "dst_process", -1),
                  p = ls_json_int(e, "process", -1);
        const char *pattern = ls_json_str(e, "pattern", "");
        if (!strcmp(pattern, "pairwise") && s >= 0 && d >= 0 && s < MAX_PROCESSES &&
            d < MAX_PROCESSES) {
            push(&per[s][AS_SOURCE], v), push(&per[d][AS_DESTINATION], v);
            *maxp = s > *maxp ? s : *maxp, *maxp = d > *maxp ? d : *maxp;
        } else if ((!strcmp(pattern, "gpu_to_rack") || !strcmp(pattern, "per_process")) && p >= 0 &&
                   p < MAX_PROCESSES) {
            push(&per[p][AS_TESTED], v);
            *maxp = p > *maxp ? p : *maxp;
        }
    }
}

static void judge_role(json_t *out, const json_t *doc, const char *method, vals_t (*per)[NROLES],
                       long long np, int role)
{
    double *meds = calloc((size_t)np, sizeof *meds), *others = calloc((size_t)np, sizeof *others);
    int have = 0;
    for (long long p = 0; meds && others && p < np; p++)
        if (per[p][role].n) {
            meds[p] = ls_median(per[p][role].v, (int)per[p][role].n), have++;
        }
    for (long long p = 0; have > LS_DEGRADED_MIN_PEERS && p < np; p++) {
        if (!per[p][role].n)
            continue;
        size_t m = 0;
        for (long long q = 0; q < np; q++)
            if (q != p && per[q][role].n)
                others[m++] = meds[q];
        double ref = ls_median(others, (int)m), ratio = ref > 0 ? meds[p] / ref : 1;
        if (ratio >= LS_DEGRADED_RATIO)
            continue;
        const char *host = host_of(doc, method, p);
        char subject[160];
        snprintf(subject, sizeof subject, "process %lld%s%s%s", p, host ? " (" : "",
                 host ? host : "", host ? ")" : "");
        ls_finding_add(out, "mnnvl_degraded",
                       ratio < LS_DEGRADED_ERROR_RATIO ? LS_SEV_ERROR : LS_SEV_WARNING,
                       LS_ABOUT_WHAT(subject), NULL,
                       "nvloom %s: %s reaches %.0f%% of the other processes' median %s (%.1f of "
                       "%.1f GB/s): look at "
                       "that GPU's NVLink ports (nvidia-smi nvlink -s and -e on its host)",
                       method, subject, ratio * 100, role_text[role], meds[p], ref);
    }
    free(meds), free(others);
}

void ls_rules_nvloom(const json_t *doc, json_t *out)
{
    json_t *seen = json_array();
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "family", ""), "mnnvl") != 0)
            continue;
        const char *method = ls_json_str(e, "method", "");
        size_t before = json_array_size(seen);
        ls_json_add_string_once(seen, method);
        if (json_array_size(seen) == before)
            continue;
        vals_t(*per)[NROLES] = calloc(MAX_PROCESSES, sizeof *per);
        long long maxp = -1;
        if (!per)
            break;
        collect(doc, method, per, &maxp);
        for (int r = 0; r < NROLES; r++)
            judge_role(out, doc, method, per, maxp + 1, r);
        for (long long p = 0; p <= maxp; p++)
            for (int r = 0; r < NROLES; r++)
                free(per[p][r].v);
        free(per);
    }
    json_decref(seen);
}
