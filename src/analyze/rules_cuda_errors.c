/* cuda_error (cuda_rules.h): the severity and node action are the catalog's row's
   (data/cuda-errors.tsv: application errors info with node action none, the GPU's ECC or
   NVLink error reset, the fabric not up isolate, a user-mode driver and kernel module
   that differ reboot, a driver or device the text cannot blame on the node or the
   container error without a node action); an error not in the catalog is a warning
   with its text and no node action: unknown stays unknown. */
#include "cuda_rules.h"
#include "rules.h"

#include "model/cuda_errors.h"
#include "model/doc.h"
#include "model/xid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The group of a record: its error (code, else text) and GPU; the records' counts summed,
   their ranks listed, the first one kept. */
static json_t *group_of(json_t *groups, const json_t *e)
{
    char key[256];
    snprintf(key, sizeof key, "%lld|%s|%lld", ls_json_int(e, "code", -1),
             json_object_get(e, "code") ? "" : ls_json_str(e, "text", ""),
             ls_json_int(e, "gpu", -1));
    json_t *index = json_object_get(groups, "index"), *g = json_object_get(index, key);
    if (g)
        return g;
    g = json_pack("{s:O, s:i, s:[]}", "first", e, "count", 0, "ranks");
    json_object_set_new_nocheck(index, key, g); /* a key of any bytes */
    json_array_append(json_object_get(groups, "list"), g);
    return g;
}

static void add_rank(json_t *g, const json_t *e)
{
    if (!json_object_get(e, "rank"))
        return;
    json_t *ranks = json_object_get(g, "ranks");
    long long r = ls_json_int(e, "rank", -1);
    size_t i;
    const json_t *x;
    json_array_foreach(ranks, i, x) {
        if (json_integer_value(x) == r)
            return;
    }
    json_array_append_new(ranks, json_integer(r));
}

/* "rank 1", "ranks 0, 3 and 2 more", nothing. */
static void put_ranks(ls_text_t *t, const json_t *ranks)
{
    size_t n = json_array_size(ranks), i;
    const json_t *x;
    json_array_foreach(ranks, i, x) {
        if (i == 4) {
            ls_text_put(t, " and %zu more", n - 4);
            break;
        }
        ls_text_put(t, "%s%lld", i ? ", " : n > 1 ? ", ranks " : ", rank ", json_integer_value(x));
    }
}

/* "CUDA error 802 cudaErrorSystemNotReady ('system not yet initialized')", or the text
   of an error the catalog does not have. */
static void put_error(ls_text_t *t, const json_t *e, const ls_cuda_error_t *row)
{
    if (row) {
        ls_text_put(t, "CUDA error %d %s ('%s')", row->code,
                    row->runtime[0] ? row->runtime : row->driver, row->string);
        return;
    }
    const char *name = ls_json_str(e, "name", NULL);
    ls_text_put(t, "CUDA error");
    if (json_object_get(e, "code"))
        ls_text_put(t, " %lld", ls_json_int(e, "code", 0));
    if (name)
        ls_text_put(t, " %s", name);
    else
        ls_text_put(t, " '%.120s'", ls_json_str(e, "text", ""));
    ls_text_put(t, " (not in linkscope's CUDA error catalog, data/cuda-errors.tsv)");
}

/* The catalog's explanation and what it says of the node. */
static void put_meaning(ls_text_t *t, const ls_cuda_error_t *row)
{
    if (!row) {
        ls_text_put(t,
                    ". What it means is not in the text: the program's log around it, `nvidia-smi` "
                    "and `dmesg` (an Xid) tell whether the GPU is at fault; no node action");
        return;
    }
    ls_text_put(t, ". Means: %s. Likely: %s. Next: %s", row->meaning, row->cause, row->next);
    if (!strcmp(row->cls, "application"))
        ls_text_put(t,
                    ". The program's error, not the node's: no action on the node (where a kernel "
                    "log of the same paste shows a hardware Xid, its finding says so)");
    else if (row->action >= 0)
        ls_text_put(t, ". Node action: %s: %s", ls_action_name((enum ls_action)row->action),
                    ls_action_words((enum ls_action)row->action));
    else
        ls_text_put(t, ". The text does not tell the node's fault from the container's or the "
                       "program's: no node action");
}

static void finding(const json_t *g, json_t *out)
{
    const json_t *e = json_object_get(g, "first");
    const ls_cuda_error_t *row = json_object_get(e, "code")
                                     ? ls_cuda_error_by_code((int)ls_json_int(e, "code", 0))
                                     : NULL;
    long long n = ls_json_int(g, "count", 1);
    char who[64];
    if (json_object_get(e, "gpu"))
        snprintf(who, sizeof who, "the job's CUDA device %lld", ls_json_int(e, "gpu", 0));
    else
        snprintf(who, sizeof who, "the job");
    ls_text_t t = {.used = 0};
    ls_text_put(&t, "%s: ", who);
    put_error(&t, e, row);
    ls_text_put(&t, ", %lld line%s", n, n == 1 ? "" : "s");
    put_ranks(&t, json_object_get(g, "ranks"));
    ls_text_put(&t, ", first at line %lld of %s", ls_json_int(e, "line", 0),
                ls_json_str(e, "file", ""));
    const char *call = ls_json_str(e, "call", NULL), *where = ls_json_str(e, "where", NULL);
    if (call || where)
        ls_text_put(&t, " (%s%s%s)", call ? call : "", call && where ? " at " : "",
                    where ? where : "");
    ls_text_put(&t, ": '%.160s'", ls_json_str(e, "first", ""));
    put_meaning(&t, row);
    enum ls_severity sev = row ? (enum ls_severity)row->severity : LS_SEV_WARNING;
    int a = !row ? -1 : !strcmp(row->cls, "application") ? LS_ACT_NONE : row->action;
    ls_finding_add(out, "cuda_error", sev, LS_ABOUT_WHAT(who), json_pack("[s]", "cuda_errors"),
                   "%s", t.buf);
    if (a >= 0)
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                            json_string(ls_action_name((enum ls_action)a)));
}

void ls_rules_cuda(const json_t *doc, json_t *out)
{
    json_t *groups = json_pack("{s:[], s:{}}", "list", "index");
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "cuda_errors"), i, e) {
        json_t *g = group_of(groups, e);
        json_object_set_new(g, "count",
                            json_integer(ls_json_int(g, "count", 0) + ls_json_int(e, "count", 1)));
        add_rank(g, e);
    }
    json_array_foreach(json_object_get(groups, "list"), i, e) {
        finding(e, out);
    }
    json_decref(groups);
}
