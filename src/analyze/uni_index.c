#define _GNU_SOURCE /* asprintf */
#include "uni_index.h"
#include "model/vocab.h"
#include "p2p_index.h"
#include "rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "a b" and "a b\x1fMETHOD\x1fSOURCE": sanitized strings hold no control character, so
   the separator cannot be forged. */
static char *pair_key(long long a, long long b)
{
    char *key = NULL;
    return asprintf(&key, "%lld %lld", a, b) < 0 ? NULL : key;
}

static char *figure_key(const json_t *e, const char *method, long long a, long long b)
{
    char *key = NULL;
    int n = asprintf(&key, "%lld %lld\x1f%s\x1f%s", a, b, method, ls_json_str(e, "source", ""));
    return n < 0 ? NULL : key;
}

/* The keys of position i, entry v (its view: pair, direction, status and method without
   a lookup); 0, or -1 when out of memory. */
static int entry_keys(ls_uni_index_t *ix, size_t i, const ls_view_t *v)
{
    int uni = ls_p2p_uni_word(v->direction);
    ix->pair_key[i] = uni ? pair_key(v->src, v->dst) : strdup("");
    ix->figure_key[i] = uni && v->ok ? figure_key(v->json, v->method_word, v->src, v->dst)
                                     : strdup("");
    return ix->pair_key[i] && ix->figure_key[i] ? 0 : -1;
}

ls_uni_index_t *ls_uni_index_new(const ls_machine_t *m)
{
    ls_uni_index_t *ix = calloc(1, sizeof *ix);
    size_t cap = json_array_size(json_object_get(m->doc, "measurements")) + 1;
    int bad = !ix;
    if (!bad) {
        ix->entry = calloc(cap, sizeof *ix->entry);
        ix->figure_key = calloc(cap, sizeof *ix->figure_key);
        ix->pair_key = calloc(cap, sizeof *ix->pair_key);
        ix->witness = calloc(cap, sizeof *ix->witness);
        ix->witness_done = calloc(cap, 1);
        bad = !ix->entry || !ix->figure_key || !ix->pair_key || !ix->witness || !ix->witness_done;
    }
    LS_DOC_FOREACH(v, m->doc, &ls_fam_p2p)
    {
        if (bad)
            break;
        ix->entry[ix->n] = v.json;
        bad = entry_keys(ix, ix->n++, &v) != 0;
    }
    bad = bad || ls_strindex_build(&ix->figure_ix, (const char *const *)ix->figure_key, ix->n) != 0;
    bad = bad || ls_strindex_build(&ix->pair_ix, (const char *const *)ix->pair_key, ix->n) != 0;
    if (bad) {
        ls_uni_index_free(ix);
        return NULL;
    }
    return ix;
}

void ls_uni_index_free(ls_uni_index_t *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->n; i++) {
        free(ix->figure_key[i]);
        free(ix->pair_key[i]);
    }
    ls_strindex_free(&ix->figure_ix);
    ls_strindex_free(&ix->pair_ix);
    free(ix->entry);
    free(ix->figure_key);
    free(ix->pair_key);
    free(ix->witness);
    free(ix->witness_done);
    free(ix);
}

const json_t *ls_uni_reverse(const ls_uni_index_t *ix, const json_t *e)
{
    char *key = figure_key(e, ls_json_str(e, "method", ""), ls_json_int(e, "dst", -1),
                           ls_json_int(e, "src", -1));
    size_t pos = key ? ls_strindex_first(&ix->figure_ix, key) : LS_STRINDEX_NONE;
    free(key);
    return pos == LS_STRINDEX_NONE ? NULL : ix->entry[pos];
}

/* 1 when o is a candidate witness for e: another tool or method, not staged. */
static int other_figure(const json_t *o, const json_t *e)
{
    if (o == e || !strcmp(ls_json_str(o, "method", ""), LS_P2P_STAGED))
        return 0;
    return strcmp(ls_json_str(o, "method", ""), ls_json_str(e, "method", "")) ||
           strcmp(ls_json_str(o, "source", ""), ls_json_str(e, "source", ""));
}

const json_t *ls_uni_witness(ls_uni_index_t *ix, const json_t *e,
                             int (*found)(const json_t *o, const json_t *r))
{
    long long a = ls_json_int(e, "src", -1), b = ls_json_int(e, "dst", -1);
    char *key = figure_key(e, ls_json_str(e, "method", ""), a, b), *pair = pair_key(a, b);
    size_t memo = key ? ls_strindex_first(&ix->figure_ix, key) : LS_STRINDEX_NONE;
    const json_t *w = NULL;
    if (memo != LS_STRINDEX_NONE && ix->witness_done[memo]) {
        w = ix->witness[memo];
    } else if (pair) {
        for (size_t i = ls_strindex_first(&ix->pair_ix, pair); i != LS_STRINDEX_NONE && !w;
             i = ls_strindex_next(&ix->pair_ix, i)) {
            const json_t *o = ix->entry[i], *r = other_figure(o, e) ? ls_uni_reverse(ix, o) : NULL;
            if (r && found(o, r))
                w = o;
        }
        if (memo != LS_STRINDEX_NONE)
            ix->witness[memo] = w, ix->witness_done[memo] = 1;
    }
    free(key);
    free(pair);
    return w;
}
