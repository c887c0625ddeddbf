/* The run's pair rounds (rounds.h). */
#include "rounds.h"
#include "measure/family.h"
#include "model/concurrency.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

/* The fabric of the run's GPUs: rows and groups of the machine's, by index into gpus. */
static int restrict_fabric(const ls_fabric_t *all, const int *gpus, int n, ls_fabric_t *f)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->type = calloc((size_t)n * (size_t)n, sizeof *f->type);
    f->pix_group = calloc((size_t)n, sizeof *f->pix_group);
    f->complex_group = calloc((size_t)n, sizeof *f->complex_group);
    if (!f->type || !f->pix_group || !f->complex_group)
        return -1;
    for (int x = 0; x < n; x++) {
        if (gpus[x] < 0 || gpus[x] >= all->n)
            return -1;
        /* group ids name a switch (tree) by its lowest GPU: kept as they are */
        f->pix_group[x] = all->pix_group[gpus[x]];
        f->complex_group[x] = all->complex_group[gpus[x]];
        for (int y = 0; y < n; y++)
            f->type[x * n + y] = all->type[gpus[x] * all->n + gpus[y]];
    }
    return 0;
}

static int pair_class(const ls_run_rounds_t *r, int a, int b)
{
    int t = (int)r->fabric.type[a * r->fabric.n + b];
    return t >= 0 && t <= LS_LINK_SYS ? t : LS_LINK_NONE;
}

/* The scheduler's rounds, with the pairs of a serial class each put in a round alone. */
static int make_rounds(ls_run_rounds_t *r)
{
    ls_schedule_t s;
    if (ls_schedule_pairs(&r->fabric, 0, &s) != 0)
        return -1;
    int np = 0, nr = 0, alone[LS_RUN_MAX_PAIRS][2], nalone = 0;
    for (int i = 0; i < s.nrounds; i++) {
        int first = np;
        for (int k = 0; k < s.rounds[i].npairs; k++) {
            ls_pair_t p = s.rounds[i].pairs[k];
            if (r->serial_class[pair_class(r, p.a, p.b)]) {
                alone[nalone][0] = p.a;
                alone[nalone++][1] = p.b;
                continue;
            }
            r->pair_a[np] = p.a;
            r->pair_b[np++] = p.b;
        }
        if (np > first)
            r->round_start[nr++] = first;
    }
    for (int k = 0; k < nalone; k++) {
        r->round_start[nr++] = np;
        r->pair_a[np] = alone[k][0];
        r->pair_b[np++] = alone[k][1];
    }
    r->round_start[nr] = np;
    r->nrounds = nr;
    ls_schedule_free(&s);
    return 0;
}

int ls_run_rounds_init(ls_run_rounds_t *r, const json_t *doc, const int *gpus, int n)
{
    memset(r, 0, sizeof *r);
    ls_topo_t *topo = calloc(1, sizeof *topo);
    ls_fabric_t all;
    int ok = topo && ls_topo_from_doc(doc, topo) == 0 && topo->ngpus > 0 &&
             ls_fabric_from_topo(topo, &all) == 0;
    for (int x = 0; ok && x < n; x++) {
        const char *w = gpus[x] >= 0 && gpus[x] < topo->ngpus ? topo->numa_affinity[gpus[x]] : "";
        char *end;
        long v = strtol(w, &end, 10);
        r->numa[x] = end != w && *end == '\0' && v >= 0 ? (int)v : -1;
    }
    free(topo);
    if (!ok)
        return -1;
    ok = restrict_fabric(&all, gpus, n, &r->fabric) == 0 && make_rounds(r) == 0;
    ls_fabric_free(&all);
    if (!ok) {
        ls_run_rounds_free(r);
        return -1;
    }
    r->have = 1;
    return 0;
}

void ls_run_rounds_free(ls_run_rounds_t *r)
{
    if (r->fabric.type)
        ls_fabric_free(&r->fabric);
    memset(r, 0, sizeof *r);
}

void ls_run_rounds_apply(const ls_run_rounds_t *r, ls_measure_opts_t *o)
{
    o->nrounds = r->have ? r->nrounds : 0;
    o->round_start = r->round_start;
    o->pair_a = r->pair_a;
    o->pair_b = r->pair_b;
}

static json_t *entry_by_id(json_t *doc, const char *id, size_t *index)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e)
        if (strcmp(ls_json_str(e, "id", ""), id) == 0) {
            *index = i;
            return e;
        }
    return NULL;
}

/* The copy-engine figures of the given pairs, each alone, into a new document. */
static json_t *measure_alone(const ls_measure_opts_t *o, const int *pa, const int *pb, int n)
{
    int start[LS_RUN_MAX_PAIRS + 1];
    for (int k = 0; k <= n; k++)
        start[k] = k;
    ls_measure_opts_t a = *o;
    a.methods = LS_P2P_CE;
    a.nrounds = n;
    a.round_start = start;
    a.pair_a = pa;
    a.pair_b = pb;
    json_t *scratch = ls_doc_new();
    char err[256];
    if (scratch)
        ls_family_measure(ls_family_find(LS_FAMILY_P2P), scratch, &a, err, sizeof err);
    return scratch;
}

/* Attaches the check to each concurrent entry of the pair; 1 when one is lower. */
static int compare_alone(json_t *doc, json_t *alone)
{
    int lower = 0;
    size_t i, at;
    json_t *e;
    json_array_foreach(json_object_get(alone, "measurements"), i, e) {
        json_t *conc = entry_by_id(doc, ls_json_str(e, "id", ""), &at);
        json_t *check = conc ? ls_concurrency_check(conc, e) : NULL;
        if (!check)
            continue;
        lower |= json_is_true(json_object_get(check, "lower"));
        json_object_set_new(conc, "concurrency_check", check);
    }
    return lower;
}

/* The pairs of class c measured again one at a time; their entries replace the
   concurrent ones (the check kept on the entry that had it). */
static void class_serial(ls_run_rounds_t *r, json_t *doc, const ls_measure_opts_t *o, int c)
{
    int pa[LS_RUN_MAX_PAIRS], pb[LS_RUN_MAX_PAIRS], n = 0;
    for (int k = 0; k < r->round_start[r->nrounds]; k++)
        if (pair_class(r, r->pair_a[k], r->pair_b[k]) == c) {
            pa[n] = r->pair_a[k];
            pb[n++] = r->pair_b[k];
        }
    ls_warn("%s pairs share a path: measured one at a time", ls_link_class((enum ls_link_type)c));
    json_t *serial = measure_alone(o, pa, pb, n);
    size_t i, at;
    json_t *e;
    json_array_foreach(json_object_get(serial, "measurements"), i, e) {
        json_t *old = entry_by_id(doc, ls_json_str(e, "id", ""), &at);
        if (!old)
            continue;
        json_t *check = json_object_get(old, "concurrency_check");
        if (check)
            json_object_set(e, "concurrency_check", check);
        json_array_set(json_object_get(doc, "measurements"), at, e);
    }
    json_decref(serial);
}

int ls_run_rounds_make_serial(ls_run_rounds_t *r, int c)
{
    if (c < 0 || c > LS_LINK_SYS)
        return -1;
    r->serial_class[c] = 1;
    return r->have ? make_rounds(r) : 0;
}

int ls_run_rounds_check(ls_run_rounds_t *r, json_t *doc, const ls_measure_opts_t *o)
{
    if (!r->have)
        return 0;
    int fell_back = 0;
    for (int c = LS_LINK_NONE; c <= LS_LINK_SYS; c++) {
        int found = -1;
        for (int i = 0; i < r->nrounds && found < 0; i++)
            for (int k = r->round_start[i]; k < r->round_start[i + 1] && found < 0; k++)
                if (r->round_start[i + 1] - r->round_start[i] > 1 &&
                    pair_class(r, r->pair_a[k], r->pair_b[k]) == c)
                    found = k;
        if (found < 0)
            continue;
        json_t *alone = measure_alone(o, &r->pair_a[found], &r->pair_b[found], 1);
        int lower = alone && compare_alone(doc, alone);
        json_decref(alone);
        if (!lower)
            continue;
        class_serial(r, doc, o, c);
        ls_run_rounds_make_serial(r, c);
        fell_back++;
    }
    return fell_back;
}
