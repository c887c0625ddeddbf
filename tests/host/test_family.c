/* The registry of measurement families (measure/family.c): every family once, in the
   run's order, with what the commands and the run read from it; defaults resolved in
   one place; each family's tables found in render by its name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "measure/family.h"
#include "render/family_tables.h"

static void registry_in_run_order(void **state)
{
    (void)state;
    int n;
    const ls_family_t *f = ls_families(&n);
    static const char *const order[] = {"p2p", "latency", "hbm", "host"};
    assert_true(n >= 4); /* these four first; a family added later runs after them */
    for (int i = 0; i < 4; i++) {
        assert_string_equal(f[i].name, order[i]);
        assert_ptr_equal(ls_family_find(order[i]), &f[i]);
    }
    assert_null(ls_family_find("nccl"));
    assert_null(ls_family_find(""));
}

static void descriptors_complete(void **state)
{
    (void)state;
    int n;
    const ls_family_t *f = ls_families(&n);
    for (int i = 0; i < n; i++) {
        assert_non_null(f[i].measure);
        /* the commands' --methods words, where its tables show them by method; NULL: the
           model descriptor's */
        for (int k = 0; f[i].methods && f[i].methods[k]; k++)
            assert_true(strlen(f[i].methods[k]) > 0);
        assert_non_null(ls_family_fam(&f[i]));
        assert_true(strlen(f[i].summary) > 0 && strlen(f[i].about) > 0);
        /* a family that takes --size says its default as the usage writes it */
        assert_int_equal(f[i].default_size != 0, f[i].default_size_text != NULL);
        assert_int_equal(f[i].pairs, f[i].one_gpu != NULL);
    }
    assert_non_null(ls_family_find("p2p")->methods[0]);
    assert_true(ls_family_find("p2p")->pairs && ls_family_find("latency")->pairs);
    assert_false(ls_family_find("hbm")->pairs || ls_family_find("host")->pairs);
    assert_string_equal(ls_family_find("p2p")->methods[3], "staged");
}

static void defaults_resolved_once(void **state)
{
    (void)state;
    const ls_family_t *p2p = ls_family_find("p2p"), *lat = ls_family_find("latency");
    ls_measure_opts_t o = {.ngpus = 2};
    ls_family_resolve(p2p, &o);
    assert_int_equal(o.samples, LS_DEFAULT_SAMPLES);
    assert_true(o.size == p2p->default_size);
    ls_measure_opts_t given = {.samples = 3, .size = 17}; /* rounded down to the 16-byte access */
    ls_family_resolve(p2p, &given);
    assert_int_equal(given.samples, 3);
    assert_true(given.size == 16);
    ls_measure_opts_t none = {0};
    ls_family_resolve(lat, &none); /* latency takes no size */
    assert_true(none.size == 0);
    assert_int_equal(none.samples, LS_DEFAULT_SAMPLES);
}

static void size_checked_against_host_memory(void **state)
{
    (void)state;
    char err[256] = "";
    const ls_family_t *host = ls_family_find("host"), *hbm = ls_family_find("hbm");
    assert_int_equal(ls_family_check_host_memory(host, 1ull << 20, err, sizeof err), 0);
    assert_int_not_equal(ls_family_check_host_memory(host, 1ull << 62, err, sizeof err), 0);
    assert_non_null(strstr(err, "2 buffers of it do not fit in this machine's"));
    assert_int_equal(ls_family_check_host_memory(hbm, 1ull << 62, err, sizeof err),
                     0); /* device only */
}

/* The four families' commands print their own tables (a family added later prints none
   until render has them; the report shows it from its model descriptor). */
static void every_family_has_tables(void **state)
{
    (void)state;
    static const char *const with_tables[] = {"p2p", "latency", "hbm", "host"};
    for (int i = 0; i < 4; i++) {
        const ls_family_tables_t *t = ls_family_tables(with_tables[i]);
        assert_non_null(t);
        assert_non_null(t->print);
        assert_non_null(t->csv);
    }
    assert_null(ls_family_tables("nccl"));
}

/* A method list names whole methods: "copy" is not "copy_ce" (health's probe takes the
   HBM copy alone, docs/health.md). */
static void methods_listed_by_whole_name(void **state)
{
    (void)state;
    assert_true(ls_methods_include(NULL, "copy"));
    assert_true(ls_methods_include("", "copy"));
    assert_true(ls_methods_include("copy", "copy"));
    assert_false(ls_methods_include("copy", "copy_ce"));
    assert_false(ls_methods_include("copy_ce", "copy"));
    assert_true(ls_methods_include("read,copy_ce", "copy_ce"));
    assert_true(ls_methods_include("sm_write,ce", "ce"));
    assert_false(ls_methods_include("sm_write,ce", "write"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_in_run_order),
        cmocka_unit_test(descriptors_complete),
        cmocka_unit_test(defaults_resolved_once),
        cmocka_unit_test(size_checked_against_host_memory),
        cmocka_unit_test(every_family_has_tables),
        cmocka_unit_test(methods_listed_by_whole_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
