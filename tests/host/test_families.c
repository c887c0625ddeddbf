/* The model's family descriptors (model/families.c) and the typed view of an entry
   (model/view.h): every descriptor complete and joined to the parts that read it (the
   report's sections, Prometheus, the projection's cost rows, the measuring registry,
   vocab.h's lists); the view reads what the JSON holds and unknown as unknown; a family
   the render has no tables for gets the generic one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analyze/projection.h"
#include "measure/family.h"
#include "model/doc.h"
#include "model/entries.h"
#include "model/entry.h"
#include "model/families.h"
#include "model/view.h"
#include "model/vocab.h"
#include "render/family_report.h"
#include "render/format.h"

static const ls_section_t *section(const char *id)
{
    for (const ls_section_t *s = ls_outline; id && s->id; s++)
        if (!strcmp(s->id, id))
            return s;
    return NULL;
}

static void descriptors_complete(void **state)
{
    (void)state;
    int n = 0;
    for (; ls_fams[n]; n++) {
        const ls_fam_t *f = ls_fams[n];
        assert_ptr_equal(ls_fam_find(f->name), f);
        assert_true(strlen(f->title) > 0 && strlen(f->metric) > 0 && strlen(f->unit) > 0);
        assert_non_null(f->methods);
        for (const ls_fam_method_t *m = f->methods; m->word; m++)
            assert_ptr_equal(ls_fam_method(f, m->word), m);
        /* a section the outline has; shown by the generic matrices or table, one that is
           always shown (the generic ones have no presence test of their own) */
        if (f->section)
            assert_non_null(section(f->section));
        if (f->show != LS_SHOW_OWN) {
            assert_non_null(section(f->section));
            assert_null(section(f->section)->present);
        }
        assert_true(f->show != LS_SHOW_MATRIX || f->per == LS_PER_PAIR);
        /* a cost names a row of the projection's table */
        assert_true(!f->cost || ls_proj_cost_row(f->cost) >= 0);
        assert_true(f->own_steps || !f->cost || f->per == LS_PER_PAIR || f->per == LS_PER_GPU);
    }
    assert_true(n >= 11);
    assert_null(ls_fam_find("nope"));
    assert_null(ls_fam_find(NULL));
    assert_int_equal(ls_proj_cost_row("nope"), -1);
    assert_string_equal(ls_fam_method_words(&ls_fam_p2p, LS_P2P_CE),
                        "copy engine (cudaMemcpyPeerAsync)");
    assert_string_equal(ls_fam_method_words(&ls_fam_p2p, "other"),
                        "other"); /* unknown: as written */
}

/* Prometheus: every gauge named by its conventions, once. */
static void prometheus_names_unique(void **state)
{
    (void)state;
    for (int i = 0; ls_fams[i]; i++) {
        const ls_fam_prom_t *p = &ls_fams[i]->prom;
        if (!p->name)
            continue;
        assert_true(!strncmp(p->name, "linkscope_", 10));
        assert_true(p->scale > 0 && strlen(p->help) > 0 && strlen(p->metric) > 0);
        for (int k = 0; k < i; k++)
            assert_true(!ls_fams[k]->prom.name || strcmp(ls_fams[k]->prom.name, p->name));
    }
    /* the gauges docs/reports.md lists */
    const ls_fam_t *listed[] = {&ls_fam_p2p, &ls_fam_latency, &ls_fam_hbm, &ls_fam_host,
                                &ls_fam_nccl};
    for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
        assert_non_null(listed[i]->prom.name);
}

static int same_words(const char *const *list, const ls_fam_t *f)
{
    int i = 0;
    for (; list[i] && f->methods[i].word; i++)
        if (strcmp(list[i], f->methods[i].word))
            return 0;
    return !list[i] && !f->methods[i].word;
}

/* vocab.c's method lists (the commands' --methods, in run order) are the descriptors'. */
static void vocab_lists_are_the_descriptors(void **state)
{
    (void)state;
    assert_true(same_words(ls_p2p_methods, &ls_fam_p2p));
    assert_true(same_words(ls_latency_methods, &ls_fam_latency));
    assert_true(same_words(ls_hbm_methods, &ls_fam_hbm));
}

/* The measuring registry points at the model: same name, pairs when per pair, priced. */
static void measuring_families_join_the_model(void **state)
{
    (void)state;
    int n;
    const ls_family_t *f = ls_families(&n);
    for (int i = 0; i < n; i++) {
        const ls_fam_t *fam = ls_family_fam(&f[i]);
        assert_non_null(fam);
        assert_string_equal(f[i].name, fam->name);
        assert_int_equal(f[i].pairs, fam->per == LS_PER_PAIR);
        assert_true(ls_proj_cost_row(fam->cost) >= 0);
    }
}

static json_t *doc_with(json_t *e, double value)
{
    json_t *doc = ls_doc_new();
    double s[] = {value * 0.99, value, value * 1.01};
    ls_entry_set_samples(e, s, 3);
    ls_doc_add_measurement(doc, e);
    return doc;
}

static void view_reads_the_entry(void **state)
{
    (void)state;
    json_t *doc = doc_with(ls_p2p_entry(0, 1, LS_DIR_BIDIR, LS_P2P_STAGED, 0, 1 << 20), 20);
    ls_view_t v = ls_view_at(doc, 0);
    assert_ptr_equal(v.fam, &ls_fam_p2p);
    assert_ptr_equal(v.method, ls_fam_method(&ls_fam_p2p, LS_P2P_STAGED));
    assert_int_equal(v.src, 0);
    assert_int_equal(v.dst, 1);
    assert_int_equal(v.gpu, -1);
    assert_true(v.ok);
    assert_string_equal(v.direction, LS_DIR_BIDIR);
    assert_true(v.value == 20);
    assert_int_equal(v.n, 3);
    assert_true(v.cv > 0);
    /* a pair without peer access: both flags */
    assert_int_equal(v.flags & (LS_VF_NO_P2P | LS_VF_THROUGH_HOST),
                     LS_VF_NO_P2P | LS_VF_THROUGH_HOST);
    assert_false(v.flags & LS_VF_THROTTLED);
    json_decref(doc);
}

/* Unknown stays unknown: a family this build does not know, no value, no stats. */
static void view_unknown_is_unknown(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_doc_add_measurement(doc, json_pack("{s:s, s:s, s:s}", "family", "future", "method", "x",
                                          "status", "failed"));
    ls_doc_add_measurement(doc, ls_hbm_entry(2, LS_HBM_COPY, 1 << 20, 0));
    ls_view_t v = ls_view_at(doc, 0);
    assert_null(v.fam);
    assert_null(v.method);
    assert_false(v.ok);
    assert_true(isnan(v.value));
    assert_int_equal(v.n, 0);
    assert_null(v.direction);
    assert_int_equal(v.src, -1);
    int all = 0, hbm = 0, nccl = 0;
    LS_DOC_FOREACH(e, doc, NULL)
    {
        all++;
    }
    LS_DOC_FOREACH(e, doc, &ls_fam_hbm)
    {
        hbm++;
        assert_int_equal(e.gpu, 2);
        assert_int_equal((int)e.index, 1);
    }
    LS_DOC_FOREACH(e, doc, &ls_fam_nccl)
    {
        nccl++;
    }
    assert_int_equal(all, 2);
    assert_int_equal(hbm, 1);
    assert_int_equal(nccl, 0);
    assert_true(ls_doc_has(doc, &ls_fam_hbm));
    assert_false(ls_doc_has(doc, &ls_fam_host));
    assert_null(ls_view_at(doc, 5).json);
    json_decref(doc);
}

/* A mixed document: P2P, HBM and latency entries interleaved, one of a family this
   build does not know and one of a family outside the table. */
static json_t *mixed_doc(void)
{
    json_t *doc = ls_doc_new();
    for (int k = 0; k < 12; k++) {
        json_t *e = k % 3 == 0 ? ls_p2p_entry(k % 4, (k + 1) % 4, LS_DIR_UNI, LS_P2P_CE, 1, 1 << 20)
                    : k % 3 == 1
                        ? ls_hbm_entry(k % 4, LS_HBM_COPY, 1 << 20, 0)
                        : ls_latency_entry(k % 4, (k + 2) % 4, LS_LAT_GPU_PINGPONG, 1, 0, 8);
        double v[] = {10.0 + k, 11.0 + k, 12.0 + k};
        ls_entry_set_samples(e, v, 3);
        ls_doc_add_measurement(doc, e);
        if (k == 4)
            ls_doc_add_measurement(doc,
                                   json_pack("{s:s, s:s}", "family", "future", "status", "ok"));
        if (k == 7)
            ls_doc_add_measurement(doc,
                                   json_pack("{s:s, s:s}", "family", "outside", "status", "ok"));
    }
    return doc;
}

/* The indexes one walk of fam visits, -1 after the last; the same through
   ls_doc_next_measurement by name. */
static void walk(const json_t *doc, const ls_fam_t *fam, long out[32], long by_name[32])
{
    int n = 0;
    LS_DOC_FOREACH(v, doc, fam)
    {
        assert_true(n < 31);
        out[n++] = (long)v.index;
    }
    out[n] = -1;
    n = 0;
    for (long i = ls_doc_next_measurement(doc, fam ? fam->name : NULL, 0); i >= 0;
         i = ls_doc_next_measurement(doc, fam ? fam->name : NULL, i + 1))
        by_name[n++] = i;
    by_name[n] = -1;
}

static void same_view(ls_view_t a, ls_view_t b)
{
    assert_ptr_equal(a.json, b.json);
    assert_int_equal(a.index, b.index);
    if (!a.json)
        return; /* past the last: nothing else is read */
    assert_ptr_equal(a.fam, b.fam);
    assert_ptr_equal(a.method, b.method);
    assert_string_equal(a.family, b.family);
    assert_string_equal(a.id, b.id);
    assert_int_equal(a.ok, b.ok);
    assert_int_equal(a.src, b.src);
    assert_int_equal(a.dst, b.dst);
    assert_int_equal(a.gpu, b.gpu);
    assert_true(a.value == b.value || (isnan(a.value) && isnan(b.value)));
    assert_true(a.cv == b.cv);
    assert_int_equal(a.n, b.n);
    assert_int_equal(a.flags, b.flags);
}

/* A pinned document's views, decoded once, are the views read from its JSON: each
   entry, each family's walk (by descriptor and by name, a descriptor outside the table
   too), an entry appended while pinned; pins nest, and a second document pinned
   meanwhile is read from its own JSON. */
static void pinned_views_are_the_json_views(void **state)
{
    (void)state;
    const ls_fam_t outside = {.name = "outside"};
    const ls_fam_t *fams[] = {NULL,         &ls_fam_p2p, &ls_fam_hbm, &ls_fam_latency,
                              &ls_fam_nccl, &outside};
    enum { NF = sizeof fams / sizeof fams[0] };
    json_t *doc = mixed_doc(), *other = mixed_doc();
    long plain[NF][32] = {{0}}, plain_name[NF][32] = {{0}}, pinned[NF][32] = {{0}},
         pinned_name[NF][32] = {{0}};
    ls_view_t at[16];
    for (size_t f = 0; f < NF; f++)
        walk(doc, fams[f], plain[f], plain_name[f]);
    for (size_t i = 0; i < 16; i++)
        at[i] = ls_view_at(doc, i);
    assert_false(ls_view_pinned(doc));
    ls_view_pin(doc);
    ls_view_pin(doc);
    ls_view_unpin(doc); /* nested: still pinned */
    assert_true(ls_view_pinned(doc));
    for (size_t f = 0; f < NF; f++) {
        walk(doc, fams[f], pinned[f], pinned_name[f]);
        assert_memory_equal(pinned[f], plain[f], sizeof plain[f]);
        assert_memory_equal(pinned_name[f], plain_name[f], sizeof plain_name[f]);
        if (fams[f] && fams[f] != &outside) /* one name, one walk */
            assert_memory_equal(plain_name[f], plain[f], sizeof plain[f]);
    }
    assert_int_equal(plain[2][0], 1); /* the walks found what mixed_doc put there */
    assert_int_equal(plain[5][0], 9);
    assert_int_equal(plain[5][1], -1);
    for (size_t i = 0; i < 16; i++)
        same_view(ls_view_at(doc, i), at[i]);
    assert_null(ls_view_at(doc, 14).json);
    assert_int_equal(ls_view_from(doc, &ls_fam_hbm, 13).index, 14); /* past the last */
    /* a second document meanwhile: its own entries */
    ls_view_pin(other);
    assert_false(ls_view_pinned(other));
    json_array_append_new(json_object_get(other, "measurements"),
                          ls_hbm_entry(7, LS_HBM_COPY, 1 << 20, 0));
    assert_int_equal(ls_view_at(other, 14).gpu, 7);
    ls_view_unpin(other);
    assert_true(ls_view_pinned(doc));
    /* appended while pinned: seen */
    ls_doc_add_measurement(doc, ls_hbm_entry(5, LS_HBM_COPY, 1 << 20, 0));
    long hbm[32], hbm_name[32];
    walk(doc, &ls_fam_hbm, hbm, hbm_name);
    assert_int_equal(hbm[4], 14);
    assert_int_equal(hbm_name[4], 14);
    assert_int_equal(ls_view_at(doc, 14).gpu, 5);
    ls_view_unpin(doc);
    assert_false(ls_view_pinned(doc));
    json_decref(doc);
    json_decref(other);
}

/* A family render has no tables of its own for: one row per entry, what it is about,
   its median and spread, unknown where the entry does not say. */
static void generic_table_of_a_new_family(void **state)
{
    (void)state;
    static const ls_fam_method_t methods[] = {{.word = "m"}, {.word = NULL}};
    const ls_fam_t fake = {.name = "fake_family",
                           .title = "Fake figure",
                           .metric = "bandwidth",
                           .unit = "GB/s",
                           .per = LS_PER_GPU,
                           .methods = methods,
                           .section = "memory",
                           .show = LS_SHOW_TABLE};
    json_t *e = ls_entry_new(fake.name, fake.metric, fake.unit);
    json_object_set_new(e, "method", json_string("m"));
    json_object_set_new(e, "gpu", json_integer(3));
    json_t *doc = doc_with(e, 100);
    ls_doc_add_measurement(doc, json_pack("{s:s, s:s, s:s}", "family", fake.name, "status",
                                          "failed", "id", "x"));
    assert_null(ls_table_family(doc, NULL, &ls_fam_burn));
    ls_table_t *t = ls_table_family(doc, NULL, &fake);
    assert_non_null(t);
    assert_int_equal(t->nrows, 2);
    assert_string_equal(ls_table_cell(t, 0, 2), "GB/s (median)");
    assert_string_equal(ls_table_cell(t, 1, 0), "GPU 3");
    assert_string_equal(ls_table_cell(t, 1, 1), "m");
    assert_string_equal(ls_table_cell(t, 1, 2), "100.0");
    assert_string_equal(ls_table_cell(t, 2, 0), "unknown");
    assert_string_equal(ls_table_cell(t, 2, 1), "unknown");
    assert_string_equal(ls_table_cell(t, 2, 2), "-");
    assert_string_equal(ls_table_cell(t, 2, 9), "failed");
    ls_table_free(t);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(descriptors_complete),
        cmocka_unit_test(prometheus_names_unique),
        cmocka_unit_test(vocab_lists_are_the_descriptors),
        cmocka_unit_test(measuring_families_join_the_model),
        cmocka_unit_test(view_reads_the_entry),
        cmocka_unit_test(view_unknown_is_unknown),
        cmocka_unit_test(pinned_views_are_the_json_views),
        cmocka_unit_test(generic_table_of_a_new_family),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
